/// @brief The default sufficiency formula (scoring="default"): the product's scoring, in one pass.
#pragma once

#include "checker/check_types.hpp"
#include "checker/config.hpp"
#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"

namespace sc::checker {

inline constexpr double kDocShare = 0.35;       // coverage = .35 document + .65 relation ...
inline constexpr double kCoveragePower = 2.0;   // ... squared
inline constexpr double kNegationFactor = 0.5;  // query negated, best sentence not
inline constexpr double kReverseNegationFactor = 0.85;  // best sentence negated, query not
inline constexpr double kBridgeMaxZipf =
    3.0;  // a bridge between chunks: a non-query term this rare
inline constexpr double kConcentrationBonus = 0.25;  // relation += .25 x (best - far best)
inline constexpr double kContradictionFactor =
    0.5;                                        // best sentence holds an antonym of a query term
inline constexpr double kRelevanceScale = 0.5;  // relevance = min(1, n-gram cosine / 0.5)
inline constexpr double kScoreExponent = 2.0;   // score = weighted mean ** 2
inline constexpr double kDensityWords = 50.0;   // content words at which length saturates
inline constexpr double kDensityShare = 0.4;    // content-word share at which substance saturates

/// Scores `input` with the default formula. The spec is `default_score` in
/// python/sufficient_context/_reference_checker.py (and the docstring of
/// benchmarks/quality/eval_checker.py); this computes the same numbers:
/// - coverage: rarity-weighted query terms (weights from `statistics`) matched whole, as a variant
///   (a one-edit variant of a rare word, or a related word from `relations`), or by 5-prefix, in
///   the best chunk (or best chunk with one other) and in the best sentence with its chunk's topic
///   marks (or that with one sentence of another chunk sharing a rare non-query term with the best
///   sentence's chunk), plus a concentration bonus; combined
///   .35 / .65, times a polarity factor (negation; an antonym of an absent query term in the best
///   sentence), squared;
/// - relevance: best sentence's hashed character 3-5-gram cosine / 0.5, capped at 1; or, with
///   embeddings, the best cosine clipped to [0, 1];
/// - density: content-word count and share (and mean temperature when chunks carry one);
/// - count: n / min_contexts capped at 1; recency: mean of max(0, 1 - age / recency_days) over
///   chunks with a timestamp (absent, and its weight dropped, when none has one);
/// - score: (weighted mean of the signals) ** 2.
/// Never mutates shared state but this thread's scratch memory. `config` must be validated.
CheckResult default_score(const CheckInput& input, const CheckerConfig& config,
                          const TermStatistics& statistics, const WordRelations& relations);

}  // namespace sc::checker
