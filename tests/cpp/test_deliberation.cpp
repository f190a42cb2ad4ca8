#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "deliberation/meta_detector.hpp"
#include "deliberation/pattern_matcher.hpp"

namespace {

using sc::deliberation::ContributionAnalysis;
using sc::deliberation::Match;
using sc::deliberation::MetaDetector;
using sc::deliberation::PatternMatcher;

std::vector<std::size_t> found(const PatternMatcher& m, std::string_view text) {
  std::vector<std::size_t> out;
  for (const Match& match : m.find(m.keys(text))) out.push_back(match.pattern);
  return out;
}

const MetaDetector& detector() {
  static const MetaDetector d(
      {"need more information", "without knowing", "it depends on", "can't assess", "not sure"},
      {"use the", "at * use", "i recommend"}, {"need to know"});
  return d;
}

TEST(PatternMatcher, CaseApostrophesContractionsAndStems) {
  const PatternMatcher m({"can't assess", "it depends on", "need more information"});
  EXPECT_EQ(found(m, "We can't assess it."), std::vector<std::size_t>{0});
  EXPECT_EQ(found(m, "We can\xE2\x80\x99t assess it."), std::vector<std::size_t>{0});  // U+2019
  EXPECT_EQ(found(m, "We can\xE2\x80\x98t assess it."), std::vector<std::size_t>{0});  // U+2018
  EXPECT_EQ(found(m, "We can\xCA\xBCt assess it."), std::vector<std::size_t>{0});      // U+02BC
  EXPECT_EQ(found(m, "WE CANNOT ASSESS IT"), std::vector<std::size_t>{0});
  EXPECT_EQ(found(m, "we can not assess it"), std::vector<std::size_t>{0});
  EXPECT_EQ(found(m, "It depended on the budget; we needed more information!"),
            (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(found(m, "It... depends -- on"), std::vector<std::size_t>{1});  // punctuation between
  EXPECT_TRUE(found(m, "We can assess it.").empty());
  EXPECT_TRUE(found(m, "").empty());
}

TEST(PatternMatcher, WildcardsAndSpans) {
  const PatternMatcher m({"depends on * budget", "*", "  "});
  const std::string text = "It depends on your marketing budget.";
  const std::vector<Match> matches = m.find(m.keys(text));
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].pattern, 0u);
  EXPECT_EQ(text.substr(matches[0].begin, matches[0].end - matches[0].begin),
            "depends on your marketing budget");
  EXPECT_TRUE(found(m, "depends on budget").empty());  // a wildcard takes at least one token
  EXPECT_EQ(m.patterns().size(), 3u);                  // empty patterns kept, never matched
}

TEST(PatternMatcher, ManyWildcardsMatchInPolynomialTime) {
  // word (* word)^19 zzz: the plain depth-first search tries up to 8^19 ways per start.
  std::string pattern;
  for (int i = 0; i < 20; ++i) pattern += "* word ";
  pattern += "zzz";
  const PatternMatcher m({"zzz word zzz", pattern, "word"});
  const PatternMatcher alone({pattern});
  std::string text;
  for (int i = 0; i < 300; ++i) text += "word ";  // token i at bytes [5i, 5i + 4)
  EXPECT_EQ(found(m, text), std::vector<std::size_t>{2});
  EXPECT_FALSE(alone.any(alone.keys(text)));

  // Tokens 300..302 "zzz word zzz": the last "word" of the pattern falls on 299 from starts 128
  // (all 19 wildcards take 8 tokens) to 261, so the leftmost match is tokens 128..300.
  text += "zzz word zzz.";
  const std::vector<Match> matches = m.find(m.keys(text));
  ASSERT_EQ(matches.size(), 3u);
  EXPECT_EQ(matches[1].pattern, 1u);
  EXPECT_EQ(matches[1].begin, 640u);
  EXPECT_EQ(matches[1].end, 1503u);
  EXPECT_EQ(matches[0].begin, 1500u);  // "zzz word zzz"
  EXPECT_EQ(matches[0].end, 1512u);
  EXPECT_TRUE(alone.any(alone.keys(text)));
}

TEST(PatternMatcher, InvalidUtf8IsASeparator) {
  const PatternMatcher m({"not sure"});
  EXPECT_EQ(found(m, "not\xFF sure"), std::vector<std::size_t>{0});
  EXPECT_TRUE(found(m, std::string_view("\xF0\x9F", 2)).empty());  // truncated sequence
}

TEST(MetaDetector, SentencesQuestionsCuesAndClauses) {
  const std::string text =
      "It depends on the load: at 10k rps use Kafka. Without knowing the budget we can't assess "
      "it. What is the peak? Before choosing, we need to know the region.";
  const ContributionAnalysis a = detector().analyze(text);
  ASSERT_EQ(a.sentences.size(), 4u);
  EXPECT_FALSE(a.sentences[0].meta);  // a meta phrase with an answer cue answers
  EXPECT_TRUE(a.sentences[0].answer_cue);
  EXPECT_EQ(a.sentences[0].patterns, std::vector<std::size_t>{2});
  EXPECT_TRUE(a.sentences[1].meta);
  EXPECT_EQ(a.sentences[1].patterns, (std::vector<std::size_t>{1, 3}));
  EXPECT_TRUE(a.sentences[2].question);
  EXPECT_TRUE(a.sentences[2].meta);
  EXPECT_TRUE(a.sentences[3].meta);
  ASSERT_NE(a.sentences[3].clause_begin, sc::deliberation::kNoClause);
  EXPECT_EQ(text.substr(a.sentences[3].clause_begin, 15), "we need to know");
  EXPECT_EQ(a.meta_sentences, 3u);
  EXPECT_DOUBLE_EQ(a.score, 0.75);
}

TEST(MetaDetector, NumbersAreAnAnswerCue) {
  const ContributionAnalysis a = detector().analyze("It depends on load: 3 nodes for 2k rps.");
  ASSERT_EQ(a.sentences.size(), 1u);
  EXPECT_TRUE(a.sentences[0].answer_cue);
  EXPECT_DOUBLE_EQ(a.score, 0.0);
}

TEST(MetaDetector, EmptyAndInvalidInput) {
  EXPECT_TRUE(detector().analyze("").sentences.empty());
  EXPECT_DOUBLE_EQ(detector().analyze("   \n ").score, 0.0);
  const ContributionAnalysis bad = detector().analyze("\xFF\xFE not sure \xC0");
  ASSERT_EQ(bad.sentences.size(), 1u);
  EXPECT_TRUE(bad.sentences[0].meta);
}

TEST(MetaDetector, QuestionEndings) {
  using sc::deliberation::is_question;
  EXPECT_TRUE(is_question("Is it?"));
  EXPECT_TRUE(is_question("Is it?\")"));
  EXPECT_TRUE(is_question("Is it?\xE2\x80\x9D"));        // closing curly quote
  EXPECT_TRUE(is_question("\xE6\x98\xAF\xEF\xBC\x9F"));  // fullwidth question mark
  EXPECT_TRUE(is_question("**Why?**"));
  EXPECT_FALSE(is_question("It is."));
  EXPECT_FALSE(is_question("Why? Because."));
  EXPECT_FALSE(is_question(""));
}

TEST(MetaDetector, ClauseStart) {
  using sc::deliberation::clause_start;
  EXPECT_EQ(clause_start("Before that, we need", 13), 13u);
  EXPECT_EQ(clause_start("We need", 3), 0u);
  EXPECT_EQ(clause_start("A \xE2\x80\x94 we need", 6), 6u);  // em dash
  EXPECT_EQ(clause_start("short", 100), 0u);
}

TEST(MetaDetector, HugeInput) {
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "We need more information about the load. Use the cache. ";
  const ContributionAnalysis a = detector().analyze(text);
  EXPECT_EQ(a.sentences.size(), 40000u);
  EXPECT_DOUBLE_EQ(a.score, 0.5);
}

TEST(MetaDetector, RandomBytesNeverCrash) {
  std::mt19937 rng(16);
  const std::string pieces[] = {
      "not", " sure", "?", "\xE2\x80\x99", "\xCA\xBC",         "\xFF", "\xE2\x80", "depends",
      " on", ". ",    "*", "can't",        "\xF0\x9F\x98\x80", "1,0"};
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int n = static_cast<int>(rng() % 24);
    for (int i = 0; i < n; ++i) {
      if (rng() % 3 == 0) {
        text.push_back(static_cast<char>(rng() % 256));
      } else {
        text += pieces[rng() % std::size(pieces)];
      }
    }
    const ContributionAnalysis a = detector().analyze(text);
    EXPECT_LE(a.meta_sentences, a.sentences.size());
    for (const auto& s : a.sentences) {
      EXPECT_LE(s.span.end, text.size());
      if (s.clause_begin != sc::deliberation::kNoClause) {
        EXPECT_LT(s.clause_begin, s.span.end);
      }
    }
  }
}

}  // namespace
