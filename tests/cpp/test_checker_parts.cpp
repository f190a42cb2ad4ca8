/// @brief GoogleTest suites for the checker's building blocks (src/checker/): Python string rules,
/// sentence splitting, the fused scanner, n-gram relevance, edit distance, term statistics, config.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "checker/config.hpp"
#include "checker/copies.hpp"
#include "checker/edit_distance.hpp"
#include "checker/explain.hpp"
#include "checker/ngram.hpp"
#include "checker/python_str.hpp"
#include "checker/query_prefixes.hpp"
#include "checker/questions.hpp"
#include "checker/reference_score.hpp"
#include "checker/scanner.hpp"
#include "checker/sentence_split.hpp"
#include "checker/term_statistics.hpp"
#include "checker/vocabulary.hpp"
#include "text/tokenizer.hpp"

namespace {

namespace ck = sc::checker;

std::vector<std::string> sentences_of(const std::string& text) {
  std::vector<ck::Span> spans;
  ck::split_sentences(text, spans);
  std::vector<std::string> out;
  for (const ck::Span& s : spans) out.push_back(text.substr(s.begin, s.end - s.begin));
  return out;
}

// ---- Python str rules ----------------------------------------------------------------------

TEST(CheckerPythonStr, WordCharactersFollowUnicodeAlnum) {
  EXPECT_TRUE(ck::pystr::is_word('a'));
  EXPECT_TRUE(ck::pystr::is_word('7'));
  EXPECT_TRUE(ck::pystr::is_word('_'));
  EXPECT_FALSE(ck::pystr::is_word('-'));
  EXPECT_TRUE(ck::pystr::is_word(0x00E9));   // é
  EXPECT_TRUE(ck::pystr::is_word(0x0661));   // Arabic-Indic digit one
  EXPECT_TRUE(ck::pystr::is_word(0x65E5));   // 日
  EXPECT_FALSE(ck::pystr::is_word(0x0307));  // combining dot above (Mn): not alnum
  EXPECT_FALSE(ck::pystr::is_word(0x2019));
  EXPECT_FALSE(ck::pystr::is_word(0x1F600));  // emoji
}

TEST(CheckerPythonStr, WhitespaceIsStrIsspace) {
  for (const char32_t cp :
       {U'\t', U'\n', U'\v', U'\f', U'\r', U'\x1c', U'\x1f', U' ', U'\x85', U'\xa0', U'\u1680',
        U'\u2000', U'\u200a', U'\u2028', U'\u2029', U'\u202f', U'\u205f', U'\u3000'}) {
    EXPECT_TRUE(ck::pystr::is_space(cp)) << static_cast<unsigned>(cp);
  }
  for (const char32_t cp : {U'a', U'\x1b', U'\u200b', U'\ufeff', U'\u180e'}) {
    EXPECT_FALSE(ck::pystr::is_space(cp)) << static_cast<unsigned>(cp);
  }
}

TEST(CheckerPythonStr, QueryTermsAreAsciiRunsBetweenBoundaries) {
  const std::vector<std::string_view> stop = ck::reference_stop_words();
  using V = std::vector<std::string>;
  EXPECT_EQ(ck::pystr::ascii_query_terms("What is the penalty for cheating?", stop),
            (V{"penalty", "cheating"}));
  EXPECT_EQ(ck::pystr::ascii_query_terms("", stop), V{});
  EXPECT_EQ(ck::pystr::ascii_query_terms("ab cd", stop), V{});  // shorter than 3
  // Repeats once, in first-seen order, case folded.
  EXPECT_EQ(ck::pystr::ascii_query_terms("Fraud FRAUD fraud? Theft", stop), (V{"fraud", "theft"}));
  // A letter run next to a digit, underscore or non-ASCII letter has no \b there.
  EXPECT_EQ(ck::pystr::ascii_query_terms("IPC420 abc_def café naïve x-ray", stop), (V{"ray"}));
  // Kelvin sign lowercases to 'k'; U+0130 to "i" + U+0307 (not a word character).
  EXPECT_EQ(ck::pystr::ascii_query_terms("\u212Aelvin \u0130stanbul", stop),
            (V{"kelvin", "stanbul"}));
  // Invalid UTF-8 is not a word character.
  EXPECT_EQ(ck::pystr::ascii_query_terms("abc\xff"
                                         "def",
                                         stop),
            (V{"abc", "def"}));
}

TEST(CheckerPythonStr, AsciiLoweringKeepsOnlyAsciiLettersMatchable) {
  std::string out;
  ck::pystr::append_ascii_lowered("ABC caf\u00e9 \u212A \u0130x \xff", out);
  EXPECT_EQ(out, std::string("abc caf\x80 k i\x80x \x80"));
}

TEST(CheckerPythonStr, CodePointCount) {
  EXPECT_EQ(ck::pystr::code_point_count(""), 0U);
  EXPECT_EQ(ck::pystr::code_point_count("abc"), 3U);
  EXPECT_EQ(ck::pystr::code_point_count("caf\u00e9 \U0001F600"), 6U);
  EXPECT_EQ(ck::pystr::code_point_count("a\xff\xfe"
                                        "b"),
            4U);  // each invalid byte counts one
}

// ---- sentences -------------------------------------------------------------------------------

TEST(CheckerSentences, SplitsAfterTerminalPunctuationAndWhitespace) {
  using V = std::vector<std::string>;
  EXPECT_EQ(sentences_of(""), V{});
  EXPECT_EQ(sentences_of("   \n "), V{});
  EXPECT_EQ(sentences_of("One"), V{"One"});
  EXPECT_EQ(sentences_of("One. Two! Three? Four"), (V{"One.", "Two!", "Three?", "Four"}));
  EXPECT_EQ(sentences_of("No break.here 3.14 e.g. x"), (V{"No break.here 3.14 e.g.", "x"}));
  // Closing quotes and brackets after the mark are dropped with the whitespace.
  EXPECT_EQ(sentences_of("He said \"hi.\" Then (left.) \u201cOK.\u201d Done."),
            (V{"He said \"hi.", "Then (left.", "\u201cOK.", "Done."}));
  // A trailing break leaves no empty sentence; Unicode whitespace counts.
  EXPECT_EQ(sentences_of("A.\u3000B.\u00a0 "), (V{"A.", "B."}));
  // Marks not followed by whitespace do not break; a piece without tokens is still a sentence.
  EXPECT_EQ(sentences_of("?! \u2014 . x"), (V{"?!", "\u2014 .", "x"}));
}

// The scanner must find the tokenizer's tokens and split_sentences' sentences in one pass.
void expect_scan_matches(const std::string& text) {
  std::vector<sc::text::Token> expected_tokens = sc::text::tokenize(text);
  std::vector<std::vector<std::string>> scanned(1);
  std::vector<std::string> flat;
  const std::size_t sentences = ck::scan_chunk(
      text,
      [&](const sc::text::Token& t) {
        scanned.back().emplace_back(t.text);
        flat.emplace_back(t.text);
        ASSERT_LT(flat.size() - 1, expected_tokens.size());
        const sc::text::Token& e = expected_tokens[flat.size() - 1];
        EXPECT_EQ(t.offset, e.offset);
        EXPECT_EQ(t.kind, e.kind);
        EXPECT_EQ(t.text, e.text);
      },
      [&]() { scanned.emplace_back(); });
  EXPECT_EQ(flat.size(), expected_tokens.size()) << text;
  const std::vector<std::string> reference = sentences_of(text);
  ASSERT_EQ(sentences, reference.size()) << text;
  if (sentences == 0) return;
  ASSERT_EQ(scanned.size(), sentences) << text;
  for (std::size_t i = 0; i < sentences; ++i) {
    std::vector<std::string> tokens;
    for (const sc::text::Token& t : sc::text::tokenize(reference[i])) tokens.emplace_back(t.text);
    EXPECT_EQ(scanned[i], tokens) << text << " sentence " << i;
  }
}

TEST(CheckerScanner, MatchesTokenizerAndSplitterOnExamples) {
  for (const std::string text :
       {"", " ", "word", "Don't panic, Arthur's 42 towels. Next one!",
        "IPC_420 covid19 __init__ a__b", "3.14. 10,000 1,2 v1.2 10th",
        "caf\u00e9 na\u00efve \u00dcber Stra\u00dfe. \u65e5\u672c\u8a9e\u3002 ok",
        "don\u2019t stop\u2019 \u2019quoted\u2019 end.\u2019 Next", "a.\"b\" c.) d",
        "x\xff\xfey. \xc3 z", "e.g. U.S. state-of-the-art", "?! \u2014 . x", "Ends with break. ",
        "A. B.  C."}) {
    expect_scan_matches(text);
  }
}

TEST(CheckerScanner, MatchesTokenizerAndSplitterOnRandomText) {
  const std::vector<std::string> pieces = {
      "a",    "Z",      "0",      "9",      "_",      "'",      ".",      ",",
      "!",    "?",      " ",      "\n",     "\t",     "\"",     ")",      "]",
      "-",    "\u2019", "\u201d", "\u00e9", "\u00a0", "\u3000", "\u65e5", "\U0001F600",
      "\xff", "\u0301", "\u2028", "\u0130", "x",      "yz",     "12",     "\xc3"};
  std::mt19937 rng(12345);
  for (int round = 0; round < 4000; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 24);
    for (int i = 0; i < len; ++i) text += pieces[rng() % pieces.size()];
    expect_scan_matches(text);
    if (HasFailure()) break;
  }
}

