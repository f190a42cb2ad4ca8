/// @brief Checker configuration: scoring, signal weights, thresholds, min_contexts, recency_days.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sc::checker {

/// Which formula scores a check.
enum class Scoring {
  kDefault,    ///< whole-word stemmed coverage, lexical relevance, recency (the product)
  kReference,  ///< the original design's formula, reproduced exactly
};

/// "default" -> kDefault, "reference" -> kReference; anything else throws std::invalid_argument
/// naming `scoring`.
Scoring parse_scoring(std::string_view name);
std::string_view scoring_name(Scoring scoring) noexcept;

/// Weight of each signal in the score.
struct Weights {
  double coverage = 0.0;
  double relevance = 0.0;
  double density = 0.0;
  double count = 0.0;
  double recency = 0.0;  ///< default scoring only: the reference formula has no recency signal
};

/// The weights a scoring starts from: default .6/.2/.1/.1/.1; reference .4/.3/.2/.1/0.
Weights default_weights(Scoring scoring) noexcept;

/// The signal names, in signal order: coverage, relevance, density, count, recency.
const std::vector<std::string_view>& signal_names() noexcept;

/// Applies named overrides to `weights`. Throws std::invalid_argument naming the weight for an
/// unknown name, or a value that is negative or not finite.
void apply_weights(Weights& weights, const std::vector<std::pair<std::string, double>>& overrides);

/// Everything a check depends on besides its inputs. Immutable once validated: one config serves
/// many threads.
struct CheckerConfig {
  Scoring scoring = Scoring::kDefault;
  Weights weights = default_weights(Scoring::kDefault);
  double sufficient = 0.8;  ///< score >= sufficient: "sufficient"
  double partial = 0.5;     ///< score >= partial: "partial"; below: "insufficient"
  long long min_contexts = 1;
  double recency_days = 365.0;
};

/// Throws std::invalid_argument naming the field: thresholds not 0 <= partial <= sufficient <= 1
/// (NaN included), min_contexts < 1, recency_days not finite and > 0, a negative or non-finite
/// weight.
void validate(const CheckerConfig& config);

/// Throws std::invalid_argument naming `min_contexts` unless value >= 1.
void check_min_contexts(long long value);
/// Throws std::invalid_argument naming `recency_days` unless value is finite and > 0.
void check_recency_days(double value);

}  // namespace sc::checker
