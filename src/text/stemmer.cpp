#include "text/stemmer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "text/string_arena.hpp"

// Porter2 as defined by Snowball 3.x (https://snowballstem.org/algorithms/english/stemmer.html),
// written from that description. The word is stemmed in place in one buffer (stem_view): every
// rule replaces a suffix by one no longer than itself, so the word never outgrows its input.
// Letters 'Y' mark a y that acts as a consonant; input is a-z only, so the marker is unambiguous.

namespace sc::text {
namespace {

constexpr unsigned char kStemmable = 1;  // a-z and apostrophe: the only bytes the algorithm takes
constexpr unsigned char kVowel = 2;      // a e i o u y
constexpr unsigned char kVowelWxY = 4;   // vowels plus w x Y: what ends no short syllable
constexpr unsigned char kValidLi = 8;    // letters after which "li" is a suffix
constexpr unsigned char kAeo = 16;       // "add", "egg", "off" keep their double
constexpr unsigned char kDouble = 32;    // letters whose doubling step 1b undoes

constexpr std::array<unsigned char, 256> make_char_classes() {
  std::array<unsigned char, 256> table{};
  const auto mark = [&table](std::string_view letters, unsigned char flag) {
    for (const char c : letters) table[static_cast<unsigned char>(c)] |= flag;
  };
  mark("abcdefghijklmnopqrstuvwxyz'", kStemmable);
  mark("aeiouy", kVowel);
  mark("aeiouywxY", kVowelWxY);
  mark("cdeghkmnrt", kValidLi);
  mark("aeo", kAeo);
  mark("bdfgmnprt", kDouble);
  return table;
}

constexpr std::array<unsigned char, 256> kCharClasses = make_char_classes();

inline bool has(char c, unsigned char flag) {
  return (kCharClasses[static_cast<unsigned char>(c)] & flag) != 0;
}

// a[0, b.size()) == b.
inline bool same_bytes(const char* a, std::string_view b) {
  return std::memcmp(a, b.data(), b.size()) == 0;
}

// Whole words stemmed by table before any rule runs.
struct Exception {
  std::string_view word;
  std::string_view stem;
};

constexpr Exception kExceptions[] = {
    {"sky", "sky"},      {"skis", "ski"},      {"idly", "idl"},    {"ugly", "ugli"},
    {"only", "onli"},    {"news", "news"},     {"howe", "howe"},   {"bias", "bias"},
    {"skies", "sky"},    {"dying", "die"},     {"lying", "lie"},   {"tying", "tie"},
    {"early", "earli"},  {"atlas", "atlas"},   {"andes", "andes"}, {"gently", "gentl"},
    {"singly", "singl"}, {"cosmos", "cosmos"},
};

// Words starting with these get R1 right after the prefix (generously -> generous, not gener).
// "emerg", "inter" and "organ" are newer than the published description; snowballstemmer 3.1.1
// applies them (interval -> interval, organization -> organiz), and so do we.
constexpr std::string_view kR1Prefixes[] = {"gener", "commun", "arsen", "past", "univers",
                                            "later", "emerg",  "inter", "organ"};

// Each prefix starts with its own letter, so a word's first letter names its only candidate:
// index + 1 into kR1Prefixes by first letter, 0 for none.
constexpr std::array<std::uint8_t, 26> make_r1_index() {
  std::array<std::uint8_t, 26> index{};
  for (std::size_t i = 0; i < std::size(kR1Prefixes); ++i) {
    index[static_cast<std::size_t>(kR1Prefixes[i][0] - 'a')] = static_cast<std::uint8_t>(i + 1);
  }
  return index;
}

constexpr bool distinct_first_letters() {
  for (std::size_t i = 0; i < std::size(kR1Prefixes); ++i) {
    for (std::size_t j = i + 1; j < std::size(kR1Prefixes); ++j) {
      if (kR1Prefixes[i][0] == kR1Prefixes[j][0]) return false;
    }
  }
  return true;
}

static_assert(distinct_first_letters());
constexpr std::array<std::uint8_t, 26> kR1Index = make_r1_index();

// Suffixes as little-endian words (first byte lowest): a suffix of L bytes matches when the
// word's last 8 bytes, read the same way and shifted right by 8 * (8 - L), equal it. One compare
// per candidate rule instead of a byte loop.
constexpr std::size_t kMaxSuffix = 8;

constexpr std::uint64_t pack_bytes(std::string_view bytes) {
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bits |= std::uint64_t{static_cast<unsigned char>(bytes[i])} << (8 * i);
  }
  return bits;
}

constexpr std::array<std::uint64_t, std::size(kR1Prefixes)> make_packed_r1_prefixes() {
  std::array<std::uint64_t, std::size(kR1Prefixes)> packed{};
  for (std::size_t i = 0; i < std::size(kR1Prefixes); ++i) packed[i] = pack_bytes(kR1Prefixes[i]);
  return packed;
}

constexpr bool short_r1_prefixes() {
  for (const std::string_view prefix : kR1Prefixes) {
    if (prefix.empty() || prefix.size() > kMaxSuffix) return false;
  }
  return true;
}

static_assert(short_r1_prefixes());
constexpr auto kPackedR1Prefixes = make_packed_r1_prefixes();

// The 8 bytes at p as a little-endian word (first byte lowest).
inline std::uint64_t load_le(const char* p) {
  std::uint64_t bits;
  std::memcpy(&bits, p, sizeof bits);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  bits = __builtin_bswap64(bits);
#endif
  return bits;
}

// The word being stemmed and its regions: R1 starts at p1, R2 at p2 (== size when empty).
// stem_view() puts kMaxSuffix zero bytes before s.
struct Word {
  char* s;
  std::size_t n;
  std::size_t p1;
  std::size_t p2;

