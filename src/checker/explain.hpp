/// @brief Wording of missing aspects and confidence factors, as the Python oracles format them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sc::checker::explain {

/// Python's f"{x:.0%}": x * 100 rounded half-to-even to an integer, then '%'.
std::string percent(double x);

/// "Only N context(s), need M"; with blank chunks or copies of other chunks (default scoring, which
/// counts neither): "Only N context(s) with text, need M (B blank)", "Only N distinct context(s),
/// need M (R repeated)", "Only N distinct context(s) with text, need M (B blank, R repeated)".
std::string too_few_contexts(std::size_t n, long long min_contexts, std::size_t blank = 0,
                             std::size_t repeated = 0);

inline constexpr std::string_view kNoContext = "No relevant context found";
inline constexpr std::string_view kThinContext = "Retrieved context lacks detailed information";
inline constexpr std::string_view kNoKeyTerms =
    "The query has no key terms to look for (only stop words or punctuation)";
inline constexpr std::string_view kQueryTruncated =
    "The query has more than 512 key terms; only the first 512 were looked for";
inline constexpr std::string_view kNotTogether =
    "Query terms never appear together in one sentence";
inline constexpr std::string_view kOnlyAsked =
    "The best match in the context is a question, which answers nothing";
inline constexpr std::string_view kQueryNegated =
    "Query is negated but its best supporting sentence is not";
inline constexpr std::string_view kEvidenceNegated =
    "Best supporting sentence is negated but the query is not";

/// "<prefix>'<term>'<suffix>" (e.g. "Query term '", term, "' not found in context").
std::string quoted(std::string_view prefix, std::string_view term, std::string_view suffix);

}  // namespace sc::checker::explain
