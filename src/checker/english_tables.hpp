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

/// The first 8 bytes of `s`, zero-padded: with the length, the whole of a string of up to 8 bytes
/// (most stems), so a hash-table hit on one needs no read of the string's bytes elsewhere.
inline std::uint64_t string_head(std::string_view s) noexcept {
  const char* p = s.data();
  const std::size_t n = s.size();
  if (n >= 8) return text::load_bytes<std::uint64_t>(p);
  const auto byte = [p](std::size_t i) {
    return std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  };
  if (n >= 4) {  // two overlapping loads: the bytes both hold are equal, so OR keeps them
    return std::uint64_t{text::load_bytes<std::uint32_t>(p)} |
           std::uint64_t{text::load_bytes<std::uint32_t>(p + n - 4)} << (8 * (n - 4));
  }
  if (n == 0) return 0;
  return byte(0) | byte(n / 2) | byte(n - 1);
}

/// Strings with dense ids and an open-addressing index over them, all in static arrays (or any
/// arrays that outlive the view). Read-only, so every thread may share one.
struct StaticStrings {
  const char* bytes = nullptr;
  const std::uint32_t* offsets =
      nullptr;  // count + 1 entries: string id spans [offsets[id], offsets[id + 1])
  // Two words per slot, probed from h = text::hash_term (slot h & mask): string_head(), then
  // slot_meta(). A table's first lookups in a process miss the cache; a hit on a string of up to
  // 8 bytes, with its payload, reads only its slot's line (not the offsets, bytes and values, each
  // on another line), and a miss reads one line.
  const std::uint64_t* slots = nullptr;
  std::uint32_t count = 0;
  std::uint32_t slot_count = 0;  // a power of two, or 0

  /// A slot's second word: bits 0-31 id + 1 (0 = empty), 32-47 the hash's top 16 bits, 48-55
  /// min(size, 255), 56-63 a payload byte of the table's own (EnglishFrequencies: a zipf code).
  static constexpr std::uint64_t slot_meta(std::uint64_t hash, std::size_t size, std::uint32_t id,
                                           std::uint8_t payload) noexcept {
    return key_bits(hash, size) << 32 | std::uint64_t{payload} << 56 | (std::uint64_t{id} + 1);
  }

  std::string_view at(std::uint32_t id) const noexcept {
    return {bytes + offsets[id], static_cast<std::size_t>(offsets[id + 1] - offsets[id])};
  }

  /// The second word of `s`'s slot (see slot_meta), or 0 when `s` is not in the table.
  std::uint64_t find_meta(std::string_view s) const noexcept {
    if (slot_count == 0) return 0;
    const std::size_t mask = slot_count - 1;
    const std::uint64_t hash = text::hash_term(s);
    const std::uint64_t head = string_head(s);
    const std::uint64_t key = key_bits(hash, s.size());
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const std::uint64_t meta = slots[2 * slot + 1];
      if (meta == 0) return 0;
      if (slots[2 * slot] != head || (meta >> 32 & 0xFFFFFFu) != key) continue;
      if (s.size() <= 8 || at(static_cast<std::uint32_t>(meta) - 1) == s) return meta;
    }
  }

  std::optional<std::uint32_t> find(std::string_view s) const noexcept {
    const std::uint64_t meta = find_meta(s);
    if (meta == 0) return std::nullopt;
    return static_cast<std::uint32_t>(meta) - 1;
  }

 private:
  static constexpr std::uint64_t key_bits(std::uint64_t hash, std::size_t size) noexcept {
    return (hash >> 48) | std::uint64_t{size < 255 ? size : 255} << 16;
  }
};

/// One pre-analysed spelling: what Vocabulary::lookup() would compute for it.
struct SeedWord {
  std::uint32_t spelling;  // offset into SeedVocabulary::bytes
  std::uint32_t folded;    // offset into SeedVocabulary::bytes
  std::uint32_t term;      // id in SeedVocabulary::terms, or kNoTerm (a stop word)
  std::uint32_t prefix;    // prefix_hash of the term's first 5 code points, or kNoTerm
  std::uint8_t spelling_length;
  std::uint8_t folded_length;
  std::uint8_t term_length;  // code points
  std::uint8_t flags;        // bits 0-1: text::TokenKind; bit 2: negation cue
};

/// The common-English words analysed at build time, shared read-only by every Vocabulary. Term ids
/// 0..count-1 are theirs; a vocabulary numbers its own terms from there on.
struct SeedVocabulary {
  const char* bytes = nullptr;
  const SeedWord* words = nullptr;
  // Probed from text::hash_term(spelling) h: (h >> 32) << 32 | (word index + 1); 0 = empty.
  const std::uint64_t* slots = nullptr;
  std::uint32_t word_count = 0;
  std::uint32_t slot_count = 0;  // a power of two, or 0
  StaticStrings terms;
};

/// data/english_freq.tsv as TermStatistics::from_tsv reads it: stems in insertion order.
struct EnglishFrequencies {
  StaticStrings stems;                  // payload: the zipf's index in zipf_values, or kZipfById
  const double* zipf = nullptr;         // by stem id
  const double* zipf_values = nullptr;  // the distinct zipfs (one decimal in the packaged file)

  static constexpr std::uint8_t kZipfById = 255;

  /// The zipf of `term`, if in the table: read from its slot's line when its payload names it.
  std::optional<double> find_zipf(std::string_view term) const noexcept {
    const std::uint64_t meta = stems.find_meta(term);
    if (meta == 0) return std::nullopt;
    const auto code = static_cast<std::uint8_t>(meta >> 56);
    return code != kZipfById ? zipf_values[code] : zipf[static_cast<std::uint32_t>(meta) - 1];
  }
};

/// data/english_relations.tsv as WordRelations::from_tsv reads it.
struct EnglishRelations {
  StaticStrings keys;                     // stems with relations
  StaticStrings words;                    // every stem named in a list
  const std::uint32_t* bounds = nullptr;  // 2 * keys.count + 1: key k's related are
                                          // links[bounds[2k], bounds[2k+1]), its antonyms
                                          // links[bounds[2k+1], bounds[2k+2])
  // (id into words, the low half of its text::hash_term()) pairs, as WordRelations::Links;
  // bounds count pairs.
  const std::uint32_t* links = nullptr;
};

/// Defined by the generated source (build/.../english_tables.cpp); the generator itself links
/// empty ones (src/tools/no_english_tables.cpp), so it analyses words exactly as a vocabulary
/// without seeds does.
const SeedVocabulary& english_seed_vocabulary() noexcept;
const EnglishFrequencies& english_frequencies() noexcept;
const EnglishRelations& english_relations() noexcept;

}  // namespace sc::checker
