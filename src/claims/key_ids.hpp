/// @brief KeyIds: key strings -> per-thread stable ids, and per check stable id -> local key id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "claims/chunk_grams.hpp"
#include "claims/claim_tokens.hpp"
#include "claims/key_table.hpp"

namespace sc::claims {

/// The keys of a thread's checks. Every key string gets a stable id that lasts until
/// clear_stable() (which the analyzer calls between checks, with its word memos), so memo entries
/// and relation links hold ids and are looked up or registered per check without hashing or
/// comparing strings. A check's keys are local ids 0, 1, 2, ... in first-seen order, mapped from
/// stable ids by an array stamped with the check's generation (start_check() forgets them in
/// O(1)). Not thread-safe: one per analyzer.
class KeyIds {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  /// The stable id of `key` (copied when new).
  std::uint32_t intern(std::string_view key) {
    const std::size_t before = table_.size();
    const std::uint32_t id = table_.intern(key);
    if (table_.size() != before) {
      codes_.push_back(prefix_code(key));
      grams_.push_back(gram_slot(key));
      if (slots_.size() < table_.size())
        slots_.resize(std::max<std::size_t>(64, 2 * slots_.size()));
    }
    return id;
  }
  /// The stable id of `key`, or kNone; never inserts.
  std::uint32_t find(std::string_view key) const noexcept {
    const auto id = table_.find(key);
    return id ? *id : kNone;
  }
  std::string_view term(std::uint32_t stable) const noexcept { return table_.term(stable); }
  /// prefix_code(term(stable)).
  std::uint16_t code(std::uint32_t stable) const noexcept { return codes_[stable]; }
  /// gram_slot(term(stable)).
  std::uint16_t gram(std::uint32_t stable) const noexcept { return grams_[stable]; }
  std::size_t stable_count() const noexcept { return table_.size(); }
  /// Forgets every stable id (between checks only: memo entries holding ids must go too).
  void clear_stable() noexcept;

  /// Forgets the local ids of the previous check.
  void start_check() noexcept;
  /// The local id of stable id `stable` (< stable_count()), registering it when new (`added`
  /// says so).
  std::uint32_t add_local(std::uint32_t stable, bool& added) {
    std::uint64_t& slot = slots_[stable];
    added = (slot >> 32) != generation_;
    if (added) {
      slot = (std::uint64_t{generation_} << 32) | locals_.size();
      locals_.push_back(stable);
    }
    return static_cast<std::uint32_t>(slot);
  }
  /// Starts loading the slot add_local(stable) and local(stable) read (a hint).
  void prefetch(std::uint32_t stable) const noexcept {
    if (stable < slots_.size()) __builtin_prefetch(&slots_[stable]);
  }
  /// The local id of stable id `stable` in this check, or kNone (kNone maps to kNone).
  std::uint32_t local(std::uint32_t stable) const noexcept {
    if (stable >= slots_.size()) return kNone;
    const std::uint64_t slot = slots_[stable];
    return (slot >> 32) == generation_ ? static_cast<std::uint32_t>(slot) : kNone;
  }
  /// The key text of local id `local` (< local_count()).
  std::string_view local_term(std::uint32_t local) const noexcept {
    return table_.term(locals_[local]);
  }
  /// gram_slot(local_term(local)).
  std::uint16_t local_gram(std::uint32_t local) const noexcept { return grams_[locals_[local]]; }
  std::size_t local_count() const noexcept { return locals_.size(); }

  /// Heap bytes held (capacities).
  std::size_t memory_bytes() const noexcept;

 private:
  KeyTable table_;                    // stable ids
  std::vector<std::uint16_t> codes_;  // by stable id
  std::vector<std::uint16_t> grams_;  // by stable id
  // By stable id, at least stable_count() of them: generation << 32 | local id.
  std::vector<std::uint64_t> slots_;
  std::vector<std::uint32_t> locals_;  // this check's: local id -> stable id
  std::uint32_t generation_ = 1;       // slots of older generations are free
};

}  // namespace sc::claims
