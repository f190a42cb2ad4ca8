// The text engine's fast paths against the general scans they shortcut: next_token (ASCII fast
// path) vs detail::next_token_utf8, SentenceSplitter::split (skips inert bytes) vs split_bytewise,
// and checker::scan_chunk's tokens vs next_token_utf8. Each must agree bit for bit on any input.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "checker/scanner.hpp"
#include "text/sentences.hpp"
#include "text/tokenizer.hpp"
#include "text/utf8.hpp"

namespace {

using sc::text::Span;
using sc::text::Token;

std::string utf8(char32_t cp) {
  std::string out;
  sc::text::append_utf8(cp, out);
  return out;
}

std::string describe(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7F) {
      out.push_back(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 15]);
    }
  }
  return out;
}

// Every token of `text` from `start` on, as next_token or the UTF-8 path finds it, and the final
// position.
struct Walk {
  std::vector<Token> tokens;
  std::size_t end;
};

template <bool kFast>
Walk walk(std::string_view text, std::size_t start = 0) {
  Walk w{{}, start};
  Token token{};
  while (kFast ? sc::text::next_token(text, w.end, token)
               : sc::text::detail::next_token_utf8(text, w.end, token)) {
    w.tokens.push_back(token);
  }
  return w;
}

bool same_tokens(const std::vector<Token>& a, const std::vector<Token>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    // Same view (pointer and length), offset and kind.
    if (a[i].text.data() != b[i].text.data() || a[i].text.size() != b[i].text.size() ||
        a[i].offset != b[i].offset || a[i].kind != b[i].kind) {
      return false;
    }
  }
  return true;
}

void expect_tokens_agree(std::string_view text) {
  const Walk fast = walk<true>(text);
  const Walk general = walk<false>(text);
  ASSERT_TRUE(same_tokens(fast.tokens, general.tokens)) << describe(text);
  ASSERT_EQ(fast.end, general.end) << describe(text);
}

// From every start offset (mid code point included), one call at a time.
void expect_tokens_agree_from_every_offset(std::string_view text) {
  for (std::size_t start = 0; start <= text.size(); ++start) {
    std::size_t p_fast = start;
    std::size_t p_general = start;
    Token a{};
    Token b{};
    const bool fa = sc::text::next_token(text, p_fast, a);
    const bool fb = sc::text::detail::next_token_utf8(text, p_general, b);
    ASSERT_EQ(fa, fb) << describe(text) << " from " << start;
    ASSERT_EQ(p_fast, p_general) << describe(text) << " from " << start;
    if (fa) {
      ASSERT_TRUE(same_tokens({a}, {b})) << describe(text) << " from " << start;
    }
  }
}

void expect_split_agrees(std::string_view text) {
  const std::vector<Span> fast = sc::text::split_sentences(text);
  const std::vector<Span> general = sc::text::split_sentences_bytewise(text);
  ASSERT_EQ(fast, general) << describe(text);
}

// Tokens of scan_chunk, which has its own ASCII loop, against the UTF-8 path.
void expect_scan_tokens_agree(std::string_view text) {
  std::vector<Token> scanned;
  sc::checker::scan_chunk(
      text, [&](const Token& t) { scanned.push_back(t); }, [] {});
  ASSERT_TRUE(same_tokens(scanned, walk<false>(text).tokens)) << describe(text);
}

void expect_all_agree(std::string_view text) {
  expect_tokens_agree(text);
  expect_split_agrees(text);
  expect_scan_tokens_agree(text);
}

