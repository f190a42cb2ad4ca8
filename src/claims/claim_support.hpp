/// @brief Support of one analyzed claim by one analyzed chunk: the default score and the reference
/// overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "claims/claim_analysis.hpp"

namespace sc::claims {

/// Default-mode constants (python/sufficient_context/_reference_claims.py is the spec).
inline constexpr std::size_t kWindowFactor = 2;      // window = 2 x claim tokens
inline constexpr double kSupportExponent = 4.0;      // score = local_overlap ** 4 x penalties
inline constexpr double kHardMissFactor = 0.25;      // per missing number / capitalised name
inline constexpr std::size_t kMaxHardMisses = 2;     // at most 0.25 ** 2
inline constexpr double kNegationFactor = 0.5;       // negated claim, chunk not negated near it
inline constexpr std::uint32_t kNegationWindow = 5;  // tokens either side of a matched word
inline constexpr double kEmptyClaimScore = 1.0;      // nothing to check, nothing to contradict

/// One claim's support by one chunk, with what a reason needs.
struct Support {
  double score = kEmptyClaimScore;  // what the threshold applies to, in [0, 1]
  double overlap = 1.0;             // weighted share of the claim's items anywhere in the chunk
  double local_overlap = 1.0;       // the same within the best window (the score's base)
  std::size_t missing_numbers = 0;
  std::size_t missing_names = 0;
  bool negation_mismatch = false;
};

/// Scratch space reused across pairs of one check.
struct SupportScratch {
  std::vector<std::uint64_t> events;  // (position << 32 | item) of matched chunk tokens
  std::vector<std::uint32_t> counts;  // per item, in the current window
};

/// The default-mode support (see _reference_claims.default_support for the rules).
Support default_support(const ClaimProfile& claim, const ChunkProfile& chunk,
                        SupportScratch& scratch);

/// The reference overlap |S & C| / |S| (1.0 for a claim without words).
double reference_overlap(const ClaimProfile& claim, const ChunkProfile& chunk) noexcept;

/// The score of the config's mode (default_support().score or reference_overlap()).
double support_score(Mode mode, const ClaimProfile& claim, const ChunkProfile& chunk,
                     SupportScratch& scratch);

}  // namespace sc::claims
