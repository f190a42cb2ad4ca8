#include "claims/claim_support.hpp"

#include <algorithm>

namespace sc::claims {
namespace {

constexpr std::uint8_t kExact = 1;
constexpr std::uint8_t kRelated = 2;
constexpr std::uint8_t kAntonym = 4;

// Positions of key `key` in the chunk, as [first, last) into chunk.positions.
std::pair<std::uint32_t, std::uint32_t> positions_of(const ChunkProfile& chunk,
                                                     std::uint32_t key) noexcept {
  if (!chunk.contains(key)) return {0, 0};  // the bitset settles most keys without a search
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

void add_events(const ChunkProfile& chunk, std::uint32_t key, std::uint32_t item, std::uint8_t flag,
                std::vector<std::uint64_t>& events) {
  if (!chunk.contains(key)) return;  // most keys: no search
  const auto it = std::lower_bound(chunk.keys.begin(), chunk.keys.end(), key);
  if (it == chunk.keys.end() || *it != key) return;
  const auto i = static_cast<std::size_t>(it - chunk.keys.begin());
  for (std::uint32_t u = chunk.unit_begin[i]; u < chunk.unit_begin[i + 1]; ++u) {
    events.push_back((std::uint64_t{chunk.key_units[u]} << 32) | (std::uint64_t{item} << 3) | flag);
  }
}

/// add_events for a related or antonym key (a stable id).
void add_relation_events(const ChunkProfile& chunk, std::uint32_t stable, std::uint32_t item,
                         std::uint8_t flag, std::vector<std::uint64_t>& events) {
  const std::size_t i = chunk.find_relation(stable);
  if (i == chunk.relation_keys.size()) return;
  for (std::uint32_t u = chunk.relation_unit_begin[i]; u < chunk.relation_unit_begin[i + 1]; ++u) {
    events.push_back((std::uint64_t{chunk.relation_units[u]} << 32) | (std::uint64_t{item} << 3) |
                     flag);
  }
}

/// One window's coverage (counted / total x factor, sums in item order) and antonym mark.
struct Window {
  double coverage;
  bool antonym;
};

Window evaluate(const ClaimProfile& claim, const std::vector<std::uint8_t>& flags,
                double factor) noexcept {
  double counted = 0.0;
  bool antonym = false;
  for (std::size_t j = 0; j < flags.size(); ++j) {
    if (flags[j] & kExact) {
      counted += claim.weights[j];
    } else if (flags[j] & kRelated) {
      counted += claim.weights[j] * kRelatedCredit;
    } else if (flags[j] & kAntonym) {
      antonym = true;
    }
  }
  return {counted / claim.total * factor, antonym};
}

}  // namespace

double calibrate(double coverage) noexcept {
  if (coverage <= kCoverageAtThreshold) return kThresholdScore * (coverage / kCoverageAtThreshold);
  return kThresholdScore + (1.0 - kThresholdScore) *
                               ((coverage - kCoverageAtThreshold) / (1.0 - kCoverageAtThreshold));
}

Support default_support(const ClaimProfile& claim, const ChunkProfile& chunk,
                        SupportScratch& scratch) {
  Support out;
  const std::size_t k = claim.items.size();
  if (k == 0) return out;  // nothing to check

  std::size_t found = 0;
  for (std::size_t j = 0; j < k; ++j) {
    if (claim.is_checked(j) && chunk.contains(claim.items[j])) ++found;
  }
  if (claim.checked > 0) {
    out.overlap = static_cast<double>(found) / static_cast<double>(claim.checked);
  }

  // Where each item (or a related / antonym stem of it) occurs, by unit.
  std::vector<std::uint64_t>& events = scratch.events;
  events.clear();
  for (std::size_t j = 0; j < k; ++j) {
    const auto item = static_cast<std::uint32_t>(j);
    add_events(chunk, claim.items[j], item, kExact, events);
    // Event order does not matter: they are sorted, and a window ORs their flags.
    if (claim.kinds[j] != ItemKind::Content || chunk.relation_keys.empty()) continue;
    for (std::uint32_t r = claim.related_begin[j]; r < claim.related_begin[j + 1]; ++r) {
      add_relation_events(chunk, claim.related[r], item, kRelated, events);
    }
    for (std::uint32_t a = claim.antonym_begin[j]; a < claim.antonym_begin[j + 1]; ++a) {
      add_relation_events(chunk, claim.antonyms[a], item, kAntonym, events);
    }
  }
  std::sort(events.begin(), events.end());

  // Windows in the oracle's order (unit u, then units u and u+1), only those touching an event:
  // the others cover nothing and never beat a coverage > 0.
  std::vector<std::uint8_t>& flags = scratch.flags;
  std::vector<std::uint8_t>& best_flags = scratch.best_flags;
  best_flags.clear();
  double best = 0.0;
  bool best_antonym = false;
  const auto unit_of = [](std::uint64_t e) { return static_cast<std::uint32_t>(e >> 32); };
  const auto fill = [&](std::size_t from, std::size_t to) {
    for (std::size_t e = from; e < to; ++e) {
      flags[static_cast<std::size_t>((events[e] & 0xFFFFFFFFu) >> 3)] |=
          static_cast<std::uint8_t>(events[e] & 7u);
    }
  };
  const auto consider = [&](std::uint32_t unit, bool pair) {
    const Window w = evaluate(claim, flags, pair ? kPairFactor : 1.0);
    if (w.coverage > best) {
      best = w.coverage;
      best_antonym = w.antonym;
      out.has_window = true;
      out.best_unit = unit;
      out.best_pair = pair;
      best_flags = flags;
    }
  };
  // A question asserts nothing: its window counts only paired with a unit that is no question and
  // holds some of the claim ("What is the penalty? Imprisonment."), never alone.
  const std::vector<std::uint32_t>& questions = chunk.question_units;
  const auto asks = [&](std::uint32_t unit) {
    return !questions.empty() && std::binary_search(questions.begin(), questions.end(), unit);
  };
  const auto holds = [&](std::size_t from, std::size_t to) {  // an exact or related event
    for (std::size_t e = from; e < to; ++e) {
      if ((events[e] & (kExact | kRelated)) != 0) return true;
    }
    return false;
  };
  // The pair (a, b), a's events in [a_from, a_to) and b's in [b_from, b_to).
  const auto pair_counts = [&](std::uint32_t a, std::size_t a_from, std::size_t a_to,
                               std::size_t b_from, std::size_t b_to) {
    if (questions.empty()) return true;
    const bool qa = asks(a);
    const bool qb = asks(a + 1);
    if (!qa && !qb) return true;
    return (!qa && holds(a_from, a_to)) || (!qb && holds(b_from, b_to));
  };
  std::size_t g = 0;
  bool have_previous = false;
  std::uint32_t previous = 0;
  while (g < events.size()) {
    const std::uint32_t u = unit_of(events[g]);
    std::size_t end = g;
    while (end < events.size() && unit_of(events[end]) == u) ++end;
    std::size_t next_end = end;
    const bool next_adjacent = end < events.size() && unit_of(events[end]) == u + 1;
    while (next_adjacent && next_end < events.size() && unit_of(events[next_end]) == u + 1) {
      ++next_end;
    }
    if (u > 0 && !(have_previous && previous == u - 1) && pair_counts(u - 1, g, g, g, end)) {
      flags.assign(k, 0);  // pair (u-1, u): only u's events
      fill(g, end);
      consider(u - 1, true);
    }
    flags.assign(k, 0);
    fill(g, end);
    if (!asks(u)) consider(u, false);
    if (u + 1 < chunk.unit_count && pair_counts(u, g, end, end, next_end)) {
      fill(end, next_end);
      consider(u, true);
    }
    have_previous = true;
    previous = u;
    g = end;
  }
  out.coverage = best;
  out.antonym = best_antonym;
  const auto flags_of = [&](std::size_t j) -> std::uint8_t {
    return best_flags.empty() ? 0 : best_flags[j];
  };
  const auto missed = [&](std::size_t j) {
    return claim.is_checked(j) && (flags_of(j) & (kExact | kRelated)) == 0;
  };
  std::size_t missing = 0;  // sized once: growing one by one cost an allocation per doubling
  for (std::size_t j = 0; j < k; ++j) missing += missed(j) ? 1 : 0;
  out.missing.reserve(missing);
  for (std::size_t j = 0; j < k; ++j) {
    if (!claim.is_checked(j)) continue;
    if (missed(j)) {
      out.missing.push_back(static_cast<std::uint32_t>(j));
      if (flags_of(j) & kAntonym) out.opposed.push_back(static_cast<std::uint32_t>(j));
    }
    if (chunk.contains(claim.items[j])) continue;
    if (claim.kinds[j] == ItemKind::Number) ++out.missing_numbers;
    if (claim.names[j]) ++out.missing_names;
  }

  if (claim.has_negation) {
    bool near = false;
    if (!chunk.negations.empty()) {
      for (std::size_t j = 0; j < k && !near; ++j) {
        if (!claim.is_checked(j)) continue;
        const auto [first, last] = positions_of(chunk, claim.items[j]);
        for (std::uint32_t p = first; p < last && !near; ++p) {
          near = negation_near(chunk.negations, chunk.positions[p]);
        }
      }
    }
    out.negation_mismatch = !near;
  }
  const std::size_t mismatches = std::min(out.missing_numbers + out.missing_names +
                                              static_cast<std::size_t>(out.negation_mismatch) +
                                              static_cast<std::size_t>(out.antonym),
                                          kMaxMismatches);
  double factor = 1.0;
  for (std::size_t m = 0; m < mismatches; ++m) factor *= kMismatchFactor;
  out.score = calibrate(best) * factor;
  return out;
}

double reference_overlap(const ClaimProfile& claim, const ChunkProfile& chunk) noexcept {
  if (claim.items.empty()) return kEmptyClaimScore;
  std::size_t found = 0;
  for (const std::uint32_t id : claim.items) found += chunk.contains(id) ? 1 : 0;
  return static_cast<double>(found) / static_cast<double>(claim.items.size());
}

bool may_reach(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
               double threshold) noexcept {
  if (mode == Mode::Default && !claim.items.empty()) {
    // Every window counts at most what the whole chunk holds; calibrate() is monotone and the
    // contradiction factors only lower the score.
    double counted = 0.0;
    for (std::size_t j = 0; j < claim.items.size(); ++j) {
      if (chunk.contains(claim.items[j])) {
        counted += claim.weights[j];
      } else if (claim.kinds[j] == ItemKind::Content && !chunk.relation_keys.empty()) {
        for (std::uint32_t r = claim.related_begin[j]; r < claim.related_begin[j + 1]; ++r) {
          if (chunk.find_relation(claim.related[r]) != chunk.relation_keys.size()) {
            counted += claim.weights[j] * kRelatedCredit;
            break;
          }
        }
      }
    }
    // A margin for rounding: the bound only skips pairs far below the threshold.
    if (calibrate(counted / claim.total) < threshold - 1e-9) return false;
  }
  return true;
}

double support_score(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
                     SupportScratch& scratch) {
  return mode == Mode::Default ? default_support(claim, chunk, scratch).score
                               : reference_overlap(claim, chunk);
}

}  // namespace sc::claims
