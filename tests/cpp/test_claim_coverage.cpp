#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "common/parallel_for.hpp"

namespace {

using sc::claims::AnswerResult;
using sc::claims::ChunkInput;
using sc::claims::ClaimConfig;
using sc::claims::ClaimOptions;
using sc::claims::ClaimResult;
using sc::claims::Mode;
using sc::claims::reason_text;

ClaimConfig config(Mode mode = Mode::Default,
                   std::optional<std::vector<std::string>> meta = std::nullopt) {
  ClaimOptions options;
  options.mode = mode;
  options.meta_patterns = std::move(meta);
  return ClaimConfig(options,
                     std::make_shared<const sc::checker::TermStatistics>(
                         sc::checker::TermStatistics::from_tsv("cheat\t3.0\npunish\t4.5\n")));
}

const std::vector<ChunkInput> kChunks = {
    {"S1", "Whoever cheats shall be punished with imprisonment for seven years."},
    {"S2", "Cheating means deceiving a person dishonestly."},
    {"S3", "The weather in Paris is mild."},
};

std::string sentence(std::string_view answer, const ClaimResult& r) {
  return std::string(answer.substr(r.span.begin, r.span.end - r.span.begin));
}

std::vector<std::string> strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST(ClaimCoverage, EmptyAnswerIsGroundedWithRatiosOne) {
  for (const std::string_view answer : {std::string_view(""), std::string_view(" \n\t ")}) {
    const AnswerResult r = sc::claims::check_answer(config(), answer, kChunks);
    EXPECT_TRUE(r.claims.empty());
    EXPECT_EQ(r.claim_count, 0u);
    EXPECT_EQ(r.attribution_coverage, 1.0);
    EXPECT_EQ(r.supported_ratio, 1.0);
    EXPECT_TRUE(r.is_grounded);
  }
  const AnswerResult none = sc::claims::check_answer(config(), "", {});
  EXPECT_TRUE(none.is_grounded);
}

TEST(ClaimCoverage, OneCitedSentence) {
  const std::string answer = "Whoever cheats shall be punished with imprisonment [S1].";
  const AnswerResult r = sc::claims::check_answer(config(), answer, kChunks);
  ASSERT_EQ(r.claims.size(), 1u);
  const ClaimResult& c = r.claims[0];
  EXPECT_EQ(sentence(answer, c), answer);
  EXPECT_TRUE(c.is_covered);
  EXPECT_FALSE(c.is_meta);
  EXPECT_EQ(c.score, 1.0);
  EXPECT_DOUBLE_EQ(c.threshold, 0.3);
  EXPECT_EQ(strings(c.citations), std::vector<std::string>{"S1"});
  EXPECT_EQ(c.covering, std::vector<std::size_t>{0});
  ASSERT_EQ(c.overlaps.size(), 1u);
  EXPECT_EQ(c.overlaps[0].first, 0u);
  EXPECT_EQ(c.overlaps[0].second, 1.0);  // plain overlap: every content word is in S1
  EXPECT_EQ(reason_text(c, kChunks), "covered by S1 (support 1.00 >= 0.30)");
  EXPECT_EQ(r.covered_count, 1u);
  EXPECT_EQ(r.attribution_coverage, 1.0);
  EXPECT_TRUE(r.missing_citations.empty());  // S2 shares only "cheat"
  EXPECT_TRUE(r.is_grounded);
}

TEST(ClaimCoverage, ReasonQuotesTheNumbersNearTheClaimsWordsElseEveryNumber) {
  // "which says" quotes the chunk's numbers as written (number words in any case, digits as their
  // number part) that the claim lacks: those within three tokens of a claim content word when any
  // is, else all of them.
  const std::vector<ChunkInput> chunk = {
      {"S1", "Filed under Section 420 of the old code, the term may extend to Seven years."}};
  // The uncovered claim's reason, which must hold `says`.
  const auto expect_reason = [&](std::string_view claim, std::string_view says) {
    const ClaimResult r = sc::claims::check_claim(config(), claim, chunk);
    EXPECT_FALSE(r.is_covered) << claim;
    EXPECT_NE(reason_text(r, chunk).find(says), std::string::npos) << reason_text(r, chunk);
  };
  expect_reason("The term may extend to ten years [S1].", "'ten' not in S1, which says 'Seven'");
  expect_reason("A fine of 500 rupees applies [S1].", "'500' not in S1, which says '420', 'Seven'");
  // A number the claim has is not quoted back ("420" is the claim's own).
  expect_reason("Section 420 sets a term of nine years [S1].",
                "'nine' not in S1, which says 'Seven'");
}

TEST(ClaimCoverage, ReasonNamesTheMismatchAndTheMissingWords) {
  const ClaimResult ten =
      sc::claims::check_claim(config(), "Cheats get up to ten years [S1].", kChunks);
  EXPECT_FALSE(ten.is_covered);
  EXPECT_NE(reason_text(ten, kChunks).find("'ten' not in S1, which says 'seven'"),
            std::string::npos)
      << reason_text(ten, kChunks);
  ASSERT_EQ(ten.overlaps.size(), 1u);
  EXPECT_DOUBLE_EQ(ten.overlaps[0].second, 2.0 / 4.0);  // cheat, year of cheat, get, 10, year
  const ClaimResult words =
      sc::claims::check_claim(config(), "Paris weather is cold and rainy [S3].", kChunks);
  EXPECT_FALSE(words.is_covered);
  EXPECT_NE(reason_text(words, kChunks).find("missing from S3: 'cold', 'rainy'"), std::string::npos)
      << reason_text(words, kChunks);
}

TEST(ClaimCoverage, UncitedSentenceIsUncoveredAndItsChunkMissing) {
  const std::string answer = "Whoever cheats shall be punished with imprisonment.";
  const AnswerResult r = sc::claims::check_answer(config(), answer, kChunks);
  ASSERT_EQ(r.claims.size(), 1u);
  EXPECT_FALSE(r.claims[0].is_covered);
  EXPECT_EQ(r.claims[0].score, 0.0);
  EXPECT_TRUE(r.claims[0].overlaps.empty());
  EXPECT_EQ(reason_text(r.claims[0], kChunks), "no citation; S1 supports it (1.00): cite it");
  EXPECT_EQ(r.missing_citations, std::vector<std::size_t>{0});
  EXPECT_EQ(r.attribution_coverage, 0.0);
  EXPECT_EQ(r.supported_ratio, 0.0);
  EXPECT_FALSE(r.is_grounded);
}

TEST(ClaimCoverage, UnknownIdsAreReportedAndInvalidate) {
  const std::string answer =
      "Whoever cheats shall be punished [S9]. Whoever cheats shall be punished [S1][S9][s1].";
  const AnswerResult r = sc::claims::check_answer(config(), answer, kChunks);
  ASSERT_EQ(r.claims.size(), 2u);
  EXPECT_FALSE(r.claims[0].is_covered);
  EXPECT_EQ(reason_text(r.claims[0], kChunks), "cites no retrieved chunk; unknown citation: S9");
  EXPECT_TRUE(r.claims[1].is_covered);           // ids match exactly: "s1" is not "S1"
  EXPECT_DOUBLE_EQ(r.claims[1].threshold, 0.3);  // one known chunk cited: no multi-citation factor
  EXPECT_EQ(strings(r.claims[1].citations), (std::vector<std::string>{"S1", "S9", "s1"}));
  EXPECT_EQ(reason_text(r.claims[1], kChunks),
            "covered by S1 (support 1.00 >= 0.30); unknown citations: S9, s1");
  EXPECT_EQ(strings(r.unknown_citations), (std::vector<std::string>{"S9", "s1"}));
  EXPECT_DOUBLE_EQ(r.attribution_coverage, 0.5);
  EXPECT_DOUBLE_EQ(r.supported_ratio, 0.5);
  EXPECT_FALSE(r.is_grounded);
}

TEST(ClaimCoverage, MultiCitationFactorLowersTheThreshold) {
  const std::vector<ChunkInput> chunks = {{"S1", "alpha"}, {"S2", "beta"}};
  const ClaimConfig cfg = config(Mode::Reference);
  // Each chunk holds 1 of 4 words: 0.25 >= 0.3 x 0.7 = 0.21 when both are cited.
  const AnswerResult both =
      sc::claims::check_answer(cfg, "alpha beta gamma delta [S1][S2].", chunks);
  ASSERT_EQ(both.claims.size(), 1u);
  EXPECT_TRUE(both.claims[0].is_covered);
  EXPECT_DOUBLE_EQ(both.claims[0].threshold, 0.21);
  EXPECT_EQ(both.claims[0].score, 0.25);
  EXPECT_EQ(both.claims[0].covering, (std::vector<std::size_t>{0, 1}));
  const AnswerResult one = sc::claims::check_answer(cfg, "alpha beta gamma delta [S1].", chunks);
  EXPECT_FALSE(one.claims[0].is_covered);
  EXPECT_EQ(reason_text(one.claims[0], chunks), "not covered: best support 0.25 (S1) < 0.30");
  ClaimOptions options;
  options.mode = Mode::Reference;
  options.multi_citation_factor = 1.0;
  const AnswerResult strict =
      sc::claims::check_answer(ClaimConfig(options), "alpha beta gamma delta [S1, S2].", chunks);
  EXPECT_FALSE(strict.claims[0].is_covered);
}

TEST(ClaimCoverage, MetaStatementsNeedNoEvidence) {
  const std::string answer =
      "Based on the evidence, the following applies. Cheating is punished [S1]. Here is the "
      "answer.";
  const AnswerResult r = sc::claims::check_answer(config(), answer, kChunks);
  ASSERT_EQ(r.claims.size(), 3u);
  EXPECT_TRUE(r.claims[0].is_meta);
  EXPECT_TRUE(r.claims[0].is_covered);
  EXPECT_TRUE(
      starts_with(reason_text(r.claims[0], kChunks), "meta statement ('Based on the evidence')"));
  EXPECT_TRUE(r.claims[2].is_meta);
  EXPECT_EQ(r.claim_count, 1u);
  EXPECT_EQ(r.covered_count, 1u);
  EXPECT_EQ(r.attribution_coverage, 1.0);
  EXPECT_TRUE(r.is_grounded);

  // A phrase opening with the speaker ("I hope this helps"): "I" is keyed as the speaker, not by
  // its letters, and still reaches the phrase (it was ruled out by the letters' filter once).
  for (const std::string_view closing : {"I hope this helps.", "I HOPE THIS HELPS!"}) {
    const AnswerResult a = sc::claims::check_answer(config(), closing, kChunks);
    ASSERT_EQ(a.claims.size(), 1u);
    EXPECT_TRUE(a.claims[0].is_meta) << closing;
  }

  // A meta phrase followed by what the chunks say is a claim; so is one with a number or a name.
  for (const std::string_view claim :
       {"In summary, cheating is punishable.", "In summary, Section 420 applies.",
        "Based on the evidence, Smith agrees.", "Overall, NASA agrees."}) {
    const AnswerResult a = sc::claims::check_answer(config(), claim, kChunks);
    ASSERT_EQ(a.claims.size(), 1u);
    EXPECT_FALSE(a.claims[0].is_meta) << claim;
    EXPECT_FALSE(a.claims[0].is_covered) << claim;  // uncited
  }
  // Cited, the opening phrase is left out of the score: "cheating is punishable" is all found.
  const AnswerResult cited = sc::claims::check_answer(
      config(), "In summary, whoever cheats shall be punished [S1].", kChunks);
  EXPECT_FALSE(cited.claims[0].is_meta);
  EXPECT_EQ(cited.claims[0].score, 1.0);
  // Reference mode: the same decisions on whitespace words.
  const AnswerResult ref = sc::claims::check_answer(
      config(Mode::Reference), "In summary, cheating is bad. Based on the evidence, see below.",
      kChunks);
  EXPECT_FALSE(ref.claims[0].is_meta);  // "cheating" is in S2
  EXPECT_TRUE(ref.claims[1].is_meta);
  // The phrase list is data.
  const ClaimConfig custom = config(Mode::Default, std::vector<std::string>{"as per the records"});
  EXPECT_TRUE(
      sc::claims::check_claim(custom, "As per the records, nothing else.", kChunks).is_meta);
  EXPECT_FALSE(sc::claims::check_claim(custom, "Here is the answer.", kChunks).is_meta);
}

TEST(ClaimCoverage, CheckClaimUsesCitedChunksElseAll) {
  const ClaimConfig cfg = config();
  // Uncited: scored against every chunk, but uncovered ("No Citations - Rejected"); the reason
  // names the chunk to cite.
  const std::string_view claim = "Whoever cheats shall be punished.";
  const ClaimResult all = sc::claims::check_claim(cfg, claim, kChunks);
  EXPECT_FALSE(all.is_covered);
  EXPECT_EQ(all.overlaps.size(), 3u);
  EXPECT_EQ(all.score, 1.0);
  EXPECT_TRUE(all.covering.empty());
  EXPECT_EQ(reason_text(all, kChunks), "no citation; S1 supports it (1.00): cite it");
  EXPECT_EQ(all.span.end, claim.size());
  const ClaimResult unsupported = sc::claims::check_claim(cfg, "Paris is in Spain.", kChunks);
  EXPECT_FALSE(unsupported.is_covered);
  EXPECT_TRUE(
      starts_with(reason_text(unsupported, kChunks), "no citation, and no chunk supports it"));
  const ClaimResult meta = sc::claims::check_claim(cfg, "Here is the answer.", kChunks);
  EXPECT_TRUE(meta.is_meta);
  EXPECT_TRUE(meta.is_covered);
  const ClaimResult cited = sc::claims::check_claim(cfg, "Cheating is punished [S3].", kChunks);
  EXPECT_FALSE(cited.is_covered);
  EXPECT_EQ(cited.overlaps.size(), 1u);
  const ClaimResult none = sc::claims::check_claim(cfg, "Cheating is punished.", {});
  EXPECT_FALSE(none.is_covered);
  EXPECT_EQ(reason_text(none, {}), "no chunks to check it against");
  const ClaimResult empty = sc::claims::check_claim(cfg, "", kChunks);
  EXPECT_FALSE(empty.is_covered);  // uncited: nothing backs it, though nothing contradicts it
  EXPECT_EQ(empty.score, 1.0);
  EXPECT_EQ(reason_text(empty, kChunks), "no citation");
  const ClaimResult cited_empty = sc::claims::check_claim(cfg, "[S1]", kChunks);
  EXPECT_TRUE(cited_empty.is_covered);
}

TEST(ClaimCoverage, MissingCitationsNameUsedButUncitedChunks) {
  const std::vector<ChunkInput> chunks = {{"A", "Paris is the capital of France."},
                                          {"B", "Berlin is the capital of Germany."},
                                          {"C", "Unrelated text about gardening."}};
  const std::string answer =
      "Paris is the capital of France [A]. Berlin is the capital of Germany.";
  const AnswerResult r = sc::claims::check_answer(config(), answer, chunks);
  EXPECT_EQ(r.missing_citations, std::vector<std::size_t>{1});
  EXPECT_FALSE(r.is_grounded);
  const AnswerResult cited = sc::claims::check_answer(
      config(), "Paris is the capital of France [A]. Berlin is the capital of Germany [B].",
      chunks);
  EXPECT_TRUE(cited.missing_citations.empty());
  EXPECT_TRUE(cited.is_grounded);
}

TEST(ClaimCoverage, DuplicateChunkIdsAreAnError) {
  const std::vector<ChunkInput> chunks = {{"S1", "a"}, {"S2", "b"}, {"S1", "c"}};
  try {
    sc::claims::check_answer(config(), "x [S1].", chunks);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("chunks[2].id 'S1' duplicates chunks[0].id"),
              std::string::npos)
        << e.what();
  }
}

