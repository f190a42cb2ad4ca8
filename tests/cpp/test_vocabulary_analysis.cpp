/// @brief GoogleTest suite for the vocabulary's analysis of a new word (src/checker/vocabulary.cpp)
/// against the text engine's general functions: ASCII words skip the general folding and the code
/// point count, so every token of random text (ASCII, capitals, Unicode, invalid bytes, numbers)
/// must get the folded form, term, prefix and negation flag the general path gives. Also the
/// compiled-in tables' hash index (english_tables.hpp), whose slots carry hash bits.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checker/english_tables.hpp"
#include "checker/vocabulary.hpp"
#include "text/casefold.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/tokenizer.hpp"
#include "text/utf8.hpp"

namespace {

namespace ck = sc::checker;
namespace tx = sc::text;

std::size_t code_points(std::string_view s) {
  std::size_t count = 0;
  for (std::size_t pos = 0; pos < s.size(); pos += tx::decode_utf8(s, pos).length) ++count;
  return count;
}

// The first `n` code points of `s` (all of it when shorter).
std::string_view head(std::string_view s, std::size_t n) {
  std::size_t pos = 0;
  for (std::size_t i = 0; i < n && pos < s.size(); ++i) pos += tx::decode_utf8(s, pos).length;
  return s.substr(0, pos);
}

// What lookup() must give for `token`, by the general functions only.
void expect_general_analysis(ck::Vocabulary& vocabulary, const tx::Token& token) {
  const std::string folded = tx::fold(token.text);
  const ck::WordInfo info = vocabulary.lookup(token);
  ASSERT_EQ(info.folded, folded) << token.text;
  EXPECT_EQ(info.kind, token.kind) << token.text;
  const bool word = token.kind == tx::TokenKind::Word;
  EXPECT_EQ(info.negation, word && ck::is_negation(folded)) << token.text;
  if (word && tx::StopWords::english().contains_folded(folded)) {
    EXPECT_EQ(info.term, ck::kNoTerm) << token.text;
    return;
  }
  std::string term = folded;
  if (word) {
    term = tx::stem(folded);
  } else if (token.kind == tx::TokenKind::Number) {
    term.clear();
    for (const char c : folded) {
      if (c != ',') term.push_back(c);
    }
  }
  ASSERT_NE(info.term, ck::kNoTerm) << token.text;
  EXPECT_EQ(vocabulary.term(info.term), term) << token.text;
  EXPECT_EQ(info.term_length, code_points(term)) << token.text;
  if (code_points(term) >= ck::kPrefixLength) {
    ASSERT_NE(info.prefix, ck::kNoTerm) << token.text;
    EXPECT_EQ(ck::term_prefix(term), head(term, ck::kPrefixLength)) << token.text;
    EXPECT_EQ(info.prefix, ck::prefix_hash(head(term, ck::kPrefixLength))) << token.text;
  } else {
    EXPECT_EQ(info.prefix, ck::kNoTerm) << token.text;
  }
}

TEST(VocabularyAnalysis, AsciiAndGeneralPathsAgreeOnRandomText) {
  // Pieces that reach every branch: lowercase and capital ASCII, stop words and negation cues in
  // both cases, suffixes, digits and commas, apostrophes (ASCII and U+2019), accented and Greek
  // capitals, dotted I, sharp s, a ligature, fullwidth letters, invalid bytes.
  const std::vector<std::string> pieces = {
      "a",      "B",     "the",   "The",    "NOT",    "never",  "Cannot", "n't",  "won't",
      "ing",    "ATION", "ness",  "ly",     "s",      "e",      "y",      "Y",    "1",
      "0",      ",",     "'",     "\u2019", "_",      "x",      "Q",      "é",    "É",
      "\u0130", "ß",     "Σ",     "ς",      "\ufb01", "\uff21", "\xff",   "\xc3", "generous",
      "Organ",  "skies", "dying", " ",      " ",      " ",      ".",      "-"};
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(1, 40);
  ck::Vocabulary vocabulary(ck::kNoSeed);
  std::size_t checked = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (int i = length(rng); i > 0; --i) text += pieces[pick(rng)];
    tx::for_each_token(text, [&](const tx::Token& token) {
      expect_general_analysis(vocabulary, token);
      ++checked;
    });
  }
  EXPECT_GT(checked, 10000U);
  EXPECT_GT(vocabulary.analysed(), 1000U);
}