  // The last 8 bytes as a little-endian word. A shorter word reads as preceded by zeros, which no
  // suffix holds, so a suffix longer than the word never matches.
  std::uint64_t last_bytes() const { return load_le(s + n - kMaxSuffix); }
  // Whether `tail` (last_bytes()) ends in the suffix packed as `packed` (pack_bytes), of `length`
  // bytes (1 to kMaxSuffix).
  static bool tail_is(std::uint64_t tail, std::uint64_t packed, std::size_t length) {
    return (tail >> (8 * (kMaxSuffix - length))) == packed;
  }
  // The last byte; a zero byte when the word is empty (the padding before it).
  char last() const { return s[static_cast<std::ptrdiff_t>(n) - 1]; }
  // Whether the word ends in `suffix` (1 to kMaxSuffix bytes).
  bool ends_with(std::string_view suffix) const {
    return tail_is(last_bytes(), pack_bytes(suffix), suffix.size());
  }
  bool is(std::size_t length, std::string_view text) const {  // s[0, length) == text
    return length == text.size() && same_bytes(s, text);
  }
  void replace_tail(std::size_t start, std::string_view with) {
    if (!with.empty()) std::memcpy(s + start, with.data(), with.size());
    n = start + with.size();
  }
};

bool contains_vowel(const char* s, std::size_t end) {
  for (std::size_t i = 0; i < end; ++i) {
    if (has(s[i], kVowel)) return true;
  }
  return false;
}

// Position just past the first non-vowel that follows a vowel at or after `from`, else n.
std::size_t after_vowel_consonant(const char* s, std::size_t from, std::size_t n) {
  std::size_t i = from;
  while (i < n && !has(s[i], kVowel)) ++i;
  while (i < n && has(s[i], kVowel)) ++i;
  return i < n ? i + 1 : n;
}

// Does s[0, end) end in a short syllable?
bool ends_short_syllable(const Word& w, std::size_t end) {
  const char* s = w.s;
  if (end >= 3 && !has(s[end - 1], kVowelWxY) && has(s[end - 2], kVowel) &&
      !has(s[end - 3], kVowel)) {
    return true;
  }
  if (end == 2) return has(s[0], kVowel) && !has(s[1], kVowel);
  return end >= 4 && same_bytes(s + end - 4, "past");
}

// Marks initial y and y after a vowel as consonant 'Y'; left to right, so "yyyy" -> "YyYy".
bool mark_consonant_y(Word& w) {
  bool found = false;
  if (w.s[0] == 'y') {
    w.s[0] = 'Y';
    found = true;
  }
  for (std::size_t i = 1; i < w.n; ++i) {
    if (w.s[i] == 'y' && has(w.s[i - 1], kVowel)) {
      w.s[i] = 'Y';
      found = true;
    }
  }
  return found;
}

// The length of the R1 prefix the word starts with, else 0.
std::size_t r1_prefix(const Word& w) {
  const char first = w.s[0];
  if (first < 'a' || first > 'z') return 0;
  const std::size_t candidate = kR1Index[static_cast<std::size_t>(first - 'a')];
  if (candidate == 0) return 0;
  // The word's first 8 bytes, packed: every buffer holds 8 bytes from s on.
  const std::size_t length = kR1Prefixes[candidate - 1].size();
  const std::uint64_t head = load_le(w.s) & (~std::uint64_t{0} >> (8 * (8 - length)));
  return w.n >= length && head == kPackedR1Prefixes[candidate - 1] ? length : 0;
}

// Regions by byte loops: words longer than kMaskedLength.
void mark_regions(Word& w) {
  std::size_t p1 = r1_prefix(w);
  if (p1 == 0) p1 = after_vowel_consonant(w.s, 0, w.n);
  w.p1 = p1;
  w.p2 = after_vowel_consonant(w.s, p1, w.n);
}

// Words of up to kMaskedLength bytes (nearly all) are scanned into bit masks, bit i for byte i,
// 16 bytes at a time where SSE2 is there, and their y marks and regions read off the masks.
constexpr std::size_t kMaskedLength = 64;
constexpr std::size_t kScanPadding = 16;  // bytes read past the word, up to the next 16

// Bits [0, count), count <= 64.
inline std::uint64_t low_bits(std::size_t count) {
  return count >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
}

struct ByteMasks {
  bool stemmable;        // only a-z and apostrophes
  std::uint64_t vowels;  // a e i o u
  std::uint64_t ys;
};

// The masks of s[0, n), n <= kMaskedLength, followed by kScanPadding readable bytes.
ByteMasks scan_masked(const char* s, std::size_t n) {
  std::uint64_t stemmable = 0;
  std::uint64_t vowels = 0;
  std::uint64_t ys = 0;
#if defined(__SSE2__)
  const auto same = [](__m128i bytes, char c) { return _mm_cmpeq_epi8(bytes, _mm_set1_epi8(c)); };
  const auto bits = [](__m128i bytes) {
    return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(bytes))};
  };
  for (std::size_t at = 0; at < n; at += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + at));
    // c - 'a' <= 25 unsigned: a-z.
    const __m128i offset = _mm_sub_epi8(bytes, _mm_set1_epi8('a'));
    const __m128i letters = _mm_cmpeq_epi8(_mm_min_epu8(offset, _mm_set1_epi8(25)), offset);
    stemmable |= bits(_mm_or_si128(letters, same(bytes, '\''))) << at;
    const __m128i aeiou = _mm_or_si128(
        _mm_or_si128(same(bytes, 'a'), same(bytes, 'e')),
        _mm_or_si128(_mm_or_si128(same(bytes, 'i'), same(bytes, 'o')), same(bytes, 'u')));
    vowels |= bits(aeiou) << at;
    ys |= bits(same(bytes, 'y')) << at;
  }
