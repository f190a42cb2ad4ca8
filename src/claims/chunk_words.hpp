/// @brief ChunkWords: a per-thread memo of what chunk analysis derives from one token.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "claims/key_ids.hpp"
#include "claims/token_memo.hpp"
#include "text/tokenizer.hpp"

namespace sc::claims {

/// What ClaimAnalyzer's chunk pass needs of one token, whatever the check: its key (token_key)
/// and the parts of the KeyFilter and special-token tests that do not depend on the claims.
struct ChunkWord {
  std::uint32_t key;        // stable id of token_key in the analyzer's KeyIds
  std::uint16_t base_code;  // prefix_code(word_base(folded))
  bool always_matches;      // KeyFilter::always_matches(folded)
  bool number;              // number_part is not empty
  bool number_word;         // a Word whose folded form is a number word
  bool speaker;             // a Word whose folded form is a first-person word
  bool negation;            // is_negation(folded)
};

/// What the chunk pass asks of a token besides its key: which claims' special words count.
struct ChunkNeeds {
  bool negation;  // some claim has a negation: record the chunk's
  bool number;    // some claim has a number: key number words
  bool speaker;   // some claim has the speaker: key first-person words
};

/// Whether the chunk pass looks no further than `word`'s negation: `filter` rules its key out
/// (numbers, needed number words and speaker words and always_matches words are never ruled out:
/// their keys need not share their base's prefix).
inline bool chunk_word_skipped(const ChunkWord& word, const KeyFilter& filter,
                               ChunkNeeds needs) noexcept {
  // Bitwise, not short-circuit: each test is data-dependent, and a mispredicted branch per test
  // cost more than evaluating them all.
  const bool special =
      word.number | (needs.number & word.number_word) | (needs.speaker & word.speaker);
  return !(special | word.always_matches | filter.has(word.base_code));
}

/// The set of lowercase ASCII `chars` as one bit per letter ('a' is bit 0).
constexpr std::uint32_t letters(std::string_view chars) noexcept {
  std::uint32_t set = 0;
  for (const char c : chars) set |= std::uint32_t{1} << (c - 'a');
  return set;
}

// The letters plainly_skipped tests (see there).
inline constexpr std::uint32_t kAlwaysLast = letters("dygs");
inline constexpr std::uint32_t kAlwaysSecond = letters("eiy");
inline constexpr std::uint32_t kNegationFirst = letters("ncw");
inline constexpr std::uint32_t kNumberFirst = letters("tfsen");
inline constexpr std::uint32_t kSpeakerFirst = letters("im");

namespace detail {

/// ASCII letters lowered, every other byte as it is.
constexpr std::array<std::uint8_t, 256> make_ascii_lower() {
  std::array<std::uint8_t, 256> table{};
  for (unsigned c = 0; c < 256; ++c) {
    table[c] = static_cast<std::uint8_t>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
  }
  return table;
}
inline constexpr std::array<std::uint8_t, 256> kAsciiLower = make_ascii_lower();

// What plainly_skipped reads of a byte (lowered first): one bit per test.
inline constexpr unsigned kSkipHigh = 1;           // >= 0x80
inline constexpr unsigned kSkipApostrophe = 2;     // '\''
inline constexpr unsigned kSkipNegationFirst = 4;  // in kNegationFirst
inline constexpr unsigned kSkipNumberFirst = 8;    // in kNumberFirst
inline constexpr unsigned kSkipSpeakerFirst = 16;  // in kSpeakerFirst
inline constexpr unsigned kSkipAlwaysSecond = 32;  // in kAlwaysSecond
inline constexpr unsigned kSkipAlwaysLast = 64;    // in kAlwaysLast, or '\''
inline constexpr unsigned kSkipT = 128;            // 't'

constexpr std::array<std::uint8_t, 256> make_skip_bits() {
  std::array<std::uint8_t, 256> table{};
  const auto in = [](unsigned c, std::uint32_t set) {
    return c - 'a' < 26u && ((set >> (c - 'a')) & 1u) != 0;
  };
  for (unsigned byte = 0; byte < 256; ++byte) {
    const unsigned c = kAsciiLower[byte];
    unsigned bits = 0;
    if (c >= 0x80) bits |= kSkipHigh;
    if (c == '\'') bits |= kSkipApostrophe | kSkipAlwaysLast;
    if (in(c, kNegationFirst)) bits |= kSkipNegationFirst;
    if (in(c, kNumberFirst)) bits |= kSkipNumberFirst;
    if (in(c, kSpeakerFirst)) bits |= kSkipSpeakerFirst;
    if (in(c, kAlwaysSecond)) bits |= kSkipAlwaysSecond;
    if (in(c, kAlwaysLast)) bits |= kSkipAlwaysLast;
    if (c == 't') bits |= kSkipT;
    table[byte] = static_cast<std::uint8_t>(bits);
  }
  return table;
}
inline constexpr std::array<std::uint8_t, 256> kSkipBits = make_skip_bits();

}  // namespace detail

/// Whether the chunk pass can leave `token` out entirely (chunk_word_skipped, and no negation to
/// record), decided from a Word token's first and last bytes, without its memo entry; false when
/// they cannot tell (the memo decides). Inline, in registers: it runs for every chunk token.
///
/// Exact from those bytes: when the first three bytes (or all, if fewer) are ASCII and the first
/// two no apostrophe, fold_token keeps the first two lowered (NFKC composes a character only with
/// marks after it, and word_base strips only trailing "'s" or apostrophes), so they are the base's
/// prefix code. When the last byte is ASCII, the folded word ends with it lowered: a word ending
/// in none of "d", "y", "g", "s", "'", or whose second letter is none of "e", "i", "y", has no
/// removable ending that can change its second letter (not always_matches), and the
/// special words are known by their folded first byte ("n", "c", "w" or a last "t" for negations,
/// "t", "f", "s", "e", "n" for number words, "i", "m" for the speaker). Each byte's part of those
/// tests is one lookup in detail::kSkipBits (the letter tests, byte by byte, cost ~5% of a short
/// check_answer).
inline bool plainly_skipped(const text::Token& token, const KeyFilter& filter,
                            ChunkNeeds needs) noexcept {
  const std::string_view text = token.text;
  const std::size_t n = text.size();
  if (token.kind != text::TokenKind::Word || n == 0) return false;
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const unsigned b0 = bytes[0];
  const unsigned b1 = n > 1 ? bytes[1] : 0u;
  const unsigned b2 = n > 2 ? bytes[2] : 0u;
  const unsigned first = detail::kSkipBits[b0];
  const unsigned second = detail::kSkipBits[b1];
  const unsigned last = detail::kSkipBits[bytes[n - 1]];
  const unsigned any = first | second | detail::kSkipBits[b2] | last;
  const auto code =
      static_cast<std::uint16_t>(detail::kAsciiLower[b0] | (detail::kAsciiLower[b1] << 8));
  // Bitwise, not short-circuit: every test is data-dependent, and a mispredicted branch per test
  // cost more than evaluating them all.
  const unsigned first_needs = (needs.negation ? detail::kSkipNegationFirst : 0u) |
                               (needs.number ? detail::kSkipNumberFirst : 0u) |
                               (needs.speaker ? detail::kSkipSpeakerFirst : 0u);
  const unsigned last_needs = needs.negation ? detail::kSkipT : 0u;
  // always_matches needs a base of one letter then ed/edly/ing/ingly/ying (an optional s): its
  // second letter is e, i or y (the AlwaysSecond bit, shifted onto AlwaysLast's).
  const bool keep =
      ((any & detail::kSkipHigh) | ((first | second) & detail::kSkipApostrophe) |
       (first & first_needs) | (last & last_needs) |
       (last & detail::kSkipAlwaysLast & ((second & detail::kSkipAlwaysSecond) << 1))) != 0;
  return !(keep | filter.has(code));
}

/// Computes a ChunkWord (its key interned in `keys`; `folded` and `key` are scratch).
ChunkWord make_chunk_word(const text::Token& token, KeyIds& keys, std::string& folded,
                          std::string& key);

/// Token -> ChunkWord, computed on first sight (stemming and folding every chunk token was most
/// of a chunk's cost). Entries stay valid until start() clears a full memo; their keys are stable
/// ids of the analyzer's KeyIds, so clear() must go with every KeyIds::clear_stable(). Not
/// thread-safe: one per analyzer.
class ChunkWords {
 public:
  /// Call before a chunk's tokens: clears the memo when full, so get() never invalidates the
  /// entries (and keys) of the same chunk.
  void start();
  /// Forgets every token.
  void clear() noexcept { memo_.clear(); }
  const ChunkWord& get(const text::Token& token, KeyIds& keys) {
    return memo_.get(token, [&] { return make_chunk_word(token, keys, folded_, key_); });
  }
  /// get(), given prefetch(token)'s hash.
  const ChunkWord& get(const text::Token& token, std::uint32_t hash, KeyIds& keys) {
    return memo_.get(token, hash, [&] { return make_chunk_word(token, keys, folded_, key_); });
  }
  /// Starts loading `token`'s memo slot; returns the hash get() takes.
  std::uint32_t prefetch(const text::Token& token) const noexcept {
    const std::uint32_t hash = TokenMemo<ChunkWord>::hash_of(token);
    memo_.prefetch(hash);
    return hash;
  }
  std::size_t size() const noexcept { return memo_.size(); }
  std::size_t memory_bytes() const noexcept;

  static constexpr std::size_t kMaxWords = TokenMemo<ChunkWord>::kMaxWords;
  static constexpr std::size_t kInline = TokenMemo<ChunkWord>::kInline;

 private:
  TokenMemo<ChunkWord> memo_;
  std::string folded_;
  std::string key_;
};

}  // namespace sc::claims