// ---- n-grams -----------------------------------------------------------------------------------

std::map<std::uint32_t, std::uint64_t> naive_vector(const std::string& s) {
  // Code points, then FNV-1a 64 of each 3..5-gram's bytes, mod 2^20 (the spec's _ngram_vector).
  std::vector<std::string> cps;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = 1;
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0xF0)
      len = 4;
    else if (b >= 0xE0)
      len = 3;
    else if (b >= 0xC0)
      len = 2;
    cps.push_back(s.substr(i, len));
    i += len;
  }
  std::map<std::uint32_t, std::uint64_t> v;
  for (std::size_t n = 3; n <= 5; ++n) {
    for (std::size_t i = 0; i + n <= cps.size(); ++i) {
      std::uint64_t h = 0xCBF29CE484222325ULL;
      for (std::size_t j = i; j < i + n; ++j) {
        for (const char c : cps[j]) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
      }
      ++v[static_cast<std::uint32_t>(h & (ck::kNgramBuckets - 1))];
    }
  }
  return v;
}

double naive_cosine(const std::string& q, const std::string& d) {
  const auto a = naive_vector(q);
  const auto b = naive_vector(d);
  if (a.empty() || b.empty()) return 0.0;
  std::uint64_t dot = 0;
  std::uint64_t na = 0;
  std::uint64_t nb = 0;
  for (const auto& [k, c] : a) {
    na += c * c;
    const auto it = b.find(k);
    if (it != b.end()) dot += c * it->second;
  }
  for (const auto& [k, c] : b) nb += c * c;
  return static_cast<double>(dot) /
         (std::sqrt(static_cast<double>(na)) * std::sqrt(static_cast<double>(nb)));
}

