/// @brief GoogleTest suite for the shared budget of the threads' caches
/// (src/checker/cache_budget.hpp, the vocabularies of src/checker/vocabulary.hpp): accounting,
/// emptying idle threads first, equal results.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "checker/cache_budget.hpp"
#include "checker/checker.hpp"
#include "checker/vocabulary.hpp"

namespace {

namespace ck = sc::checker;

ck::SufficiencyChecker default_checker() {
  ck::CheckerConfig config;
  config.weights = ck::default_weights(config.scoring);
  return ck::SufficiencyChecker(config, nullptr, nullptr);
}

// Text with many distinct words, so the vocabulary grows.
std::string varied_text(int seed, int words) {
  std::string text;
  for (int i = 0; i < words; ++i) text += "word" + std::to_string(seed * 100000 + i) + "x ";
  return text;
}

ck::CheckResult check(const ck::SufficiencyChecker& checker, const std::string& query,
                      const std::string& context) {
  ck::CheckInput in;
  in.query = query;
  in.contents = {context};
  return checker.check(in);
}

// Restores the default budget however a test ends.
struct BudgetGuard {
  ~BudgetGuard() { ck::set_cache_budget(ck::kDefaultCacheBudget); }
};

TEST(CacheBudget, ACheckIsAccountedAndAZeroBudgetKeepsNothing) {
  const BudgetGuard guard;
  const auto checker = default_checker();
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  check(checker, "what is word5x", varied_text(1, 5000));
  EXPECT_GT(ck::cache_bytes(), 100000u);
  EXPECT_GE(ck::cache_threads(), 1u);
  ck::set_cache_budget(0);
  check(checker, "what is word5x", varied_text(2, 10));
  EXPECT_EQ(ck::cache_bytes(), 0u);
}

// Emptying gives back the vocabulary's work buffers too: the folding buffer (non-ASCII words), the
// number buffer (commas dropped) and the stemmer's (long words). Assigning a fresh vocabulary kept
// them: libstdc++ copies a short string into the target's own heap buffer.
TEST(CacheBudget, AnEmptiedVocabularyKeepsNoBuffers) {
  const BudgetGuard guard;
  const auto checker = default_checker();
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  std::string context;
  for (int i = 0; i < 50; ++i) {
    const std::string n = std::to_string(1000 + i);
    context +=
        "\xC3\x9C"
        "bereinstimmungsverh\xC3\xA4"
        "ltnisse" +
        n + " 1,234,567,890,123," + n + " internationalizations" + n +
        "abcdefghijklmnopqrstuvwxyz ";
  }
  check(checker, "what is word5x", context);
  EXPECT_GT(ck::cache_bytes(), 0u);
  ck::set_cache_budget(0);
  check(checker, "what is word5x", "x");
  EXPECT_EQ(ck::cache_bytes(), 0u);
}

TEST(CacheBudget, ResultsDoNotDependOnTheBudget) {
  const BudgetGuard guard;
  const auto checker = default_checker();
  const std::string context = "Whoever cheats shall be punished with imprisonment for seven years.";
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  const ck::CheckResult warm = check(checker, "punishment for cheating", context);
  ck::set_cache_budget(0);
  const ck::CheckResult cold = check(checker, "punishment for cheating", context);
  const ck::CheckResult cold_again = check(checker, "punishment for cheating", context);
  EXPECT_EQ(warm.score, cold.score);
  EXPECT_EQ(cold.score, cold_again.score);
  EXPECT_EQ(warm.covered_terms, cold.covered_terms);
  EXPECT_EQ(warm.missing_terms, cold.missing_terms);
}

TEST(CacheBudget, IdleThreadsAreEmptiedFirstAndExitingThreadsGiveBack) {
  const BudgetGuard guard;
  const auto checker = default_checker();
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  check(checker, "word1x", "word1x.");  // this thread holds its cache before counting
  const std::size_t threads_before = ck::cache_threads();
  std::mutex mutex;
  std::condition_variable cv;
  bool checked = false;
  bool release = false;
  // An idle thread that holds a large cache.
  std::thread idle([&] {
    check(checker, "word1x", varied_text(3, 20000));
    std::unique_lock<std::mutex> lock(mutex);
    checked = true;
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return checked; });
  }
  EXPECT_EQ(ck::cache_threads(), threads_before + 1);
  const std::size_t held = ck::cache_bytes();
  EXPECT_GT(held, 1000000u);
  // A small budget: this thread's next check ends over it, and empties the idle thread's cache
  // before its own small one.
  ck::set_cache_budget(held / 4);
  check(checker, "word1x", "word1x is here.");
  EXPECT_LE(ck::cache_bytes(), held / 4);
  EXPECT_GT(ck::cache_bytes(), 0u);  // its own cache fits and is kept
  {
    const std::lock_guard<std::mutex> lock(mutex);
    release = true;
  }
  cv.notify_all();
  idle.join();
  EXPECT_EQ(ck::cache_threads(), threads_before);
}

