#include "claims/key_table.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace sc::claims {

std::uint32_t KeyTable::add(std::string_view term, bool copy, std::uint32_t hash) {
  std::size_t slot = 0;
  if (!slots_.empty()) {
    slot = probe(term, hash);
    const std::uint64_t entry = slots_[slot];
    if (entry != 0) return static_cast<std::uint32_t>(entry) - 1;
  }
  if (terms_.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    throw std::length_error("KeyTable: more than 2^32 - 1 distinct keys");
  }
  if ((terms_.size() + 1) * 2 > slots_.size()) {
    rehash(std::max<std::size_t>(64, slots_.size() * 2));
    slot = probe(term, hash);  // the empty slot found above moved
  }
  const auto id = static_cast<std::uint32_t>(terms_.size());
  if (copy) term = store(term);
  terms_.emplace_back(term.data(), term.size());
  hashes_.push_back(hash);
  slots_[slot] = entry_of(id, hash);
  return id;
}

std::string_view KeyTable::store(std::string_view term) {
  if (term.empty()) return {};
  if (term.size() > kBlockSize) {
    large_.push_back(std::make_unique<char[]>(term.size()));
    large_bytes_ += term.size();
    std::memcpy(large_.back().get(), term.data(), term.size());
    return {large_.back().get(), term.size()};
  }
  if (blocks_.empty() || block_used_ + term.size() > kBlockSize) {
    if (!blocks_.empty()) ++block_;
    if (block_ == blocks_.size()) blocks_.push_back(std::make_unique<char[]>(kBlockSize));
    block_used_ = 0;
  }
  char* at = blocks_[block_].get() + block_used_;
  std::memcpy(at, term.data(), term.size());
  block_used_ += term.size();
  return {at, term.size()};
}

void KeyTable::rehash(std::size_t slot_count) {
  slots_.assign(slot_count, 0);
  const std::size_t mask = slot_count - 1;
  for (std::uint32_t id = 0; id < terms_.size(); ++id) {
    std::size_t slot = hashes_[id] & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = entry_of(id, hashes_[id]);
  }
}

void KeyTable::clear() noexcept {
  // Empty the slots in reverse insertion order (rehash re-inserts in id order): each term's probe
  // path then still holds only earlier terms, so it finds its slot without touching the others.
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t id = terms_.size(); id-- > 0;) {
    std::size_t slot = hashes_[id] & mask;
    while (static_cast<std::uint32_t>(slots_[slot]) != id + 1) slot = (slot + 1) & mask;
    slots_[slot] = 0;
  }
  terms_.clear();
  hashes_.clear();
  large_.clear();
  large_bytes_ = 0;
  block_ = 0;
  block_used_ = 0;
}

std::size_t KeyTable::memory_bytes() const noexcept {
  return blocks_.size() * kBlockSize + large_bytes_ + terms_.capacity() * sizeof(std::string_view) +
         hashes_.capacity() * sizeof(std::uint32_t) + slots_.capacity() * sizeof(std::uint64_t);
}

}  // namespace sc::claims
