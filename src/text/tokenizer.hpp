/// @brief UTF-8 tokenizer: words, numbers and identifiers as views into the input, in one pass.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sc::text {

/// What a token is made of.
/// - Word: letters only, possibly joined by internal apostrophes ("don't", "Arthur's",
///   "l'homme"; the stemmer removes the possessive "'s"), or one CJK/kana/Hangul character.
/// - Number: ASCII digits, possibly joined by single '.' or ',' between digits ("420",
///   "10,000", "3.14", "1.2.3"; "1,2" is one number, as in European decimals).
/// - Identifier: letters and digits mixed and/or joined by underscores ("IPC_420", "covid19",
///   "snake_case_name", "10th", "v1.2").
enum class TokenKind : std::uint8_t { Word, Number, Identifier };

/// "word", "number" or "identifier".
std::string_view to_string(TokenKind kind) noexcept;

/// One token: a view into the tokenized text, its byte offset there, and its kind.
struct Token {
  std::string_view text;
  std::size_t offset;
  TokenKind kind;
};

/// How the tokenizer sees one code point.
enum class CharClass : std::uint8_t {
  Separator,    // spaces, punctuation, symbols, emoji, controls, private use, U+FFFD
  Letter,       // ASCII letters and every other code point not listed elsewhere
  Digit,        // ASCII 0-9 only (other scripts' digits count as letters)
  Underscore,   // '_': joins letters/digits into identifiers
  Apostrophe,   // '\'' and U+2019: join letters into one word
  NumberPunct,  // '.' and ',': join digits into one number
  Ideograph,    // CJK ideographs, kana, Hangul, Yi, Bopomofo: one token per character
};

/// The class of one code point. Letters are the complement of a compact table of separator and
/// ideograph ranges (Latin-1 punctuation, General Punctuation, symbols, arrows, CJK punctuation,
/// emoji, private use, specials...), so every alphabetic script counts without a Unicode database.
CharClass classify(char32_t cp) noexcept;

namespace detail {

/// next_token reading every code point through the UTF-8 path: the general scan that next_token
/// falls back to, and the reference the tests compare it with.
bool next_token_utf8(std::string_view text, std::size_t& pos, Token& out) noexcept;

/// The class and byte length of the code point at pos (< text.size(), a byte >= 0x80); an invalid
/// byte is a one-byte separator.
struct ClassAt {
  CharClass cls;
  std::uint8_t length;
};
ClassAt class_at(std::string_view text, std::size_t pos) noexcept;

/// Byte classes of the ASCII fast path; every byte >= 0x80 is kHigh (decode it).
enum : std::uint8_t { kSep, kLetter, kDigit, kUnder, kApos, kNumPunct, kHigh };

constexpr std::array<std::uint8_t, 256> make_byte_classes() {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t c = 0; c < 256; ++c) {
    std::uint8_t cls = kSep;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) cls = kLetter;
    if (c >= '0' && c <= '9') cls = kDigit;
    if (c == '_') cls = kUnder;
    if (c == '\'') cls = kApos;
    if (c == '.' || c == ',') cls = kNumPunct;
    if (c >= 0x80) cls = kHigh;
    t[c] = cls;
  }
  return t;
}
inline constexpr std::array<std::uint8_t, 256> kByteClass = make_byte_classes();

/// The end of the run of ASCII letters starting at `pos`: 16 bytes at a time while 16 remain
/// (SSE2 is part of x86-64), then a byte at a time. Most tokens are such runs.
inline std::size_t letter_run_end(const unsigned char* b, std::size_t pos,
                                  std::size_t size) noexcept {
#if defined(__SSE2__)
  // A letter ORed with 0x20 is 'a'..'z'; no other byte is (0x80-0xFF stay >= 0xA0). The unsigned
  // "x - 'a' < 26" is a signed compare after flipping the top bit.
  const __m128i to_lower = _mm_set1_epi8(0x20);
  const __m128i a = _mm_set1_epi8('a');
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  const __m128i limit = _mm_set1_epi8(static_cast<char>(26 ^ 0x80));
  while (pos + 16 <= size) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + pos));
    const __m128i t = _mm_xor_si128(_mm_sub_epi8(_mm_or_si128(v, to_lower), a), flip);
    const auto other =
        static_cast<unsigned>(~_mm_movemask_epi8(_mm_cmplt_epi8(t, limit))) & 0xFFFFu;
    if (other != 0) return pos + static_cast<std::size_t>(__builtin_ctz(other));
    pos += 16;
  }
#endif
  while (pos < size && kByteClass[b[pos]] == kLetter) ++pos;
  return pos;
}

