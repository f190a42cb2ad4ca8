#include "text/tokenizer.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include "text/utf8.hpp"

namespace sc::text {
namespace {

using C = CharClass;

struct ClassRange {
  char32_t first;
  char32_t last;
  CharClass cls;
};

// Non-ASCII code points that are not letters. Sorted, disjoint; anything not listed is a letter.
// python/sufficient_context/_reference.py holds the same table for the test oracle.
constexpr ClassRange kRanges[] = {
    {0x0080, 0x00A9, C::Separator},  // C1 controls, NBSP, Latin-1 punctuation and signs
    {0x00AB, 0x00B4, C::Separator},
    {0x00B6, 0x00B9, C::Separator},
    {0x00BB, 0x00BF, C::Separator},
    {0x00D7, 0x00D7, C::Separator},  // multiplication sign
    {0x00F7, 0x00F7, C::Separator},  // division sign
    {0x02C2, 0x02C5, C::Separator},  // modifier symbols (not the modifier letters around them)
    {0x02D2, 0x02DF, C::Separator},
    {0x02E5, 0x02EB, C::Separator},
    {0x02ED, 0x02ED, C::Separator},
    {0x02EF, 0x02FF, C::Separator},
    {0x0375, 0x0375, C::Separator},  // Greek punctuation and signs
    {0x037E, 0x037E, C::Separator},
    {0x0384, 0x0385, C::Separator},
    {0x0387, 0x0387, C::Separator},
    {0x03F6, 0x03F6, C::Separator},
    {0x0482, 0x0482, C::Separator},  // Cyrillic thousands sign
    {0x055A, 0x055F, C::Separator},  // Armenian punctuation
    {0x0589, 0x058A, C::Separator},
    {0x058D, 0x058F, C::Separator},
    {0x05BE, 0x05BE, C::Separator},  // Hebrew punctuation
    {0x05C0, 0x05C0, C::Separator},
    {0x05C3, 0x05C3, C::Separator},
    {0x05C6, 0x05C6, C::Separator},
    {0x05F3, 0x05F4, C::Separator},
    {0x0600, 0x060F, C::Separator},  // Arabic signs and punctuation
    {0x061B, 0x061F, C::Separator},
    {0x066A, 0x066D, C::Separator},
    {0x06D4, 0x06D4, C::Separator},
    {0x06DD, 0x06DE, C::Separator},
    {0x06E9, 0x06E9, C::Separator},
    {0x06FD, 0x06FE, C::Separator},
    {0x0700, 0x070F, C::Separator},  // Syriac punctuation
    {0x0964, 0x0965, C::Separator},  // Devanagari danda
    {0x0970, 0x0970, C::Separator},
    {0x0E3F, 0x0E3F, C::Separator},  // Thai baht and punctuation
    {0x0E4F, 0x0E4F, C::Separator},
    {0x0E5A, 0x0E5B, C::Separator},
    {0x104A, 0x104F, C::Separator},  // Myanmar punctuation
    {0x10FB, 0x10FB, C::Separator},
    {0x1100, 0x11FF, C::Ideograph},  // Hangul Jamo
    {0x1360, 0x1368, C::Separator},  // Ethiopic punctuation
    {0x166D, 0x166E, C::Separator},
    {0x1680, 0x1680, C::Separator},  // Ogham space
    {0x169B, 0x169C, C::Separator},
    {0x16EB, 0x16ED, C::Separator},
    {0x17D4, 0x17D6, C::Separator},  // Khmer punctuation and riel
    {0x17D8, 0x17DB, C::Separator},
    {0x1800, 0x180A, C::Separator},  // Mongolian punctuation
    {0x180E, 0x180E, C::Separator},
    {0x1FBD, 0x1FBD, C::Separator},  // Greek Extended spacing accents
    {0x1FBF, 0x1FC1, C::Separator},
    {0x1FCD, 0x1FCF, C::Separator},
    {0x1FDD, 0x1FDF, C::Separator},
    {0x1FED, 0x1FEF, C::Separator},
    {0x1FFD, 0x1FFE, C::Separator},
    {0x2000, 0x2018,
     C::Separator},  // General Punctuation: spaces, zero-width chars, dashes, quotes
    {0x2019, 0x2019, C::Apostrophe},
    {0x201A, 0x2BFF, C::Separator},  // ... super/subscripts, currency, letterlike symbols, number
                                     // forms, arrows, math, technical, box drawing, dingbats
    {0x2CF9, 0x2CFF, C::Separator},  // Coptic punctuation
    {0x2E00, 0x2E7F, C::Separator},  // Supplemental Punctuation
    {0x2E80, 0x2FDF, C::Ideograph},  // CJK and Kangxi radicals
    {0x2FF0, 0x3004, C::Separator},  // ideographic description, ideographic space and punctuation
    {0x3005, 0x3007, C::Ideograph},  // 々 〆 〇
    {0x3008, 0x3020, C::Separator},  // CJK brackets and marks
    {0x3021, 0x3029, C::Ideograph},  // Hangzhou numerals
    {0x302A, 0x303F, C::Separator},
    {0x3040, 0x309F, C::Ideograph},  // Hiragana
    {0x30A0, 0x30A0, C::Separator},  // katakana double hyphen
    {0x30A1, 0x30FA, C::Ideograph},  // Katakana
    {0x30FB, 0x30FB, C::Separator},  // katakana middle dot
    {0x30FC, 0x30FF, C::Ideograph},
    {0x3100, 0x318F, C::Ideograph},  // Bopomofo, Hangul compatibility Jamo
    {0x3190, 0x319F, C::Separator},  // Kanbun
    {0x31A0, 0x31BF, C::Ideograph},  // Bopomofo Extended
    {0x31C0, 0x31EF, C::Separator},  // CJK strokes
    {0x31F0, 0x31FF, C::Ideograph},  // Katakana phonetic extensions
    {0x3200, 0x33FF, C::Separator},  // enclosed CJK letters, CJK compatibility squares
    {0x3400, 0x4DBF, C::Ideograph},  // CJK Extension A
    {0x4DC0, 0x4DFF, C::Separator},  // Yijing hexagrams
    {0x4E00, 0xA4CF, C::Ideograph},  // CJK Unified Ideographs, Yi
    {0xA960, 0xA97F, C::Ideograph},  // Hangul Jamo Extended-A
    {0xAC00, 0xD7FF, C::Ideograph},  // Hangul syllables, Jamo Extended-B
    {0xD800, 0xF8FF, C::Separator},  // surrogates (never decoded), private use
    {0xF900, 0xFAFF, C::Ideograph},  // CJK compatibility ideographs
    {0xFD3E, 0xFD3F, C::Separator},  // ornate parentheses
    {0xFE00, 0xFE1F, C::Separator},  // variation selectors, vertical forms
    {0xFE30, 0xFE6F, C::Separator},  // CJK compatibility forms, small form variants
    {0xFEFF, 0xFEFF, C::Separator},  // byte order mark
    {0xFF01, 0xFF0F, C::Separator},  // fullwidth punctuation
    {0xFF1A, 0xFF20, C::Separator},
    {0xFF3B, 0xFF40, C::Separator},
    {0xFF5B, 0xFF65, C::Separator},
    {0xFF66, 0xFFDC, C::Ideograph},     // halfwidth Katakana and Hangul
    {0xFFE0, 0xFFFF, C::Separator},     // fullwidth signs, specials, U+FFFD
    {0x1B000, 0x1B16F, C::Ideograph},   // Kana Supplement and Extended
    {0x1D000, 0x1D24F, C::Separator},   // musical symbols
    {0x1F000, 0x1FBFF, C::Separator},   // mahjong .. emoji .. legacy computing symbols
    {0x20000, 0x3FFFF, C::Ideograph},   // CJK Extensions B..H, compatibility supplement
    {0xE0000, 0x10FFFF, C::Separator},  // tags, variation selectors supplement, private use
};

constexpr bool ranges_sorted_and_disjoint() {
  for (std::size_t i = 0; i < std::size(kRanges); ++i) {
    if (kRanges[i].first > kRanges[i].last) return false;
    if (i > 0 && kRanges[i - 1].last >= kRanges[i].first) return false;
  }
  return true;
}
static_assert(ranges_sorted_and_disjoint(), "classify() binary-searches kRanges");

constexpr CharClass lookup_range(char32_t cp) noexcept {
  // Linear search is fine here: it only runs while building kSmallTable at compile time.
  for (const ClassRange& range : kRanges) {
    if (cp < range.first) break;
    if (cp <= range.last) return range.cls;
  }
  return C::Letter;
}

constexpr std::array<CharClass, 128> make_ascii_table() {
  std::array<CharClass, 128> table{};
  for (int c = 0; c < 128; ++c) {
    CharClass cls = C::Separator;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) cls = C::Letter;
    if (c >= '0' && c <= '9') cls = C::Digit;
    if (c == '_') cls = C::Underscore;
    if (c == '\'') cls = C::Apostrophe;
    if (c == '.' || c == ',') cls = C::NumberPunct;
    table[c] = cls;
  }
  return table;
}
constexpr std::array<CharClass, 128> kAscii = make_ascii_table();

// Two-byte UTF-8 code points (< U+0800: Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic...)
// by direct lookup; longer ones by binary search over kRanges.
constexpr std::size_t kSmallLimit = 0x800;
constexpr std::array<CharClass, kSmallLimit> make_small_table() {
  std::array<CharClass, kSmallLimit> table{};
  for (std::size_t cp = 0; cp < kSmallLimit; ++cp) {
    table[cp] = cp < 0x80 ? kAscii[cp] : lookup_range(static_cast<char32_t>(cp));
  }
  return table;
}
constexpr std::array<CharClass, kSmallLimit> kSmallTable = make_small_table();

struct Peeked {
  CharClass cls;
  std::uint8_t length;
};

// Class and byte length of the code point at pos (< text.size()); invalid bytes are one-byte
// separators.
inline Peeked peek(std::string_view text, std::size_t pos) noexcept {
  const auto byte = static_cast<unsigned char>(text[pos]);
  if (byte < 0x80) return {kAscii[byte], 1};
  const CodePoint cp = decode_utf8(text, pos);
  if (!cp.valid) return {C::Separator, 1};
  return {classify(cp.value), cp.length};
}

constexpr bool is_alnum(CharClass cls) noexcept { return cls == C::Letter || cls == C::Digit; }

}  // namespace

