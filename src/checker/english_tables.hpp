/// @brief The English tables compiled in at build time: term statistics, word relations and the
/// pre-analysed common-English vocabulary, as read-only arrays (see src/tools/make_english_tables).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

#include "text/interner.hpp"

namespace sc::checker {

/// Strings with dense ids and an open-addressing index over them, all in static arrays (or any
/// arrays that outlive the view). Read-only, so every thread may share one.
struct StaticStrings {
  const char* bytes = nullptr;
  const std::uint32_t* offsets =
      nullptr;  // count + 1 entries: string id spans [offsets[id], offsets[id + 1])
  // Probed from h = text::hash_term (slot h & mask): (h >> 32) << 32 | (id + 1); 0 = empty. The
  // hash's high half in the slot lets a probe pass other strings without reading their offsets
  // and bytes, each on another cache line: a miss (most terms of a text) reads one line.
  const std::uint64_t* slots = nullptr;
  std::uint32_t count = 0;
  std::uint32_t slot_count = 0;  // a power of two, or 0

  /// The slot entry of string `id` whose hash_term() is `hash`.
  static constexpr std::uint64_t slot_entry(std::uint64_t hash, std::uint32_t id) noexcept {
    return (hash >> 32) << 32 | (std::uint64_t{id} + 1);
  }

  std::string_view at(std::uint32_t id) const noexcept {
    return {bytes + offsets[id], static_cast<std::size_t>(offsets[id + 1] - offsets[id])};
  }

  std::optional<std::uint32_t> find(std::string_view s) const noexcept {
    if (slot_count == 0) return std::nullopt;
    const std::size_t mask = slot_count - 1;
    const std::uint64_t hash = text::hash_term(s);
    const std::uint64_t tag = hash >> 32;
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const std::uint64_t entry = slots[slot];
      if (entry == 0) return std::nullopt;
      if ((entry >> 32) != tag) continue;
      const auto id = static_cast<std::uint32_t>(entry) - 1;
      if (at(id) == s) return id;
    }
  }
};

/// One pre-analysed spelling: what Vocabulary::lookup() would compute for it.
struct SeedWord {
  std::uint32_t spelling;  // offset into SeedVocabulary::bytes
  std::uint32_t folded;    // offset into SeedVocabulary::bytes
  std::uint32_t term;      // id in SeedVocabulary::terms, or kNoTerm (a stop word)
  std::uint32_t prefix;    // id in SeedVocabulary::prefixes, or kNoTerm
  std::uint8_t spelling_length;
  std::uint8_t folded_length;
  std::uint8_t term_length;  // code points
  std::uint8_t flags;        // bits 0-1: text::TokenKind; bit 2: negation cue
};

/// The common-English words analysed at build time, shared read-only by every Vocabulary. Term and
/// prefix ids 0..count-1 are theirs; a vocabulary numbers its own terms from there on.
struct SeedVocabulary {
  const char* bytes = nullptr;
  const SeedWord* words = nullptr;
  // Probed from text::hash_term(spelling) h: (h >> 32) << 32 | (word index + 1); 0 = empty.
  const std::uint64_t* slots = nullptr;
  std::uint32_t word_count = 0;
  std::uint32_t slot_count = 0;  // a power of two, or 0
  StaticStrings terms;
  StaticStrings prefixes;
};

/// data/english_freq.tsv as TermStatistics::from_tsv reads it: stems in insertion order.
struct EnglishFrequencies {
  StaticStrings stems;
  const double* zipf = nullptr;  // by stem id
};

/// data/english_relations.tsv as WordRelations::from_tsv reads it.
struct EnglishRelations {
  StaticStrings keys;                     // stems with relations
  StaticStrings words;                    // every stem named in a list
  const std::uint32_t* bounds = nullptr;  // 2 * keys.count + 1: key k's related are
                                          // links[bounds[2k], bounds[2k+1]), its antonyms
                                          // links[bounds[2k+1], bounds[2k+2])
  const std::uint32_t* links = nullptr;   // ids into words
};

/// Defined by the generated source (build/.../english_tables.cpp); the generator itself links
/// empty ones (src/tools/no_english_tables.cpp), so it analyses words exactly as a vocabulary
/// without seeds does.
const SeedVocabulary& english_seed_vocabulary() noexcept;
const EnglishFrequencies& english_frequencies() noexcept;
const EnglishRelations& english_relations() noexcept;

}  // namespace sc::checker