#else
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[i];
    stemmable |= std::uint64_t{has(c, kStemmable)} << i;
    vowels |= std::uint64_t{has(c, kVowel) && c != 'y'} << i;
    ys |= std::uint64_t{c == 'y'} << i;
  }
#endif
  const std::uint64_t in_word = low_bits(n);
  return {(stemmable & in_word) == in_word, vowels & in_word, ys & in_word};
}

// Marks consonant y as 'Y' (as mark_consonant_y) and sets the regions, from the masks of a word
// of up to kMaskedLength bytes. Returns whether some y was marked.
bool mark_masked(Word& w, std::uint64_t vowels, std::uint64_t ys) {
  std::uint64_t consonant_y = 0;
  // Left to right: a y is a consonant first or after a vowel, and a y not marked is a vowel.
  for (std::uint64_t rest = ys; rest != 0; rest &= rest - 1) {
    const auto i = static_cast<unsigned>(__builtin_ctzll(rest));
    if (i == 0 || (((vowels | (ys & ~consonant_y)) >> (i - 1)) & 1) != 0) {
      consonant_y |= std::uint64_t{1} << i;
      w.s[i] = 'Y';
    }
  }
  vowels |= ys & ~consonant_y;
  // R1 (R2) starts after the first non-vowel that follows a vowel (in R1).
  const std::uint64_t consonants = ~vowels & low_bits(w.n);
  std::size_t p1 = r1_prefix(w);
  if (p1 == 0) {
    const std::uint64_t ends = consonants & (vowels << 1);
    p1 = ends != 0 ? static_cast<std::size_t>(__builtin_ctzll(ends)) + 1 : w.n;
  }
  const std::uint64_t ends = consonants & ((vowels & ~low_bits(p1)) << 1);
  w.p1 = p1;
  w.p2 = ends != 0 ? static_cast<std::size_t>(__builtin_ctzll(ends)) + 1 : w.n;
  return consonant_y != 0;
}

