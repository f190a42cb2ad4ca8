#include "text/interner.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace sc::text {

TermInterner::TermInterner(const TermInterner& other) {
  reserve(other.size());
  for (const std::string_view term : other.terms_) intern(term);
}

TermInterner& TermInterner::operator=(const TermInterner& other) {
  if (this != &other) {
    TermInterner copy(other);
    *this = std::move(copy);
  }
  return *this;
}

TermInterner::TermInterner(TermInterner&& other) noexcept
    : blocks_(std::move(other.blocks_)),
      block_used_(std::exchange(other.block_used_, 0)),
      block_capacity_(std::exchange(other.block_capacity_, 0)),
      arena_bytes_(std::exchange(other.arena_bytes_, 0)),
      terms_(std::move(other.terms_)),
      hashes_(std::move(other.hashes_)),
      slots_(std::move(other.slots_)) {
  other.clear();
}

TermInterner& TermInterner::operator=(TermInterner&& other) noexcept {
  if (this != &other) {
    blocks_ = std::move(other.blocks_);
    block_used_ = std::exchange(other.block_used_, 0);
    block_capacity_ = std::exchange(other.block_capacity_, 0);
    arena_bytes_ = std::exchange(other.arena_bytes_, 0);
    terms_ = std::move(other.terms_);
    hashes_ = std::move(other.hashes_);
    slots_ = std::move(other.slots_);
    other.clear();
  }
  return *this;
}

std::size_t TermInterner::probe(std::string_view term, std::uint32_t hash) const noexcept {
  // Linear probing; slots_ is a power of two and at most half full, so this terminates.
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = hash & mask;
  while (true) {
    const std::uint32_t entry = slots_[slot];
    if (entry == 0) return slot;
    const std::uint32_t id = entry - 1;
    if (hashes_[id] == hash && terms_[id] == term) return slot;
    slot = (slot + 1) & mask;
  }
}

std::optional<std::uint32_t> TermInterner::find(std::string_view term) const noexcept {
  if (slots_.empty()) return std::nullopt;
  const std::uint32_t entry = slots_[probe(term, static_cast<std::uint32_t>(hash_term(term)))];
  if (entry == 0) return std::nullopt;
  return entry - 1;
}

std::uint32_t TermInterner::intern(std::string_view term) {
  const auto hash = static_cast<std::uint32_t>(hash_term(term));
  if (!slots_.empty()) {
    const std::uint32_t entry = slots_[probe(term, hash)];
    if (entry != 0) return entry - 1;
  }
  // Ids are uint32 and slot entries store id + 1, so the last usable id is 2^32 - 2.
  if (terms_.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    throw std::length_error("TermInterner: more than 2^32 - 1 distinct terms");
  }
  if ((terms_.size() + 1) * 2 > slots_.size()) rehash(std::max<std::size_t>(16, slots_.size() * 2));
  const auto id = static_cast<std::uint32_t>(terms_.size());
  terms_.push_back(store(term));
  hashes_.push_back(hash);
  slots_[probe(term, hash)] = id + 1;
  return id;
}

std::string_view TermInterner::term(std::uint32_t id) const {
  if (id >= terms_.size()) {
    throw std::out_of_range("TermInterner::term: id " + std::to_string(id) +
                            " out of range (size " + std::to_string(terms_.size()) + ")");
  }
  return terms_[id];
}

void TermInterner::reserve(std::size_t count) {
  terms_.reserve(count);
  hashes_.reserve(count);
  std::size_t slot_count = 16;
  while (slot_count < count * 2) slot_count *= 2;
  if (slot_count > slots_.size()) rehash(slot_count);
}

void TermInterner::clear() noexcept {
  blocks_.clear();
  block_used_ = 0;
  block_capacity_ = 0;
  arena_bytes_ = 0;
  terms_.clear();
  hashes_.clear();
  slots_.clear();
}

void TermInterner::rehash(std::size_t slot_count) {
  slots_.assign(slot_count, 0);
  const std::size_t mask = slot_count - 1;
  for (std::uint32_t id = 0; id < terms_.size(); ++id) {
    std::size_t slot = hashes_[id] & mask;
    while (slots_[slot] != 0) slot = (slot + 1) & mask;
    slots_[slot] = id + 1;
  }
}

std::string_view TermInterner::store(std::string_view term) {
  if (term.empty()) return std::string_view();
  if (blocks_.empty() || block_capacity_ - block_used_ < term.size()) {
    // A term larger than a block gets a block of its own size.
    block_capacity_ = std::max(kBlockSize, term.size());
    blocks_.push_back(std::make_unique<char[]>(block_capacity_));
    arena_bytes_ += block_capacity_;
    block_used_ = 0;
  }
  char* dest = blocks_.back().get() + block_used_;
  std::memcpy(dest, term.data(), term.size());
  block_used_ += term.size();
  return std::string_view(dest, term.size());
}

}  // namespace sc::text
