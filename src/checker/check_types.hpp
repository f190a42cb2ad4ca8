/// @brief The inputs of one sufficiency check and its result (levels, signals, explanations).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sc::checker {

/// One check's inputs. Views only: the caller keeps the texts and arrays alive during the check.
struct CheckInput {
  std::string_view query;
  std::vector<std::string_view> contents;  ///< one per chunk
  std::vector<std::string_view>
      summaries;  ///< empty, or one per chunk (reference scoring reads them)
  /// POSIX seconds per chunk (NaN: the chunk has none), or nullptr when no chunk has one.
  const double* timestamps = nullptr;
  /// Temperature per chunk (NaN: the chunk has none), or nullptr when no chunk has one.
  const double* temperatures = nullptr;
  /// Embeddings: the query's (dim values) and one row per chunk (contents.size() x dim, row-major),
  /// both or neither. With them relevance is the best cosine; without, lexical (default scoring)
  /// or 0.5 (reference scoring).
  const double* query_embedding = nullptr;
  const double* chunk_embeddings = nullptr;
  std::size_t dim = 0;
  std::optional<double> now;              ///< POSIX seconds; default: the system clock
  std::optional<long long> min_contexts;  ///< overrides the config's
  std::optional<double> recency_days;     ///< overrides the config's
};

enum class Level { kInsufficient, kPartial, kSufficient };

/// "insufficient", "partial" or "sufficient".
std::string_view level_name(Level level) noexcept;

/// Where the relevance signal came from.
enum class RelevanceSource {
  kNone,       ///< no chunks: no signals at all
  kConstant,   ///< reference scoring without embeddings: 0.5
  kLexical,    ///< default scoring without embeddings: hashed character n-gram cosine
  kEmbedding,  ///< best cosine of the query with the chunks' embeddings
};

std::string_view relevance_source_name(RelevanceSource source) noexcept;

/// Signal values; NaN where a signal was not computed (recency without timestamps, everything
/// without chunks).
struct Signals {
  double coverage = NAN;
  double relevance = NAN;
  double density = NAN;
  double count = NAN;
  double recency = NAN;
};

/// The outcome of one check.
struct CheckResult {
  double score = 0.0;
  Level level = Level::kInsufficient;
  Signals signals;
  RelevanceSource relevance_source = RelevanceSource::kNone;
  std::vector<std::string> missing_aspects;
  std::vector<std::string> confidence_factors;
  std::vector<std::string>
      covered_terms;  ///< query terms found, as they appear (folded) in the query
  std::vector<std::string> missing_terms;  ///< query terms not found
  /// Default scoring's parts of coverage (NaN in reference scoring or without chunks):
  /// best chunk (or pair of chunks) coverage, best sentence (or pair) coverage, and whether the
  /// best sentence's polarity (negated or not) matches the query's.
  double doc_coverage = NAN;
  double relation = NAN;
  std::optional<bool> polarity_ok;
  double elapsed_ms = 0.0;  ///< time spent in the core
};

/// The level of `score` under the thresholds.
inline Level level_of(double score, double sufficient, double partial) noexcept {
  if (score >= sufficient) return Level::kSufficient;
  if (score >= partial) return Level::kPartial;
  return Level::kInsufficient;
}

}  // namespace sc::checker