// Steps 0 to 1b first test the last byte (s[-1] is a zero byte when the word is empty), so most
// words skip each step after one compare; the suffixes are then compared as packed tails.

// Step 0: possessive apostrophes.
void step0(Word& w) {
  const char last = w.last();
  if (last == '\'') {
    w.n -= w.ends_with("'s'") ? 3 : 1;
  } else if (last == 's' && w.ends_with("'s")) {
    w.n -= 2;
  }
}

// Step 1a: plurals.
void step1a(Word& w) {
  const char last = w.last();
  if (last == 's' && w.ends_with("sses")) {
    w.n -= 2;
  } else if ((last == 's' && w.ends_with("ies")) || (last == 'd' && w.ends_with("ied"))) {
    const std::size_t start = w.n - 3;
    w.replace_tail(start, start >= 2 ? "i" : "ie");  // cries -> cri, ties -> tie
  } else if (last != 's' || w.ends_with("us") || w.ends_with("ss")) {
    // kept: no plural s, or "bus", "class"
  } else if (w.n >= 2 && contains_vowel(w.s, w.n - 2)) {
    w.n -= 1;  // a vowel not just before the s: "gaps" -> "gap", but "gas" stays
  }
}

// Step 1b's -ing exceptions: "dying" -> "die"; "inning", "evening" ... keep their -ing.
bool ing_exception(Word& w, std::size_t start) {
  if (start == 2 && w.s[1] == 'y' && !has(w.s[0], kVowel)) {
    w.replace_tail(1, "ie");
    return true;
  }
  return w.is(start, "inn") || w.is(start, "out") || w.is(start, "cann") || w.is(start, "herr") ||
         w.is(start, "earr") || w.is(start, "even");
}

// Step 1b: -eed, -ed, -ing (and their -ly forms).
void step1b(Word& w) {
  std::size_t length = 0;
  bool eed = false;
  bool ing = false;
  const char last = w.last();
  if (last == 'd') {
    if (w.ends_with("eed")) {
      length = 3;
      eed = true;
    } else if (w.ends_with("ed")) {
      length = 2;
    } else {
      return;
    }
  } else if (last == 'y') {
    if (w.ends_with("eedly")) {
      length = 5;
      eed = true;
    } else if (w.ends_with("edly")) {
      length = 4;
    } else if (w.ends_with("ingly")) {
      length = 5;
    } else {
      return;
    }
  } else if (last == 'g' && w.ends_with("ing")) {
    length = 3;
    ing = true;
  } else {
    return;
  }
  const std::size_t start = w.n - length;
  if (eed) {
    if (w.is(start, "proc") || w.is(start, "exc") || w.is(start, "succ")) return;
    if (start >= w.p1) w.n = start + 2;  // "agreed" -> "agree"
    return;
  }
  if (ing && ing_exception(w, start)) return;
  if (!contains_vowel(w.s, start)) return;
  w.n = start;
  if (w.ends_with("at") || w.ends_with("bl") || w.ends_with("iz")) {
    w.s[w.n++] = 'e';  // luxuriat -> luxuriate
  } else if (w.n >= 2 && w.s[w.n - 1] == w.s[w.n - 2] && has(w.s[w.n - 1], kDouble)) {
    if (!(w.n == 3 && has(w.s[0], kAeo))) --w.n;  // hopp -> hop, but add stays add
  } else if (w.p1 == w.n && ends_short_syllable(w, w.n)) {
    w.s[w.n++] = 'e';  // hop -> hope
  }
}

