#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "claims/claim_tokens.hpp"
#include "claims/phrases.hpp"
#include "claims/python_words.hpp"
#include "claims/rarity_weight.hpp"
#include "text/stemmer.hpp"

namespace {

using sc::claims::ClaimToken;
using sc::text::TokenKind;

struct Walked {
  std::string text;
  bool start;
};

std::vector<Walked> walk(std::string_view text) {
  std::vector<Walked> out;
  sc::claims::for_each_claim_token(text, sc::claims::citation_runs_of(text),
                                   [&](const ClaimToken& t) {
                                     out.push_back({std::string(t.token.text), t.sentence_start});
                                   });
  return out;
}

std::string key_of(std::string_view token, TokenKind kind) {
  std::string folded;
  std::string key;
  sc::claims::fold_token(token, folded);
  sc::claims::token_key(token, kind, folded, key);
  return key;
}

std::vector<std::string> python_split(std::string_view text) {
  std::vector<std::string> out;
  sc::claims::for_each_python_word(text, [&](std::string_view w, bool) { out.emplace_back(w); });
  return out;
}

TEST(ClaimTokens, FoldAndBase) {
  std::string out;
  sc::claims::fold_token("Arthur's", out);
  EXPECT_EQ(out, "arthur's");
  EXPECT_EQ(sc::claims::word_base(out), "arthur");
  EXPECT_EQ(sc::claims::word_base("students'"), "students");
  EXPECT_EQ(sc::claims::word_base("s"), "s");
  sc::claims::fold_token("MÜNCHEN", out);
  EXPECT_EQ(out, "münchen");
  sc::claims::fold_token("Don\xE2\x80\x99t", out);  // typographic apostrophe folds to '
  EXPECT_EQ(out, "don't");
}

TEST(ClaimTokens, NumbersAndKeys) {
  EXPECT_EQ(sc::claims::number_part("420", TokenKind::Number), "420");
  EXPECT_EQ(sc::claims::number_part("19th", TokenKind::Identifier), "19");
  EXPECT_EQ(sc::claims::number_part("1840s", TokenKind::Identifier), "1840");
  EXPECT_EQ(sc::claims::number_part("3.5mm", TokenKind::Identifier), "3.5");
  EXPECT_EQ(sc::claims::number_part("1,000th", TokenKind::Identifier), "1,000");
  EXPECT_EQ(sc::claims::number_part("420_0", TokenKind::Identifier), "");  // underscore: no number
  EXPECT_EQ(sc::claims::number_part("10a1", TokenKind::Identifier), "");   // digits after letters
  EXPECT_EQ(sc::claims::number_part("IPC_420", TokenKind::Identifier), "");
  EXPECT_EQ(sc::claims::number_part("words", TokenKind::Word), "");

  EXPECT_EQ(key_of("10,000", TokenKind::Number), "10000");
  EXPECT_EQ(key_of("19th", TokenKind::Identifier), "19");
  EXPECT_EQ(key_of("Punished", TokenKind::Word), "punish");
  EXPECT_EQ(key_of("punishment", TokenKind::Word), "punish");
  EXPECT_EQ(key_of("punishable", TokenKind::Word), "punish");
  EXPECT_EQ(key_of("Arthur's", TokenKind::Word), "arthur");
  EXPECT_EQ(key_of("IPC_420", TokenKind::Identifier), "ipc_420");
}

TEST(ClaimTokens, ContentNegationNames) {
  const auto& stop = sc::text::StopWords::english();
  EXPECT_FALSE(sc::claims::is_content(false, "the", stop));
  EXPECT_FALSE(sc::claims::is_content(false, "yes", stop));
  EXPECT_FALSE(sc::claims::is_content(false, "it's", stop));
  EXPECT_TRUE(sc::claims::is_content(false, "cheating", stop));
  EXPECT_TRUE(sc::claims::is_content(true, "the", stop));  // numbers always count

  EXPECT_TRUE(sc::claims::is_negation("not"));
  EXPECT_TRUE(sc::claims::is_negation("isn't"));
  EXPECT_TRUE(sc::claims::is_negation("without"));
  EXPECT_FALSE(sc::claims::is_negation("note"));

  EXPECT_TRUE(sc::claims::is_capital(U'A'));
  EXPECT_TRUE(sc::claims::is_capital(U'Ü'));
  EXPECT_TRUE(sc::claims::is_capital(U'Σ'));
  EXPECT_FALSE(sc::claims::is_capital(U'a'));
  EXPECT_FALSE(sc::claims::is_capital(U'ς'));  // final sigma folds, but is lowercase
  EXPECT_FALSE(sc::claims::is_capital(U'ſ'));
  EXPECT_FALSE(sc::claims::is_capital(U'中'));

  using sc::claims::is_name;
  using sc::claims::name_shape;
  EXPECT_TRUE(is_name(name_shape("Mumbai"), false));
  EXPECT_FALSE(is_name(name_shape("Mumbai"), true));  // sentence-initial: not a name
  EXPECT_TRUE(is_name(name_shape("NASA"), true));     // all caps: a name anywhere
  EXPECT_TRUE(is_name(name_shape("IPC_420"), true));  // letters I, P, C all capitals
  EXPECT_FALSE(is_name(name_shape("A"), false));      // one letter
  EXPECT_FALSE(is_name(name_shape("iPhone"), false));
  EXPECT_TRUE(is_name(name_shape("Ürümqi"), false));
}

TEST(ClaimTokens, WalkSkipsCitationsAndMarksSentenceStarts) {
  const auto tokens = walk("Smith won [S1]. Then Jones [IPC_420_0], \"Brown\" (Lee) lost");
  const std::vector<std::string> texts = {"Smith", "won", "Then", "Jones", "Brown", "Lee", "lost"};
  ASSERT_EQ(tokens.size(), texts.size());
  const bool starts[] = {true, false, true, false, true, true, true};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    EXPECT_EQ(tokens[i].text, texts[i]);
    EXPECT_EQ(tokens[i].start, starts[i]) << i;
  }
  // The brackets of a citation are no sentence end; a plain bracket is.
  const auto cited = walk("alpha [S1] beta [x y] gamma");
  ASSERT_EQ(cited.size(), 5u);
  EXPECT_FALSE(cited[1].start);  // beta: only a citation between
  EXPECT_TRUE(cited[2].start);   // x: after '['
  // Typographic quotes end sentences too.
  const auto quoted = walk("said \xE2\x80\x9CHello\xE2\x80\x9D there");
  ASSERT_EQ(quoted.size(), 3u);
  EXPECT_TRUE(quoted[1].start);
  EXPECT_TRUE(quoted[2].start);
  // Invalid UTF-8 separates tokens and is never read past.
  const auto broken = walk(std::string_view("ab\xFF\xE2\x80", 5));
  ASSERT_EQ(broken.size(), 1u);
  EXPECT_EQ(broken[0].text, "ab");
  EXPECT_TRUE(walk("").empty());
}