TEST(VocabularyAnalysis, LongWordsAroundTheStemmersStackBuffer) {
  ck::Vocabulary vocabulary(ck::kNoSeed);
  for (std::size_t n = 50; n <= 80; ++n) {
    for (const std::string_view suffix : {"ational", "ing", "ness", "es", "ly"}) {
      std::string word(n, 'b');
      word[0] = 'K';
      word += suffix;
      tx::for_each_token(word, [&](const tx::Token& t) { expect_general_analysis(vocabulary, t); });
    }
  }
}

// The shape test reads a word 8 (4) bytes at a time with an overlapping last load: a capital or a
// non-ASCII letter at any position of words of 1-24 letters must still be seen.
TEST(VocabularyAnalysis, CapitalOrNonAsciiAtEveryPosition) {
  ck::Vocabulary vocabulary(ck::kNoSeed);
  for (std::size_t n = 1; n <= 24; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      std::string word(n, 'r');
      word[at] = 'Z';
      tx::for_each_token(word, [&](const tx::Token& t) { expect_general_analysis(vocabulary, t); });
      word[at] = 'z';
      word.replace(at, 1, "É");
      tx::for_each_token(word, [&](const tx::Token& t) { expect_general_analysis(vocabulary, t); });
    }
  }
  EXPECT_GT(vocabulary.analysed(), 500U);
}

// Spellings of one term in both orders, and terms interned by intern_term() before any spelling
// produced them: each analysis as the general functions give it.
TEST(VocabularyAnalysis, SpellingsOfOneTerm) {
  const std::vector<std::string> words = {"Generously", "generous",   "GENEROUS",      "running",
                                          "Runs",       "run",        "nationalities", "national",
                                          "Nationally", "caf\u00e9s", "Caf\u00e9",     "1,234,567",
                                          "1234567",    "id_42"};
  for (int order = 0; order < 2; ++order) {
    ck::Vocabulary vocabulary(ck::kNoSeed);
    vocabulary.intern_term("nation");  // no shape yet
    vocabulary.intern_term("zorblax");
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::string& text = order == 0 ? words[i] : words[words.size() - 1 - i];
      tx::for_each_token(text, [&](const tx::Token& t) { expect_general_analysis(vocabulary, t); });
    }
    tx::for_each_token("Nations zorblaxes",
                       [&](const tx::Token& t) { expect_general_analysis(vocabulary, t); });
  }
}

TEST(VocabularyAnalysis, NegationCues) {
  for (const std::string_view cue : {"not", "no", "never", "nor", "none", "neither", "cannot",
                                     "without", "n't", "don't", "isn't", "won't"}) {
    EXPECT_TRUE(ck::is_negation(cue)) << cue;
  }
  for (const std::string_view other :
       {"",     "n",     "nt",   "t",          "note", "nob", "on",  "ever", "cannon", "withouts",
        "nort", "nones", "dont", "don\u2019t", "ain'", "noT", "Not", "'t",   "n'tx",   "1"}) {
    EXPECT_FALSE(ck::is_negation(other)) << other;
  }
}

TEST(EnglishTables, HashIndexFindsEveryStringAndNothingElse) {
  // The relations' word list is read by id only, so it has no index.
  const ck::StaticStrings& words = ck::english_relations().words;
  ASSERT_GT(words.count, 0U);
  EXPECT_EQ(words.slot_count, 0U);
  EXPECT_FALSE(words.find(words.at(0)).has_value());
  for (const ck::StaticStrings* table :
       {&ck::english_frequencies().stems, &ck::english_relations().keys}) {
    ASSERT_GT(table->count, 0U);
    // Line-aligned: a slot's two words are always on one cache line.
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(table->slots) % 64, 0U);
    for (std::uint32_t id = 0; id < table->count; ++id) {
      const std::string_view s = table->at(id);
      const auto found = table->find(s);
      ASSERT_TRUE(found.has_value()) << s;
      EXPECT_EQ(*found, id) << s;
      // Near misses: same bytes plus one, or one fewer.
      const std::string longer = std::string(s) + "q";
      if (const auto other = table->find(longer)) {
        EXPECT_EQ(table->at(*other), longer);
      }
      if (!s.empty()) {
        const std::string_view shorter = s.substr(0, s.size() - 1);
        if (const auto other = table->find(shorter)) {
          EXPECT_EQ(table->at(*other), shorter);
        }
      }
    }
    EXPECT_FALSE(table->find("\xff\xfe not a stem").has_value());
  }
}

}  // namespace