std::string join(const std::vector<std::string_view>& words) {
  std::string s = " ";
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) s += ' ';
    s += words[i];
  }
  return s + " ";
}

TEST(CheckerNgrams, BestCosineEqualsNaiveMaximum) {
  const std::vector<std::string_view> query = {"penalty", "cheating", "ipc", "420"};
  const std::vector<std::vector<std::string_view>> sentences = {{"whoever", "cheats", "punished"},
                                                                {"cheating", "penalty", "420"},
                                                                {},
                                                                {"caf\u00e9", "\u65e5", "cheat"},
                                                                {"penalti", "ipc"}};
  ck::NgramRelevance relevance;
  relevance.set_query(query, 2.0);  // never saturates: every sentence counts
  double naive = 0.0;
  for (const auto& words : sentences) {
    relevance.begin_sentence();
    for (const std::string_view w : words) relevance.add_word(w);
    relevance.end_sentence();
    naive = std::max(naive, naive_cosine(join(query), join(words)));
  }
  EXPECT_EQ(relevance.best(), naive);
  EXPECT_GT(naive, 0.5);
}

TEST(CheckerNgrams, IdenticalTextHasCosineOneAndEmptyHasZero) {
  ck::NgramRelevance relevance;
  relevance.set_query({"zebra"}, 2.0);
  relevance.begin_sentence();
  relevance.add_word("zebra");
  relevance.end_sentence();
  EXPECT_DOUBLE_EQ(relevance.best(), 1.0);
  ck::NgramRelevance empty;
  empty.set_query({}, 2.0);
  EXPECT_TRUE(empty.empty());
  empty.begin_sentence();
  empty.add_word("zebra");
  empty.end_sentence();
  EXPECT_EQ(empty.best(), 0.0);
}

