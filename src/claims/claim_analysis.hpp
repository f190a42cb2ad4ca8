/// @brief ClaimAnalyzer: one check's claims and chunks as interned keys, token positions and
/// presence sets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "claims/claim_config.hpp"
#include "claims/claim_tokens.hpp"
#include "text/interner.hpp"
#include "text/sentences.hpp"

namespace sc::claims {

/// One claim sentence, analyzed. Items are its distinct content keys (default mode: stems and
/// numbers; reference mode: lowercase whitespace words minus stop words) in first-seen order.
struct ClaimProfile {
  std::vector<std::uint32_t> items;           // key ids
  std::vector<double> weights;                // default mode: rarity weight per item
  double total = 0.0;                         // sum of weights, in item order
  std::vector<std::uint32_t> numbers;         // item indexes of numbers, first-seen order
  std::vector<std::uint32_t> names;           // item indexes of capitalised names
  std::vector<std::string_view> number_text;  // surface of each number (view into the claim)
  std::vector<std::string_view> name_text;    // surface of each name
  std::size_t token_count = 0;                // every token, stop words included
  bool has_negation = false;                  // a token is a negation ("not", "isn't", ...)
  bool meta = false;                          // opens with a meta phrase, no number/name after
  std::size_t meta_phrase_end = 0;            // byte offset just past the phrase
  std::vector<std::uint32_t> meta_rest;       // content keys after the phrase

  bool has_content() const noexcept { return !items.empty(); }
};

/// One chunk, analyzed against the keys of every claim of the check (keys no claim has are not
/// kept). Positions are token indexes (default mode).
struct ChunkProfile {
  std::vector<std::uint64_t> present;    // bitset over key ids
  std::vector<std::uint32_t> keys;       // default mode: sorted distinct key ids found
  std::vector<std::uint32_t> begin;      // positions of keys[i]: positions[begin[i], begin[i+1])
  std::vector<std::uint32_t> positions;  // token indexes, ascending per key
  std::vector<std::uint32_t> negations;  // ascending token indexes of negations
  std::size_t token_count = 0;

  bool contains(std::uint32_t key) const noexcept {
    return key / 64 < present.size() && ((present[key / 64] >> (key % 64)) & 1u) != 0;
  }
};

/// Analyzes the texts of one check. Claims first (their keys are interned), then chunks (their
/// tokens are looked up among the claims' keys only, and most are ruled out by a KeyFilter before
/// they are stemmed). One analyzer per check: it is not thread-safe, the config it reads is.
class ClaimAnalyzer {
 public:
  explicit ClaimAnalyzer(const ClaimConfig& config);

  /// Analyzes one claim; `runs` are its citation runs (byte spans within `claim`). In the default
  /// mode an opening meta phrase is left out of the items ("In summary, X" is scored as "X").
  ClaimProfile claim(std::string_view claim, const std::vector<text::Span>& runs);

  /// Analyzes one chunk (after every claim: keys first seen here are ignored).
  ChunkProfile chunk(std::string_view text);

  /// Number of distinct claim keys so far.
  std::size_t key_count() const noexcept { return keys_.size(); }

 private:
  std::uint32_t intern(std::string_view key);
  void claim_default(std::string_view claim, const std::vector<text::Span>& runs, std::size_t skip,
                     ClaimProfile& out);
  void claim_reference(std::string_view claim, const std::vector<text::Span>& runs,
                       ClaimProfile& out);
  /// Meta check of a claim whose first `end` tokens are a meta phrase (both modes): fills
  /// out.meta, meta_phrase_end and meta_rest.
  void detect_meta(std::string_view claim, const std::vector<text::Span>& runs, std::size_t end,
                   ClaimProfile& out);
  void chunk_default(std::string_view text, ChunkProfile& out);
  void chunk_reference(std::string_view text, ChunkProfile& out);

  const ClaimConfig& config_;
  text::TermInterner keys_;
  std::vector<double> key_weight_;         // default mode, by key id
  KeyFilter filter_;                       // prefixes of keys_ (default mode)
  KeyFilter words_filter_;                 // word codes of keys_ (reference mode)
  std::vector<std::int32_t> item_of_key_;  // scratch: key id -> item index in the claim, or -1
  bool any_negation_ = false;              // some claim has a negation: chunks record theirs
  std::string folded_;
  std::string key_;
};

}  // namespace sc::claims
