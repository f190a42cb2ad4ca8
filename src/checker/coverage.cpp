#include "checker/coverage.hpp"

namespace sc::checker {

void CoverageSets::reset(const std::vector<double>& weights, double total_weight,
                         const std::vector<std::int32_t>& prefix_group) {
  weights_ = weights;
  total_ = total_weight;
  group_ = prefix_group;
  words_ = weights.empty() ? 1 : (weights.size() + 63) / 64;
  sets_ = 0;
  bits_.clear();
}

std::size_t CoverageSets::add_set() {
  bits_.resize(bits_.size() + 3 * words_, 0);
  return sets_++;
}

void CoverageSets::merge(std::size_t dst, std::size_t src) noexcept {
  std::uint64_t* d = bits_.data() + dst * 3 * words_;
  const std::uint64_t* s = bits_.data() + src * 3 * words_;
  for (std::size_t i = 0; i < 3 * words_; ++i) d[i] |= s[i];
}

void CoverageSets::mark_topic(std::size_t dst, std::size_t first, std::size_t count) noexcept {
  std::uint64_t* d = bits_.data() + dst * 3 * words_;
  for (std::size_t i = 0; i < 3 * words_; ++i) {
    std::uint64_t any_bits = 0;
    for (std::size_t k = 0; k < count; ++k) any_bits |= bits_[(first + k) * 3 * words_ + i];
    for (; any_bits != 0; any_bits &= any_bits - 1) {
      const std::uint64_t bit = any_bits & (~any_bits + 1);  // lowest set bit
      std::size_t held = 0;
      for (std::size_t k = 0; k < count; ++k)
        held += (bits_[(first + k) * 3 * words_ + i] & bit) != 0;
      if (2 * held >= count) d[i] |= bit;
    }
  }
}

double CoverageSets::coverage(std::size_t a, std::size_t b, std::size_t c) const noexcept {
  double got = 0.0;
  for (std::size_t t = 0; t < weights_.size(); ++t) {
    const double w = weights_[t];
    if (any(a, b, c, 0, t)) {
      got += w;
    } else if (any(a, b, c, 1, t)) {
      got += kVariantCredit * w;
    } else if (group_[t] >= 0 && any(a, b, c, 2, static_cast<std::size_t>(group_[t]))) {
      got += kPrefixCredit * w;
    }
  }
  return got / total_;
}

}  // namespace sc::checker
