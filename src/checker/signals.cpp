#include "checker/signals.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "checker/default_score.hpp"

namespace sc::checker {

double density_signal(std::size_t content_words, std::size_t tokens, const double* temperatures,
                      std::size_t n) {
  const auto words = static_cast<double>(content_words);
  double sum = std::min(1.0, words / kDensityWords);
  sum += tokens > 0 ? std::min(1.0, (words / static_cast<double>(tokens)) / kDensityShare) : 0.0;
  double parts = 2.0;
  if (temperatures != nullptr) {
    std::size_t temp_count = 0;
    for (std::size_t i = 0; i < n; ++i) temp_count += std::isnan(temperatures[i]) ? 0 : 1;
    if (temp_count > 0) {
      // Mean as a sum of t / count (cannot overflow), clamped to [0, 1]: a negative temperature
      // must not push density below 0.
      double mean = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isnan(temperatures[i])) mean += temperatures[i] / static_cast<double>(temp_count);
      }
      sum += std::min(1.0, std::max(0.0, mean / 50.0));
      parts = 3.0;
    }
  }
  return sum / parts;
}

double count_signal(std::size_t n, long long min_contexts) noexcept {
  return std::min(static_cast<double>(n) / static_cast<double>(min_contexts), 1.0);
}

std::optional<double> recency_signal(const double* timestamps, std::size_t n, double now,
                                     double recency_days) {
  if (timestamps == nullptr) return std::nullopt;
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(timestamps[i])) continue;
    const double age = std::max(0.0, (now - timestamps[i]) / 86400.0);
    sum += std::max(0.0, 1.0 - age / recency_days);
    ++count;
  }
  if (count == 0) return std::nullopt;
  return sum / static_cast<double>(count);
}

double now_seconds() noexcept {
  const auto since_epoch = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(since_epoch).count();
}

}  // namespace sc::checker
