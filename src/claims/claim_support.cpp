#include "claims/claim_support.hpp"

#include <algorithm>
#include <cmath>

namespace sc::claims {
namespace {

// Positions of key `key` in the chunk, as [first, last) into chunk.positions.
std::pair<std::uint32_t, std::uint32_t> positions_of(const ChunkProfile& chunk,
                                                     std::uint32_t key) noexcept {
  const auto it = std::lower_bound(chunk.keys.begin(), chunk.keys.end(), key);
  if (it == chunk.keys.end() || *it != key) return {0, 0};
  const auto i = static_cast<std::size_t>(it - chunk.keys.begin());
  return {chunk.begin[i], chunk.begin[i + 1]};
}

bool negation_near(const std::vector<std::uint32_t>& negations, std::uint32_t pos) noexcept {
  const std::uint32_t low = pos >= kNegationWindow ? pos - kNegationWindow : 0;
  const auto it = std::lower_bound(negations.begin(), negations.end(), low);
  return it != negations.end() && *it <= pos + kNegationWindow;
}

// Sum of the weights of the items present in the window, in item order (the oracle's order, so
// equal sets give equal sums bit for bit).
double exact_sum(const ClaimProfile& claim, const std::vector<std::uint32_t>& counts) noexcept {
  double sum = 0.0;
  for (std::size_t j = 0; j < counts.size(); ++j) {
    if (counts[j] != 0) sum += claim.weights[j];
  }
  return sum;
}

}  // namespace

Support default_support(const ClaimProfile& claim, const ChunkProfile& chunk,
                        SupportScratch& scratch) {
  Support out;
  const std::size_t k = claim.items.size();
  if (k == 0) return out;  // nothing to check

  std::vector<std::uint64_t>& events = scratch.events;
  events.clear();
  double found = 0.0;
  for (std::size_t j = 0; j < k; ++j) {
    const auto [first, last] = positions_of(chunk, claim.items[j]);
    if (first == last) continue;
    found += claim.weights[j];
    for (std::uint32_t p = first; p < last; ++p) {
      events.push_back((std::uint64_t{chunk.positions[p]} << 32) | j);
    }
  }
  out.overlap = found / claim.total;
  for (const std::uint32_t j : claim.numbers) {
    if (!chunk.contains(claim.items[j])) ++out.missing_numbers;
  }
  for (const std::uint32_t j : claim.names) {
    if (!chunk.contains(claim.items[j])) ++out.missing_names;
  }

  // Best window: WINDOW_FACTOR x claim tokens consecutive chunk tokens, starting at a match. The
  // running sum only decides when the exact (item-order) sum is worth recomputing.
  std::sort(events.begin(), events.end());
  std::vector<std::uint32_t>& counts = scratch.counts;
  counts.assign(k, 0);
  const std::uint64_t window = kWindowFactor * claim.token_count;
  double best = 0.0;
  double running = 0.0;
  std::size_t distinct = 0;
  const double slack = 1e-9 * claim.total;
  std::size_t b = 0;
  for (std::size_t a = 0; a < events.size(); ++a) {
    const std::uint64_t start = events[a] >> 32;
    while (b < events.size() && (events[b] >> 32) < start + window) {
      const auto j = static_cast<std::uint32_t>(events[b]);
      if (counts[j]++ == 0) {
        running += claim.weights[j];
        ++distinct;
      }
      ++b;
    }
    if (distinct == k) {
      best = claim.total;  // every item: the exact sum is the total, same order
      break;
    }
    if (running > best + slack) best = std::max(best, exact_sum(claim, counts));
    const auto j = static_cast<std::uint32_t>(events[a]);
    if (--counts[j] == 0) {
      running -= claim.weights[j];
      --distinct;
    }
  }
  out.local_overlap = best / claim.total;

  if (claim.has_negation) {
    bool near = false;
    if (!chunk.negations.empty()) {
      for (const std::uint64_t e : events) {
        if (negation_near(chunk.negations, static_cast<std::uint32_t>(e >> 32))) {
          near = true;
          break;
        }
      }
    }
    out.negation_mismatch = !near;
  }
  const std::size_t misses = std::min(out.missing_numbers + out.missing_names, kMaxHardMisses);
  double score = std::pow(out.local_overlap, kSupportExponent) *
                 std::pow(kHardMissFactor, static_cast<double>(misses));
  if (out.negation_mismatch) score *= kNegationFactor;
  out.score = score;
  return out;
}

double reference_overlap(const ClaimProfile& claim, const ChunkProfile& chunk) noexcept {
  if (claim.items.empty()) return kEmptyClaimScore;
  std::size_t found = 0;
  for (const std::uint32_t id : claim.items) found += chunk.contains(id) ? 1 : 0;
  return static_cast<double>(found) / static_cast<double>(claim.items.size());
}

double support_score(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
                     SupportScratch& scratch) {
  return mode == Mode::Default ? default_support(claim, chunk, scratch).score
                               : reference_overlap(claim, chunk);
}

}  // namespace sc::claims