TEST(CheckerNgrams, RandomSentencesMatchNaive) {
  const std::vector<std::string> vocab = {"a",     "ab",        "abc",    "bca", "cab",
                                          "zebra", "caf\u00e9", "\u65e5", "42",  "x_1",
                                          "aaaa",  "bbbbb",     "cheat"};
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string_view> query;
    for (int i = 0; i < 1 + static_cast<int>(rng() % 4); ++i)
      query.push_back(vocab[rng() % vocab.size()]);
    ck::NgramRelevance relevance;
    relevance.set_query(query, round % 2 == 0 ? 2.0 : 0.5);
    double naive = 0.0;
    for (int s = 0; s < 4; ++s) {
      std::vector<std::string_view> words;
      for (int i = 0; i < static_cast<int>(rng() % 6); ++i)
        words.push_back(vocab[rng() % vocab.size()]);
      relevance.begin_sentence();
      for (const std::string_view w : words) relevance.add_word(w);
      relevance.end_sentence();
      naive = std::max(naive, naive_cosine(join(query), join(words)));
    }
    const double best = relevance.best();
    if (round % 2 == 0 || naive < 0.5) {
      EXPECT_EQ(best, naive) << round;
    } else {
      EXPECT_GE(best, 0.5) << round;  // saturated: only "at least the saturation" is promised
    }
  }
}

// ---- edit distance -----------------------------------------------------------------------------

TEST(CheckerEditDistance, OneEditApart) {
  EXPECT_FALSE(ck::one_edit_apart("abcde", "abcde"));
  EXPECT_TRUE(ck::one_edit_apart("abcde", "abxde"));   // substitution
  EXPECT_TRUE(ck::one_edit_apart("abcde", "abde"));    // deletion
  EXPECT_TRUE(ck::one_edit_apart("abde", "abcde"));    // insertion
  EXPECT_TRUE(ck::one_edit_apart("abcde", "bacde"));   // adjacent transposition
  EXPECT_FALSE(ck::one_edit_apart("abcde", "badce"));  // two transpositions
  EXPECT_FALSE(ck::one_edit_apart("abcde", "axcxe"));  // two substitutions
  EXPECT_FALSE(ck::one_edit_apart("abcde", "abcdefg"));
  EXPECT_FALSE(ck::one_edit_apart("acb", "bca"));
  EXPECT_TRUE(ck::one_edit_apart("", "a"));
  EXPECT_TRUE(ck::one_edit_apart("caf\u00e9s", "cafes"));  // code points, not bytes
  EXPECT_TRUE(ck::one_edit_apart("\u00e9a", "a\u00e9"));
}

// ---- term statistics ---------------------------------------------------------------------------

TEST(CheckerTermStatistics, ParsesTsvAndReportsBadLines) {
  const ck::TermStatistics stats =
      ck::TermStatistics::from_tsv("# comment\nabl\t5.1\r\n\nzebra\t2.6\textra\nabl\t5.3\n");
  EXPECT_EQ(stats.size(), 2U);
  EXPECT_EQ(stats.zipf("abl"), 5.3);
  EXPECT_EQ(stats.zipf("zebra"), 2.6);
  EXPECT_FALSE(stats.zipf("missing").has_value());
  EXPECT_THROW(ck::TermStatistics::from_tsv("no tab here\n"), std::invalid_argument);
  try {
    ck::TermStatistics::from_tsv("a\t1\nb\tnot-a-number\n");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ck::TermStatistics::from_tsv("a\tinf\n"), std::invalid_argument);
}

TEST(CheckerTermStatistics, FromTextsCountsStemsPerBillionWords) {
  // Word tokens: the, cats, sat, cat, runs, the  (6; "42" and "x_1" are not words).
  const ck::TermStatistics stats =
      ck::TermStatistics::from_texts({"The cats sat.", "Cat runs 42 x_1 the"});
  EXPECT_DOUBLE_EQ(*stats.zipf("cat"), std::log10(2.0 * 1e9 / 6.0));
  EXPECT_DOUBLE_EQ(*stats.zipf("sat"), std::log10(1.0 * 1e9 / 6.0));
  EXPECT_FALSE(stats.zipf("the").has_value());  // stop words are counted as words, not as terms
  EXPECT_FALSE(stats.zipf("42").has_value());
  EXPECT_EQ(ck::TermStatistics::from_texts({}).size(), 0U);
  EXPECT_EQ(ck::TermStatistics::from_texts({"", "..."}).size(), 0U);
}

TEST(CheckerTermStatistics, FromPairsRejectsNonFinite) {
  EXPECT_EQ(*ck::TermStatistics::from_pairs({{"a", 1.5}}).zipf("a"), 1.5);
  EXPECT_THROW(ck::TermStatistics::from_pairs({{"a", NAN}}), std::invalid_argument);
  EXPECT_THROW(ck::TermStatistics::from_pairs({{"", 1.0}}), std::invalid_argument);
}

// ---- vocabulary --------------------------------------------------------------------------------