TEST(CacheBudget, ManyThreadsStayWithinTheBudget) {
  const BudgetGuard guard;
  const auto checker = default_checker();
  const std::size_t budget = std::size_t{4} << 20;
  ck::set_cache_budget(budget);
  const auto query = [](int t) { return "word" + std::to_string(t * 1000000 + 7) + "x"; };
  std::vector<std::thread> threads;
  std::vector<double> scores(8 * 5);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        scores[t * 5 + round] = check(checker, query(t), varied_text(t * 10 + round, 3000)).score;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  // Threads have exited, so what is held is this thread's; and every score is the one a lone
  // thread with the default budget computes.
  EXPECT_LE(ck::cache_bytes(), budget);
  ck::set_cache_budget(ck::kDefaultCacheBudget);
  for (int t = 0; t < 8; ++t) {
    for (int round = 0; round < 5; ++round) {
      EXPECT_EQ(scores[t * 5 + round],
                check(checker, query(t), varied_text(t * 10 + round, 3000)).score);
    }
  }
}

// A cache of a given size, to drive the budget directly.
class SizedCache final : public ck::BudgetedCache {
 public:
  SizedCache() = default;
  ~SizedCache() override { withdraw(); }
  SizedCache(const SizedCache&) = delete;
  SizedCache& operator=(const SizedCache&) = delete;

  std::size_t bytes = 0;
  int emptied = 0;

 private:
  std::size_t held_bytes() const noexcept override { return bytes; }
  void empty() noexcept override {
    bytes = 0;
    ++emptied;
  }
};

// Runs `fn` on a new thread (a thread of its own caches only) and waits for it.
template <class Fn>
void on_new_thread(Fn&& fn) {
  std::thread thread(std::forward<Fn>(fn));
  thread.join();
}

TEST(CacheBudget, ACacheJoinsAtItsFirstLeaseAndLeavesWhenDestroyed) {
  const BudgetGuard guard;
  on_new_thread([] {
    {
      SizedCache zero;  // a lease ending at budget 0 empties every idle cache of the process
      ck::set_cache_budget(0);
      { const ck::CacheLease lease(zero); }
    }
    ASSERT_EQ(ck::cache_bytes(), 0u);
    ck::set_cache_budget(ck::kDefaultCacheBudget);
    const std::size_t threads = ck::cache_threads();
    {
      SizedCache a;
      // Not yet registered: no other thread can reach it before it is whole.
      EXPECT_EQ(ck::cache_threads(), threads);
      EXPECT_FALSE(a.leased());
      {
        const ck::CacheLease lease(a);
        EXPECT_TRUE(a.leased());
        a.bytes = 1000;
      }
      EXPECT_FALSE(a.leased());
      EXPECT_EQ(ck::cache_threads(), threads + 1);
      EXPECT_EQ(ck::cache_bytes(), 1000u);
      SizedCache b;
      {
        const ck::CacheLease lease(b);
        b.bytes = 500;
      }
      EXPECT_EQ(ck::cache_threads(), threads + 1);  // two caches, one thread
      EXPECT_EQ(ck::cache_bytes(), 1500u);
    }
    EXPECT_EQ(ck::cache_bytes(), 0u);
    EXPECT_EQ(ck::cache_threads(), threads);
  });
}

TEST(CacheBudget, OverBudgetThisThreadsOtherIdleCacheGoesFirstUnlessInUse) {
  const BudgetGuard guard;
  on_new_thread([] {
    SizedCache a;
    SizedCache b;
    ck::set_cache_budget(0);
    { const ck::CacheLease lease(a); }  // empties every idle cache of the process
    ASSERT_EQ(ck::cache_bytes(), 0u);
    ck::set_cache_budget(1200);
    {
      const ck::CacheLease lease(a);
      a.bytes = 1000;
    }
    {
      const ck::CacheLease lease(b);
      b.bytes = 500;  // 1500 > 1200: `a`, idle, goes; `b` fits and stays
    }
    EXPECT_EQ(a.emptied, 1);
    EXPECT_EQ(b.emptied, 0);
    EXPECT_EQ(ck::cache_bytes(), 500u);
    {
      const ck::CacheLease lease(a);
      a.bytes = 1000;  // 1500 > 1200: now `b` is the idle one
    }
    EXPECT_EQ(a.emptied, 1);
    EXPECT_EQ(b.emptied, 1);
    EXPECT_EQ(ck::cache_bytes(), 1000u);
    {
      const ck::CacheLease outer(a);  // in use: `b` cannot empty it, so it empties itself
      {
        const ck::CacheLease inner(b);
        b.bytes = 300;
      }
      EXPECT_EQ(a.emptied, 1);
      EXPECT_EQ(b.emptied, 2);
      EXPECT_EQ(ck::cache_bytes(), 1000u);
    }
    EXPECT_EQ(ck::cache_bytes(), 1000u);
  });
}

}  // namespace
