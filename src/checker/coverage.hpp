/// @brief Weighted query-term coverage of term sets (chunks, sentences, and unions of two).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sc::checker {

inline constexpr double kVariantCredit =
    0.75;  // a term matched by a spelling variant or related word
inline constexpr double kPrefixCredit = 0.5;  // a term matched by its first 5 code points only

/// Which query terms each term set (a sentence or a chunk) holds: whole, as a variant (a one-edit
/// spelling variant of a rare term, or a related word), or by prefix. Sets are bit rows over the
/// query's terms (and prefix groups), so the coverage of a set or of the union of two costs one
/// pass over the query terms.
class CoverageSets {
 public:
  /// Forgets every set and configures the query: weight of each term and its prefix group (-1:
  /// none).
  void reset(const std::vector<double>& weights, double total_weight,
             const std::vector<std::int32_t>& prefix_group);

  /// Appends an empty set; returns its index.
  std::size_t add_set();
  /// Removes the set added last.
  void pop_set() noexcept {
    bits_.resize(bits_.size() - 3 * words_);
    --sets_;
  }
  std::size_t size() const noexcept { return sets_; }

  void set_exact(std::size_t set, std::size_t term) noexcept { set_bit(set, 0, term); }
  void set_variant(std::size_t set, std::size_t term) noexcept { set_bit(set, 1, term); }
  void set_prefix(std::size_t set, std::size_t group) noexcept { set_bit(set, 2, group); }
  bool has_exact(std::size_t set, std::size_t term) const noexcept { return bit(set, 0, term); }
  bool has_prefix_group(std::size_t set, std::size_t group) const noexcept {
    return bit(set, 2, group);
  }

  /// dst |= src.
  void merge(std::size_t dst, std::size_t src) noexcept;

  /// Sets in `dst` every mark (whole, variant or prefix of a query term) that at least half of
  /// the sets first, first + 1, ..., first + count - 1 hold: the topic of a chunk's sentences.
  void mark_topic(std::size_t dst, std::size_t first, std::size_t count) noexcept;

  /// Weighted share of the query terms in the union of sets `a`, `b` and `c` (npos: absent):
  /// credit 1 for a whole match, else kVariantCredit for a variant mark, else
  /// kPrefixCredit for a shared prefix; summed in term order and divided by the total weight.
  double coverage(std::size_t a, std::size_t b = npos, std::size_t c = npos) const noexcept;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  void set_bit(std::size_t set, std::size_t kind, std::size_t index) noexcept {
    bits_[(set * 3 + kind) * words_ + index / 64] |= 1ULL << (index % 64);
  }
  bool bit(std::size_t set, std::size_t kind, std::size_t index) const noexcept {
    return (bits_[(set * 3 + kind) * words_ + index / 64] >> (index % 64)) & 1ULL;
  }
  bool any(std::size_t a, std::size_t b, std::size_t c, std::size_t kind,
           std::size_t index) const noexcept {
    return bit(a, kind, index) || (b != npos && bit(b, kind, index)) ||
           (c != npos && bit(c, kind, index));
  }

  std::vector<double> weights_;
  double total_ = 0.0;
  std::vector<std::int32_t> group_;
  std::size_t words_ = 1;
  std::size_t sets_ = 0;
  std::vector<std::uint64_t> bits_;
};

}  // namespace sc::checker