// Step 1c: final y after a consonant (not the first letter) -> i.
void step1c(Word& w) {
  if (w.n >= 3 && (w.s[w.n - 1] == 'y' || w.s[w.n - 1] == 'Y') && !has(w.s[w.n - 2], kVowel)) {
    w.s[w.n - 1] = 'i';
  }
}

// Extra condition a suffix rule needs besides its region.
enum class Guard : unsigned char { kNone, kAfterL, kAfterValidLi, kInR2, kAfterSOrT };

struct Rule {
  std::string_view suffix;
  std::string_view replacement;
  Guard guard;
};

// Steps 2-4 rules, grouped by last letter and longest suffix first within a group: the longest
// matching suffix is the only candidate, and only the group of the word's last letter is tried.
constexpr Rule kStep2[] = {
    {"ational", "ate", Guard::kNone}, {"tional", "tion", Guard::kNone},
    {"ization", "ize", Guard::kNone}, {"ation", "ate", Guard::kNone},
    {"fulness", "ful", Guard::kNone}, {"ousness", "ous", Guard::kNone},
    {"iveness", "ive", Guard::kNone}, {"biliti", "ble", Guard::kNone},
    {"lessli", "less", Guard::kNone}, {"entli", "ent", Guard::kNone},
    {"aliti", "al", Guard::kNone},    {"ousli", "ous", Guard::kNone},
    {"iviti", "ive", Guard::kNone},   {"fulli", "ful", Guard::kNone},
    {"enci", "ence", Guard::kNone},   {"anci", "ance", Guard::kNone},
    {"abli", "able", Guard::kNone},   {"alli", "al", Guard::kNone},
    {"bli", "ble", Guard::kNone},     {"ogi", "og", Guard::kAfterL},
    {"li", "", Guard::kAfterValidLi}, {"izer", "ize", Guard::kNone},
    {"ator", "ate", Guard::kNone},    {"alism", "al", Guard::kNone},
    {"ogist", "og", Guard::kNone},
};

constexpr Rule kStep3[] = {
    {"ational", "ate", Guard::kNone}, {"tional", "tion", Guard::kNone},
    {"ical", "ic", Guard::kNone},     {"ful", "", Guard::kNone},
    {"alize", "al", Guard::kNone},    {"icate", "ic", Guard::kNone},
    {"ative", "", Guard::kInR2},      {"iciti", "ic", Guard::kNone},
    {"ness", "", Guard::kNone},
};

constexpr Rule kStep4[] = {
    {"ement", "", Guard::kNone}, {"ment", "", Guard::kNone}, {"ant", "", Guard::kNone},
    {"ent", "", Guard::kNone},   {"ance", "", Guard::kNone}, {"ence", "", Guard::kNone},
    {"able", "", Guard::kNone},  {"ible", "", Guard::kNone}, {"ate", "", Guard::kNone},
    {"ive", "", Guard::kNone},   {"ize", "", Guard::kNone},  {"ism", "", Guard::kNone},
    {"iti", "", Guard::kNone},   {"ous", "", Guard::kNone},  {"ion", "", Guard::kAfterSOrT},
    {"al", "", Guard::kNone},    {"er", "", Guard::kNone},   {"ic", "", Guard::kNone},
};