TEST(CheckerVocabulary, AnalyzesTokensOnceAndConsistently) {
  ck::Vocabulary vocabulary;
  const auto token = [](std::string_view text, sc::text::TokenKind kind) {
    return sc::text::Token{text, 0, kind};
  };
  using K = sc::text::TokenKind;
  const ck::WordInfo running = vocabulary.lookup(token("Running", K::Word));
  EXPECT_EQ(vocabulary.term(running.term), "run");
  EXPECT_EQ(running.folded, "running");
  EXPECT_EQ(running.prefix, ck::kNoTerm);  // "run" is shorter than 5
  const ck::WordInfo runs = vocabulary.lookup(token("runs", K::Word));
  EXPECT_EQ(runs.term, running.term);
  EXPECT_EQ(vocabulary.lookup(token("The", K::Word)).term, ck::kNoTerm);
  const ck::WordInfo dont = vocabulary.lookup(token("Don\u2019t", K::Word));
  EXPECT_EQ(dont.term, ck::kNoTerm);  // "don't" is a stop word ...
  EXPECT_TRUE(dont.negation);         // ... and a negation
  EXPECT_TRUE(vocabulary.lookup(token("never", K::Word)).negation);
  EXPECT_FALSE(vocabulary.lookup(token("nothing", K::Word)).negation);
  EXPECT_EQ(vocabulary.term(vocabulary.lookup(token("10,000", K::Number)).term), "10000");
  EXPECT_EQ(vocabulary.term(vocabulary.lookup(token("IPC_420", K::Identifier)).term), "ipc_420");
  const ck::WordInfo cafe = vocabulary.lookup(token("Caf\u00e9s", K::Word));
  EXPECT_EQ(vocabulary.term(cafe.term), "caf\u00e9s");  // non-ASCII words are not stemmed
  EXPECT_EQ(cafe.term_length, 5U);
  EXPECT_NE(cafe.prefix, ck::kNoTerm);
  const std::size_t size = vocabulary.size();
  EXPECT_EQ(vocabulary.lookup(token("Running", K::Word)).term, running.term);
  EXPECT_EQ(vocabulary.size(), size);  // memoized
  vocabulary.clear();
  EXPECT_EQ(vocabulary.size(), 0U);
}

// Spellings and folded forms live in the vocabulary's arena: views handed out stay valid while the
// memo grows past several rehashes; a folded form equal to its spelling shares its bytes, another
// is a copy of its own; the same analysis comes back for every spelling after growth.
TEST(CheckerVocabulary, ViewsAndAnalysesSurviveGrowth) {
  using K = sc::text::TokenKind;
  ck::Vocabulary vocabulary;
  std::vector<std::string> spellings{
      "Zebra", "zebra", "Stra\u00dfe", "\xff\xfeq", "\xed\xa0\x80x", "CAF\u00c9", "x"};
  for (int i = 0; i < 6000; ++i) {
    std::string letters;  // i in base 26, as letters: distinct alphabetic words
    for (int n = i; n > 0 || letters.empty(); n /= 26)
      letters.push_back(static_cast<char>('a' + n % 26));
    spellings.push_back((i % 3 == 0 ? "Quiz" : "quiz") + letters + "s");
  }
  std::vector<ck::WordInfo> first;
  for (const std::string& s : spellings) {
    first.push_back(vocabulary.lookup(sc::text::Token{s, 0, K::Word}));
  }
  EXPECT_EQ(vocabulary.size(), spellings.size());
  for (std::size_t i = 0; i < spellings.size(); ++i) {
    const ck::WordInfo again = vocabulary.lookup(sc::text::Token{spellings[i], 0, K::Word});
    ASSERT_EQ(again.term, first[i].term) << spellings[i];
    ASSERT_EQ(again.prefix, first[i].prefix);
    ASSERT_EQ(again.folded, first[i].folded);
    ASSERT_EQ(again.folded.data(), first[i].folded.data());  // the same bytes, never moved
    ASSERT_NE(again.folded.data(), spellings[i].data());     // not the caller's buffer
  }
  EXPECT_EQ(vocabulary.size(), spellings.size());
  EXPECT_EQ(first[0].folded, "zebra");
  EXPECT_EQ(first[0].term, first[1].term);
  EXPECT_EQ(first[2].folded, "stra\u00dfe");
  EXPECT_EQ(first[5].folded, "caf\u00e9");
  EXPECT_EQ(first[7].folded, "quizas");  // "Quizas": its own folded copy
  EXPECT_EQ(vocabulary.term(first[7].term), "quiza");
  EXPECT_EQ(first[8].folded, "quizbs");  // already folded: the spelling's bytes
  EXPECT_EQ(first[8].term, vocabulary.find_term("quizb"));
}

