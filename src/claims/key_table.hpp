/// @brief KeyTable: the key strings of one claim check <-> dense ids, reusable across checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "text/interner.hpp"

namespace sc::claims {

/// Maps key strings to dense ids 0, 1, 2, ... in first-seen order, like text::TermInterner, but
/// made to be cleared and refilled once per check: clear() keeps every buffer (arena blocks, hash
/// slots) and costs in proportion to the keys it forgets, not to the capacity. Terms are either
/// copied into the arena (intern) or, when the caller guarantees they outlive the next clear(),
/// kept as views (intern_view). Views handed out stay valid until clear(). Not thread-safe.
class KeyTable {
 public:
  KeyTable() = default;
  KeyTable(const KeyTable&) = delete;
  KeyTable& operator=(const KeyTable&) = delete;
  KeyTable(KeyTable&&) noexcept = default;
  KeyTable& operator=(KeyTable&&) noexcept = default;
  ~KeyTable() = default;

  /// The id of `term`, copying it into the arena when new.
  std::uint32_t intern(std::string_view term) { return add(term, true, hash(term)); }
  /// The id of `term`, keeping the view itself when new (it must outlive the next clear()).
  std::uint32_t intern_view(std::string_view term) { return add(term, false, hash(term)); }
  /// intern_view with `term`'s hash() computed beforehand.
  std::uint32_t intern_view(std::string_view term, std::uint32_t term_hash) {
    return add(term, false, term_hash);
  }

  /// The hash the table files `term` under (text::TermInterner's).
  static std::uint32_t hash(std::string_view term) noexcept {
    return static_cast<std::uint32_t>(text::hash_term(term));
  }

  /// The id of `term` if present; never inserts.
  std::optional<std::uint32_t> find(std::string_view term) const noexcept {
    return find(term, hash(term));
  }
  /// find with `term`'s hash() computed beforehand.
  std::optional<std::uint32_t> find(std::string_view term, std::uint32_t term_hash) const noexcept {
    if (terms_.empty()) return std::nullopt;
    const std::uint64_t entry = slots_[probe(term, term_hash)];
    if (entry == 0) return std::nullopt;
    return static_cast<std::uint32_t>(entry) - 1;
  }

  /// The term of `id` (id < size()).
  std::string_view term(std::uint32_t id) const noexcept { return terms_[id]; }

  std::size_t size() const noexcept { return terms_.size(); }
  bool empty() const noexcept { return terms_.empty(); }

  /// Forgets every term; keeps the capacity.
  void clear() noexcept;

  /// Heap bytes held (capacity), to bound what a thread keeps between checks.
  std::size_t memory_bytes() const noexcept;

 private:
  std::uint32_t add(std::string_view term, bool copy, std::uint32_t hash);
  /// The slot of `term`, or the empty slot where it would go. Linear probing; slots_ is a power
  /// of two and at most half full, so this terminates. Inline: it runs for every chunk token.
  std::size_t probe(std::string_view term, std::uint32_t hash) const noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = hash & mask;
    while (true) {
      const std::uint64_t entry = slots_[slot];
      if (entry == 0) return slot;
      // The hash sits in the slot: a mismatch costs no look at the term.
      if (static_cast<std::uint32_t>(entry >> 32) == hash &&
          terms_[static_cast<std::uint32_t>(entry) - 1] == term) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }
  void rehash(std::size_t slot_count);
  std::string_view store(std::string_view term);
  static std::uint64_t entry_of(std::uint32_t id, std::uint32_t hash) noexcept {
    return (std::uint64_t{hash} << 32) | (id + 1);
  }

  static constexpr std::size_t kBlockSize = 4096;

  std::vector<std::unique_ptr<char[]>> blocks_;  // kBlockSize each; reused after clear()
  std::size_t block_ = 0;                        // block being filled
  std::size_t block_used_ = 0;                   // bytes used in blocks_[block_]
  std::vector<std::unique_ptr<char[]>> large_;   // terms longer than kBlockSize; freed on clear
  std::size_t large_bytes_ = 0;                  // their sizes
  std::vector<std::string_view> terms_;          // by id
  std::vector<std::uint32_t> hashes_;            // low 32 hash bits by id
  std::vector<std::uint64_t> slots_;  // open addressing: hash << 32 | (id + 1), 0 = empty
};

}  // namespace sc::claims
