/// @brief The simple signals of default scoring: density, count, recency.
#pragma once

#include <cstddef>
#include <optional>

namespace sc::checker {

/// Density: mean of min(1, content words / 50), min(1, (content words / tokens) / 0.4) (0 without
/// tokens) and, when some chunk carries a temperature, min(1, mean temperature / 50).
/// `temperatures` holds n values, NaN for a chunk without one (nullptr: none has one).
double density_signal(std::size_t content_words, std::size_t tokens, const double* temperatures,
                      std::size_t n);

/// Count: min(n / min_contexts, 1).
double count_signal(std::size_t n, long long min_contexts) noexcept;

/// Recency: mean over chunks with a timestamp (NaN: none) of max(0, 1 - age_days / recency_days),
/// age_days = max(0, (now - timestamp) / 86400). Empty when no chunk has a timestamp.
std::optional<double> recency_signal(const double* timestamps, std::size_t n, double now,
                                     double recency_days);

/// The system clock in POSIX seconds.
double now_seconds() noexcept;

}  // namespace sc::checker
