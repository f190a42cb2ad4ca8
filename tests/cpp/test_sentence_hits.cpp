#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "checker/cache_budget.hpp"
#include "checker/sentence_hits.hpp"
#include "text/analyzer.hpp"
#include "text/citations.hpp"
#include "text/sentences.hpp"

namespace {

using sc::checker::SentenceHits;

/// The definition, term by term: every sentence, citation markers stripped, its distinct terms
/// among the query's (no token ruled out early).
std::vector<SentenceHits> brute_force(std::string_view query,
                                      const std::vector<std::string_view>& texts) {
  const sc::text::Analyzer analyzer;
  const std::vector<std::string> q = analyzer.terms(query);
  const std::set<std::string> wanted(q.begin(), q.end());
  std::vector<SentenceHits> out;
  for (std::size_t t = 0; t < texts.size(); ++t) {
    for (const sc::text::Span& span : sc::text::split_sentences(texts[t])) {
      const std::string body =
          sc::text::strip_citations(texts[t].substr(span.begin, span.end - span.begin));
      std::set<std::string> found;
      for (const std::string& term : analyzer.terms(body)) {
        if (wanted.count(term) > 0) found.insert(term);
      }
      if (!found.empty()) {
        out.push_back(
            {static_cast<std::uint32_t>(t), span, static_cast<std::uint32_t>(found.size())});
      }
    }
  }
  return out;
}

void expect_same(const std::vector<SentenceHits>& a, const std::vector<SentenceHits>& b,
                 const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].text, b[i].text) << where;
    EXPECT_EQ(a[i].span, b[i].span) << where;
    EXPECT_EQ(a[i].hits, b[i].hits) << where;
  }
}

TEST(SentenceHits, CountsDistinctStemmedQueryTermsPerSentence) {
  const std::vector<std::string_view> texts = {
      "Cheating is punished. Whoever cheats shall be punished with imprisonment [S1].",
      "The weather is fine."};
  const auto hits = sc::checker::sentence_query_hits("What is the punishment for cheating?", texts);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].text, 0u);
  EXPECT_EQ(hits[0].hits, 2u);  // cheat, punish: once each, however often
  EXPECT_EQ(hits[1].hits, 2u);  // "cheats", "punished"
  EXPECT_EQ(texts[0].substr(hits[1].span.begin, 6), "Whoeve");
}

TEST(SentenceHits, NoQueryTermNoSentenceNoText) {
  EXPECT_TRUE(sc::checker::sentence_query_hits("what is the", {"The cat sat."}).empty());
  EXPECT_TRUE(sc::checker::sentence_query_hits("cats", {}).empty());
  EXPECT_TRUE(sc::checker::sentence_query_hits("cats", {"", "   "}).empty());
}

TEST(SentenceHits, CitationMarkersAreNoTerms) {
  // "[S1]" would be the term "s1", which the query holds.
  EXPECT_TRUE(sc::checker::sentence_query_hits("s1 results", {"Nothing here [S1]."}).empty());
  EXPECT_EQ(sc::checker::sentence_query_hits("s1 results", {"S1 results [S1]."}).at(0).hits, 2u);
}

TEST(SentenceHits, CapitalsMarksAndOtherScriptsMatchAsTheAnalyzerReadsThem) {
  const std::vector<std::string_view> texts = {"PARIS is big.",
                                               "E\xCC\x81tude one.",
                                               "\xC3\x89tude two.",
                                               "K\xC3\xA9pler three.",
                                               "\xE5\x8C\x97\xE4\xBA\xAC four.",
                                               "'Tis 42 x."};
  for (const std::string_view query :
       {std::string_view("paris"), std::string_view("\xC3\xA9tude"),
        std::string_view("e\xCC\x81tude"), std::string_view("\xE5\x8C\x97\xE4\xBA\xAC"),
        std::string_view("tis 42"), std::string_view("k\xC3\xA9pler")}) {
    expect_same(sc::checker::sentence_query_hits(query, texts), brute_force(query, texts),
                std::string(query));
  }
}

TEST(SentenceHits, EqualsTheDefinitionOnRandomText) {
  const std::vector<std::string> pieces = {
      "the",          "Paris", "capital", "[S1]",  "[1]", "\xC3\xA9",  "\xC3\x9F",
      "\xC4\xB0",     ".",     "!",       "?",     " ",   "\n",        "Mr.",
      "3.5",          "1,000", "running", "Runs",  "ran", "E\xCC\x81", "tude",
      "'s",           "dying", "Lying",   "skies", "sky", "news",      "[citation needed]",
      "\xE5\x8C\x97", "U.S.",  "e.g.",    "x",     "Y",   "yes",       "\xEF\xBF\xBD",
      "42",           "4th"};
  std::mt19937 rng(11);
  const auto piece = [&] { return pieces[rng() % pieces.size()]; };
  for (int round = 0; round < 3000; ++round) {
    std::string query;
    for (std::size_t i = rng() % 6; i > 0; --i) query += piece() + (rng() % 2 ? " " : "");
    std::vector<std::string> owned(rng() % 4);
    for (std::string& text : owned) {
      for (std::size_t i = rng() % 30; i > 0; --i) text += piece() + (rng() % 3 ? " " : "");
    }
    const std::vector<std::string_view> texts(owned.begin(), owned.end());
    expect_same(sc::checker::sentence_query_hits(query, texts), brute_force(query, texts), query);
  }
}

// The words go through this thread's vocabulary, a cache: emptied after every call (budget 0) or
// kept, the counts are the same.
TEST(SentenceHits, ResultsDoNotDependOnTheThreadsWordCache) {
  struct BudgetGuard {
    ~BudgetGuard() { sc::checker::set_cache_budget(sc::checker::kDefaultCacheBudget); }
  } guard;
  const std::vector<std::string_view> texts = {
      "Runs of 1,000 runners ran in Paris [S1]. \xC3\x89tudes run. Running 42 x_1.",
      "The runner's run. 1000 runs; 1,000 more."};
  for (const std::string_view query :
       {std::string_view("running 1,000 runners"), std::string_view("\xC3\xA9tude x_1 42 paris")}) {
    sc::checker::set_cache_budget(sc::checker::kDefaultCacheBudget);
    const auto kept = sc::checker::sentence_query_hits(query, texts);
    sc::checker::set_cache_budget(0);
    const auto emptied = sc::checker::sentence_query_hits(query, texts);
    expect_same(kept, brute_force(query, texts), std::string(query));
    expect_same(emptied, kept, std::string(query));
    EXPECT_FALSE(kept.empty());
  }
}

// A query of 100,000 distinct terms (each read once: deduplicating them pairwise would take
// minutes) against sentences naming a few of them, one twice.
TEST(SentenceHits, ALongQueryCountsItsTermsOnce) {
  std::string query;
  for (int i = 0; i < 100000; ++i) query += "w" + std::to_string(i) + "x ";
  const std::vector<std::string_view> texts = {"W5x, w99999x and w5x again. Nothing else.",
                                               "Only w123456x here."};
  const auto hits = sc::checker::sentence_query_hits(query, texts);
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].text, 0u);
  EXPECT_EQ(hits[0].hits, 2u);
}

}  // namespace
