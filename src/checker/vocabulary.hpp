/// @brief Vocabulary: memo of token -> analyzed word (term, 5-prefix, negation), one per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/cache_budget.hpp"
#include "checker/english_tables.hpp"
#include "text/interner.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/string_arena.hpp"
#include "text/tokenizer.hpp"

namespace sc::checker {

inline constexpr std::uint32_t kNoTerm = 0xFFFFFFFFu;
inline constexpr std::size_t kPrefixLength = 5;  // code points compared by prefix matching

/// What the default scoring needs to know about one token (python/sufficient_context/
/// _reference_checker.py, `tokenize`): its folded surface, its term (none for a stop word), the
/// term's first five code points, whether it is a negation cue.
struct WordInfo {
  std::uint32_t term = kNoTerm;    ///< id in the vocabulary's terms; kNoTerm for a stop word
  std::uint32_t prefix = kNoTerm;  ///< prefix_hash of the term's first 5 code points (>= 5)
  std::uint32_t term_length = 0;   ///< the term's length in code points
  std::uint32_t id = 0;            ///< index of this spelling in the vocabulary
  text::TokenKind kind = text::TokenKind::Word;
  bool negation = false;  ///< a word: not/no/never/nor/none/neither/cannot/without, or ends in n't
  std::string_view folded;  ///< the token case-folded (U+2019 -> '), viewing the vocabulary's arena
};

/// A 32-bit hash of a term's first kPrefixLength code points (WordInfo::prefix), never kNoTerm.
/// Prefixes are compared by this hash and then by their bytes (QueryPrefixes): interning every
/// new term's prefix cost a probe and an insert per new word, for the few a query has.
inline std::uint32_t prefix_hash(std::string_view head) noexcept {
  const auto hash = static_cast<std::uint32_t>(text::hash_term(head));
  return hash == kNoTerm ? hash - 1 : hash;
}

/// The first kPrefixLength code points of `term` (all of it when shorter).
std::string_view term_prefix(std::string_view term) noexcept;

/// Analyzes each distinct token once: case folding, English stop words, Porter2 stems for words,
/// commas dropped from numbers, identifiers as folded. Later lookups of the same token bytes cost
/// one hash probe. Terms get dense ids, so term sets become integer sets.
///
/// Two layers: the seed (common English, analysed at build time from the packaged frequency table,
/// static and shared read-only by every vocabulary: english_seed_vocabulary()) and this object's
/// memo. A lookup reads the memo first (small and hot: one probe for a word seen before); a word
/// new to the memo is then looked up in the seed, and only a word the seed lacks is analysed
/// (folded, stemmed, its term interned) here. A seed word still gets a memo entry with
/// its spelling and folded form copied: a probe into the large, cold seed table costs several cache
/// misses, a memo hit about one. The seed's terms hold ids 0..n-1; the memo numbers
/// only terms the seed lacks, from n on, so one term has one id across both layers. Not
/// thread-safe: each thread uses its own (see VocabularyLease); the seed needs no lock.
class Vocabulary {
  // A spelling and its analysis side by side: a hit reads one entry.
  struct Entry {
    std::string_view spelling;  // viewing raw_'s arena
    WordInfo info;
  };

 public:
  /// With the compiled-in English seed (empty unless built with SC_ENGLISH_SEED=ON: it measured
  /// no faster in fresh processes, benchmarks/README.md), or another one (kNoSeed: none).
  Vocabulary() : Vocabulary(english_seed_vocabulary()) {}
  explicit Vocabulary(const SeedVocabulary& seed);

  /// The analysis of `token` (a token of the text engine's tokenizer). The reference stays
  /// valid until the next lookup() or clear().
  const WordInfo& lookup(const text::Token& token) {
    const auto tag = static_cast<std::uint32_t>(text::hash_term(token.text) >> 32);
    if (!slots_.empty()) {
      const std::size_t mask = slots_.size() - 1;
      for (std::size_t slot = tag & mask;; slot = (slot + 1) & mask) {
        const Slot& s = slots_[slot];
        if (s.index == 0) break;
        if (s.tag == tag) {
          const Entry& e = entry(s.index - 1);
          if (text::same_bytes(e.spelling, token.text)) return e.info;
        }
      }
    }
    return insert(token, tag);
  }

  /// The id of `term` among the terms (the seed's first), adding it when new.
  std::uint32_t intern_term(std::string_view term) {
    if (const auto id = seed_->terms.find(term)) return *id;
    return seed_->terms.count + terms_.intern(term);
  }
  std::string_view term(std::uint32_t id) const {
    return id < seed_->terms.count ? seed_->terms.at(id) : terms_.terms()[id - seed_->terms.count];
  }
  /// The id of `term` if the seed holds it or some token has produced it; kNoTerm otherwise.
  /// Never inserts.
  std::uint32_t find_term(std::string_view term) const noexcept {
    if (const auto id = seed_->terms.find(term)) return *id;
    const auto id = terms_.find(term);
    return id ? seed_->terms.count + *id : kNoTerm;
  }
  /// find_term() of a term whose hash_term() low half is `hash`; `term()` gives its bytes, read
  /// only on a likely hit (WordRelations::Links carry the hashes of the words they name).
  template <class Term>
  std::uint32_t find_term_hashed(std::uint32_t hash, const Term& term) const noexcept {
    if (seed_->terms.slot_count != 0) return find_term(term());
    const auto id = terms_.find_hashed(hash, term);
    return id ? seed_->terms.count + *id : kNoTerm;
  }
  /// Term ids are below this (the seed's and this memo's together).
  std::size_t term_count() const noexcept { return seed_->terms.count + terms_.size(); }
  /// Distinct token spellings in this memo (seed words looked up included).
  std::size_t size() const noexcept { return entry_count_; }
  /// Of those, the spellings the seed lacked, analysed here.
  std::size_t analysed() const noexcept { return analysed_; }
  /// The seed this vocabulary reads first.
  const SeedVocabulary& seed() const noexcept { return *seed_; }