// A vocabulary moved from stays usable (its analyses still right), and the moved-to one keeps
// every spelling it took over.
TEST(CheckerVocabulary, MovedFromStaysUsable) {
  using K = sc::text::TokenKind;
  ck::Vocabulary source;
  for (int i = 0; i < 1500; ++i) {  // more than one entry block
    const std::string word = "Word" + std::string(static_cast<std::size_t>(i % 7) + 1, 'x');
    source.lookup(sc::text::Token{word + std::to_string(i), 0, K::Identifier});
  }
  const ck::WordInfo running = source.lookup(sc::text::Token{"Running", 0, K::Word});
  ck::Vocabulary target(std::move(source));
  EXPECT_EQ(target.term(target.lookup(sc::text::Token{"Running", 0, K::Word}).term), "run");
  EXPECT_EQ(target.lookup(sc::text::Token{"Running", 0, K::Word}).term, running.term);
  // NOLINTNEXTLINE(bugprone-use-after-move): valid but unspecified, and still usable
  const ck::WordInfo again = source.lookup(sc::text::Token{"Swimming", 0, K::Word});
  EXPECT_EQ(source.term(again.term), "swim");
  EXPECT_EQ(again.folded, "swimming");
  EXPECT_EQ(source.lookup(sc::text::Token{"Swimming", 0, K::Word}).term, again.term);
  source.clear();
  EXPECT_EQ(source.size(), 0U);
  EXPECT_EQ(source.term(source.lookup(sc::text::Token{"cats", 0, K::Word}).term), "cat");
}

// ---- config and wording ------------------------------------------------------------------------

TEST(CheckerConfig, ValidatesEveryField) {
  ck::CheckerConfig config;
  EXPECT_NO_THROW(ck::validate(config));
  config.partial = 0.9;
  EXPECT_THROW(ck::validate(config), std::invalid_argument);  // partial > sufficient
  config = ck::CheckerConfig{};
  config.sufficient = 1.5;
  EXPECT_THROW(ck::validate(config), std::invalid_argument);
  config = ck::CheckerConfig{};
  config.partial = NAN;
  EXPECT_THROW(ck::validate(config), std::invalid_argument);
  config = ck::CheckerConfig{};
  config.min_contexts = 0;
  EXPECT_THROW(ck::validate(config), std::invalid_argument);
  config = ck::CheckerConfig{};
  config.recency_days = 0.0;
  EXPECT_THROW(ck::validate(config), std::invalid_argument);
  config = ck::CheckerConfig{};
  config.sufficient = config.partial = 0.0;
  EXPECT_NO_THROW(ck::validate(config));  // equal thresholds at the edge are fine
}

TEST(CheckerConfig, WeightsOverrideByNameAndRejectBadOnes) {
  ck::Weights w = ck::default_weights(ck::Scoring::kDefault);
  ck::apply_weights(w, {{"coverage", 1.0}, {"recency", 0.0}});
  EXPECT_EQ(w.coverage, 1.0);
  EXPECT_EQ(w.recency, 0.0);
  EXPECT_EQ(w.relevance, 0.2);
  try {
    ck::apply_weights(w, {{"coverge", 1.0}});
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'coverge'"), std::string::npos);
  }
  EXPECT_THROW(ck::apply_weights(w, {{"count", -0.1}}), std::invalid_argument);
  EXPECT_THROW(ck::apply_weights(w, {{"count", INFINITY}}), std::invalid_argument);
  EXPECT_EQ(ck::parse_scoring("reference"), ck::Scoring::kReference);
  EXPECT_THROW(ck::parse_scoring("fancy"), std::invalid_argument);
}

