#include "checker/coverage.hpp"

namespace sc::checker {

void CoverageSets::reset(const std::vector<double>& weights, double total_weight,
                         const std::vector<char>& typo,
                         const std::vector<std::int32_t>& prefix_group) {
  weights_ = weights;
  total_ = total_weight;
  typo_ = typo;
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

double CoverageSets::coverage(std::size_t a, std::size_t b) const noexcept {
  double got = 0.0;
  for (std::size_t t = 0; t < weights_.size(); ++t) {
    const double w = weights_[t];
    if (either(a, b, 0, t)) {
      got += w;
    } else if (typo_[t] && either(a, b, 1, t)) {
      got += kTypoCredit * w;
    } else if (group_[t] >= 0 && either(a, b, 2, static_cast<std::size_t>(group_[t]))) {
      got += kPrefixCredit * w;
    }
  }
  return got / total_;
}

}  // namespace sc::checker
