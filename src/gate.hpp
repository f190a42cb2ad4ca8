/// @brief Evidence gates: the attention gate (is one source strong enough?) and the retrieval gate.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace sc::gate {

/// How the sufficiency S of an attention distribution is measured.
enum class Mode {
  kMax,      ///< S = the largest normalised weight
  kTopKSum,  ///< S = the sum of the top_k largest normalised weights
};

/// "max" -> kMax, "top_k_sum" -> kTopKSum; anything else throws std::invalid_argument naming
/// `mode`.
Mode parse_mode(std::string_view name);
std::string_view mode_name(Mode mode) noexcept;

/// Throws std::invalid_argument naming `name` unless 0 <= value <= 1 (NaN included in the throw).
void check_threshold(double value, std::string_view name = "threshold");

struct AttentionConfig {
  double threshold = 0.5;
  bool strict = false;  ///< pass iff S > threshold instead of S >= threshold
  Mode mode = Mode::kMax;
  std::size_t top_k = 2;  ///< used by kTopKSum only, >= 1
};

/// Throws std::invalid_argument naming `threshold` or `top_k` when the configuration is unusable.
void validate(const AttentionConfig& config);

struct AttentionResult {
  bool passes = false;
  bool empty = true;  ///< no weights, or every weight zero: the gate fails whatever the threshold
  double max_attention = 0.0;         ///< largest normalised weight
  std::optional<std::size_t> argmax;  ///< first index holding the largest weight; none when empty
  double sufficiency = 0.0;           ///< S, in [0, 1]
  double margin = 0.0;                ///< S - threshold
};

/// Normalises `weights` to sum 1 and applies the gate. Runs in O(n) for kMax and O(n log top_k) for
/// kTopKSum. A negative, NaN or infinite weight throws std::invalid_argument naming
/// `argument[index]` and the value. The input is not modified.
///
/// The arithmetic is fixed so a plain-Python oracle can reproduce it bit for bit: total = sum in
/// index order (every weight scaled by 2^-128 first if that sum overflows), max_attention =
/// max / total, and in kTopKSum S = min(1, (top_k largest summed in descending order) / total),
/// S = 1 when top_k >= n.
AttentionResult evaluate_attention(const double* weights, std::size_t n,
                                   const AttentionConfig& config,
                                   std::string_view argument = "attention_distribution");
AttentionResult evaluate_attention(const std::vector<double>& weights,
                                   const AttentionConfig& config,
                                   std::string_view argument = "attention_distribution");

/// What the retrieval gate allows before any LLM call.
enum class Outcome {
  kNoEvidence,    ///< refuse: nothing (or too little) reaches min_score
  kWeakEvidence,  ///< answer, under the low-confidence banner
  kNormal,        ///< answer
};

std::string_view outcome_name(Outcome outcome) noexcept;

struct RetrievalConfig {
  double min_score = 0.20;     ///< a chunk passes when its score >= min_score (any finite value)
  std::size_t min_chunks = 2;  ///< at least this many chunks must pass, >= 1
  std::optional<double> weak_score;  ///< passing evidence whose best score is below this is weak
};

/// Throws std::invalid_argument naming `min_score`, `min_chunks` or `weak_score` (weak_score must
/// be finite and >= min_score).
void validate(const RetrievalConfig& config);

struct RetrievalResult {
  Outcome outcome = Outcome::kNoEvidence;
  double max_score = 0.0;            ///< 0.0 when there are no scores
  std::vector<std::size_t> passing;  ///< indices with score >= min_score, ascending
};

/// Applies the retrieval gate to one score per chunk. A NaN or infinite score throws
/// std::invalid_argument naming `argument[index]` and the value.
RetrievalResult evaluate_retrieval(const double* scores, std::size_t n,
                                   const RetrievalConfig& config,
                                   std::string_view argument = "chunks_or_scores");
RetrievalResult evaluate_retrieval(const std::vector<double>& scores, const RetrievalConfig& config,
                                   std::string_view argument = "chunks_or_scores");

}  // namespace sc::gate