// Pieces that exercise every branch: ASCII classes, connectors, terminal marks and line breaks
// (ASCII and not), closers, citation brackets, list and heading markers, letters of several
// scripts, ideographs, separators, and invalid UTF-8 (stray continuation bytes, truncated
// sequences, overlong forms, encoded surrogates, bytes above F4).
const std::vector<std::string>& pieces() {
  static const std::vector<std::string> kPieces = {"a",
                                                   "Z",
                                                   "x",
                                                   "yz",
                                                   "The",
                                                   "0",
                                                   "9",
                                                   "12",
                                                   "_",
                                                   "__",
                                                   "'",
                                                   ".",
                                                   ",",
                                                   "!",
                                                   "?",
                                                   ";",
                                                   ":",
                                                   " ",
                                                   "  ",
                                                   "\t",
                                                   "\n",
                                                   "\r",
                                                   "\r\n",
                                                   "\n\n",
                                                   "\"",
                                                   ")",
                                                   "]",
                                                   "[",
                                                   "[S1]",
                                                   "[1, 2]",
                                                   "(",
                                                   "-",
                                                   "- ",
                                                   "* ",
                                                   "# ",
                                                   "**",
                                                   "1. ",
                                                   "a) ",
                                                   "(iv) ",
                                                   "Dr",
                                                   "U.S",
                                                   "e.g",
                                                   "No",
                                                   "\u00e9",
                                                   "\u00df",
                                                   "\u0416",
                                                   "\u0130",
                                                   "\u0301",
                                                   "\u00a0",
                                                   "\u0085",
                                                   "\u2019",
                                                   "\u201d",
                                                   "\u2014",
                                                   "\u2026",
                                                   "\u203c",
                                                   "\u2047",
                                                   "\u2049",
                                                   "\u2028",
                                                   "\u2029",
                                                   "\u0964",
                                                   "\u0965",
                                                   "\u061f",
                                                   "\u06d4",
                                                   "\u3000",
                                                   "\u3002",
                                                   "\uff01",
                                                   "\uff1f",
                                                   "\uff61",
                                                   "\u300d",
                                                   "\u65e5",
                                                   "\uac00",
                                                   "\uff0c",
                                                   "\U0001F600",
                                                   "\U00020000",
                                                   "\xff",
                                                   "\x80",
                                                   "\xbf",
                                                   "\xc3",
                                                   "\xc2",
                                                   "\xe2\x80",
                                                   "\xe2",
                                                   "\xe3\x80",
                                                   "\xef\xbc",
                                                   "\xe6\x97",
                                                   "\xf0\x9f",
                                                   "\xed\xa0\x80",
                                                   "\xc0\xae",
                                                   "\xe0\x80\xae",
                                                   "\xf5\x80\x80\x80"};
  return kPieces;
}

std::string random_text(std::mt19937& rng, std::size_t max_pieces) {
  std::string text;
  const std::size_t n = rng() % (max_pieces + 1);
  for (std::size_t i = 0; i < n; ++i) text += pieces()[rng() % pieces().size()];
  return text;
}

// ---------------------------------------------------------------------------------------------

TEST(TextFastPaths, EmptyAndTiny) {
  expect_all_agree("");
  expect_all_agree("a");
  expect_all_agree(".");
  expect_all_agree(" ");
  expect_all_agree("\xff");
  expect_tokens_agree_from_every_offset("");
}

TEST(TextFastPaths, EveryByteAloneAndInContext) {
  for (int b = 0; b < 256; ++b) {
    const std::string c(1, static_cast<char>(b));
    for (const std::string& text :
         {c, "ab" + c + "cd", "12" + c + "34", "ab'" + c, "a_" + c, "1." + c, "Ab" + c + " Cd",
          "Ab." + c + " Cd", c + c + c, "Word one two three four five" + c + " Six seven."}) {
      expect_all_agree(text);
      expect_tokens_agree_from_every_offset(text);
    }
  }
}

// Every code point in the contexts where it can join or end a token, end a sentence (a terminal
// mark before an uppercase word) or break a line (after a bold title line, which only a line
// break ends): what skip_inert skips and ascii_token ends at must never act.
TEST(TextFastPaths, EveryCodePointInContext) {
  for (char32_t cp = 0x80; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const std::string c = utf8(cp);
    for (const std::string& text :
         {"ab" + c + "cd", "1" + c + "2", "ab'" + c, "a_" + c, "1." + c}) {
      const Walk fast = walk<true>(text);
      const Walk general = walk<false>(text);
      ASSERT_TRUE(same_tokens(fast.tokens, general.tokens)) << describe(text);
    }
    for (const std::string& text : {"Ab" + c + " Cd", "**Ab**" + c + "cd", "Abc defgh ij" + c}) {
      expect_split_agrees(text);
    }
  }
}

// Every punctuation, line-break and closer byte at every position of an ASCII sentence, once and
// twice (9 bytes apart), so each lands at a token's start, inside, end and between tokens.
TEST(TextFastPaths, PunctuationAtEveryPosition) {
  const std::string base = "The quick brown fox jumps over the lazy dog and then Sleeps well";
  for (const std::string mark :
       {".",    "!",    "?",      "[",      "[S1]",   "\n",     "\r",   "\t",
        "\x1f", "\x7f", "\"",     ")",      "]",      "'",      "_",    ",",
        ". ",   "\n\n", "\u2026", "\u2028", "\u3002", "\u0085", "\xff", "\xc2"}) {
    for (std::size_t i = 0; i <= base.size(); ++i) {
      std::string text = base;
      text.insert(i, mark);
      expect_all_agree(text);
      std::string twice = text;
      twice.insert(std::min(twice.size(), i + 9), mark);
      expect_all_agree(twice);
    }
  }
}

TEST(TextFastPaths, RandomPieces) {
  std::mt19937 rng(20240601);
  for (int round = 0; round < 20000; ++round) {
    const std::string text = random_text(rng, 30);
    expect_all_agree(text);
    if (round % 10 == 0) expect_tokens_agree_from_every_offset(text);
    if (HasFailure()) return;
  }
}