std::string_view to_string(TokenKind kind) noexcept {
  switch (kind) {
    case TokenKind::Word:
      return "word";
    case TokenKind::Number:
      return "number";
    case TokenKind::Identifier:
      return "identifier";
  }
  return "word";
}

CharClass classify(char32_t cp) noexcept {
  if (cp < kSmallLimit) return kSmallTable[cp];
  const auto* it = std::upper_bound(std::begin(kRanges), std::end(kRanges), cp,
                                    [](char32_t c, const ClassRange& r) { return c < r.first; });
  if (it == std::begin(kRanges)) return C::Letter;
  --it;
  return cp <= it->last ? it->cls : C::Letter;
}

detail::ClassAt detail::class_at(std::string_view text, std::size_t pos) noexcept {
  const Peeked here = peek(text, pos);
  return {here.cls, here.length};
}

bool detail::next_token_utf8(std::string_view text, std::size_t& pos, Token& out) noexcept {
  const std::size_t size = text.size();

  // Skip separators (and connectors that connect nothing) up to a letter, digit or ideograph.
  Peeked first{C::Separator, 1};
  while (pos < size) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      const CharClass cls = kAscii[byte];
      if (is_alnum(cls)) {
        first = {cls, 1};
        break;
      }
      ++pos;
      continue;
    }
    first = peek(text, pos);
    if (is_alnum(first.cls) || first.cls == C::Ideograph) break;
    pos += first.length;
  }
  if (pos >= size) return false;

  const std::size_t start = pos;
  if (first.cls == C::Ideograph) {
    pos += first.length;
    out = Token{text.substr(start, first.length), start, TokenKind::Word};
    return true;
  }

  bool has_letter = false;
  bool has_digit = false;
  bool has_underscore = false;
  CharClass last = C::Separator;  // class of the last letter/digit consumed
  while (pos < size) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    const Peeked here = byte < 0x80 ? Peeked{kAscii[byte], 1} : peek(text, pos);
    if (here.cls == C::Letter || here.cls == C::Digit) {
      has_letter |= here.cls == C::Letter;
      has_digit |= here.cls == C::Digit;
      last = here.cls;
      pos += here.length;
      continue;
    }
    // A connector joins only when the code point after it continues the token.
    std::size_t next = pos + here.length;
    bool joins = false;
    if (here.cls == C::Underscore) {
      while (next < size && text[next] == '_') ++next;
      joins = next < size && is_alnum(peek(text, next).cls);
      has_underscore |= joins;
    } else if (here.cls == C::Apostrophe && last == C::Letter) {
      joins = next < size && peek(text, next).cls == C::Letter;
    } else if (here.cls == C::NumberPunct && last == C::Digit) {
      joins = next < size && peek(text, next).cls == C::Digit;
    }
    if (!joins) break;
    pos = next;
  }

  TokenKind kind = TokenKind::Identifier;
  if (has_letter && !has_digit && !has_underscore) kind = TokenKind::Word;
  if (!has_letter && !has_underscore) kind = TokenKind::Number;
  out = Token{text.substr(start, pos - start), start, kind};
  return true;
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 6 + 1);  // English averages ~6 bytes per token with its space
  for_each_token(text, [&tokens](const Token& token) { tokens.push_back(token); });
  return tokens;
}

std::size_t count_tokens(std::string_view text) noexcept {
  std::size_t count = 0;
  for_each_token(text, [&count](const Token&) { ++count; });
  return count;
}

}  // namespace sc::text
