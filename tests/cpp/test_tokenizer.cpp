#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "text/tokenizer.hpp"

namespace {

using sc::text::CharClass;
using sc::text::Token;
using sc::text::TokenKind;

using Tok = std::tuple<std::string, std::size_t, TokenKind>;

std::vector<Tok> toks(std::string_view text) {
  std::vector<Tok> out;
  for (const Token& t : sc::text::tokenize(text))
    out.emplace_back(std::string(t.text), t.offset, t.kind);
  return out;
}

std::vector<std::string> texts(std::string_view text) {
  std::vector<std::string> out;
  for (const Token& t : sc::text::tokenize(text)) out.emplace_back(t.text);
  return out;
}

using V = std::vector<std::string>;
constexpr auto W = TokenKind::Word;
constexpr auto N = TokenKind::Number;
constexpr auto I = TokenKind::Identifier;

TEST(Tokenizer, EmptyAndSeparatorsOnly) {
  EXPECT_TRUE(toks("").empty());
  EXPECT_TRUE(toks("   \t\n").empty());
  EXPECT_TRUE(toks("... --- !!! ''' ___ ,,, ").empty());
  EXPECT_EQ(sc::text::count_tokens(""), 0U);
}

TEST(Tokenizer, SingleToken) {
  EXPECT_EQ(toks("hello"), (std::vector<Tok>{{"hello", 0, W}}));
  EXPECT_EQ(toks("  x  "), (std::vector<Tok>{{"x", 2, W}}));
  EXPECT_EQ(toks("7"), (std::vector<Tok>{{"7", 0, N}}));
}

TEST(Tokenizer, SentenceOffsetsAndKinds) {
  EXPECT_EQ(toks("Don't panic, Arthur's 42 towels."), (std::vector<Tok>{{"Don't", 0, W},
                                                                        {"panic", 6, W},
                                                                        {"Arthur's", 13, W},
                                                                        {"42", 22, N},
                                                                        {"towels", 25, W}}));
}

TEST(Tokenizer, Numbers) {
  EXPECT_EQ(toks("420 10,000 10.5 3.14."),
            (std::vector<Tok>{{"420", 0, N}, {"10,000", 4, N}, {"10.5", 11, N}, {"3.14", 16, N}}));
  EXPECT_EQ(texts("costs 5."), (V{"costs", "5"}));
  EXPECT_EQ(texts("1,2 1.2.3 1,000,000.50"), (V{"1,2", "1.2.3", "1,000,000.50"}));
  EXPECT_EQ(texts("1,,2 1..2 .5 5. ,5,"), (V{"1", "2", "1", "2", "5", "5", "5"}));
  EXPECT_EQ(texts("5.a a.5 e.g. U.S."), (V{"5", "a", "a", "5", "e", "g", "U", "S"}));
  EXPECT_EQ(texts("1'000"), (V{"1", "000"}));  // apostrophes join letters only
  EXPECT_EQ(toks("-3.5")[0], Tok("3.5", 1, N));
}

TEST(Tokenizer, Identifiers) {
  EXPECT_EQ(toks("IPC_420 covid19 snake_case_name 10th v1.2"),
            (std::vector<Tok>{{"IPC_420", 0, I},
                              {"covid19", 8, I},
                              {"snake_case_name", 16, I},
                              {"10th", 32, I},
                              {"v1.2", 37, I}}));
  EXPECT_EQ(toks("a__b"), (std::vector<Tok>{{"a__b", 0, I}}));
  EXPECT_EQ(toks("1_000"), (std::vector<Tok>{{"1_000", 0, I}}));
  // Leading and trailing underscores do not join anything.
  EXPECT_EQ(toks("__init__ _x y_"), (std::vector<Tok>{{"init", 2, W}, {"x", 10, W}, {"y", 12, W}}));
  EXPECT_EQ(texts("a_ _b"), (V{"a", "b"}));
}

TEST(Tokenizer, HyphensAndApostrophes) {
  EXPECT_EQ(texts("state-of-the-art"), (V{"state", "of", "the", "art"}));
  EXPECT_EQ(texts("'quoted' students' rock'n'roll l'homme O'Brien"),
            (V{"quoted", "students", "rock'n'roll", "l'homme", "O'Brien"}));
  EXPECT_EQ(texts("it''s x' 'y"), (V{"it", "s", "x", "y"}));
  // U+2019 (typographic apostrophe) joins like '\''.
  EXPECT_EQ(toks("don\u2019t"), (std::vector<Tok>{{"don\u2019t", 0, W}}));
  EXPECT_EQ(texts("\u2018quoted\u2019"), (V{"quoted"}));
  EXPECT_EQ(texts("x1'y"), (V{"x1", "y"}));  // the apostrophe follows a digit
}

TEST(Tokenizer, UnicodeLetters) {
  EXPECT_EQ(toks("café naïve"), (std::vector<Tok>{{"café", 0, W}, {"naïve", 6, W}}));
  EXPECT_EQ(texts("Straße, ŁÓDŹ; Ærøskøbing"), (V{"Straße", "ŁÓDŹ", "Ærøskøbing"}));
  EXPECT_EQ(texts("Καλημέρα κόσμε· τέλος;"), (V{"Καλημέρα", "κόσμε", "τέλος"}));
  EXPECT_EQ(texts("Привет, мир!"), (V{"Привет", "мир"}));
  EXPECT_EQ(texts("مرحبا، بالعالم؟"), (V{"مرحبا", "بالعالم"}));
  EXPECT_EQ(texts("नमस्ते दुनिया। फिर"), (V{"नमस्ते", "दुनिया", "फिर"}));
  EXPECT_EQ(texts("שָׁלוֹם עוֹלָם"), (V{"שָׁלוֹם", "עוֹלָם"}));
  // Decomposed é: combining marks stay inside the word.
  EXPECT_EQ(texts("cafe\u0301 ok"), (V{"cafe\u0301", "ok"}));
  EXPECT_EQ(toks("Straße42"), (std::vector<Tok>{{"Straße42", 0, I}}));
}

TEST(Tokenizer, CjkOneCharacterPerToken) {
  EXPECT_EQ(toks("日本語"), (std::vector<Tok>{{"日", 0, W}, {"本", 3, W}, {"語", 6, W}}));
  EXPECT_EQ(texts("ABC日本x"), (V{"ABC", "日", "本", "x"}));
  EXPECT_EQ(texts("ひらがな、カタカナ。"), (V{"ひ", "ら", "が", "な", "カ", "タ", "カ", "ナ"}));
  EXPECT_EQ(texts("한국어 문장"), (V{"한", "국", "어", "문", "장"}));
  EXPECT_EQ(texts("人々"), (V{"人", "々"}));
  EXPECT_EQ(texts("𠀀x"), (V{"𠀀", "x"}));  // CJK Extension B, 4-byte UTF-8
}

TEST(Tokenizer, SymbolsEmojiAndSpacesSeparate) {
  EXPECT_EQ(texts("I \u2764\uFE0F NY \U0001F389!"), (V{"I", "NY"}));
  EXPECT_EQ(texts("x\U0001F600y a\u00A0b c\u2014d e\u3000f g\u200Bh"),
            (V{"x", "y", "a", "b", "c", "d", "e", "f", "g", "h"}));
  EXPECT_EQ(texts("«Bonjour» ¿Qué? 5×3 50€ ©2024 x²"),
            (V{"Bonjour", "Qué", "5", "3", "50", "2024", "x"}));
  EXPECT_EQ(texts("a\uFFFDb \U0001F1FA\U0001F1F8 \uE000z"), (V{"a", "b", "z"}));
}

TEST(Tokenizer, InvalidUtf8IsSeparator) {
  EXPECT_EQ(texts("abc\xff"), (V{"abc"}));
  EXPECT_EQ(toks("ab\x80"
                 "cd"),
            (std::vector<Tok>{{"ab", 0, W}, {"cd", 3, W}}));  // lone continuation byte
  EXPECT_EQ(texts("abc\xC3"), (V{"abc"}));                    // truncated 2-byte at end
  EXPECT_EQ(texts("abc\xE6\x97"), (V{"abc"}));                // truncated 3-byte at end
  EXPECT_TRUE(texts("\xF0\x9F\x98").empty());                 // truncated 4-byte only
  EXPECT_EQ(texts("a\xC0\xAF"
                  "b"),
            (V{"a", "b"}));  // overlong '/'
  EXPECT_EQ(texts("a\xE0\x80\xAF"
                  "b"),
            (V{"a", "b"}));  // overlong 3-byte
  EXPECT_EQ(texts("a\xED\xA0\x80"
                  "b"),
            (V{"a", "b"}));                               // UTF-16 surrogate
  EXPECT_EQ(texts("a\xF4\x90\x80\x80z"), (V{"a", "z"}));  // above U+10FFFF
  EXPECT_EQ(texts("1\xff"
                  "2 x\xC3_y"),
            (V{"1", "2", "x", "y"}));
  EXPECT_EQ(texts("caf\xC3 \xC3\xA9t\xC3\xA9"), (V{"caf", "\xC3\xA9t\xC3\xA9"}));
}

TEST(Tokenizer, NeverReadsPastTheView) {
  // The view ends inside a valid 2-byte sequence: the byte after the view must not be used.
  const std::string buffer = "abc\xC3\xA9";
  EXPECT_EQ(texts(std::string_view(buffer.data(), 4)), (V{"abc"}));
  const std::string connector = "a_b";  // underscore at the very end of the view
  EXPECT_EQ(texts(std::string_view(connector.data(), 2)), (V{"a"}));
  const std::string digits = "1.5";
  EXPECT_EQ(texts(std::string_view(digits.data(), 2)), (V{"1"}));
  const std::string apostrophe = "don't";
  EXPECT_EQ(texts(std::string_view(apostrophe.data(), 4)), (V{"don"}));
}

TEST(Tokenizer, ToStringAndClassify) {
  EXPECT_EQ(sc::text::to_string(W), "word");
  EXPECT_EQ(sc::text::to_string(N), "number");
  EXPECT_EQ(sc::text::to_string(I), "identifier");
  EXPECT_EQ(sc::text::classify(U'a'), CharClass::Letter);
  EXPECT_EQ(sc::text::classify(U'7'), CharClass::Digit);
  EXPECT_EQ(sc::text::classify(U'_'), CharClass::Underscore);
  EXPECT_EQ(sc::text::classify(U'\''), CharClass::Apostrophe);
  EXPECT_EQ(sc::text::classify(0x2019), CharClass::Apostrophe);
  EXPECT_EQ(sc::text::classify(U','), CharClass::NumberPunct);
  EXPECT_EQ(sc::text::classify(0xE9), CharClass::Letter);     // é
  EXPECT_EQ(sc::text::classify(0xD7), CharClass::Separator);  // ×
  EXPECT_EQ(sc::text::classify(0x0436), CharClass::Letter);   // ж
  EXPECT_EQ(sc::text::classify(0x4E2D), CharClass::Ideograph);
  EXPECT_EQ(sc::text::classify(0x1F600), CharClass::Separator);
  EXPECT_EQ(sc::text::classify(0xFFFD), CharClass::Separator);
  EXPECT_EQ(sc::text::classify(0x10FFFF), CharClass::Separator);
  EXPECT_EQ(sc::text::classify(0x0660), CharClass::Letter);  // Arabic-Indic digit: not ASCII
}

TEST(Tokenizer, CallbackFormMatchesVectorForm) {
  const std::string text = "Hello, wörld: IPC_420 costs 10,000.50 — 日本 don't.";
  std::vector<Token> seen;
  sc::text::for_each_token(text, [&seen](const Token& t) { seen.push_back(t); });
  const std::vector<Token> all = sc::text::tokenize(text);
  ASSERT_EQ(seen.size(), all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(seen[i].text, all[i].text);
    EXPECT_EQ(seen[i].offset, all[i].offset);
    EXPECT_EQ(seen[i].kind, all[i].kind);
  }
  EXPECT_EQ(sc::text::count_tokens(text), all.size());
}

// Every token views the input at its offset, tokens are ordered and disjoint, and each token
// re-tokenizes to exactly itself, on random byte strings (valid and invalid UTF-8 mixed).
TEST(Tokenizer, RandomBytesInvariants) {
  std::mt19937 rng(12345);
  const std::vector<std::string> pieces = {"a",        "Z",
                                           "é",        "ß",
                                           "Ж",        "日",
                                           "😀",        "1",
                                           "0",        "_",
                                           "'",        "\u2019",
                                           ".",        ",",
                                           " ",        "-",
                                           "\xff",     "\x80",
                                           "\xC3",     "\xE6\x97",
                                           "\xF0\x9F", "\xED\xA0\x80",
                                           "\u00A0",   "\u0301"};
  std::uniform_int_distribution<std::size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(0, 40);
  std::uniform_int_distribution<int> byte(0, 255);
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const int n = length(rng);
    for (int i = 0; i < n; ++i) {
      if (round % 3 == 0) {
        text.push_back(static_cast<char>(byte(rng)));
      } else {
        text += pieces[pick(rng)];
      }
    }
    std::size_t previous_end = 0;
    for (const Token& t : sc::text::tokenize(text)) {
      ASSERT_FALSE(t.text.empty());
      ASSERT_GE(t.offset, previous_end);
      ASSERT_LE(t.offset + t.text.size(), text.size());
      ASSERT_EQ(t.text.data(), text.data() + t.offset);
      previous_end = t.offset + t.text.size();
      const std::vector<Token> again = sc::text::tokenize(t.text);
      ASSERT_EQ(again.size(), 1U) << "token " << t.text;
      ASSERT_EQ(again[0].text, t.text);
      ASSERT_EQ(again[0].kind, t.kind);
    }
  }
}