// Rules [begin, end) of a table that end in one letter.
struct RuleSpan {
  std::uint8_t begin;
  std::uint8_t end;
};

using RuleIndex = std::array<RuleSpan, 26>;

template <std::size_t N>
constexpr RuleIndex index_by_last_letter(const Rule (&rules)[N]) {
  RuleIndex index{};
  for (std::size_t i = 0; i < N; ++i) {
    RuleSpan& span = index[static_cast<std::size_t>(rules[i].suffix.back() - 'a')];
    if (span.begin == span.end) span.begin = static_cast<std::uint8_t>(i);
    span.end = static_cast<std::uint8_t>(i + 1);
  }
  return index;
}

// True when each last-letter group is contiguous and sorted longest first (what the index and
// the longest-match rule rely on).
template <std::size_t N>
constexpr bool well_grouped(const Rule (&rules)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    for (std::size_t j = i + 1; j < N; ++j) {
      if (rules[j].suffix.back() != rules[i].suffix.back()) continue;
      if (rules[j].suffix.size() > rules[i].suffix.size()) return false;
      for (std::size_t k = i + 1; k < j; ++k) {
        if (rules[k].suffix.back() != rules[i].suffix.back()) return false;
      }
    }
  }
  return true;
}

static_assert(well_grouped(kStep2) && well_grouped(kStep3) && well_grouped(kStep4));

constexpr RuleIndex kStep2Index = index_by_last_letter(kStep2);
constexpr RuleIndex kStep3Index = index_by_last_letter(kStep3);
constexpr RuleIndex kStep4Index = index_by_last_letter(kStep4);

template <std::size_t N>
constexpr std::array<std::uint64_t, N> pack_suffixes(const Rule (&rules)[N]) {
  std::array<std::uint64_t, N> packed{};
  for (std::size_t i = 0; i < N; ++i) packed[i] = pack_bytes(rules[i].suffix);
  return packed;
}

template <std::size_t N>
constexpr bool short_suffixes(const Rule (&rules)[N]) {
  for (const Rule& rule : rules) {
    if (rule.suffix.empty() || rule.suffix.size() > kMaxSuffix) return false;
  }
  return true;
}

static_assert(short_suffixes(kStep2) && short_suffixes(kStep3) && short_suffixes(kStep4));

constexpr auto kStep2Packed = pack_suffixes(kStep2);
constexpr auto kStep3Packed = pack_suffixes(kStep3);
constexpr auto kStep4Packed = pack_suffixes(kStep4);

// Per last letter, bit c - 'a' set when some suffix ends in c and that letter: most words end in
// a pair no rule has, and leave a step after this one test.
using PairFilter = std::array<std::uint32_t, 26>;

template <std::size_t N>
constexpr PairFilter pair_filter(const Rule (&rules)[N]) {
  PairFilter filter{};
  for (const Rule& rule : rules) {
    const std::size_t n = rule.suffix.size();
    filter[static_cast<std::size_t>(rule.suffix[n - 1] - 'a')] |= 1U << (rule.suffix[n - 2] - 'a');
  }
  return filter;
}

template <std::size_t N>
constexpr bool letter_suffixes(const Rule (&rules)[N]) {
  for (const Rule& rule : rules) {
    if (rule.suffix.size() < 2) return false;
    for (const char c : rule.suffix) {
      if (c < 'a' || c > 'z') return false;
    }
  }
  return true;
}

static_assert(letter_suffixes(kStep2) && letter_suffixes(kStep3) && letter_suffixes(kStep4));

constexpr PairFilter kStep2Pairs = pair_filter(kStep2);
constexpr PairFilter kStep3Pairs = pair_filter(kStep3);
constexpr PairFilter kStep4Pairs = pair_filter(kStep4);

bool guard_holds(const Word& w, std::size_t start, Guard guard) {
  switch (guard) {
    case Guard::kNone:
      return true;
    case Guard::kAfterL:
      return start >= 1 && w.s[start - 1] == 'l';
    case Guard::kAfterValidLi:
      return start >= 1 && has(w.s[start - 1], kValidLi);
    case Guard::kInR2:
      return start >= w.p2;
    case Guard::kAfterSOrT:
      return start >= 1 && (w.s[start - 1] == 's' || w.s[start - 1] == 't');
  }
  return false;
}

