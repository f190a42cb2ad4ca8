#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/analyzer.hpp"

namespace {

using sc::text::Analyzer;
using sc::text::AnalyzerOptions;
using sc::text::StopWords;
using sc::text::TermInterner;
using sc::text::TokenKind;
using V = std::vector<std::string>;

Analyzer plain(bool remove_stopwords = true) {
  AnalyzerOptions options;
  options.stem = false;
  options.remove_stopwords = remove_stopwords;
  return Analyzer(options);
}

TEST(Analyzer, EmptyAndStopWordsOnly) {
  EXPECT_TRUE(Analyzer().terms("").empty());
  EXPECT_TRUE(Analyzer().terms("The and of, IT'S; don\u2019t!").empty());
  TermInterner interner;
  EXPECT_TRUE(Analyzer().analyze("  ", interner).empty());
  EXPECT_TRUE(interner.empty());
}

TEST(Analyzer, FoldsAndRemovesStopWords) {
  EXPECT_EQ(plain().terms("The Cat is on THE mat."), (V{"cat", "mat"}));
  EXPECT_EQ(plain(false).terms("The Cat is on THE mat."),
            (V{"the", "cat", "is", "on", "the", "mat"}));
  EXPECT_EQ(plain().terms("Ærø ΣΟΦΙΑ Привет"), (V{"ærø", "σοφια", "привет"}));
  EXPECT_EQ(plain().terms("日本語"), (V{"日", "本", "語"}));
}

TEST(Analyzer, CustomStopWords) {
  const StopWords custom{"cat", "420"};
  AnalyzerOptions options;
  options.stem = false;
  options.stopwords = &custom;
  EXPECT_EQ(Analyzer(options).terms("The CAT sat, Section 420"), (V{"the", "sat", "section"}));
  EXPECT_EQ(Analyzer(options).options().stopwords, &custom);
}

TEST(Analyzer, StemsWordsOnly) {
  const Analyzer analyzer;  // stem and remove stop words
  const V got = analyzer.terms("Running dogs' Arthur's IPC_420 covid19 10,000 3.14.");
  EXPECT_EQ(got, (V{sc::text::stem("running"), sc::text::stem("dogs"), sc::text::stem("arthur's"),
                    "ipc_420", "covid19", "10,000", "3.14"}));
}

TEST(Analyzer, LongTextsStemTheSameWithTheMemo) {
  // Texts of 4 KB and more remember stems per call; the terms must not change.
  const std::string sentence =
      "Running dogs' caresses, ponies RUNNING generously; IPC_420 hopping national. ";
  const V one = Analyzer().terms(sentence);
  ASSERT_EQ(one.size(), 9U);
  std::string text;
  V expected;
  while (text.size() < 10000) {
    text += sentence;
    expected.insert(expected.end(), one.begin(), one.end());
  }
  EXPECT_EQ(Analyzer().terms(text), expected);
  EXPECT_EQ(one[0], sc::text::stem("running"));
  EXPECT_EQ(one[4], one[0]);
}

TEST(Analyzer, TermsCarrySpansKindsAndIds) {
  TermInterner interner;
  const Analyzer analyzer = plain();
  const std::string text = "  Hello WORLD, hello 42 x_1";
  const std::vector<sc::text::Term> terms = analyzer.analyze(text, interner);
  ASSERT_EQ(terms.size(), 5U);
  EXPECT_EQ(terms[0].offset, 2U);
  EXPECT_EQ(terms[0].length, 5U);
  EXPECT_EQ(terms[1].offset, 8U);
  EXPECT_EQ(text.substr(terms[1].offset, terms[1].length), "WORLD");
  EXPECT_EQ(terms[2].id, terms[0].id);  // "hello" both times
  EXPECT_EQ(interner.term(terms[0].id), "hello");
  EXPECT_EQ(interner.term(terms[1].id), "world");
  EXPECT_EQ(terms[3].kind, TokenKind::Number);
  EXPECT_EQ(terms[4].kind, TokenKind::Identifier);
  EXPECT_EQ(interner.size(), 4U);

  // A second text shares the interner: known terms keep their ids, and analyze() appends.
  std::vector<sc::text::Term> out = terms;
  analyzer.analyze("world peace", interner, out);
  ASSERT_EQ(out.size(), 7U);
  EXPECT_EQ(out[5].id, terms[1].id);
  EXPECT_EQ(interner.term(out[6].id), "peace");
}

TEST(Analyzer, TermStringsMatchInternedIds) {
  TermInterner interner;
  const Analyzer analyzer;
  const std::string text =
      "Sufficient context: the retrieved passages answer questions about IPC_420.";
  const V strings = analyzer.terms(text);
  const std::vector<sc::text::Term> terms = analyzer.analyze(text, interner);
  ASSERT_EQ(strings.size(), terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) EXPECT_EQ(interner.term(terms[i].id), strings[i]);
}

TEST(Analyzer, InvalidUtf8) {
  EXPECT_EQ(plain().terms("caf\xC3 \xff\xfeOK\x80x"), (V{"caf", "ok", "x"}));
}

TEST(Analyzer, TenMegabytes) {
  // Per sentence: quick brown fox's 10,000 jumps ipc_420 lazy dogs (the/over/and/are dropped).
  const std::string sentence =
      "The quick brown fox's 10,000 jumps over IPC_420 and the lazy dogs are. ";
  std::string text;
  const std::size_t reps = (10U << 20) / sentence.size() + 1;
  for (std::size_t i = 0; i < reps; ++i) text += sentence;
  TermInterner interner;
  const std::vector<sc::text::Term> terms = plain().analyze(text, interner);
  EXPECT_EQ(terms.size(), 8 * reps);
  EXPECT_EQ(interner.size(), 8U);
  EXPECT_EQ(interner.term(terms.back().id), "dogs");
  EXPECT_EQ(terms.back().offset, text.size() - 10);
}

}  // namespace