/// The token starting at `start` (an ASCII letter or digit) when only ASCII bytes and a
/// non-ASCII separator or ideograph after it decide it: sets `end` and `kind` as next_token
/// would and returns true. Returns false when a byte >= 0x80 could take part in it (inside, or
/// right after a connector); the caller then asks next_token_utf8.
inline bool ascii_token(std::string_view s, std::size_t start, std::size_t& end,
                        TokenKind& kind) noexcept {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t size = s.size();
  std::size_t pos = start;
  unsigned flags = 0;  // 1 letter, 2 digit, 8 underscore
  std::uint8_t last = kSep;
  while (pos < size) {
    const std::uint8_t c = kByteClass[b[pos]];
    if (c == kLetter) {
      pos = letter_run_end(b, pos + 1, size);
      flags |= 1;
      last = kLetter;
      continue;
    }
    if (c == kDigit) {
      flags |= 2;
      last = kDigit;
      ++pos;
      continue;
    }
    if (c == kSep) break;  // most tokens end at a space or punctuation: no connector tests
    if (c == kHigh) {
      // A separator or an ideograph ends the token (an em dash, a closing quote); anything else
      // may continue it.
      const CharClass cls = class_at(s, pos).cls;
      if (cls == CharClass::Separator || cls == CharClass::Ideograph) break;
      return false;
    }
    std::size_t next = pos + 1;
    if (c == kUnder) {
      while (next < size && b[next] == '_') ++next;
      if (next >= size) break;
      const std::uint8_t after = kByteClass[b[next]];
      if (after == kHigh) return false;
      if (after != kLetter && after != kDigit) break;
      flags |= 8;
      pos = next;
      continue;
    }
    if (c == kApos && last == kLetter) {
      if (next >= size) break;
      const std::uint8_t after = kByteClass[b[next]];
      if (after == kHigh) return false;
      if (after != kLetter) break;
      pos = next;
      continue;
    }
    if (c == kNumPunct && last == kDigit) {
      if (next < size && kByteClass[b[next]] == kDigit) {  // a high byte is no ASCII digit
        pos = next;
        continue;
      }
    }
    break;
  }
  end = pos;
  const bool letter = (flags & 1) != 0;
  const bool digit = (flags & 2) != 0;
  const bool under = (flags & 8) != 0;
  kind = TokenKind::Identifier;
  if (letter && !digit && !under) kind = TokenKind::Word;
  if (!letter && !under) kind = TokenKind::Number;
  return true;
}

}  // namespace detail

/// Finds the token starting at or after byte `pos`, stores it in `out` and moves `pos` past it.
/// Returns false (pos == text.size()) when no token remains.
///
/// Rules: a token is a maximal run of letters and digits in which these connect the parts:
/// a run of '_' between two letters/digits; one apostrophe between two letters; one '.' or ','
/// between two digits. Anything else separates, so hyphenated words split into their parts
/// ("state-of-the-art" -> 4 words), a trailing period is never part of a number ("420." ->
/// "420"), and leading/trailing apostrophes or underscores are dropped ("__init__" -> "init").
/// Invalid UTF-8 bytes are separators; the scan never reads past text.size().
///
/// Inline so that token loops run the ASCII path (most text) without a call per token: a byte
/// and a table lookup at a time; from the first byte >= 0x80 that may join a token, that token
/// goes through the UTF-8 path (detail::next_token_utf8) from its start.
inline bool next_token(std::string_view text, std::size_t& pos, Token& out) noexcept {
  const std::size_t size = text.size();
  std::size_t p = pos;
  while (p < size) {
    const std::uint8_t c = detail::kByteClass[static_cast<unsigned char>(text[p])];
    if (c == detail::kLetter || c == detail::kDigit) break;
    if (c == detail::kHigh) {
      const detail::ClassAt here = detail::class_at(text, p);
      if (here.cls == CharClass::Letter || here.cls == CharClass::Ideograph) {
        pos = p;
        return detail::next_token_utf8(text, pos, out);
      }
      p += here.length;  // non-ASCII separators and connectors (U+2019) separate here
      continue;
    }
    ++p;
  }
  if (p >= size) {
    pos = size;
    return false;
  }
  std::size_t end = 0;
  TokenKind kind{};
  if (!detail::ascii_token(text, p, end, kind)) {
    pos = p;
    return detail::next_token_utf8(text, pos, out);
  }
  out = Token{std::string_view(text.data() + p, end - p), p, kind};  // p < end <= size: no check
  pos = end;
  return true;
}

/// Calls fn(const Token&) for every token of `text` in order. Allocates nothing.
template <class Fn>
void for_each_token(std::string_view text, Fn&& fn) {
  std::size_t pos = 0;
  Token token{};
  while (next_token(text, pos, token)) fn(std::as_const(token));
}

/// All tokens of `text` in order.
std::vector<Token> tokenize(std::string_view text);

/// The number of tokens of `text` (what tokenize(text).size() would be, without the vector).
std::size_t count_tokens(std::string_view text) noexcept;

}  // namespace sc::text