TEST(CheckerCopies, FirstOccurrenceOfEachText) {
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> order;
  EXPECT_FALSE(ck::find_copies({}, first, order));
  EXPECT_FALSE(ck::find_copies({"a"}, first, order));
  EXPECT_FALSE(ck::find_copies({"b", "a", "a ", "A"}, first, order));
  const std::vector<std::string_view> texts{"b", "a", "b", "", "a", "b", ""};
  ASSERT_TRUE(ck::find_copies(texts, first, order));
  EXPECT_EQ(first, (std::vector<std::uint32_t>{0, 1, 0, 3, 1, 0, 3}));
  // Random lists against a quadratic search.
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    std::vector<std::string> owned(1 + rng() % 12);
    for (std::string& t : owned) t = std::string(rng() % 3, static_cast<char>('a' + rng() % 2));
    const std::vector<std::string_view> views(owned.begin(), owned.end());
    bool want_any = false;
    std::vector<std::uint32_t> want(views.size());
    for (std::size_t c = 0; c < views.size(); ++c) {
      want[c] = static_cast<std::uint32_t>(c);
      for (std::size_t e = 0; e < c; ++e) {
        if (views[e] == views[c]) {
          want[c] = static_cast<std::uint32_t>(e);
          want_any = true;
          break;
        }
      }
    }
    EXPECT_EQ(ck::find_copies(views, first, order), want_any);
    if (want_any) {
      EXPECT_EQ(first, want);
    }
  }
}

TEST(CheckerQuestions, AskingWordsAndQuestionEnds) {
  for (const char* word : {"what", "is", "doesn't", "whom", "am", "wouldn't"}) {
    EXPECT_TRUE(sc::text::asks(word)) << word;
  }
  for (const char* word : {"", "What", "it", "whatever", "isnt", "q", "doesn\u2019t"}) {
    EXPECT_FALSE(sc::text::asks(word)) << word;
  }
  // From the end of the sentence's last token: the first break, or the text's end.
  const std::string_view text = "Is it? Yes. Was it?\u201d\u00a0No?! Who?) Then? ";
  EXPECT_TRUE(ck::ends_in_question(text, 5));    // "Is it" + "? "
  EXPECT_FALSE(ck::ends_in_question(text, 10));  // "Yes" + ". "
  EXPECT_TRUE(ck::ends_in_question(text, 18));  // "Was it" + "?\u201d\u00a0": closers, then a space
  EXPECT_FALSE(ck::ends_in_question(text, 26));      // "No" + "?! ": the break follows the "!"
  EXPECT_TRUE(ck::ends_in_question(text, 32));       // "Who" + "?) "
  EXPECT_TRUE(ck::ends_in_question(text, 39));       // the last sentence: "Then? " stripped
  EXPECT_FALSE(ck::ends_in_question("Is it?x", 5));  // no break and "x" last
  EXPECT_FALSE(ck::ends_in_question("Is it?)", 5));  // the last sentence ends in ")"
  EXPECT_TRUE(ck::ends_in_question("Is it ?\u3000\n", 5));  // Python whitespace is stripped
  EXPECT_FALSE(ck::ends_in_question("Is it", 5));
  EXPECT_FALSE(ck::ends_in_question("", 0));
  EXPECT_TRUE(ck::ends_in_question("Is http://a.b/? x", 15));  // a token's own "?" before a break
  EXPECT_FALSE(ck::ends_in_question("Is it \xff\xfe", 5));     // invalid UTF-8 is read, not a "?"
}

TEST(CheckerExplain, TooFewContextsSaysWhatDidNotCount) {
  EXPECT_EQ(ck::explain::too_few_contexts(1, 3), "Only 1 context(s), need 3");
  EXPECT_EQ(ck::explain::too_few_contexts(1, 3, 2),
            "Only 1 context(s) with text, need 3 (2 blank)");
  EXPECT_EQ(ck::explain::too_few_contexts(1, 3, 0, 2),
            "Only 1 distinct context(s), need 3 (2 repeated)");
  EXPECT_EQ(ck::explain::too_few_contexts(2, 4, 1, 1),
            "Only 2 distinct context(s) with text, need 4 (1 blank, 1 repeated)");
}

TEST(CheckerExplain, PercentRoundsLikePython) {
  EXPECT_EQ(ck::explain::percent(0.75), "75%");
  EXPECT_EQ(ck::explain::percent(1.0), "100%");
  EXPECT_EQ(ck::explain::percent(0.125), "12%");  // 12.5 -> 12 (half to even)
  EXPECT_EQ(ck::explain::percent(0.135), "14%");  // 13.500000000000002 -> 14
  EXPECT_EQ(ck::explain::percent(2.0 / 3.0), "67%");
}

}  // namespace