TEST(ClaimCoverage, UnicodeSpansAreBytesOfTheAnswer) {
  const std::string answer = "Der Bürgermeister ist gewählt [K1].  Zweiter Satz über Köln [K2].";
  const std::vector<ChunkInput> chunks = {{"K1", "DER BÜRGERMEISTER IST GEWÄHLT"},
                                          {"K2", "Satz über KÖLN, zweiter"}};
  const AnswerResult r = sc::claims::check_answer(config(), answer, chunks);
  ASSERT_EQ(r.claims.size(), 2u);
  EXPECT_EQ(sentence(answer, r.claims[0]), "Der Bürgermeister ist gewählt [K1].");
  EXPECT_EQ(sentence(answer, r.claims[1]), "Zweiter Satz über Köln [K2].");
  EXPECT_TRUE(r.claims[0].is_covered);
  EXPECT_TRUE(r.claims[1].is_covered);
}

TEST(ClaimCoverage, InvalidUtf8NeverCrashes) {
  const std::string answer = "Cheating\xFF is punished [S1]. \xC3 broken \xE2\x80 text [S2]. \xF0";
  const std::vector<ChunkInput> chunks = {{"S1", "Cheating\xFF is punished. cheats \xFF\xFE"},
                                          {"S2", "\x80\x80"}};
  for (const Mode mode : {Mode::Default, Mode::Reference}) {
    const AnswerResult r = sc::claims::check_answer(config(mode), answer, chunks);
    ASSERT_FALSE(r.claims.empty());
    for (const ClaimResult& c : r.claims) {
      EXPECT_LE(c.span.begin, c.span.end);
      EXPECT_LE(c.span.end, answer.size());
    }
    EXPECT_TRUE(r.claims[0].is_covered);
  }
}

