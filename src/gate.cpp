#include "gate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "common/quoted.hpp"

namespace sc::gate {
namespace {

// Shortest round-trip form, as Python's repr(float) prints it ("0.1", "nan", "-inf").
std::string format_number(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

[[noreturn]] void throw_bad_element(std::string_view argument, std::size_t index, double value,
                                    std::string_view rule) {
  std::string message(argument);
  message += '[';
  message += std::to_string(index);
  message += "] is ";
  message += format_number(value);
  message += ": ";
  message += rule;
  throw std::invalid_argument(message);
}

[[noreturn]] void throw_bad_value(std::string_view name, std::string_view rule, double value) {
  std::string message(name);
  message += " must be ";
  message += rule;
  message += "; got ";
  message += format_number(value);
  throw std::invalid_argument(message);
}

// Scaling by a power of two is exact, so a total that overflows can be recomputed without
// changing any ratio (weights below ~1e-270 may flush to zero, which no gate decision can notice).
constexpr int kOverflowExponent = -128;

}  // namespace

Mode parse_mode(std::string_view name) {
  if (name == "max") return Mode::kMax;
  if (name == "top_k_sum") return Mode::kTopKSum;
  throw std::invalid_argument("mode must be 'max' or 'top_k_sum'; got " + quoted(name));
}

std::string_view mode_name(Mode mode) noexcept { return mode == Mode::kMax ? "max" : "top_k_sum"; }

void check_threshold(double value, std::string_view name) {
  // Written so NaN fails too.
  if (!(value >= 0.0 && value <= 1.0)) throw_bad_value(name, "a number in [0, 1]", value);
}

void validate(const AttentionConfig& config) {
  check_threshold(config.threshold, "threshold");
  if (config.top_k < 1) {
    throw std::invalid_argument("top_k must be >= 1; got " + std::to_string(config.top_k));
  }
}

AttentionResult evaluate_attention(const double* weights, std::size_t n,
                                   const AttentionConfig& config, std::string_view argument) {
  validate(config);
  double total = 0.0;
  double max_weight = 0.0;
  std::size_t argmax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = weights[i];
    if (!(w >= 0.0) || std::isinf(w)) {
      throw_bad_element(argument, i, w, "weights must be finite and non-negative");
    }
    total += w;
    if (w > max_weight) {
      max_weight = w;
      argmax = i;
    }
  }

  AttentionResult result;
  if (max_weight == 0.0) {  // empty or all zero: nothing to normalise, the gate fails
    result.margin = -config.threshold;
    return result;
  }
  double scale = 1.0;
  if (std::isinf(total)) {
    scale = std::ldexp(1.0, kOverflowExponent);
    total = 0.0;
    for (std::size_t i = 0; i < n; ++i) total += weights[i] * scale;
  }

  result.empty = false;
  result.argmax = argmax;
  result.max_attention = (max_weight * scale) / total;
  if (config.mode == Mode::kMax) {
    result.sufficiency = result.max_attention;
  } else if (config.top_k >= n) {
    result.sufficiency = 1.0;
  } else {
    // Only the top k are ordered; summing them largest first keeps the result reproducible.
    std::vector<double> scratch(weights, weights + n);
    const auto k = static_cast<std::ptrdiff_t>(config.top_k);
    std::partial_sort(scratch.begin(), scratch.begin() + k, scratch.end(), std::greater<>());
    double top = 0.0;
    for (std::ptrdiff_t i = 0; i < k; ++i) top += scratch[static_cast<std::size_t>(i)] * scale;
    result.sufficiency = std::min(1.0, top / total);
  }
  result.margin = result.sufficiency - config.threshold;
  result.passes = config.strict ? result.sufficiency > config.threshold
                                : result.sufficiency >= config.threshold;
  return result;
}

AttentionResult evaluate_attention(const std::vector<double>& weights,
                                   const AttentionConfig& config, std::string_view argument) {
  return evaluate_attention(weights.data(), weights.size(), config, argument);
}

std::string_view outcome_name(Outcome outcome) noexcept {
  switch (outcome) {
    case Outcome::kNoEvidence:
      return "no_evidence";
    case Outcome::kWeakEvidence:
      return "weak_evidence";
    case Outcome::kNormal:
      return "normal";
  }
  return "no_evidence";
}

void validate(const RetrievalConfig& config) {
  if (!std::isfinite(config.min_score)) {
    throw_bad_value("min_score", "a finite number", config.min_score);
  }
  if (config.min_chunks < 1) {
    throw std::invalid_argument("min_chunks must be >= 1; got " +
                                std::to_string(config.min_chunks));
  }
  if (config.weak_score) {
    const double weak = *config.weak_score;
    if (!std::isfinite(weak)) throw_bad_value("weak_score", "a finite number", weak);
    if (weak < config.min_score) {
      throw_bad_value("weak_score", ">= min_score (" + format_number(config.min_score) + ")", weak);
    }
  }
}

RetrievalResult evaluate_retrieval(const double* scores, std::size_t n,
                                   const RetrievalConfig& config, std::string_view argument) {
  validate(config);
  RetrievalResult result;
  for (std::size_t i = 0; i < n; ++i) {
    const double s = scores[i];
    if (!std::isfinite(s)) throw_bad_element(argument, i, s, "scores must be finite");
    if (i == 0 || s > result.max_score) result.max_score = s;
    if (s >= config.min_score) result.passing.push_back(i);
  }
  // Passing chunks exist iff max_score >= min_score, so the count check covers both rules.
  if (result.passing.size() < config.min_chunks) {
    result.outcome = Outcome::kNoEvidence;
  } else if (config.weak_score && result.max_score < *config.weak_score) {
    result.outcome = Outcome::kWeakEvidence;
  } else {
    result.outcome = Outcome::kNormal;
  }
  return result;
}

RetrievalResult evaluate_retrieval(const std::vector<double>& scores, const RetrievalConfig& config,
                                   std::string_view argument) {
  return evaluate_retrieval(scores.data(), scores.size(), config, argument);
}

}  // namespace sc::gate
