/// @brief QueryPrefixes: the prefix groups of one check, found by prefix hash and confirmed by
/// bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sc::checker {

/// The distinct kPrefixLength-code-point prefixes of one query's terms, numbered as prefix groups
/// in the order add() first meets them. A context term belongs to a group when its prefix is the
/// group's: looked up by the term's prefix hash (WordInfo::prefix), then confirmed on its bytes,
/// so two prefixes sharing a hash stay apart. Holds copies of the prefixes; reset per check.
class QueryPrefixes {
 public:
  /// Forgets the last query's groups and makes room for `terms` prefixes (load <= 1/2).
  void reset(std::size_t terms) {
    std::size_t size = kMinSlots;
    while (size < 2 * terms) size *= 2;
    slots_.assign(size, Slot{});
    bytes_.clear();
    groups_ = 0;
    filter_.fill(0);
  }

  /// The group of the prefix `head` (hash `hash`), numbered next when new. At most the `terms`
  /// of reset() distinct prefixes.
  std::int32_t add(std::uint32_t hash, std::string_view head) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t at = hash & mask;
    for (; slots_[at].group >= 0; at = (at + 1) & mask) {
      const Slot& s = slots_[at];
      if (s.hash == hash && bytes(s) == head) return s.group;
    }
    slots_[at] = Slot{hash, static_cast<std::uint32_t>(bytes_.size()),
                      static_cast<std::uint32_t>(head.size()), groups_};
    bytes_.append(head);
    filter_[filter_word(hash)] |= filter_bit(hash);
    return groups_++;
  }

  /// The group of the term whose prefix hashes to `hash`, or -1. `term()` gives the term's bytes,
  /// read only when a slot's hash matches. Inline, it is one bit test (it runs for every context
  /// token); the probe is out of line, so the scan loop stays small.
  template <class Term>
  std::int32_t find(std::uint32_t hash, const Term& term) const {
    // Most context terms share no prefix with the query: one bit test rules them out.
    if ((filter_[filter_word(hash)] & filter_bit(hash)) == 0) return -1;
    return probe(hash, term);
  }

  /// Whether the query has no prefix group.
  bool empty() const noexcept { return groups_ == 0; }

 private:
  static constexpr std::size_t kMinSlots = 16;

  // A 256-bit filter addressed by the hash's top eight bits (the slot index uses the low ones):
  // with a question's few prefixes, ~2% of other terms get past it.
  static constexpr std::size_t filter_word(std::uint32_t hash) noexcept { return hash >> 30; }
  static constexpr std::uint64_t filter_bit(std::uint32_t hash) noexcept {
    return std::uint64_t{1} << (hash >> 24 & 63U);
  }

  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t offset = 0;  // of the prefix in bytes_
    std::uint32_t length = 0;
    std::int32_t group = -1;  // -1: empty
  };

  // A term is in a group when it starts with the group's prefix (UTF-8 cannot start with the bytes
  // of whole code points yet split them differently).
  template <class Term>
  [[gnu::noinline]] std::int32_t probe(std::uint32_t hash, const Term& term) const {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask; slots_[at].group >= 0; at = (at + 1) & mask) {
      const Slot& s = slots_[at];
      if (s.hash != hash) continue;
      const std::string_view t = term();
      if (t.substr(0, s.length) == bytes(s)) return s.group;
    }
    return -1;
  }

  std::string_view bytes(const Slot& s) const noexcept {
    return std::string_view(bytes_).substr(s.offset, s.length);
  }

  std::vector<Slot> slots_ = std::vector<Slot>(kMinSlots);
  std::string bytes_;
  std::int32_t groups_ = 0;
  std::array<std::uint64_t, 4> filter_{};  // filter_bit() of every prefix added
};

}  // namespace sc::checker