// Applies the rule of the longest matching suffix if it starts at or after `region`. Inlined: a
// call cost a third of the steps it runs (most words leave after one or two compares).
template <std::size_t N>
[[gnu::always_inline]] inline void apply_longest(Word& w, const Rule (&rules)[N],
                                                 const std::array<std::uint64_t, N>& packed,
                                                 const RuleIndex& index, const PairFilter& pairs,
                                                 std::size_t region) {
  if (region >= w.n) return;  // no suffix can lie in an empty region
  const std::uint64_t tail = w.last_bytes();
  // The last two bytes as letter indexes; 'Y', apostrophes and the zero padding fall outside.
  const auto last = static_cast<unsigned>((tail >> 56) - 'a');
  const auto before_last = static_cast<unsigned>(((tail >> 48) & 0xFF) - 'a');
  if (last >= 26 || before_last >= 26 || ((pairs[last] >> before_last) & 1U) == 0) return;
  const RuleSpan span = index[last];
  for (std::size_t i = span.begin; i < span.end; ++i) {
    const Rule& rule = rules[i];
    if (!Word::tail_is(tail, packed[i], rule.suffix.size())) continue;
    const std::size_t start = w.n - rule.suffix.size();
    if (start >= region && guard_holds(w, start, rule.guard))
      w.replace_tail(start, rule.replacement);
    return;
  }
}

// Step 5: final e and ll.
void step5(Word& w) {
  if (w.n == 0) return;
  const std::size_t last = w.n - 1;
  if (w.s[last] == 'e') {
    if (last >= w.p2 || (last >= w.p1 && !ends_short_syllable(w, last))) w.n = last;
  } else if (w.s[last] == 'l') {
    if (last >= w.p2 && last >= 1 && w.s[last - 1] == 'l') w.n = last;
  }
}

bool is_stemmable(std::string_view word) {
  for (const char c : word) {
    if (!has(c, kStemmable)) return false;
  }
  return true;
}

// Exceptions by a perfect hash of their packed bytes (pack_bytes): a word's first 8 bytes, zero
// past its end, are compared with the one exception of their bucket. A word of 7 or more bytes
// never equals an exception's packed form (whose last two bytes are zero).
constexpr std::size_t kExceptionBucketBits = 6;
using ExceptionBuckets = std::array<std::uint8_t, std::size_t{1} << kExceptionBucketBits>;

constexpr std::size_t exception_bucket(std::uint64_t packed, std::uint64_t multiplier) {
  return static_cast<std::size_t>((packed * multiplier) >> (64 - kExceptionBucketBits));
}

// Buckets holding exception index + 1 (0 = none), or all zero when `multiplier` collides.
constexpr ExceptionBuckets exception_buckets(std::uint64_t multiplier) {
  ExceptionBuckets buckets{};
  for (std::size_t i = 0; i < std::size(kExceptions); ++i) {
    std::uint8_t& bucket = buckets[exception_bucket(pack_bytes(kExceptions[i].word), multiplier)];
    if (bucket != 0) return ExceptionBuckets{};
    bucket = static_cast<std::uint8_t>(i + 1);
  }
  return buckets;
}

// The first odd multiplier, in a fixed sequence, that sends every exception to its own bucket.
constexpr std::uint64_t find_exception_multiplier() {
  for (std::uint64_t m = 0x9E3779B97F4A7C15ULL;; m += 0x2545F4914F6CDD1EULL) {
    if (exception_buckets(m)[exception_bucket(pack_bytes(kExceptions[0].word), m)] != 0) return m;
  }
}

constexpr bool short_exceptions() {
  for (const Exception& e : kExceptions) {
    if (e.word.size() > 6) return false;
  }
  return true;
}

static_assert(short_exceptions());
constexpr std::uint64_t kExceptionMultiplier = find_exception_multiplier();
constexpr ExceptionBuckets kExceptionBuckets = exception_buckets(kExceptionMultiplier);

