/// @brief The original design's sufficiency formula (scoring="reference"), reproduced exactly.
#pragma once

#include <string_view>
#include <vector>

#include "checker/check_types.hpp"
#include "checker/config.hpp"

namespace sc::checker {

/// The reference formula's stop words: the, and, for, ..., which, who (23 words).
const std::vector<std::string_view>& reference_stop_words();

/// Scores `input` with the original formula (API.md section 2, "Reference scoring"), computing
/// everything as Python's `re`, str.lower(), `in` and len() would: coverage of the query's
/// `\b[a-zA-Z]{3,}\b` terms as substrings of the lowercased "content summary" texts, relevance
/// from embeddings (not clipped) or 0.5, density from code point counts and temperatures
/// (default 37), count; score = sum of weight x signal. `config` must be validated.
CheckResult reference_score(const CheckInput& input, const CheckerConfig& config);

}  // namespace sc::checker
