// ChunkGrams rules a key out of a chunk from its bytes alone: it must never rule out a key that a
// token of the chunk has (that would turn a used chunk into an unreported one).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "claims/chunk_grams.hpp"
#include "claims/claim_tokens.hpp"
#include "text/stemmer.hpp"
#include "text/tokenizer.hpp"

namespace {

using sc::claims::ChunkGrams;
using sc::claims::gram_slot;
using sc::claims::kept_prefix;

bool may_hold(ChunkGrams& grams, const std::string& key) {
  return grams.may_hold(gram_slot(key), [&] { return std::string_view(key); });
}

// Every token's key (as the chunk analysis makes it) is held.
void expect_keys_held(const std::string& text) {
  ChunkGrams grams;
  grams.read(text);
  std::string folded;
  std::string key;
  sc::text::for_each_token(text, [&](const sc::text::Token& token) {
    sc::claims::fold_token(token.text, folded);
    sc::claims::token_key(token.text, token.kind, folded, key);
    EXPECT_TRUE(may_hold(grams, key))
        << "key '" << key << "' of '" << token.text << "' in: " << text;
  });
}

// The rule kept_prefix rests on: a Porter2 stem of four or more bytes starts with the word's first
// max(3, size - 2) bytes. Exhaustive over four letters and random beyond; a fuller run (every word
// of up to five of a-z and the apostrophe, and 40M random words ending in Porter2 suffixes: 54M
// words) found no exception either.
TEST(ChunkGrams, KeptPrefixIsKeptByEveryWordOfTheKey) {
  std::string stem;
  long checked = 0;
  auto check = [&](const std::string& word) {
    if (word.empty() || word[0] == '\'') return;  // tokens never start with an apostrophe
    sc::text::stem_into(word, stem);
    const std::string_view prefix = kept_prefix(stem);
    if (prefix.empty()) return;
    ++checked;
    EXPECT_EQ(word.compare(0, prefix.size(), prefix), 0) << word << " -> " << stem;
  };
  const std::string letters = "abcdefghijklmnopqrstuvwxyz'";
  std::string w;
  for (char a : letters) {
    for (char b : letters) {
      for (char c : letters) {
        for (char d : letters) check(w = {a, b, c, d});
      }
    }
  }
  std::mt19937 rng(5);
  const std::vector<std::string> endings = {
      "ing",     "ed",     "edly",  "ingly", "ies",     "ied",   "s",       "ying",    "ly",
      "ational", "tional", "enci",  "anci",  "abli",    "entli", "izer",    "ization", "ation",
      "ator",    "alism",  "aliti", "alli",  "fulness", "ousli", "ousness", "iveness", "iviti",
      "biliti",  "bli",    "ogi",   "fulli", "lessli",  "li",    "alize",   "icate",   "iciti",
      "ical",    "ful",    "ness",  "ative", "al",      "ance",  "ence",    "er",      "ic",
      "able",    "ible",   "ant",   "ement", "ment",    "ent",   "ism",     "ate",     "iti",
      "ous",     "ive",    "ize",   "ion",   "e",       "y",     "eed",     "eedly",   "sses"};
  for (int i = 0; i < 400000; ++i) {
    w.clear();
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int j = 0; j < n; ++j) w += letters[rng() % (rng() % 8 == 0 ? 27 : 26)];
    for (int j = static_cast<int>(rng() % 4); j > 0; --j) w += endings[rng() % endings.size()];
    check(w);
  }
  for (const char* special : {"dying", "lying", "tying", "skies", "idly", "gently", "ugly", "early",
                              "only", "singly", "news", "generously", "communism", "arsenal"}) {
    check(special);
  }
  EXPECT_GT(checked, 300000);
}

TEST(ChunkGrams, KeysWithoutAKeptPrefixAreNeverRuledOut) {
  EXPECT_TRUE(kept_prefix("cat").empty());   // too short: "cats", "catting"... may change more
  EXPECT_TRUE(kept_prefix("1000").empty());  // numbers are keyed without commas ("1,000")
  EXPECT_TRUE(kept_prefix("#i").empty());    // the speaker
  EXPECT_TRUE(kept_prefix("caf\xC3\xA9").empty());  // non-ASCII
  EXPECT_TRUE(kept_prefix("ipc_420").empty());
  EXPECT_EQ(kept_prefix("punish"), "puni");
  EXPECT_EQ(kept_prefix("fine"), "fin");
  ChunkGrams grams;
  ASSERT_TRUE(grams.read("A dog barked at 1,000 cats."));
  EXPECT_TRUE(may_hold(grams, "1000"));
  EXPECT_TRUE(may_hold(grams, "cat"));
  EXPECT_TRUE(may_hold(grams, "zzz"));  // short: not ruled out, whatever the text
  EXPECT_FALSE(may_hold(grams, "punish"));
  EXPECT_TRUE(may_hold(grams, "barker"));   // its kept prefix "bark" starts "barked"
  EXPECT_FALSE(may_hold(grams, "barrel"));  // "bar" is there, "barr" is not
  EXPECT_TRUE(may_hold(grams, "bark"));
}