TEST(TextFastPaths, RandomBytes) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const std::size_t n = rng() % 48;
    for (std::size_t i = 0; i < n; ++i) text.push_back(static_cast<char>(rng() & 0xFF));
    expect_all_agree(text);
    if (round % 10 == 0) expect_tokens_agree_from_every_offset(text);
    if (HasFailure()) return;
  }
}

// Mostly ASCII prose with a few non-ASCII pieces: long inert runs between events.
TEST(TextFastPaths, RandomProse) {
  std::mt19937 rng(99);
  const std::vector<std::string> words = {"the", "Court", "held", "that",  "U.S.", "Dr.",
                                          "420", "3.14",  "x_1",  "don't", "e.g.", "and"};
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const std::size_t n = rng() % 60;
    for (std::size_t i = 0; i < n; ++i) {
      text += rng() % 8 == 0 ? pieces()[rng() % pieces().size()] : words[rng() % words.size()];
      text += rng() % 10 == 0 ? ". " : " ";
    }
    expect_all_agree(text);
    if (HasFailure()) return;
  }
}

TEST(TextFastPaths, ViewsNeverReadPastTheirEnd) {
  // A view cut out of a longer buffer: the bytes after it (letters, a '.') must not count.
  const std::string buffer = "word. Next ab_cd 1.5 don't\xe2\x80\x99s";
  for (std::size_t len = 0; len <= buffer.size(); ++len) {
    const std::string_view view(buffer.data(), len);
    expect_all_agree(view);
    expect_tokens_agree_from_every_offset(view);
  }
}

TEST(TextFastPaths, LongInertRunsAroundEveryActingByte) {
  // The inert skip reads 16 bytes at a time: an acting byte (or a non-ASCII letter beside it) at
  // every position of a 48-byte run, and views that end just before a '.' in the buffer.
  const std::string run = "abcdefghij klmnopqrst uvwxyzABCD EFGHIJ KLMNOPQRSTU";
  for (const std::string mark :
       {".", "!", "?", "[", "\n", "\r", "\u00e9", "\u00e9.", "\u2026", "\u3002"}) {
    for (std::size_t i = 0; i <= run.size(); ++i) {
      std::string text = run;
      text.insert(i, mark);
      text += " Then more";
      expect_all_agree(text);
    }
  }
  const std::string buffer = run + ". Next sentence.";
  for (std::size_t len = 0; len <= run.size(); ++len) {
    expect_all_agree(std::string_view(buffer.data(), len));
    EXPECT_LE(sc::text::split_sentences(std::string_view(buffer.data(), len)).size(), 1U) << len;
  }
}

}  // namespace

// The abbreviation lookup only reads the entries of the word's size; the first entry in list
// order still decides when a word is listed twice, and any size works (empty list, one entry,
// longer than every word the scan reads back).
namespace {

std::size_t sentence_count(const std::vector<sc::text::Abbreviation>& list, std::string_view text) {
  return sc::text::SentenceSplitter(list).split(text).size();
}

}  // namespace

TEST(TextFastPaths, AbbreviationLookupBySize) {
  using K = sc::text::AbbreviationKind;
  EXPECT_EQ(sentence_count({}, "Ask Dr. Who came."), 2u);
  EXPECT_EQ(sentence_count({{"Dr", K::Never}}, "Ask Dr. Who came."), 1u);
  // First of two entries for one word wins, whichever sizes come between them.
  EXPECT_EQ(sentence_count({{"etc", K::Never}, {"ab", K::Word}, {"etc", K::Word}}, "Etc. The end."),
            1u);
  EXPECT_EQ(
      sentence_count({{"etc", K::Word}, {"abcd", K::Never}, {"etc", K::Never}}, "Etc. The end."),
      2u);
  // Case rules per entry: "No" exactly, "no" in any case.
  EXPECT_EQ(sentence_count({{"No", K::Never}}, "Take no. More."), 2u);
  EXPECT_EQ(sentence_count({{"no", K::Never}}, "Take NO. More."), 1u);
  // Sizes past the longest entry, and entries longer than any word read back.
  EXPECT_EQ(sentence_count({{"a", K::Never}}, "Extraordinarily. Done."), 2u);
  const std::string long_word(40, 'x');
  EXPECT_EQ(sentence_count({{long_word, K::Never}}, "Go " + long_word + ". Done."), 2u);
  // The default list through both scans, on every abbreviation in every case.
  for (const sc::text::Abbreviation& a : sc::text::default_abbreviations()) {
    std::string upper(a.word);
    for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
    for (const std::string& w : {std::string(a.word), upper}) {
      expect_split_agrees("See " + w + ". The next. And " + w + ". then " + w + ".");
    }
  }
}
