/// @brief SeedBuilder: a seed vocabulary built at run time in owned arrays. The build-time
/// generator (make_english_tables.cpp) writes one out as C++ arrays; tests build small ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "checker/english_tables.hpp"
#include "checker/vocabulary.hpp"
#include "text/interner.hpp"
#include "text/tokenizer.hpp"

namespace sc::checker {

/// Open-addressing slot count for `count` entries: load at most 1/2, so misses probe little too.
inline std::size_t seed_slot_count(std::size_t count) {
  if (count == 0) return 0;
  std::size_t slots = 16;
  while (slots < 2 * count) slots *= 2;
  return slots;
}

/// StaticStrings over owned arrays: ids in insertion order; `payloads` (one per string, or none:
/// all 0) go in the slots' payload bytes. Without `index`, no slots: at() only, find() finds
/// nothing (for strings only ever read by id).
struct OwnedStrings {
  std::string bytes;
  std::vector<std::uint32_t> offsets{0};
  // Two words per slot: string_head(), StaticStrings::slot_meta().
  std::vector<std::uint64_t> slots;

  explicit OwnedStrings(const std::vector<std::string>& strings,
                        const std::vector<std::uint8_t>& payloads = {}, bool index = true) {
    if (!payloads.empty() && payloads.size() != strings.size()) {
      throw std::invalid_argument("OwnedStrings: one payload per string");
    }
    for (const std::string& s : strings) {
      bytes += s;
      offsets.push_back(static_cast<std::uint32_t>(bytes.size()));
    }
    if (!index) return;
    // Load at most 0.6: a slot is 16 bytes, four to a cache line, so a miss still reads ~1 line.
    std::size_t slot_count = strings.empty() ? 0 : 16;
    while (slot_count * 3 < strings.size() * 5) slot_count *= 2;
    slots.assign(2 * slot_count, 0);
    const std::size_t mask = slot_count - 1;
    for (std::uint32_t id = 0; id < strings.size(); ++id) {
      const std::uint64_t hash = text::hash_term(strings[id]);
      std::size_t slot = hash & mask;
      while (slots[2 * slot + 1] != 0) slot = (slot + 1) & mask;
      slots[2 * slot] = string_head(strings[id]);
      slots[2 * slot + 1] = StaticStrings::slot_meta(hash, strings[id].size(), id,
                                                     payloads.empty() ? 0 : payloads[id]);
    }
  }

  std::uint32_t count() const { return static_cast<std::uint32_t>(offsets.size() - 1); }
  std::uint32_t slot_count() const { return static_cast<std::uint32_t>(slots.size() / 2); }

  /// A view valid while this object lives unchanged.
  StaticStrings view() const {
    return {bytes.data(), offsets.data(), slots.data(), count(), slot_count()};
  }
};

/// Analyses spellings with a Vocabulary without seed (so exactly as a thread would) and keeps
/// each that the tokenizer reads as one whole token.
class SeedBuilder {
 public:
  static constexpr std::size_t kMaxBytes = 64;  // longer spellings are left to the memo

  /// Adds `spelling` unless it is not one whole token, too long, or already added.
  void add(std::string_view spelling) {
    std::size_t tokens = 0;
    text::Token only{};
    text::for_each_token(spelling, [&](const text::Token& token) {
      ++tokens;
      only = token;
    });
    if (tokens != 1 || only.text != spelling || spelling.size() > kMaxBytes) return;
    if (!added_.insert(std::string(spelling)).second) return;
    const WordInfo info = vocabulary_.lookup(only);
    if (info.folded.size() > kMaxBytes) return;
    SeedWord w{};
    w.spelling = store(spelling);
    w.folded = store(info.folded);
    w.term = info.term;
    w.prefix = info.prefix;
    w.spelling_length = static_cast<std::uint8_t>(spelling.size());
    w.folded_length = static_cast<std::uint8_t>(info.folded.size());
    w.term_length = static_cast<std::uint8_t>(info.term_length);
    w.flags =
        static_cast<std::uint8_t>(static_cast<unsigned>(info.kind) | (info.negation ? 4u : 0u));
    words_.push_back(w);
    hashes_.push_back(text::hash_term(spelling));
  }

  /// The seed's arrays, ready for view() or to be written out.
  struct Seed {
    std::string bytes;
    std::vector<SeedWord> words;
    std::vector<std::uint64_t> slots;  // (hash >> 32) << 32 | (word index + 1)
    OwnedStrings terms;

    /// A view valid while this object lives unchanged.
    SeedVocabulary view() const {
      return {bytes.data(),
              words.data(),
              slots.data(),
              static_cast<std::uint32_t>(words.size()),
              static_cast<std::uint32_t>(slots.size()),
              terms.view()};
    }
  };

  Seed build() const {
    std::vector<std::uint64_t> slots(seed_slot_count(words_.size()), 0);
    const std::size_t mask = slots.size() - 1;
    for (std::uint32_t i = 0; i < words_.size(); ++i) {
      std::size_t slot = hashes_[i] & mask;
      while (slots[slot] != 0) slot = (slot + 1) & mask;
      slots[slot] = (hashes_[i] >> 32) << 32 | (i + 1);
    }
    std::vector<std::string> terms;
    for (std::uint32_t id = 0; id < vocabulary_.term_count(); ++id) {
      terms.emplace_back(vocabulary_.term(id));
    }
    return {bytes_, words_, std::move(slots), OwnedStrings(terms)};
  }

 private:
  std::uint32_t store(std::string_view s) {
    const auto [it, added] = offset_of_.emplace(std::string(s), 0);
    if (added) {
      it->second = static_cast<std::uint32_t>(bytes_.size());
      bytes_ += s;
    }
    return it->second;
  }

  Vocabulary vocabulary_{kNoSeed};
  std::unordered_set<std::string> added_;
  std::unordered_map<std::string, std::uint32_t> offset_of_;
  std::string bytes_;
  std::vector<SeedWord> words_;
  std::vector<std::uint64_t> hashes_;
};

}  // namespace sc::checker
