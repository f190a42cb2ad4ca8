/// @brief GoogleTest suite for the claim workspaces in the shared cache budget
/// (src/claims/workspace.hpp, src/checker/cache_budget.hpp): accounting, emptying idle threads
/// first, one thread counted once, equal results whatever the budget, concurrent threads.
#include <gtest/gtest.h>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "checker/cache_budget.hpp"
#include "checker/checker.hpp"
#include "checker/term_statistics.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "claims/workspace.hpp"

namespace {

namespace ck = sc::checker;
namespace cl = sc::claims;

cl::ClaimConfig claim_config() {
  return cl::ClaimConfig(cl::ClaimOptions{},
                         std::make_shared<const ck::TermStatistics>(
                             ck::TermStatistics::from_tsv("cheat\t3.0\npunish\t4.5\n")));
}

// Text with many distinct words, so the word memos grow.
std::string varied_text(int seed, int words) {
  std::string text;
  for (int i = 0; i < words; ++i) text += "word" + std::to_string(seed * 100000 + i) + "x ";
  return text + ".";
}

struct Case {
  std::string answer;
  std::vector<std::string> ids;
  std::vector<std::string> texts;

  std::vector<cl::ChunkInput> chunks() const {
    std::vector<cl::ChunkInput> out;
    for (std::size_t i = 0; i < ids.size(); ++i) out.push_back({ids[i], texts[i]});
    return out;
  }
};

// Empty, one chunk, none, Unicode, many distinct words, a meta sentence and a missing citation.
std::vector<Case> cases() {
  std::vector<Case> out = {
      {"", {"S1"}, {"Cheating is punished."}},
      {"Whoever cheats is punished [S1].", {"S1"}, {"Whoever cheats shall be punished."}},
      {"Whoever cheats is punished [S1].", {}, {}},
      {"Straße und Größe: 東京 is big [S1]. Ça marche [S2].",
       {"S1", "S2"},
       {"東京 ist groß, die Straße auch.", "Ça marche très bien."}},
      {"In summary, the punishment is seven years [S1]. Cheating is deceiving [S2].",
       {"S1", "S2", "S3"},
       {"Imprisonment for seven years.", "Cheating means deceiving.", "Cheating is deceiving."}},
  };
  for (int seed = 0; seed < 3; ++seed) {
    out.push_back({"word" + std::to_string(seed * 100000 + 7) + "x holds [S1]. " +
                       varied_text(seed + 10, 300) + " [S2].",
                   {"S1", "S2"},
                   {varied_text(seed, 3000), varied_text(seed + 10, 2000)}});
  }
  return out;
}

// The fields a caller reads, in one comparable string.
std::string summary(const cl::AnswerResult& r, const std::vector<cl::ChunkInput>& chunks) {
  std::string out = std::to_string(r.is_grounded) + std::to_string(r.covered_count) + "/" +
                    std::to_string(r.claim_count) + " " + std::to_string(r.supported_ratio) + " " +
                    std::to_string(r.attribution_coverage) + " missing";
  for (const std::size_t i : r.missing_citations) out += " " + std::to_string(i);
  for (const std::string_view id : r.unknown_citations) out += " unknown " + std::string(id);
  for (const cl::ClaimResult& c : r.claims) {
    out += "\n" + std::to_string(c.span.begin) + "-" + std::to_string(c.span.end) + " " +
           std::to_string(c.score) + " " + std::to_string(c.is_covered) +
           std::to_string(c.is_meta) + std::to_string(c.has_content) + " " +
           cl::reason_text(c, chunks);
    for (const auto& [chunk, support] : c.overlaps) {
      out += " " + std::to_string(chunk) + ":" + std::to_string(support);
    }
  }
  return out;
}

std::string check(const cl::ClaimConfig& config, const Case& c) {
  const std::vector<cl::ChunkInput> chunks = c.chunks();
  return summary(cl::check_answer(config, c.answer, chunks), chunks);
}

// Restores the default budget however a test ends.
struct BudgetGuard {
  ~BudgetGuard() { ck::set_cache_budget(ck::kDefaultCacheBudget); }
};

// Empties every idle cache of the process, this thread's included.
void empty_all(const cl::ClaimConfig& config) {
  ck::set_cache_budget(0);
  cl::check_answer(config, "x [S1].", {{"S1", "x"}});
  ASSERT_EQ(ck::cache_bytes(), 0u);
}

TEST(ClaimsCacheBudget, ACheckIsAccountedAndAZeroBudgetKeepsNothing) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  empty_all(config);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const std::vector<Case> all = cases();
  check(config, all[1]);
  const std::size_t small = ck::cache_bytes();
  // The analyzer, two word memos and the key filters, at least.
  EXPECT_GT(small, 16384u);
  EXPECT_GE(ck::cache_threads(), 1u);
  // Kept between checks: the same check again holds the same bytes, a larger one more.
  check(config, all[1]);
  EXPECT_EQ(ck::cache_bytes(), small);
  check(config, all.back());
  EXPECT_GT(ck::cache_bytes(), small);
  ck::set_cache_budget(0);
  check(config, all[1]);
  EXPECT_EQ(ck::cache_bytes(), 0u);
  check(config, all.back());
  EXPECT_EQ(ck::cache_bytes(), 0u);
  EXPECT_THROW(cl::check_answer(config, "a [S1].", {{"S1", "a"}, {"S1", "b"}}),
               std::invalid_argument);
  EXPECT_EQ(ck::cache_bytes(), 0u);  // a check that throws gives its workspace back too
}

