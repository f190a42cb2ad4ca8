/// @brief Support of one analyzed claim by one analyzed chunk: the default score and the reference
/// overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "claims/claim_analysis.hpp"

namespace sc::claims {

/// Default-mode constants (python/sufficient_context/_reference_claims.py is the spec).
inline constexpr double kRelatedCredit = 0.8;         // share credited for a related word
inline constexpr double kPairFactor = 0.9;            // two adjacent sentences vs one
inline constexpr double kCoverageAtThreshold = 0.81;  // fitted on BEGIN: maps to kThresholdScore
inline constexpr double kThresholdScore = 0.3;        // the shipped min_overlap
inline constexpr double kMismatchFactor = 0.25;       // per contradiction
inline constexpr std::size_t kMaxMismatches = 2;      // at most 0.25 ** 2
inline constexpr std::uint32_t kNegationWindow = 5;   // tokens either side of a matched word
inline constexpr double kEmptyClaimScore = 1.0;       // nothing to check, nothing to contradict

/// One claim's support by one chunk, with what a reason needs.
struct Support {
  double score = kEmptyClaimScore;  // what the threshold applies to, in [0, 1]
  double overlap = 1.0;   // plain: Content/Number items anywhere in the chunk / such items
  double coverage = 1.0;  // weighted share in the best window (the score's base)
  std::size_t missing_numbers = 0;
  std::size_t missing_names = 0;
  bool negation_mismatch = false;
  bool antonym = false;                // the best window holds an antonym of an item it lacks
  bool has_window = false;             // some window has coverage > 0
  std::uint32_t best_unit = 0;         // first unit of the best window
  bool best_pair = false;              // the best window is units best_unit and best_unit + 1
  std::vector<std::uint32_t> missing;  // Content/Number items the best window lacks (in order)
  std::vector<std::uint32_t> opposed;  // Content items only an antonym of stands for there
};

/// Scratch space reused across pairs of one check.
struct SupportScratch {
  std::vector<std::uint64_t> events;     // unit << 32 | item << 2 | flag, sorted
  std::vector<std::uint8_t> flags;       // per item, in the current window
  std::vector<std::uint8_t> best_flags;  // flags of the best window so far (empty: none)
};

/// Calibrated score of a window coverage: [0, kCoverageAtThreshold] -> [0, kThresholdScore]
/// and [kCoverageAtThreshold, 1] -> [kThresholdScore, 1], linearly.
double calibrate(double coverage) noexcept;

/// The default-mode support (see _reference_claims.default_support for the rules).
Support default_support(const ClaimProfile& claim, const ChunkProfile& chunk,
                        SupportScratch& scratch);

/// False when the support of `claim` by `chunk` is surely below `threshold`: default mode bounds
/// the coverage by the items found anywhere in the chunk (its `present` bits and relation keys,
/// all a presence-only profile holds), which settles most unrelated pairs without scoring windows
/// or a chunk's full analysis. True otherwise (the reference mode has no bound).
bool may_reach(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
               double threshold) noexcept;

/// The reference overlap |S & C| / |S| (1.0 for a claim without words).
double reference_overlap(const ClaimProfile& claim, const ChunkProfile& chunk) noexcept;

/// The score of the config's mode (default_support().score or reference_overlap()).
double support_score(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
                     SupportScratch& scratch);

}  // namespace sc::claims
