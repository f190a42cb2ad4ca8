/// @brief The query side of default scoring: distinct rarity-weighted terms, negation, n-gram
/// words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/vocabulary.hpp"
#include "text/tokenizer.hpp"

namespace sc::checker {

inline constexpr double kZipfCeiling = 7.0;  // weight = max(kZipfCeiling - zipf, kMinTermWeight)
inline constexpr double kMinTermWeight = 0.5;
inline constexpr double kUnknownZipf = 1.0;  // stems the statistics lack; every number, identifier
inline constexpr double kTypoMaxZipf = 3.0;  // typo matching only for rarer words ...
inline constexpr std::uint32_t kTypoMinLength = 5;  // ... of at least this many code points

/// Key terms of one query that are looked for: a longer query is scored on its first this many
/// distinct terms, so the work stays linear in query x context (a question never has this many).
inline constexpr std::size_t kMaxQueryTerms = 512;

/// One distinct query term.
struct QueryTerm {
  std::uint32_t term = kNoTerm;    ///< vocabulary term id
  std::uint32_t prefix = kNoTerm;  ///< prefix_hash of its first 5 code points (terms of >= 5)
  std::uint32_t length = 0;        ///< code points
  text::TokenKind kind = text::TokenKind::Word;
  double zipf = kUnknownZipf;  ///< from the statistics for words; kUnknownZipf otherwise
  double weight = 0.0;
  std::string_view surface;  ///< folded text of its first occurrence in the query
};

/// What default scoring needs from the query.
struct QueryAnalysis {
  std::vector<QueryTerm> terms;  ///< distinct non-stop terms in order of first occurrence
  double total_weight = 0.0;     ///< sum of the weights, in term order
  bool negated = false;          ///< some word of the query is a negation cue
  bool truncated = false;        ///< the query had more than kMaxQueryTerms distinct terms
  std::vector<std::string_view> ngram_words;  ///< folded non-stop tokens, repeats kept
};

/// Analyzes `query` (the spec's query-term block of `default_score`), reusing `out`'s buffers.
void analyze_query(std::string_view query, Vocabulary& vocabulary, const TermStatistics& statistics,
                   QueryAnalysis& out);

}  // namespace sc::checker