TEST(Tokenizer, TenMegabytesExactCount) {
  // 15 tokens per sentence: The quick brown fox's 10,000 jumps over IPC_420 日 本 naïve e g x y.
  const std::string sentence =
      "The quick brown fox's 10,000 jumps over IPC_420 — 日本 naïve, e.g. x-y. ";
  ASSERT_EQ(sc::text::count_tokens(sentence), 15U);
  std::string text;
  const std::size_t reps = (10U << 20) / sentence.size() + 1;
  text.reserve(reps * sentence.size());
  for (std::size_t i = 0; i < reps; ++i) text += sentence;
  ASSERT_GE(text.size(), 10U << 20);
  EXPECT_EQ(sc::text::count_tokens(text), 15 * reps);
  const std::vector<Token> all = sc::text::tokenize(text);
  ASSERT_EQ(all.size(), 15 * reps);
  const Token& last = all.back();
  EXPECT_EQ(last.text, "y");
  EXPECT_EQ(last.offset, text.size() - 3);
  EXPECT_EQ(all[all.size() - 8].kind, I);  // IPC_420 of the last sentence
  EXPECT_EQ(all[all.size() - 8].offset, (reps - 1) * sentence.size() + 40);
}

}  // namespace

namespace {

std::size_t letter_run_end_bytewise(std::string_view s, std::size_t pos) {
  while (pos < s.size() && ((s[pos] >= 'a' && s[pos] <= 'z') || (s[pos] >= 'A' && s[pos] <= 'Z'))) {
    ++pos;
  }
  return pos;
}

}  // namespace

TEST(Tokenizer, LetterRunsEndAtTheFirstOtherByteOrTheViewsEnd) {
  const auto run_end = [](std::string_view s, std::size_t pos) {
    return sc::text::detail::letter_run_end(reinterpret_cast<const unsigned char*>(s.data()), pos,
                                            s.size());
  };
  // Every byte value at every place of a 40-letter run, read from every start: the vector path
  // (16 bytes at a time) and the byte path must both stop at it.
  for (int byte = 0; byte < 256; ++byte) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string s(40, 'k');
      s[at] = static_cast<char>(byte);
      for (std::size_t start = 0; start <= at; start += 3) {
        ASSERT_EQ(run_end(s, start), letter_run_end_bytewise(s, start)) << byte << " at " << at;
      }
    }
  }
  // Views ending inside a longer run of letters: the bytes after the view are never read.
  const std::string letters(80, 'Q');
  for (std::size_t size = 0; size <= 64; ++size) {
    for (std::size_t start = 0; start <= size; ++start) {
      ASSERT_EQ(run_end(std::string_view(letters.data(), size), start), size);
    }
  }
}