TEST(ClaimCoverage, TenMegabyteAnswer) {
  const std::string one = "Cheating is punished with imprisonment [S1]. ";
  std::string answer;
  answer.reserve(10'500'000);
  while (answer.size() < 10'000'000) answer += one;
  const std::size_t n = answer.size() / one.size();
  const std::vector<ChunkInput> chunks = {kChunks[0], kChunks[2]};
  for (const Mode mode : {Mode::Default, Mode::Reference}) {
    const AnswerResult r = sc::claims::check_answer(config(mode), answer, chunks);
    ASSERT_EQ(r.claims.size(), n);
    EXPECT_EQ(r.covered_count, n);
    EXPECT_TRUE(r.missing_citations.empty());
    EXPECT_TRUE(r.is_grounded);
    EXPECT_EQ(r.claims.back().span.end, answer.size() - 1);
  }
  // One 10 MB sentence (no punctuation) against a 10 MB chunk.
  std::string words;
  for (std::size_t i = 0; words.size() < 10'000'000; ++i)
    words += "w" + std::to_string(i % 5000) + " ";
  const ClaimResult big = sc::claims::check_claim(config(), words + "[S1]", {{"S1", words}});
  EXPECT_TRUE(big.is_covered);
  EXPECT_EQ(big.score, 1.0);
}