TEST(ClaimTokens, PythonSplitAndLower) {
  EXPECT_EQ(python_split("  a\tb\n\u00a0c\u3000d\u2003e\x1c"
                         "f "),
            (std::vector<std::string>{"a", "b", "c", "d", "e", "f"}));
  EXPECT_EQ(python_split("x\u200by"), (std::vector<std::string>{"x\u200by"}));  // ZWSP: no space
  EXPECT_TRUE(python_split(" \t\n").empty());
  EXPECT_EQ(python_split(std::string_view("a\xC2", 2)), (std::vector<std::string>{"a\xC2"}));
  std::string out;
  sc::claims::python_lower("ÜBER", out);
  EXPECT_EQ(out, "über");
  sc::claims::python_lower("Don\xE2\x80\x99t", out);  // str.lower() keeps U+2019
  EXPECT_EQ(out, "don\xE2\x80\x99t");
  sc::claims::python_lower("\xC5\xBF", out);  // 'ſ' is lowercase already
  EXPECT_EQ(out, "\xC5\xBF");
}

// Porter2 keeps the first two letters of a word unless all but the first letter is a removable
// ending: the property KeyFilter relies on to skip stemming. Exhaustive over short words, random
// beyond (a fuller run, 246M generated words, found no exception either).
TEST(ClaimTokens, KeyFilterNeverRulesOutAMatchingWord) {
  sc::claims::KeyFilter none;  // empty: lets through only the words whose prefix may change
  std::string stem;
  auto check = [&](const std::string& word) {
    const std::string_view base = sc::claims::word_base(word);
    if (base.size() < 3 || word[0] == '\'') return;
    sc::text::stem_into(base, stem);
    const bool same = stem.size() >= 2 && stem[0] == base[0] && stem[1] == base[1];
    if (!same) {
      EXPECT_TRUE(none.might_match_word(word)) << word << " -> " << stem;
    }
  };
  const std::string letters = "abcdefghijklmnopqrstuvwxyz'";
  std::string w;
  for (char a : letters) {
    for (char b : letters) {
      for (char c : letters) {
        check(w = {a, b, c});
        for (char d : letters) check(w = {a, b, c, d});
      }
    }
  }
  std::mt19937 rng(7);
  const char* endings[] = {"ing", "ed", "edly", "ingly", "ies", "ied", "s", "'s", "ying", "ly"};
  for (int i = 0; i < 300000; ++i) {
    w.clear();
    const int n = 1 + static_cast<int>(rng() % 5);
    for (int j = 0; j < n; ++j) w += letters[rng() % 26];
    for (int j = static_cast<int>(rng() % 3); j > 0; --j) w += endings[rng() % 10];
    check(w);
  }
  sc::claims::KeyFilter some;
  some.add("punish");
  EXPECT_TRUE(some.might_match_word("punished"));
  EXPECT_TRUE(some.might_match_word("puppy"));  // same first two letters: must be stemmed to tell
  EXPECT_FALSE(some.might_match_word("cheat"));
  EXPECT_TRUE(some.might_match_word("aed"));  // "aed" stems to "a": always let through
}