// clear() forgets only what was added (in proportion to it when little, the whole table when
// much): whatever was added before, the table then counts exactly like a new one, filter included.
TEST(CheckerBucketCounts, ClearAfterFewOrManyAddsCountsLikeANewTable) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> bucket(0, sc::checker::kNgramBuckets - 1);
  sc::checker::BucketCounts reused;
  for (const std::size_t before : {0U, 3U, 40U, 5000U, 40000U, 10U}) {
    for (std::size_t i = 0; i < before; ++i) reused.add(bucket(rng));
    reused.clear();
    EXPECT_EQ(reused.distinct(), 0U);
    sc::checker::BucketCounts fresh;
    std::vector<std::uint32_t> added;
    for (int i = 0; i < 50; ++i) {
      const std::uint32_t b = bucket(rng) % 97;  // repeats, so counts go above 1
      added.push_back(b);
      EXPECT_EQ(reused.add(b), fresh.add(b));
    }
    for (std::uint32_t b = 0; b < 200; ++b) {
      EXPECT_EQ(reused.count(b), fresh.count(b)) << "bucket " << b << " after " << before;
      EXPECT_EQ(sc::checker::BucketCounts::maybe(reused.filter(), b),
                sc::checker::BucketCounts::maybe(fresh.filter(), b));
    }
    EXPECT_EQ(reused.distinct(), fresh.distinct());
  }
}

// Prefix groups are numbered in the order the query's prefixes first come; a term is found in the
// group whose prefix it starts with, read only when a slot's hash matches; prefixes that share a
// hash stay apart (forced here: the hash is the caller's), and multi-byte prefixes match whole.
TEST(QueryPrefixes, GroupsByHashThenBytes) {
  ck::QueryPrefixes prefixes;
  prefixes.reset(4);
  EXPECT_TRUE(prefixes.empty());
  EXPECT_EQ(prefixes.add(7, "walki"), 0);
  EXPECT_EQ(prefixes.add(7, "walke"), 1);  // the same hash, other bytes: a group of its own
  EXPECT_EQ(prefixes.add(9, "caf\u00e9s"), 2);
  EXPECT_EQ(prefixes.add(7, "walki"), 0);  // seen before: its group again
  EXPECT_FALSE(prefixes.empty());
  int reads = 0;
  const auto find = [&](std::uint32_t hash, std::string_view term) {
    return prefixes.find(hash, [&] {
      ++reads;
      return term;
    });
  };
  EXPECT_EQ(find(7, "walking"), 0);
  EXPECT_EQ(find(7, "walker"), 1);
  EXPECT_EQ(find(7, "walzer"), -1);
  EXPECT_EQ(find(9, "caf\u00e9s-bar"), 2);
  EXPECT_EQ(find(9, "caf\u00e9"), -1);  // shorter than the prefix
  reads = 0;
  EXPECT_EQ(find(8, "walking"), -1);  // past the filter (the bit of 7 and 9), but no slot holds 8
  EXPECT_EQ(find(0xFC000007u, "walking"), -1);  // a filter bit no prefix set
  EXPECT_EQ(reads, 0);                          // neither read the term
  // A new check forgets them all; numbering starts over.
  prefixes.reset(1);
  EXPECT_TRUE(prefixes.empty());
  EXPECT_EQ(find(7, "walking"), -1);
  EXPECT_EQ(prefixes.add(9, "caf\u00e9s"), 0);
  // As many distinct prefixes as reset() allowed, all found again.
  prefixes.reset(300);
  for (std::uint32_t i = 0; i < 300; ++i) {
    ASSERT_EQ(prefixes.add(i % 5, "p" + std::to_string(1000 + i)), static_cast<std::int32_t>(i));
  }
  for (std::uint32_t i = 0; i < 300; ++i) {
    const std::string term = "p" + std::to_string(1000 + i) + "x";
    ASSERT_EQ(find(i % 5, term), static_cast<std::int32_t>(i));
  }
}

// The prefix a word's analysis hashes: its first five code points.
TEST(QueryPrefixes, TermPrefixIsFiveCodePoints) {
  EXPECT_EQ(ck::term_prefix("walking"), "walki");
  EXPECT_EQ(ck::term_prefix("walk"), "walk");
  EXPECT_EQ(ck::term_prefix("\u00e9t\u00e9s\u00e9t\u00e9"), "\u00e9t\u00e9s\u00e9");
  EXPECT_NE(ck::prefix_hash("walki"), ck::kNoTerm);
  using K = sc::text::TokenKind;
  ck::Vocabulary vocabulary;
  const ck::WordInfo walkers = vocabulary.lookup(sc::text::Token{"Walkers", 0, K::Word});
  EXPECT_EQ(vocabulary.term(walkers.term), "walker");
  EXPECT_EQ(walkers.prefix, ck::prefix_hash("walke"));
  // The stem "walk" has fewer than five: no prefix.
  EXPECT_EQ(vocabulary.lookup(sc::text::Token{"walking", 0, K::Word}).prefix, ck::kNoTerm);
}
