/// @brief PatternMatcher: phrase patterns matched on the folded, stemmed tokens of a text span.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/interner.hpp"

namespace sc::deliberation {

/// A wildcard "*" stands for 1..kMaxWildcard tokens.
inline constexpr std::size_t kMaxWildcard = 8;

/// One key of a text: its id in the matcher's vocabulary (or -1) and the byte span of its token.
struct Key {
  std::int32_t id;
  std::size_t begin;
  std::size_t end;
};

/// One match: which pattern, and the byte span it covers.
struct Match {
  std::size_t pattern;
  std::size_t begin;
  std::size_t end;
};

/// One key of a text as a string, with the byte span of its token.
struct TextKey {
  std::string key;
  std::size_t begin;
  std::size_t end;
  bool number;  // written in digits ("10k", "3.5", "2,000")
};

/// The matching keys of `text`, in order. Keys are the claim engine's token keys (NFKC + case
/// folding, Porter2 stems, numbers without commas), after contractions are expanded ("can't" ->
/// "can" "not", "cannot" -> "can" "not", "we'd" -> "we" "would", "it's" -> "it" "is"), so "can’t
/// assess", "cannot assess" and "CAN NOT assess" give the same keys. Typographic apostrophes
/// (U+2018, U+2019, U+02BC, U+FF07) count as '\''. Invalid UTF-8 bytes are separators.
std::vector<TextKey> text_keys(std::string_view text);

/// A list of phrases ("need more information", "without knowing", "depends on * budget"), each
/// compiled to keys (see for_each_key); a whitespace-separated "*" is a wildcard. Leading and
/// trailing wildcards are dropped; a phrase without a token never matches. Immutable once built:
/// safe to share between threads.
class PatternMatcher {
 public:
  PatternMatcher() = default;
  explicit PatternMatcher(const std::vector<std::string>& patterns);

  const std::vector<std::string>& patterns() const noexcept { return phrases_; }

  /// The keys of `text` as ids of this matcher's vocabulary.
  std::vector<Key> keys(std::string_view text) const;
  /// `keys` (from text_keys) as ids of this matcher's vocabulary.
  std::vector<Key> keys(const std::vector<TextKey>& keys) const;

  /// Every pattern that matches somewhere in `keys`, once per pattern (its leftmost match, with
  /// the shortest wildcards), ordered by pattern index. Polynomial in the wildcards: O(keys *
  /// (pattern length + wildcards * kMaxWildcard)) steps per pattern (see WildcardMatcher).
  std::vector<Match> find(const std::vector<Key>& keys) const;

  /// Whether any pattern matches in `keys`.
  bool any(const std::vector<Key>& keys) const;

 private:
  static constexpr std::int32_t kWildcard = -2;

  std::vector<std::string> phrases_;
  text::TermInterner vocabulary_;
  std::vector<std::vector<std::int32_t>> compiled_;  // per phrase; empty: never matches
};

}  // namespace sc::deliberation
