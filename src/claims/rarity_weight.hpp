/// @brief The default claim score's rarity weight of a token key, from the shared TermStatistics.
#pragma once

#include <string_view>

#include "checker/term_statistics.hpp"

namespace sc::claims {

/// Default-mode rarity weights (python/sufficient_context/_reference_claims.py is the spec).
inline constexpr double kZipfCeiling =
    7.0;  // weight = clamp(kZipfCeiling - zipf, kMinWeight, kZipfCeiling)
inline constexpr double kMinWeight = 3.0;       // common words (zipf >= 4) all weigh 3
inline constexpr double kFunctionWeight = 0.3;  // a stop word or particle of a claim with content
inline constexpr double kUnknownZipf = 1.0;  // zipf of a stem the table lacks, and of every number

/// Rarity weight of a token key: clamp(kZipfCeiling - zipf, kMinWeight, kZipfCeiling), zipf being
/// kUnknownZipf for a key `statistics` lacks or that starts with an ASCII digit (a number).
/// Never allocates.
double rarity_weight(const checker::TermStatistics& statistics, std::string_view key) noexcept;

}  // namespace sc::claims
