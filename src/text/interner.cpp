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
    : arena_(std::move(other.arena_)),
      terms_(std::move(other.terms_)),
      slots_(std::move(other.slots_)) {
  other.clear();
}

TermInterner& TermInterner::operator=(TermInterner&& other) noexcept {
  if (this != &other) {
    arena_ = std::move(other.arena_);
    terms_ = std::move(other.terms_);
    slots_ = std::move(other.slots_);
    other.clear();
  }
  return *this;
}

std::optional<std::uint32_t> TermInterner::find(std::string_view term) const noexcept {
  return find_hashed(static_cast<std::uint32_t>(hash_term(term)), [term] { return term; });
}

std::uint32_t TermInterner::intern(std::string_view term) {
  const auto hash = static_cast<std::uint32_t>(hash_term(term));
  std::size_t slot = 0;
  if (!slots_.empty()) {
    slot = probe(hash, [term] { return term; });
    if (slots_[slot].entry != 0) return slots_[slot].entry - 1;
  }
  return add(term, hash, slot);
}

// Out of line, so that a term found (the usual case) runs through a small function.
[[gnu::noinline]] std::uint32_t TermInterner::add(std::string_view term, std::uint32_t hash,
                                                  std::size_t slot) {
  // Ids are uint32 and slot entries store id + 1, so the last usable id is 2^32 - 2.
  if (terms_.size() >= std::numeric_limits<std::uint32_t>::max() - 1) {
    throw std::length_error("TermInterner: more than 2^32 - 1 distinct terms");
  }
  if ((terms_.size() + 1) * 2 > slots_.size()) {
    rehash(std::max<std::size_t>(16, slots_.size() * 2));
    slot = probe(hash, [term] { return term; });
  }
  const auto id = static_cast<std::uint32_t>(terms_.size());
  terms_.push_back(arena_.store(term));
  slots_[slot] = Slot{hash, id + 1};
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
  std::size_t slot_count = 16;
  while (slot_count < count * 2) slot_count *= 2;
  if (slot_count > slots_.size()) rehash(slot_count);
}

void TermInterner::clear() noexcept {
  arena_.clear();
  terms_.clear();
  slots_.clear();
}

void TermInterner::rehash(std::size_t slot_count) {
  std::vector<Slot> old(slot_count);
  old.swap(slots_);
  const std::size_t mask = slot_count - 1;
  for (const Slot& s : old) {
    if (s.entry == 0) continue;
    std::size_t slot = s.hash & mask;
    while (slots_[slot].entry != 0) slot = (slot + 1) & mask;
    slots_[slot] = s;
  }
}

}  // namespace sc::text