TEST(ClaimsCacheBudget, AWorkspacePastItsKeepLimitIsDropped) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  empty_all(config);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const auto chunks = [](int count) {
    Case c{"word7x holds [S1].", {}, {}};
    for (int i = 0; i < count; ++i) {
      c.ids.push_back(i == 0 ? "S1" : "c" + std::to_string(i));
      c.texts.push_back("word7x holds word" + std::to_string(i) + "x and word7x again.");
    }
    return c;
  };
  // Kept: an eighth of the large check below, whose workspace is then past the limit (its chunk
  // id table and memos: per-chunk profiles past Lease::kKeepEntries are given back anyway).
  check(config, chunks(10000));
  const std::size_t eighth = ck::cache_bytes();
  ASSERT_GT(eighth * 8, cl::Lease::kKeepBytes);
  check(config, chunks(80000));
  EXPECT_EQ(ck::cache_bytes(), 0u);
}

TEST(ClaimsCacheBudget, ANestedLeaseGetsAWorkspaceOutsideTheBudget) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  empty_all(config);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  {
    const cl::Lease outer(config);
    {
      const cl::Lease inner(config);
      EXPECT_NE(&*inner, &*outer);
      (*inner).profiles.resize(1000);  // freed with the lease, never accounted
    }
    EXPECT_EQ(ck::cache_bytes(), 0u);
  }
  const std::size_t held = ck::cache_bytes();
  EXPECT_GT(held, 0u);
  EXPECT_LT(held, std::size_t{1000} * sizeof(cl::ChunkProfile));
}

TEST(ClaimsCacheBudget, ResultsDoNotDependOnTheBudget) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  cl::ClaimOptions reference_options;
  reference_options.mode = cl::Mode::Reference;
  const cl::ClaimConfig reference(reference_options);
  const std::vector<Case> all = cases();
  std::vector<std::string> warm;
  std::vector<std::string> warm_reference;
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  for (const Case& c : all) warm.push_back(check(config, c));
  for (const Case& c : all) warm_reference.push_back(check(reference, c));
  for (const std::size_t budget : {std::size_t{0}, std::size_t{100000}}) {
    ck::set_cache_budget(budget);
    for (std::size_t i = 0; i < all.size(); ++i) {
      EXPECT_EQ(check(config, all[i]), warm[i]) << budget << " " << i;
      EXPECT_EQ(check(reference, all[i]), warm_reference[i]) << budget << " " << i;
    }
  }
}

TEST(ClaimsCacheBudget, IdleThreadsAreEmptiedFirstAndAThreadCountsOnce) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  empty_all(config);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const std::vector<Case> all = cases();
  check(config, all[1]);
  const std::size_t threads_before = ck::cache_threads();
  const std::size_t own = ck::cache_bytes();
  std::mutex mutex;
  std::condition_variable cv;
  bool checked = false;
  bool release = false;
  // An idle thread that holds a large claim workspace and a vocabulary.
  std::thread idle([&] {
    for (const Case& c : all) check(config, c);
    ck::CheckerConfig checker_config;
    checker_config.weights = ck::default_weights(checker_config.scoring);
    const ck::SufficiencyChecker checker(checker_config, nullptr, nullptr);
    ck::CheckInput in;
    in.query = "word7x";
    const std::string context = varied_text(5, 2000);  // contents are views
    in.contents = {context};
    checker.check(in);
    std::unique_lock<std::mutex> lock(mutex);
    checked = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return checked; });
  }
  EXPECT_EQ(ck::cache_threads(), threads_before + 1);  // two caches, one thread
  const std::size_t held = ck::cache_bytes();
  ASSERT_GT(held, own + 100000);
  // A budget this thread's own workspace fits in: its next check empties the idle thread's
  // caches and keeps its own.
  ck::set_cache_budget(own + 1000);
  check(config, all[1]);
  EXPECT_EQ(ck::cache_bytes(), own);
  {
    const std::lock_guard<std::mutex> lock(mutex);
    release = true;
  }
  cv.notify_all();
  idle.join();
  EXPECT_EQ(ck::cache_threads(), threads_before);
  EXPECT_EQ(ck::cache_bytes(), own);  // an exiting thread gives back what it held (nothing here)
}

