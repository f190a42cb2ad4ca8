/// @brief TokenMemo: token (text and kind) -> a small value, one cache line per token.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "claims/key_table.hpp"
#include "text/tokenizer.hpp"

namespace sc::claims {

/// A per-thread memo of what is derived from a token's text and kind. Each entry holds the
/// token's text inline with its value, so a lookup touches one cache line (a KeyTable lookup
/// touched its slot, its term and the term's bytes). Tokens longer than kInline bytes are never
/// kept; neither is anything past kMaxWords words until clear(). Not thread-safe.
template <class Value>
class TokenMemo {
 public:
  static constexpr std::size_t kMaxWords = std::size_t{3} << 12;  // 12,288 in 16,384 slots (1 MiB)
  /// Bytes of text an entry holds: what fills its cache line(s) after the value, hash, length
  /// and kind (at least 8).
  static constexpr std::size_t kInline =
      (sizeof(Value) + 6 + 8 + 63) / 64 * 64 - (sizeof(Value) + 6);

  /// The hash get() and prefetch() take.
  static std::uint32_t hash_of(const text::Token& token) noexcept {
    return KeyTable::hash(token.text) ^ (static_cast<std::uint32_t>(token.kind) * 0x9E3779B9u);
  }

  /// Starts loading the slot get() first probes for a token of hash `hash` (a hint: a lookup
  /// after grow() just misses it), so the lookups of several tokens overlap their cache misses.
  void prefetch(std::uint32_t hash) const noexcept {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }

  /// The value of `token`: the kept one, else make() (kept when it fits).
  template <class Make>
  const Value& get(const text::Token& token, Make&& make) {
    return get(token, hash_of(token), make);
  }
  /// The same, given hash_of(token).
  template <class Make>
  const Value& get(const text::Token& token, std::uint32_t hash, Make&& make) {
    const std::size_t length = token.text.size();
    if (length == 0 || length > kInline || count_ >= kMaxWords) {
      scratch_ = make();
      return scratch_;
    }
    if ((count_ + 1) * 4 > slots_.size() * 3) grow();
    const auto kind = static_cast<std::uint8_t>(token.kind);
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = hash & mask;
    while (slots_[slot].length != 0) {
      const Entry& e = slots_[slot];
      if (e.hash == hash && e.length == length && e.kind == kind &&
          std::memcmp(e.text, token.text.data(), length) == 0) {
        return e.value;
      }
      slot = (slot + 1) & mask;
    }
    Entry& e = slots_[slot];
    e.value = make();
    e.hash = hash;
    e.length = static_cast<std::uint8_t>(length);
    e.kind = kind;
    std::memcpy(e.text, token.text.data(), length);
    ++count_;
    return e.value;
  }

  /// Forgets every token; keeps the slots.
  void clear() noexcept {
    if (count_ == 0) return;
    for (Entry& e : slots_) e.length = 0;
    count_ = 0;
  }

  std::size_t size() const noexcept { return count_; }
  std::size_t memory_bytes() const noexcept { return slots_.capacity() * sizeof(Entry); }

 private:
  struct alignas(64) Entry {
    Value value;
    std::uint32_t hash;
    std::uint8_t length;  // 0: empty slot
    std::uint8_t kind;
    char text[kInline];
  };
  static_assert(sizeof(Entry) % 64 == 0, "whole cache lines");

  void grow() {
    std::vector<Entry> old(std::max<std::size_t>(1024, slots_.size() * 2));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Entry& e : old) {
      if (e.length == 0) continue;
      std::size_t slot = e.hash & mask;
      while (slots_[slot].length != 0) slot = (slot + 1) & mask;
      slots_[slot] = e;
    }
  }

  std::vector<Entry> slots_;  // open addressing, a power of two, at most 3/4 full
  std::size_t count_ = 0;
  Value scratch_{};
};

}  // namespace sc::claims