  /// Heap bytes held (capacity, not size: what the process keeps). The seed is static data,
  /// mapped from the library and shared by all threads: it is not counted.
  std::size_t memory_bytes() const noexcept {
    return slots_.capacity() * sizeof(Slot) +
           entry_blocks_.size() * kEntriesPerBlock * sizeof(Entry) +
           entry_blocks_.capacity() * sizeof(entry_blocks_[0]) + strings_.memory_bytes() +
           terms_.memory_bytes() + heap_bytes(fold_buffer_) + heap_bytes(stem_buffer_.heap) +
           heap_bytes(number_buffer_);
  }

  /// Forgets this memo (its ids become invalid; the seed's stay).
  void clear() noexcept;

 private:
  // The high 32 bits of text::hash_term(spelling), which also place the slot (tag & mask): a probe
  // passes other spellings without reading them, and a rehash needs neither them nor their hashes.
  struct Slot {
    std::uint32_t tag = 0;
    std::uint32_t index = 0;  // spelling index + 1; 0 = empty
  };

  static std::size_t heap_bytes(const std::string& s) noexcept {
    return s.capacity() > std::string().capacity() ? s.capacity() : 0;  // not the inline buffer
  }

  const Entry& entry(std::size_t index) const noexcept {
    return entry_blocks_[index / kEntriesPerBlock][index % kEntriesPerBlock];
  }

  // The seed word spelled `spelling`, or null. Only called when the seed has slots.
  const SeedWord* find_seed(std::string_view spelling, std::uint32_t tag) const noexcept;
  const WordInfo& insert(const text::Token& token, std::uint32_t tag);
  // The analysis of `token`, whose bytes `spelling` views in strings_.
  WordInfo analyze(const text::Token& token, std::string_view spelling);
  // `folded` as kept in strings_: the spelling's own bytes when folding changed nothing (most
  // words), else a copy.
  std::string_view keep_folded(std::string_view folded, std::string_view spelling);
  void rehash(std::size_t slot_count);

  const SeedVocabulary* seed_;
  // Fetched once: StopWords::english() is an out-of-line call with a guarded static.
  const text::StopWords* stop_words_;
  std::size_t analysed_ = 0;
  std::vector<Slot> slots_;
  // Entries by spelling index, in fixed blocks: growing never copies them (nor touches memory
  // twice, which a fresh process pays for in page faults), and a WordInfo never moves.
  static constexpr std::size_t kEntriesPerBlock = 1024;
  std::vector<std::unique_ptr<Entry[]>> entry_blocks_;
  std::size_t entry_count_ = 0;
  // Spellings and folded surfaces. Only copies: a spelling reaches insert() once (the slots already
  // tell it apart), so indexing these too would cost a probe per new word for nothing.
  text::StringArena strings_;
  text::TermInterner terms_;  // terms (stems, numbers, identifiers)
  std::string fold_buffer_;
  text::StemBuffer stem_buffer_;
  std::string number_buffer_;
};

/// A seed without words: a vocabulary analyses everything itself (the build-time generator's,
/// and tests comparing both layers).
inline constexpr SeedVocabulary kNoSeed{};

/// Whether a folded word is a negation cue.
bool is_negation(std::string_view folded) noexcept;

/// A vocabulary is a cache: every thread that checks keeps one between checks, counted in the
/// shared cache budget (checker/cache_budget.hpp). The shared seed is not part of it: it is
/// read-only data of the library, never counted nor emptied. A single vocabulary is also emptied
/// past kMaxSpellings.
inline constexpr std::size_t kMaxSpellings = std::size_t{1} << 18;

class ThreadVocabulary;

/// This thread's vocabulary for the length of one check: other threads cannot empty it while the
/// lease lives. On release it accounts the vocabulary's size and enforces the budget. Leases do
/// not nest: a thread holding one must not take another (it would wait for itself).
class VocabularyLease {
 public:
  VocabularyLease();
  ~VocabularyLease();
  VocabularyLease(const VocabularyLease&) = delete;
  VocabularyLease& operator=(const VocabularyLease&) = delete;
  Vocabulary& get() noexcept { return vocabulary_; }

 private:
  ThreadVocabulary& cache_;
  CacheLease lease_;
  Vocabulary& vocabulary_;
};

}  // namespace sc::checker