TEST(ClaimRarityWeight, ParsesAndWeighs) {
  const auto table = sc::checker::TermStatistics::from_tsv(
      "# header\n\ncheat\t3.0\npunish\t4.5\r\nrare\t0.5\nx\t2\nx\t6.5\n");
  using sc::claims::rarity_weight;
  EXPECT_EQ(table.size(), 4u);
  EXPECT_EQ(table.zipf("cheat"), 3.0);
  EXPECT_EQ(table.zipf("x"), 6.5);  // a repeated stem keeps its last value
  EXPECT_FALSE(table.zipf("missing").has_value());
  EXPECT_EQ(rarity_weight(table, "cheat"), 4.0);    // 7 - 3
  EXPECT_EQ(rarity_weight(table, "punish"), 3.0);   // 7 - 4.5 = 2.5, clamped to 3
  EXPECT_EQ(rarity_weight(table, "rare"), 6.5);     // 7 - 0.5
  EXPECT_EQ(rarity_weight(table, "missing"), 6.0);  // unknown: 7 - 1
  EXPECT_EQ(rarity_weight(table, "1999"), 6.0);     // numbers weigh as unknown stems
  EXPECT_EQ(rarity_weight(sc::checker::TermStatistics(), "anything"), 6.0);
}

TEST(ClaimRarityWeight, RejectsBadLinesByNumber) {
  try {
    sc::checker::TermStatistics::from_tsv("a\t1\nb 2\n");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sc::checker::TermStatistics::from_tsv("a\tx\n"), std::invalid_argument);
  EXPECT_THROW(sc::checker::TermStatistics::from_tsv("a\tnan\n"), std::invalid_argument);
}

std::vector<std::int32_t> ids(const sc::claims::PhraseSet& set, std::string_view text) {
  sc::claims::KeyFilter filter;
  set.add_to(filter);
  return sc::claims::phrase_ids(set, filter, text);
}

TEST(ClaimPhrases, MatchOnStemsWithWildcards) {
  const sc::claims::PhraseSet set(
      {"based on the evidence", "what does * mean", "punishment", "", "* in summary *", "[S1]"});
  EXPECT_EQ(set.size(), 4u);  // "" and "[S1]" (a citation marker only) have no token
  EXPECT_EQ(set.phrases().size(), 6u);
  EXPECT_EQ(set.max_span(), 11u);  // "what does * mean": 3 tokens + 8 for the wildcard

  EXPECT_EQ(set.longest_match_at(ids(set, "Based on the Evidence, X."), 0), 4u);
  EXPECT_EQ(set.longest_match_at(ids(set, "In summary, X."), 0), 2u);     // edge wildcards dropped
  EXPECT_EQ(set.longest_match_at(ids(set, "Punished severely"), 0), 1u);  // stems match
  EXPECT_EQ(set.longest_match_at(ids(set, "based on evidence"), 0), 0u);
  EXPECT_EQ(set.longest_match_at(ids(set, "What does mens rea mean?"), 0), 5u);
  EXPECT_EQ(set.longest_match_at(ids(set, "What does mean"), 0), 0u);  // a wildcard takes >= 1
  EXPECT_EQ(set.longest_match_at(ids(set, "what does a b c d e f g h i mean"), 0), 0u);  // > 8
  EXPECT_EQ(set.longest_match_at(ids(set, "what does a b c d e f g h mean"), 0), 11u);

  std::vector<bool> covered;
  EXPECT_TRUE(set.mark_matches(ids(set, "So what is the punishment here"), covered));
  EXPECT_EQ(covered, (std::vector<bool>{false, false, false, false, true, false}));
  EXPECT_FALSE(set.mark_matches(ids(set, "nothing to see"), covered));
  EXPECT_FALSE(
      sc::claims::PhraseSet(std::vector<std::string>{}).mark_matches(ids(set, "x"), covered));
}

