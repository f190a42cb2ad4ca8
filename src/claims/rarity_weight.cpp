#include "claims/rarity_weight.hpp"

#include <algorithm>

namespace sc::claims {

double rarity_weight(const checker::TermStatistics& statistics, std::string_view key) noexcept {
  const bool number = !key.empty() && key.front() >= '0' && key.front() <= '9';
  const double z = number ? kUnknownZipf : statistics.zipf(key).value_or(kUnknownZipf);
  return std::min(std::max(kZipfCeiling - z, kMinWeight), kZipfCeiling);
}

}  // namespace sc::claims
