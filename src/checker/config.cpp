#include "checker/config.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/no_destructor.hpp"
#include "common/quoted.hpp"

namespace sc::checker {
namespace {

// As Python's repr names a float in its own errors: the shortest form that reads back as the
// same double ("0.8", not "0.80000000000000004"; "100.0" for an integral value), whatever the
// C locale.
std::string repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  std::string out(buffer.data(), end);
  if (out.find_first_not_of("-0123456789") == std::string::npos) out += ".0";
  return out;
}

double* weight_slot(Weights& weights, std::string_view name) noexcept {
  if (name == "coverage") return &weights.coverage;
  if (name == "relevance") return &weights.relevance;
  if (name == "density") return &weights.density;
  if (name == "count") return &weights.count;
  if (name == "recency") return &weights.recency;
  return nullptr;
}

void check_weight(std::string_view name, double value) {
  if (!std::isfinite(value) || value < 0.0) {
    throw std::invalid_argument("weights[" + quoted(name) + "] must be a finite number >= 0; got " +
                                repr(value));
  }
}

}  // namespace

Scoring parse_scoring(std::string_view name) {
  if (name == "default") return Scoring::kDefault;
  if (name == "reference") return Scoring::kReference;
  throw std::invalid_argument("scoring must be 'default' or 'reference'; got " + quoted(name));
}

std::string_view scoring_name(Scoring scoring) noexcept {
  return scoring == Scoring::kReference ? "reference" : "default";
}

Weights default_weights(Scoring scoring) noexcept {
  if (scoring == Scoring::kReference) return Weights{0.4, 0.3, 0.2, 0.1, 0.0};
  return Weights{0.6, 0.2, 0.1, 0.1, 0.1};
}

const std::vector<std::string_view>& signal_names() noexcept {
  static const NoDestructor<std::vector<std::string_view>> names(
      std::vector<std::string_view>{"coverage", "relevance", "density", "count", "recency"});
  return *names;
}

void apply_weights(Weights& weights, const std::vector<std::pair<std::string, double>>& overrides) {
  for (const auto& [name, value] : overrides) {
    double* slot = weight_slot(weights, name);
    if (slot == nullptr) {
      throw std::invalid_argument("unknown weight name '" + name +
                                  "'; expected coverage, relevance, density, count or recency");
    }
    check_weight(name, value);
    *slot = value;
  }
}

void check_min_contexts(long long value) {
  if (value < 1) {
    throw std::invalid_argument("min_contexts must be >= 1; got " + std::to_string(value));
  }
}

void check_recency_days(double value) {
  if (!std::isfinite(value) || value <= 0.0) {
    throw std::invalid_argument("recency_days must be a finite number > 0; got " + repr(value));
  }
}

void validate(const CheckerConfig& config) {
  const double s = config.sufficient;
  const double p = config.partial;
  if (!(0.0 <= p && p <= s && s <= 1.0)) {
    throw std::invalid_argument("thresholds must satisfy 0 <= partial <= sufficient <= 1; got (" +
                                repr(s) + ", " + repr(p) + ") as (sufficient, partial)");
  }
  check_min_contexts(config.min_contexts);
  check_recency_days(config.recency_days);
  const Weights& w = config.weights;
  check_weight("coverage", w.coverage);
  check_weight("relevance", w.relevance);
  check_weight("density", w.density);
  check_weight("count", w.count);
  check_weight("recency", w.recency);
  // Recency drops out when no chunk has a timestamp, so the other four must carry the score.
  const double main = w.coverage + w.relevance + w.density + w.count;
  if (!(main > 0.0)) {
    throw std::invalid_argument(
        "weights for coverage, relevance, density and count must not all be zero (recency alone is "
        "dropped "
        "when no chunk has a timestamp)");
  }
  // Finite sums keep the weighted mean finite: huge weights must not overflow it into inf or NaN.
  if (!std::isfinite(main + w.recency)) {
    throw std::invalid_argument("weights must sum to a finite number; got a sum of " +
                                repr(main + w.recency));
  }
}

}  // namespace sc::checker