/// "* word" `n` times, then "zzz": the keys word (* word)^(n-1) zzz, with n - 1 wildcards.
std::string many_wildcards(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "* word ";
  return out + "zzz";
}

std::string words(int n, std::string_view tail = "") {
  std::string out;
  for (int i = 0; i < n; ++i) out += "word ";
  return out + std::string(tail);
}

TEST(ClaimPhrases, ManyWildcardsMatchInPolynomialTime) {
  // 19 wildcards on 300 tokens: the plain depth-first search tries up to 8^18 ways per start.
  const sc::claims::PhraseSet set({many_wildcards(20)});
  EXPECT_EQ(set.max_span(), 19u * 8u + 21u);
  const std::vector<std::int32_t> none = ids(set, words(300));
  ASSERT_EQ(none.size(), 300u);
  EXPECT_EQ(set.longest_match_at(none, 0), 0u);
  EXPECT_FALSE(set.matches_anywhere(none));
  std::vector<bool> covered;
  EXPECT_FALSE(set.mark_matches(none, covered));
  EXPECT_EQ(covered, std::vector<bool>(300, false));

  // 300 words, then "zzz word zzz" (tokens 300..302). From a start s the last "word" falls on
  // s + 19 + (the 19 skips, 19..152): on 299 (then zzz 300, end 301) for s in [128, 261], on 301
  // (end 303) for s in [130, 263]. Shortest wildcards first, the smaller total wins: 301 wherever
  // it is reachable, 303 from 262 and 263 only.
  const std::vector<std::int32_t> text = ids(set, words(300, "zzz word zzz"));
  ASSERT_EQ(text.size(), 303u);
  EXPECT_EQ(set.longest_match_at(text, 0), 0u);
  EXPECT_EQ(set.longest_match_at(text, 127), 0u);
  EXPECT_EQ(set.longest_match_at(text, 128), 301u);
  EXPECT_EQ(set.longest_match_at(text, 200), 301u);
  EXPECT_EQ(set.longest_match_at(text, 261), 301u);
  EXPECT_EQ(set.longest_match_at(text, 262), 303u);
  EXPECT_EQ(set.longest_match_at(text, 263), 303u);
  EXPECT_EQ(set.longest_match_at(text, 264), 0u);
  EXPECT_TRUE(set.matches_anywhere(text));
  EXPECT_TRUE(set.mark_matches(text, covered));
  std::vector<bool> want(303, true);
  std::fill(want.begin(), want.begin() + 128, false);
  EXPECT_EQ(covered, want);
}

}  // namespace

TEST(ClaimTokens, ListLabels) {
  const auto label = [](std::string_view text) {
    const std::vector<sc::text::Token> tokens = sc::text::tokenize(text);
    return !tokens.empty() && sc::claims::is_list_label(text, tokens[0]);
  };
  for (const char* yes : {"1. Whoever cheats", "2) Smith", "(3) The", "10. Paris", "999. x",
                          "  4. Courts", "\t5) x", "7.", "8)"}) {
    EXPECT_TRUE(label(yes)) << yes;
  }
  for (const char* no :
       {"1000. x", "1.5 years", "4 years", "Term 1. x", "x 1. y", "1.x", "1.\u00a0x", "[S1] 1. x",
        "((1) x", "1: x", "1st. x", "\u0661. x", "", "."}) {
    EXPECT_FALSE(label(no)) << no;
  }
}
