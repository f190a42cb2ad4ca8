/// @brief ChunkGrams: which keys an ASCII chunk cannot hold, known from its bytes alone.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sc::claims {

/// The bytes of a key's stem that every word with that key starts with: Porter2 keeps all but at
/// most the last two letters of a stem of four or more, and at least its first three
/// (test_claim_chunk_grams.cpp checks every word of up to five letters and millions more). Empty
/// for a key that may_hold cannot rule out: shorter than four bytes, or with a byte other than
/// a-z and the apostrophe (numbers, the speaker, non-ASCII words).
std::string_view kept_prefix(std::string_view key) noexcept;

/// What ChunkGrams compares first of a key: the slot of its kept_prefix's first three bytes, or
/// kNoGram without a kept_prefix (KeyIds computes it once per key).
inline constexpr std::uint16_t kNoGram = 0xFFFF;
std::uint16_t gram_slot(std::string_view key) noexcept;

/// Where a chunk's words may start, with the set of the three bytes there: whether the chunk may
/// hold a token of a given key, without tokenizing or stemming it. An ASCII chunk's tokens fold to
/// their lowered bytes and start at a letter or digit after none, so a token whose key has a
/// kept_prefix starts with that prefix, lowered. Reused across chunks (~20 KB of arrays).
class ChunkGrams {
 public:
  /// Chunks longer than this are not read (read() returns false).
  static constexpr std::size_t kMaxBytes = 4096;

  /// Reads `text`; false (and may_hold() is then always true) when it has a byte >= 0x80 (folding
  /// may turn such bytes into letters) or more than kMaxBytes.
  bool read(std::string_view text);

  /// False only when no token of the chunk read last (its text still alive) can have a key whose
  /// gram_slot is `slot`; `key()` gives that key's text, read only when the slot is present. The
  /// starts compared to tell (those of the slot) are counted: past kBudgetPerStart per start of
  /// the chunk, a present slot answers true unread, so that verifying keys never costs more than
  /// the analysis it would spare (a chunk of one word repeated, "punx punx ...", against many
  /// claims of words starting "pun" made each verification a walk of every start).
  template <class Key>
  bool may_hold(std::uint16_t slot, Key&& key) {
    if (!ascii_ || slot == kNoGram) return true;
    if (((bits_[slot / 64] >> (slot % 64)) & 1u) == 0) return false;
    return starts_with_prefix(slot, kept_prefix(key()));
  }

  /// Start comparisons may_hold may spend per start of a chunk (and kBaseBudget more).
  static constexpr std::size_t kBudgetPerStart = 4;
  static constexpr std::size_t kBaseBudget = 64;

 private:
  friend std::uint16_t gram_slot(std::string_view key) noexcept;
  /// The slot of three bytes: their low five bits, so a capital and its lowered letter share it.
  static std::uint16_t slot(unsigned a, unsigned b, unsigned c) noexcept {
    const std::uint32_t code = ((a & 31u) << 10) | ((b & 31u) << 5) | (c & 31u);
    return static_cast<std::uint16_t>((code ^ (code >> 7)) & 4095u);
  }
  /// A word may start at text_[i] (i + 2 < size), whose first three bytes have slot `s`.
  void add_start(std::size_t i, std::uint16_t s) noexcept {
    std::uint64_t& word = bits_[s / 64];
    const std::uint64_t bit = std::uint64_t{1} << (s % 64);
    next_[count_] = (word & bit) != 0 ? head_[s] : kEnd;
    word |= bit;
    head_[s] = static_cast<std::uint16_t>(count_);
    starts_[count_++] = static_cast<std::uint32_t>(i);
  }
  /// Whether a word whose first three bytes have slot `slot` starts with `prefix` (lowered bytes,
  /// 3 or more): only the starts of that slot are compared (a scan of every start made
  /// verifications cost more than the analysis they spare when claims share common first three
  /// letters with the chunk: "com", "pro", "con").
  bool starts_with_prefix(std::uint16_t slot, std::string_view prefix) noexcept;

  static constexpr std::uint16_t kEnd = 0xFFFF;
  // Starts are at least two bytes apart (a letter or digit after none).
  static constexpr std::size_t kMaxStarts = kMaxBytes / 2;
  static_assert(kMaxStarts < kEnd, "a start index fits next_ and head_");
  std::string_view text_;
  std::size_t count_ = 0;  // starts
  // Offsets of a letter or digit after none (at least 3 bytes before the end), and by start the
  // previous start of its slot, or kEnd: fixed arrays, filled without a capacity test per start.
  std::array<std::uint32_t, kMaxStarts> starts_{};
  std::array<std::uint16_t, kMaxStarts> next_{};
  std::array<std::uint64_t, 64> bits_{};  // 4,096 bits: slot() of the three bytes at each start
  // By slot: its last start (an index into starts_), valid only where bits_ has the slot (so no
  // read clears it).
  std::array<std::uint16_t, 4096> head_{};
  std::size_t budget_ = 0;  // start comparisons left for may_hold
  bool ascii_ = false;
};

}  // namespace sc::claims