TEST(ClaimBatch, CheckAnswersEqualsSequentialCalls) {
  const ClaimConfig cfg = config();
  std::vector<std::string> answers = {
      "", "Cheating is punished [S1].", "Cheating is punished.", "Paris is mild [S3][S9].",
      "Based on the evidence, the following applies. Cheating means deceiving [S2]."};
  for (int i = 0; i < 40; ++i) answers.push_back(answers[static_cast<std::size_t>(i) % 5] + " x");
  std::vector<std::string_view> views(answers.begin(), answers.end());
  // A long uncited chunk: batches under 16 KiB a thread stay on the calling thread (threads_for).
  std::string filler;
  while (filler.size() < 4096) filler += "Savanna grass grows tall after the rains. ";
  std::vector<ChunkInput> with_filler = kChunks;
  with_filler.push_back({"F1", filler});
  const std::vector<std::vector<ChunkInput>> chunks(answers.size(), with_filler);
  for (const std::size_t threads : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    const std::vector<AnswerResult> batch = sc::claims::check_answers(cfg, views, chunks, threads);
    ASSERT_EQ(batch.size(), answers.size());
    for (std::size_t i = 0; i < answers.size(); ++i) {
      const AnswerResult one = sc::claims::check_answer(cfg, views[i], with_filler);
      ASSERT_EQ(batch[i].claims.size(), one.claims.size());
      for (std::size_t j = 0; j < one.claims.size(); ++j) {
        EXPECT_EQ(batch[i].claims[j].score, one.claims[j].score);
        EXPECT_EQ(reason_text(batch[i].claims[j], with_filler),
                  reason_text(one.claims[j], with_filler));
        EXPECT_EQ(batch[i].claims[j].span, one.claims[j].span);
      }
      EXPECT_EQ(batch[i].is_grounded, one.is_grounded);
      EXPECT_EQ(batch[i].missing_citations, one.missing_citations);
    }
  }
  EXPECT_THROW(sc::claims::check_answers(cfg, views, {}, 2), std::invalid_argument);
  EXPECT_TRUE(sc::claims::check_answers(cfg, {}, {}, 2).empty());
}