TEST(ClaimsCacheBudget, AThreadsOtherIdleCacheGoesBeforeTheOneItUsed) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  empty_all(config);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const std::vector<Case> all = cases();
  check(config, all[1]);
  const std::size_t workspace = ck::cache_bytes();
  // This thread's vocabulary, large.
  ck::CheckerConfig checker_config;
  checker_config.weights = ck::default_weights(checker_config.scoring);
  const ck::SufficiencyChecker checker(checker_config, nullptr, nullptr);
  ck::CheckInput in;
  in.query = "word7x";
  const std::string context = varied_text(6, 5000);  // contents are views
  in.contents = {context};
  checker.check(in);
  ASSERT_GT(ck::cache_bytes(), workspace + 100000);
  ck::set_cache_budget(workspace + 1000);
  check(config, all[1]);
  EXPECT_EQ(ck::cache_bytes(), workspace);
}

TEST(ClaimsCacheBudgetBatch, ThreadsStayWithinTheBudgetWithEqualResults) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  const std::vector<Case> all = cases();
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  std::vector<std::string> expected;
  for (const Case& c : all) expected.push_back(check(config, c));
  ck::CheckerConfig checker_config;
  checker_config.weights = ck::default_weights(checker_config.scoring);
  const ck::SufficiencyChecker checker(checker_config, nullptr, nullptr);
  for (const std::size_t budget : {std::size_t{0}, std::size_t{300000}}) {
    ck::set_cache_budget(budget);
    constexpr int kThreads = 6;
    constexpr int kRounds = 3;
    std::vector<std::string> got(kThreads * kRounds * all.size());
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < kRounds; ++round) {
          for (std::size_t i = 0; i < all.size(); ++i) {
            const std::size_t k = (i + static_cast<std::size_t>(t)) % all.size();
            got[(t * kRounds + round) * all.size() + k] = check(config, all[k]);
            // Both kinds of cache on one thread, filled and emptied by the others meanwhile.
            // CheckInput holds views: the query and context strings must outlive the check.
            const std::string query = "word" + std::to_string(t) + "x";
            const std::string context = varied_text(t * 10 + round, 200);
            ck::CheckInput in;
            in.query = query;
            in.contents = {context};
            checker.check(in);
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_LE(ck::cache_bytes(), budget);
    for (std::size_t j = 0; j < got.size(); ++j) EXPECT_EQ(got[j], expected[j % all.size()]);
  }
}

TEST(ClaimsCacheBudgetBatch, ThreadsThatComeAndGoWhileOthersEmptyCaches) {
  // A thread's caches are made, registered, emptied by others and destroyed while other threads
  // walk the registry: nothing may see a cache half made or half destroyed (TSan checks).
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  const std::vector<Case> all = cases();
  const std::string expected = check(config, all[1]);
  ck::CheckerConfig checker_config;
  checker_config.weights = ck::default_weights(checker_config.scoring);
  const ck::SufficiencyChecker checker(checker_config, nullptr, nullptr);
  ck::set_cache_budget(0);
  std::vector<std::string> got(4 * 8);
  for (int wave = 0; wave < 4; ++wave) {
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, wave, t] {
        ck::CheckInput in;
        in.query = "word1x";
        const std::string context = varied_text(wave * 8 + t, 50);  // contents are views
        in.contents = {context};
        if (t % 2 == 0) checker.check(in);
        got[wave * 8 + t] = check(config, all[1]);
        if (t % 2 == 1) checker.check(in);
      });
    }
    for (std::thread& thread : threads) thread.join();
  }
  EXPECT_EQ(ck::cache_bytes(), 0u);
  for (const std::string& g : got) EXPECT_EQ(g, expected);
}

TEST(ClaimsCacheBudgetBatch, CheckAnswersOnThePoolKeepsNothingAtBudgetZero) {
  const BudgetGuard guard;
  const cl::ClaimConfig config = claim_config();
  const std::vector<Case> all = cases();
  std::vector<std::string_view> answers;
  std::vector<std::vector<cl::ChunkInput>> chunks;
  for (int copy = 0; copy < 4; ++copy) {
    for (const Case& c : all) {
      answers.push_back(c.answer);
      chunks.push_back(c.chunks());
    }
  }
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const std::vector<cl::AnswerResult> warm = cl::check_answers(config, answers, chunks, 1);
  ck::set_cache_budget(0);
  const std::vector<cl::AnswerResult> cold = cl::check_answers(config, answers, chunks, 3);
  EXPECT_EQ(ck::cache_bytes(), 0u);
  ASSERT_EQ(cold.size(), warm.size());
  for (std::size_t i = 0; i < warm.size(); ++i)
    EXPECT_EQ(summary(cold[i], chunks[i]), summary(warm[i], chunks[i]));
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const std::vector<cl::AnswerResult> again = cl::check_answers(config, answers, chunks, 3);
  EXPECT_GT(ck::cache_bytes(), 0u);
  for (std::size_t i = 0; i < warm.size(); ++i)
    EXPECT_EQ(summary(again[i], chunks[i]), summary(warm[i], chunks[i]));
}

}  // namespace
