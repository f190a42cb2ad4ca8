/// @brief TermInterner: term strings <-> dense uint32 ids, so term sets become integer sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "text/string_arena.hpp"

namespace sc::text {

/// A fast 64-bit hash of a byte string (multiply-xorshift over 8-byte words). Not for security.
/// The last 1-7 bytes are read by fixed-size loads (overlapping ones for 4-7 bytes) rather than a
/// variable-length memcpy, a library call that cost most of the hash on short words; every byte
/// is read, and the length is mixed in first.
inline std::uint64_t hash_term(std::string_view term) noexcept {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ULL;
  std::uint64_t h = (term.size() + 1) * kMul;
  const char* p = term.data();
  std::size_t left = term.size();
  while (left >= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    h = (h ^ word) * kMul;
    h ^= h >> 32;
    p += 8;
    left -= 8;
  }
  if (left > 0) {
    std::uint64_t word;
    if (left >= 4) {
      std::uint32_t low;
      std::uint32_t high;
      std::memcpy(&low, p, 4);
      std::memcpy(&high, p + left - 4, 4);
      word = low | (std::uint64_t{high} << 32);
    } else {
      const auto byte = [p](std::size_t i) {
        return std::uint64_t{static_cast<unsigned char>(p[i])};
      };
      word = byte(0) | (byte(left / 2) << 8) | (byte(left - 1) << 16);
    }
    h = (h ^ word) * kMul;
    h ^= h >> 32;
  }
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  return h ^ (h >> 32);
}

/// The sizeof(T) bytes at p as a T, at any alignment: a fixed-size memcpy compiles to one load.
template <typename T>
T load_bytes(const char* p) noexcept {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

/// Whether a and b hold the same bytes, by fixed-size loads only (the last 1-7 bytes by two
/// overlapping ones, as hash_term reads them): a byte loop or a memcmp call cost more than the
/// rest of a hash-table hit.
inline bool same_bytes(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      if (load_bytes<std::uint64_t>(x + i) != load_bytes<std::uint64_t>(y + i)) return false;
    }
    return load_bytes<std::uint64_t>(x + n - 8) == load_bytes<std::uint64_t>(y + n - 8);
  }
  if (n >= 4) {
    return load_bytes<std::uint32_t>(x) == load_bytes<std::uint32_t>(y) &&
           load_bytes<std::uint32_t>(x + n - 4) == load_bytes<std::uint32_t>(y + n - 4);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

/// Maps term strings to dense ids 0, 1, 2, ... in first-seen order, and ids back to terms.
/// Terms are copied into an arena owned by the interner: the string_views that term() and
/// terms() return stay valid until the interner is cleared or destroyed (moving it keeps them
/// valid; a copy re-interns into its own arena with the same ids).
/// Lookups take string_views and never allocate. Not thread-safe for concurrent intern().
class TermInterner {
 public:
  TermInterner() = default;
  TermInterner(const TermInterner& other);
  TermInterner& operator=(const TermInterner& other);
  TermInterner(TermInterner&& other) noexcept;
  TermInterner& operator=(TermInterner&& other) noexcept;
  ~TermInterner() = default;

  /// The id of `term`, adding it when new. Throws std::length_error past 2^32 - 1 terms.
  std::uint32_t intern(std::string_view term);

  /// The id of `term` if it was interned; never inserts.
  std::optional<std::uint32_t> find(std::string_view term) const noexcept;
  bool contains(std::string_view term) const noexcept { return find(term).has_value(); }

  /// find() for a term whose hash_term() low half is known: `term()` gives its bytes, read only
  /// when a slot's hash matches (a miss, the usual case, never reads them).
  template <class Term>
  std::optional<std::uint32_t> find_hashed(std::uint32_t hash, const Term& term) const noexcept {
    if (slots_.empty()) return std::nullopt;
    const std::uint32_t entry = slots_[probe(hash, term)].entry;
    if (entry == 0) return std::nullopt;
    return entry - 1;
  }

  /// The term of `id`. Throws std::out_of_range when id >= size().
  std::string_view term(std::uint32_t id) const;

  /// Every term, indexed by id.
  const std::vector<std::string_view>& terms() const noexcept { return terms_; }

  std::size_t size() const noexcept { return terms_.size(); }
  bool empty() const noexcept { return terms_.empty(); }

  /// Makes room for `count` terms without rehashing.
  void reserve(std::size_t count);

  /// Forgets every term (invalidates the views handed out). Keeps the tables' capacity.
  void clear() noexcept;

  /// Heap bytes held: the arena plus the tables' capacity.
  std::size_t memory_bytes() const noexcept {
    return arena_.memory_bytes() + terms_.capacity() * sizeof(std::string_view) +
           slots_.capacity() * sizeof(Slot);
  }

 private:
  // The hash sits in the slot: a probe passes other terms' slots without reading their strings
  // (one cache line for a miss, the usual case when interning new text), and a rehash needs no
  // string either.
  struct Slot {
    std::uint32_t hash = 0;   // low 32 bits of hash_term()
    std::uint32_t entry = 0;  // id + 1; 0 = empty
  };

  // The slot holding the term `term()` gives, or the empty slot where it would go. Linear probing;
  // slots_ is a power of two and at most half full, so this terminates. `term()` runs only when a
  // slot's hash matches. Inlined: as a call its entry and exit cost as much as the probe.
  template <class Term>
  [[gnu::always_inline]] std::size_t probe(std::uint32_t hash, const Term& term) const noexcept {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const Slot& s = slots_[slot];
      if (s.entry == 0 || (s.hash == hash && same_bytes(terms_[s.entry - 1], term()))) return slot;
    }
  }
  // Adds `term`, new, at `slot` (from probe(); any slot when the table is empty).
  std::uint32_t add(std::string_view term, std::uint32_t hash, std::size_t slot);
  void rehash(std::size_t slot_count);

  StringArena arena_;
  std::vector<std::string_view> terms_;  // by id, viewing the arena
  std::vector<Slot> slots_;              // open addressing, a power of two, at most half full
};

}  // namespace sc::text