TEST(ClaimBatch, FirstErrorIsRethrownOnTheCaller) {
  const ClaimConfig cfg = config();
  const std::vector<std::string_view> answers(20, "x [S1].");
  std::vector<std::vector<ChunkInput>> chunks(20, kChunks);
  chunks[7] = {{"S1", "a"}, {"S1", "b"}};
  chunks[12] = {{"S2", "a"}, {"S2", "b"}};
  try {
    sc::claims::check_answers(cfg, answers, chunks, 4);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_TRUE(starts_with(e.what(), "answers[7]: chunks[1].id 'S1'")) << e.what();
  }
  // parallel_for itself: every index once, errors never escape a worker.
  std::vector<std::atomic<int>> seen(1000);
  sc::parallel_for(seen.size(), 4, [&](std::size_t i) { seen[i]++; });
  for (const auto& s : seen) EXPECT_EQ(s.load(), 1);
  EXPECT_THROW(sc::parallel_for(100, 3,
                                [](std::size_t i) {
                                  if (i == 50) throw std::runtime_error("boom");
                                }),
               std::runtime_error);
}

}  // namespace

namespace {

void expect_same(const AnswerResult& a, const AnswerResult& b) {
  ASSERT_EQ(a.claims.size(), b.claims.size());
  for (std::size_t i = 0; i < a.claims.size(); ++i) {
    EXPECT_EQ(a.claims[i].score, b.claims[i].score);
    EXPECT_EQ(reason_text(a.claims[i], kChunks), reason_text(b.claims[i], kChunks));
    EXPECT_EQ(a.claims[i].is_covered, b.claims[i].is_covered);
    EXPECT_EQ(a.claims[i].is_meta, b.claims[i].is_meta);
    EXPECT_EQ(a.claims[i].overlaps, b.claims[i].overlaps);
  }
  EXPECT_EQ(a.missing_citations, b.missing_citations);
  EXPECT_EQ(a.unknown_citations, b.unknown_citations);
}

}  // namespace

