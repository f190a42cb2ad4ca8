/// @brief PhraseSet: phrases as token-key sequences with "*" wildcards, matched on tokenized text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "claims/claim_tokens.hpp"
#include "text/interner.hpp"

namespace sc::claims {

/// A wildcard stands for 1..kMaxWildcard tokens.
inline constexpr std::size_t kMaxWildcard = 8;
/// Id of a text token whose key is in no phrase.
inline constexpr std::int32_t kNoKey = -1;

/// A list of phrases ("based on the evidence", "what does * mean"), each compiled to the keys of
/// its tokens (token_key: folded, possessive-free Porter2 stems, numbers without commas), so
/// "Punished" matches "punishment" and "the Evidence" matches "the evidence". A whitespace-
/// separated "*" is a wildcard for 1..kMaxWildcard tokens; leading and trailing wildcards are
/// dropped; phrases without a token are ignored. Immutable once built: safe from many threads.
class PhraseSet {
 public:
  PhraseSet() = default;
  explicit PhraseSet(const std::vector<std::string>& phrases);

  /// The phrases as given (including ignored ones), in order.
  const std::vector<std::string>& phrases() const noexcept { return phrases_; }
  /// Number of compiled (non-empty) phrases.
  std::size_t size() const noexcept { return patterns_.size(); }
  bool empty() const noexcept { return patterns_.empty(); }

  /// The id of `key` in the phrases' vocabulary, or kNoKey.
  std::int32_t id(std::string_view key) const noexcept;

  /// The prefix codes of every phrase key (see KeyFilter).
  void add_to(KeyFilter& filter) const;

  /// The most tokens a match can span.
  std::size_t max_span() const noexcept { return max_span_; }

  /// The end (exclusive token index) of the longest match of any phrase starting at token `pos`
  /// of `ids` (one id() per token), each phrase matched shortest-first; 0 when none matches.
  /// Polynomial in the wildcards (see WildcardMatcher).
  std::size_t longest_match_at(const std::vector<std::int32_t>& ids, std::size_t pos) const;

  /// Whether any phrase matches at any token of `ids` (longest_match_at != 0 somewhere).
  bool matches_anywhere(const std::vector<std::int32_t>& ids) const;

  /// Marks in `covered` (resized to ids.size()) every token of every match of every phrase
  /// (shortest match per phrase and start); returns whether any phrase matched.
  bool mark_matches(const std::vector<std::int32_t>& ids, std::vector<bool>& covered) const;

 private:
  static constexpr std::int32_t kWildcard = -2;

  std::vector<std::string> phrases_;
  text::TermInterner keys_;
  std::vector<std::vector<std::int32_t>> patterns_;
  std::size_t max_span_ = 0;
};

/// Token keys of `text` as PhraseSet ids (citation markers skipped), for at most `limit` tokens.
/// Tokens whose key cannot be a phrase key (by the KeyFilter of the set) are not stemmed.
std::vector<std::int32_t> phrase_ids(const PhraseSet& phrases, const KeyFilter& filter,
                                     std::string_view text, std::size_t limit = SIZE_MAX);

}  // namespace sc::claims