TEST(ChunkGrams, RulesOutOnlyAbsentWords) {
  ChunkGrams grams;
  ASSERT_TRUE(grams.read("SMITH'S state-of-the-art [S2] court cheating, 'quoted' x_punishment."));
  EXPECT_TRUE(may_hold(grams, "smith"));
  EXPECT_TRUE(may_hold(grams, "cheat"));
  EXPECT_TRUE(may_hold(grams, "court"));
  EXPECT_TRUE(may_hold(grams, "quot"));
  EXPECT_TRUE(may_hold(grams, "punish"));  // after an underscore: a start, whatever the token
  EXPECT_FALSE(may_hold(grams, "mith"));   // inside a word: no token starts there
  EXPECT_FALSE(may_hold(grams, "heating"));
  EXPECT_FALSE(may_hold(grams, "penalti"));
}

TEST(ChunkGrams, NonAsciiShortAndEmptyChunksRuleNothingOut) {
  ChunkGrams grams;
  // Folding may make letters of these bytes ("\xEF\xAC\x81" is the "fi" ligature).
  EXPECT_FALSE(grams.read("\xEF\xAC\x81ned heavily"));
  EXPECT_TRUE(may_hold(grams, "punish"));
  EXPECT_FALSE(grams.read(std::string_view("abc\xFF", 4)));  // invalid UTF-8
  EXPECT_TRUE(may_hold(grams, "punish"));
  for (const char* text : {"", "a", "ab", "abc"}) {
    ASSERT_TRUE(grams.read(text));
    EXPECT_FALSE(may_hold(grams, "punish")) << text;
  }
  // A chunk past kMaxBytes is left to the analysis (one profile serves every claim).
  EXPECT_FALSE(grams.read(std::string(ChunkGrams::kMaxBytes + 1, 'a')));
  EXPECT_TRUE(may_hold(grams, "punish"));
  ASSERT_TRUE(grams.read(std::string(ChunkGrams::kMaxBytes, 'a')));
  EXPECT_FALSE(may_hold(grams, "punish"));
  ASSERT_TRUE(grams.read("fine"));  // a word at the very end
  EXPECT_TRUE(may_hold(grams, "fine"));
  EXPECT_TRUE(may_hold(grams, "finer"));     // kept prefix "fin"
  EXPECT_FALSE(may_hold(grams, "finance"));  // kept prefix "finan"
}

TEST(ChunkGrams, VerifyingKeysCostsAtMostABudgetPerStart) {
  // One word repeated: every start shares the slot of "pun", so telling "punish" absent compares
  // every start. A check asks it for each of its claims (thousands): past the chunk's budget a
  // present slot answers "may hold", and the analysis (once per chunk) decides instead.
  ChunkGrams grams;
  std::string text;
  while (text.size() + 5 <= ChunkGrams::kMaxBytes) text += "punx ";
  ASSERT_TRUE(grams.read(text));
  const std::size_t starts = text.size() / 5;
  const std::size_t budget = ChunkGrams::kBaseBudget + ChunkGrams::kBudgetPerStart * starts;
  std::size_t answered = 0;  // "absent" answers, each comparing every start
  while (answered < 1000 && !may_hold(grams, "punish")) ++answered;
  EXPECT_EQ(answered, budget / starts);
  EXPECT_TRUE(may_hold(grams, "punctual"));  // the budget is spent: may hold
  EXPECT_FALSE(may_hold(grams, "cheat"));    // an absent slot still answers, unread
  EXPECT_TRUE(may_hold(grams, "punx"));
  ASSERT_TRUE(grams.read(text));  // a new read, a new budget
  EXPECT_FALSE(may_hold(grams, "punish"));
}

TEST(ChunkGrams, EveryTokenKeyOfRandomAsciiTextIsHeld) {
  const std::vector<std::string> words = {
      "Smith",    "cheated", "court",   "COURTS",  "punishment", "punished",   "fine",
      "fined",    "dying",   "skies",   "ability", "happily",    "generously", "don't",
      "Arthur's", "l'homme", "10,000",  "3.14",    "19th",       "covid19",    "snake_case",
      "__init__", "seven",   "I'm",     "o'clock", "news",       "relational", "organization",
      "hopping",  "crying",  "Woo-jin", "x"};
  const std::vector<std::string> gaps = {" ",  ", ", ". ", "-", "'",  "_", "[S1]", " [S2, S3] ",
                                         "\n", "(",  ")",  "?", "\t", "",  "/"};
  std::mt19937 rng(9);
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    const int n = static_cast<int>(rng() % 20);
    for (int j = 0; j < n; ++j) {
      std::string word = words[rng() % words.size()];
      if (rng() % 5 == 0) {
        for (char& c : word) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
      }
      text += word + gaps[rng() % gaps.size()];
    }
    expect_keys_held(text);
  }
}

}  // namespace