constexpr std::array<std::uint64_t, std::size(kExceptions)> make_packed_exceptions() {
  std::array<std::uint64_t, std::size(kExceptions)> packed{};
  for (std::size_t i = 0; i < std::size(kExceptions); ++i) {
    packed[i] = pack_bytes(kExceptions[i].word);
  }
  return packed;
}

constexpr auto kPackedExceptions = make_packed_exceptions();

// The exception whose word packs to `packed`, if any.
const Exception* find_exception(std::uint64_t packed) {
  const std::uint8_t bucket = kExceptionBuckets[exception_bucket(packed, kExceptionMultiplier)];
  if (bucket == 0) return nullptr;
  return kPackedExceptions[bucket - 1] == packed ? &kExceptions[bucket - 1] : nullptr;
}

}  // namespace

std::string_view stem_view(std::string_view word, StemBuffer& buffer) {
  const std::size_t n = word.size();
  if (n < 3) return word;
  // Stemmed in a buffer that holds kMaxSuffix zero bytes before the word, so last_bytes() always
  // reads 8 bytes (and a masked word is followed by kScanPadding zero bytes).
  static_assert(StemBuffer::kInline == kMaskedLength);
  static_assert(sizeof(buffer.local) == kMaxSuffix + StemBuffer::kInline + kScanPadding);
  Word w{nullptr, n, 0, 0};
  bool has_consonant_y = false;
  if (n <= kMaskedLength) {
    char* bytes = buffer.local.data();
    std::memset(bytes, 0, kMaxSuffix);
    copy_bytes(bytes + kMaxSuffix, word.data(), n);
    std::memset(bytes + kMaxSuffix + n, 0, kScanPadding);
    const ByteMasks masks = scan_masked(bytes + kMaxSuffix, n);
    if (!masks.stemmable) return word;
    w.s = bytes + kMaxSuffix;
    // The zero bytes after the word make the load its packed form.
    if (const Exception* e = find_exception(load_le(w.s))) return e->stem;
    std::uint64_t vowels = masks.vowels;
    std::uint64_t ys = masks.ys;
    if (word.front() == '\'') {
      *w.s++ = 0;  // the padding before the word stays zero
      --w.n;
      vowels >>= 1;
      ys >>= 1;
    }
    has_consonant_y = mark_masked(w, vowels, ys);
  } else {
    if (!is_stemmable(word)) return word;
    if (word.front() == '\'') word.remove_prefix(1);
    buffer.heap.resize(kMaxSuffix + word.size());
    char* bytes = buffer.heap.data();
    std::memset(bytes, 0, kMaxSuffix);
    std::memcpy(bytes + kMaxSuffix, word.data(), word.size());
    w = Word{bytes + kMaxSuffix, word.size(), 0, 0};
    has_consonant_y = mark_consonant_y(w);
    mark_regions(w);
  }
  step0(w);
  step1a(w);
  step1b(w);
  step1c(w);
  apply_longest(w, kStep2, kStep2Packed, kStep2Index, kStep2Pairs, w.p1);
  apply_longest(w, kStep3, kStep3Packed, kStep3Index, kStep3Pairs, w.p1);
  apply_longest(w, kStep4, kStep4Packed, kStep4Index, kStep4Pairs, w.p2);
  step5(w);
  if (has_consonant_y) {
    for (std::size_t i = 0; i < w.n; ++i) {
      if (w.s[i] == 'Y') w.s[i] = 'y';
    }
  }
  return std::string_view(w.s, w.n);
}

void stem_into(std::string_view word, std::string& out) {
  // `word` may view `out`: stem_view() copies it into `buffer` before `out` is written, and
  // assign() handles a source inside the string itself.
  StemBuffer buffer;
  const std::string_view stemmed = stem_view(word, buffer);
  out.assign(stemmed.data(), stemmed.size());
}

std::string stem(std::string_view word) {
  std::string out;
  stem_into(word, out);
  return out;
}

}  // namespace sc::text