// Checks reuse a per-thread workspace (and a word memo keyed by the config): results must not
// depend on what the thread checked before, under which config.
TEST(ClaimCoverage, ResultsDoNotDependOnEarlierChecks) {
  const ClaimConfig a = config();
  ClaimOptions options;
  options.stopwords = std::vector<std::string>{"whoever", "cheats"};
  const ClaimConfig b(options);
  const ClaimConfig reference = config(Mode::Reference);
  const std::string answer =
      "Cheating is punished with imprisonment for seven years [S1]. Cheating means deceiving "
      "someone [S2]. In summary, Paris is mild [S9]. Whoever cheats is punished.";
  const AnswerResult first = sc::claims::check_answer(a, answer, kChunks);
  const AnswerResult other = sc::claims::check_answer(b, answer, kChunks);
  const AnswerResult ref = sc::claims::check_answer(reference, answer, kChunks);
  // A long check in between grows the workspace (and may be too big to keep).
  std::string long_answer;
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i) {
    long_answer += "Word" + std::to_string(i) + " number " + std::to_string(i) + " [S1]. ";
    texts.push_back("Text of word" + std::to_string(i) + " and some others.");
  }
  std::vector<ChunkInput> many;
  std::vector<std::string> ids;
  ids.reserve(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) ids.push_back("S" + std::to_string(i + 1));
  for (std::size_t i = 0; i < texts.size(); ++i) many.push_back({ids[i], texts[i]});
  const AnswerResult big = sc::claims::check_answer(a, long_answer, many);
  EXPECT_EQ(big.claims.size(), 3000u);
  expect_same(first, sc::claims::check_answer(a, answer, kChunks));
  expect_same(other, sc::claims::check_answer(b, answer, kChunks));
  expect_same(ref, sc::claims::check_answer(reference, answer, kChunks));
  {
    // A config made after another was destroyed gets a new serial, so no stale memo.
    ClaimOptions custom;
    custom.stopwords = std::vector<std::string>{"imprisonment"};
    const auto temp = std::make_unique<ClaimConfig>(custom);
    const AnswerResult t1 = sc::claims::check_answer(*temp, answer, kChunks);
    expect_same(t1, sc::claims::check_answer(*temp, answer, kChunks));
  }
  expect_same(first, sc::claims::check_answer(a, answer, kChunks));
}
