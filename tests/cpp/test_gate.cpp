/// @brief GoogleTest suites for the attention gate and the retrieval gate (src/gate.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gate.hpp"

namespace {

using sc::gate::AttentionConfig;
using sc::gate::AttentionResult;
using sc::gate::evaluate_attention;
using sc::gate::evaluate_retrieval;
using sc::gate::Mode;
using sc::gate::Outcome;
using sc::gate::RetrievalConfig;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Returns the message of the std::invalid_argument that `call` throws ("" if it throws nothing).
template <typename Call>
std::string invalid_argument_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

AttentionConfig config(double threshold, bool strict = false, Mode mode = Mode::kMax,
                       std::size_t top_k = 2) {
  return AttentionConfig{threshold, strict, mode, top_k};
}

TEST(GateAttention, OriginalDesignExamplePassesWithMargin) {
  const AttentionResult r = evaluate_attention({0.65, 0.35}, config(0.5));
  EXPECT_TRUE(r.passes);
  EXPECT_FALSE(r.empty);
  EXPECT_DOUBLE_EQ(r.max_attention, 0.65);
  EXPECT_DOUBLE_EQ(r.sufficiency, 0.65);
  EXPECT_NEAR(r.margin, 0.15, 1e-12);
  ASSERT_TRUE(r.argmax.has_value());
  EXPECT_EQ(*r.argmax, 0U);
}

TEST(GateAttention, ExactlyAtThresholdPassesUnlessStrict) {
  EXPECT_TRUE(evaluate_attention({0.5, 0.3, 0.2}, config(0.5)).passes);
  const AttentionResult strict = evaluate_attention({0.5, 0.3, 0.2}, config(0.5, true));
  EXPECT_FALSE(strict.passes);
  EXPECT_EQ(strict.margin, 0.0);
  EXPECT_TRUE(evaluate_attention({0.51, 0.49}, config(0.5, true)).passes);
}

TEST(GateAttention, BelowThresholdFails) {
  const AttentionResult r = evaluate_attention({0.35, 0.33, 0.32}, config(0.5));
  EXPECT_FALSE(r.passes);
  EXPECT_DOUBLE_EQ(r.max_attention, 0.35);
  EXPECT_NEAR(r.margin, -0.15, 1e-12);
}

TEST(GateAttention, NormalisesToSumOne) {
  const AttentionResult even = evaluate_attention({2.0, 2.0}, config(0.5));
  EXPECT_EQ(even.max_attention, 0.5);
  EXPECT_TRUE(even.passes);
  const AttentionResult scaled = evaluate_attention({30.0, 10.0, 10.0}, config(0.5));
  EXPECT_EQ(scaled.max_attention, 0.6);
  EXPECT_TRUE(scaled.passes);
}

TEST(GateAttention, ArgmaxIsFirstOfTies) {
  const AttentionResult r = evaluate_attention({0.1, 0.4, 0.4, 0.1}, config(0.5));
  ASSERT_TRUE(r.argmax.has_value());
  EXPECT_EQ(*r.argmax, 1U);
  EXPECT_FALSE(r.passes);
}

TEST(GateAttention, EmptyAndAllZeroFailWhateverTheThreshold) {
  for (const auto& weights : {std::vector<double>{}, std::vector<double>{0.0, 0.0, 0.0}}) {
    const AttentionResult r = evaluate_attention(weights, config(0.0));
    EXPECT_FALSE(r.passes);
    EXPECT_TRUE(r.empty);
    EXPECT_FALSE(r.argmax.has_value());
    EXPECT_EQ(r.max_attention, 0.0);
    EXPECT_EQ(r.sufficiency, 0.0);
    EXPECT_EQ(r.margin, 0.0);
  }
  EXPECT_EQ(evaluate_attention(std::vector<double>{}, config(0.5)).margin, -0.5);
}

TEST(GateAttention, SingleWeightIsFullAttention) {
  const AttentionResult r = evaluate_attention({1e-300}, config(1.0, false));
  EXPECT_EQ(r.max_attention, 1.0);
  EXPECT_TRUE(r.passes);
  EXPECT_FALSE(evaluate_attention({3.0}, config(1.0, true)).passes);
}

TEST(GateAttention, ThresholdZeroPassesAnyNonZeroDistribution) {
  EXPECT_TRUE(evaluate_attention({0.0, 1e-9}, config(0.0)).passes);
  EXPECT_TRUE(evaluate_attention({0.0, 1e-9}, config(0.0, true)).passes);
}

TEST(GateAttention, TopKSumAddsTheLargestWeights) {
  const std::vector<double> weights{0.1, 0.3, 0.05, 0.25, 0.3};
  const AttentionResult r = evaluate_attention(weights, config(0.5, false, Mode::kTopKSum, 2));
  EXPECT_NEAR(r.sufficiency, 0.6, 1e-12);
  EXPECT_DOUBLE_EQ(r.max_attention, 0.3);
  EXPECT_EQ(*r.argmax, 1U);
  EXPECT_TRUE(r.passes);
  const AttentionResult three = evaluate_attention(weights, config(0.9, false, Mode::kTopKSum, 3));
  EXPECT_NEAR(three.sufficiency, 0.85, 1e-12);
  EXPECT_FALSE(three.passes);
  // max mode on the same weights fails at 0.5.
  EXPECT_FALSE(evaluate_attention(weights, config(0.5)).passes);
}

TEST(GateAttention, TopKAtLeastNIsExactlyOne) {
  const std::vector<double> weights{0.1, 0.2, 0.3};  // sums to 0.6000000000000001 in doubles
  const AttentionResult r = evaluate_attention(weights, config(1.0, false, Mode::kTopKSum, 3));
  EXPECT_EQ(r.sufficiency, 1.0);
  EXPECT_TRUE(r.passes);
  EXPECT_EQ(evaluate_attention(weights, config(1.0, false, Mode::kTopKSum, 10)).sufficiency, 1.0);
}

TEST(GateAttention, TopKSumNeverExceedsOne) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> weights(50);
    for (double& w : weights) w = uniform(rng) < 0.9 ? uniform(rng) * 1e-17 : uniform(rng);
    const AttentionResult r = evaluate_attention(weights, config(0.5, false, Mode::kTopKSum, 49));
    EXPECT_LE(r.sufficiency, 1.0);
    EXPECT_GE(r.sufficiency, r.max_attention);
  }
}

TEST(GateAttention, TopKSumMatchesFullSortOnRandomInput) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> uniform(0.0, 5.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> weights(1 + trial * 7);
    for (double& w : weights) w = uniform(rng);
    const std::size_t k = 1 + static_cast<std::size_t>(trial) % 5;
    const AttentionResult r = evaluate_attention(weights, config(0.5, false, Mode::kTopKSum, k));
    std::vector<double> sorted = weights;
    std::sort(sorted.begin(), sorted.end(), std::greater<>());
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    double top = 0.0;
    for (std::size_t i = 0; i < std::min(k, sorted.size()); ++i) top += sorted[i];
    const double expected = k >= weights.size() ? 1.0 : std::min(1.0, top / total);
    EXPECT_EQ(r.sufficiency, expected) << "trial " << trial;
  }
}

TEST(GateAttention, HugeWeightsDoNotOverflow) {
  const double big = std::numeric_limits<double>::max();
  const AttentionResult r = evaluate_attention({big, big, big, big}, config(0.25));
  EXPECT_DOUBLE_EQ(r.max_attention, 0.25);
  EXPECT_TRUE(r.passes);
  const AttentionResult top =
      evaluate_attention({big, big, big, big}, config(0.5, false, Mode::kTopKSum, 2));
  EXPECT_DOUBLE_EQ(top.sufficiency, 0.5);
}

TEST(GateAttention, DoesNotModifyInput) {
  const std::vector<double> weights{0.2, 0.9, 0.1, 0.5};
  const std::vector<double> copy = weights;
  evaluate_attention(weights, config(0.5, false, Mode::kTopKSum, 2));
  EXPECT_EQ(weights, copy);
}

TEST(GateAttention, ThousandChunks) {
  std::vector<double> weights(1000, 1.0);
  weights[637] = 1000.0;
  const AttentionResult r = evaluate_attention(weights, config(0.5));
  EXPECT_EQ(*r.argmax, 637U);
  EXPECT_DOUBLE_EQ(r.max_attention, 1000.0 / 1999.0);
  EXPECT_TRUE(r.passes);
}

TEST(GateErrors, BadWeightsNameIndexAndValue) {
  EXPECT_EQ(invalid_argument_message([] {
              evaluate_attention({0.5, -0.25}, config(0.5));
            }),
            "attention_distribution[1] is -0.25: weights must be finite and non-negative");
  EXPECT_EQ(invalid_argument_message([] {
              evaluate_attention({kNaN, 1.0}, config(0.5));
            }),
            "attention_distribution[0] is nan: weights must be finite and non-negative");
  EXPECT_EQ(invalid_argument_message([] {
              evaluate_attention({1.0, 2.0, kInf}, config(0.5));
            }),
            "attention_distribution[2] is inf: weights must be finite and non-negative");
  EXPECT_EQ(invalid_argument_message([] { evaluate_attention({-kInf}, config(0.5), "weights"); }),
            "weights[0] is -inf: weights must be finite and non-negative");
}

TEST(GateErrors, ThresholdOutsideUnitIntervalOrNaN) {
  for (const double bad : {-0.01, 1.5, kNaN, kInf}) {
    const std::string message =
        invalid_argument_message([bad] { evaluate_attention({1.0}, config(bad)); });
    EXPECT_EQ(message.rfind("threshold must be a number in [0, 1]; got ", 0), 0U) << message;
  }
  EXPECT_EQ(invalid_argument_message([] { sc::gate::check_threshold(1.5); }),
            "threshold must be a number in [0, 1]; got 1.5");
  EXPECT_EQ(invalid_argument_message([] { sc::gate::check_threshold(kNaN, "cut"); }),
            "cut must be a number in [0, 1]; got nan");
  EXPECT_NO_THROW(sc::gate::check_threshold(0.0));
  EXPECT_NO_THROW(sc::gate::check_threshold(1.0));
}

TEST(GateErrors, ModeAndTopK) {
  EXPECT_EQ(sc::gate::parse_mode("max"), Mode::kMax);
  EXPECT_EQ(sc::gate::parse_mode("top_k_sum"), Mode::kTopKSum);
  EXPECT_EQ(sc::gate::mode_name(Mode::kTopKSum), "top_k_sum");
  EXPECT_EQ(invalid_argument_message([] { sc::gate::parse_mode("mean"); }),
            "mode must be 'max' or 'top_k_sum'; got 'mean'");
  EXPECT_EQ(invalid_argument_message(
                [] { evaluate_attention({1.0}, config(0.5, false, Mode::kTopKSum, 0)); }),
            "top_k must be >= 1; got 0");
}

RetrievalConfig retrieval(double min_score = 0.20, std::size_t min_chunks = 2,
                          std::optional<double> weak = std::nullopt) {
  return RetrievalConfig{min_score, min_chunks, weak};
}

TEST(GateRetrieval, NoScoresIsNoEvidence) {
  const auto r = evaluate_retrieval(std::vector<double>{}, retrieval());
  EXPECT_EQ(r.outcome, Outcome::kNoEvidence);
  EXPECT_EQ(r.max_score, 0.0);
  EXPECT_TRUE(r.passing.empty());
  EXPECT_EQ(sc::gate::outcome_name(r.outcome), "no_evidence");
}

TEST(GateRetrieval, BestScoreBelowMinScoreIsNoEvidence) {
  const auto r = evaluate_retrieval({0.19, 0.05, 0.1}, retrieval());
  EXPECT_EQ(r.outcome, Outcome::kNoEvidence);
  EXPECT_EQ(r.max_score, 0.19);
  EXPECT_TRUE(r.passing.empty());
}

TEST(GateRetrieval, TooFewChunksReachMinScore) {
  const auto r = evaluate_retrieval({0.9, 0.1, 0.15}, retrieval());
  EXPECT_EQ(r.outcome, Outcome::kNoEvidence);
  EXPECT_EQ(r.max_score, 0.9);
  EXPECT_EQ(r.passing, (std::vector<std::size_t>{0}));
  EXPECT_EQ(evaluate_retrieval({0.9, 0.1, 0.15}, retrieval(0.2, 1)).outcome, Outcome::kNormal);
}

TEST(GateRetrieval, NormalWithPassingInInputOrder) {
  const auto r = evaluate_retrieval({0.3, 0.1, 0.83, 0.2}, retrieval());
  EXPECT_EQ(r.outcome, Outcome::kNormal);
  EXPECT_EQ(r.max_score, 0.83);
  EXPECT_EQ(r.passing, (std::vector<std::size_t>{0, 2, 3}));  // 0.2 >= 0.2 passes
  EXPECT_EQ(sc::gate::outcome_name(r.outcome), "normal");
}

TEST(GateRetrieval, WeakScore) {
  const auto weak = evaluate_retrieval({0.3, 0.25}, retrieval(0.2, 2, 0.5));
  EXPECT_EQ(weak.outcome, Outcome::kWeakEvidence);
  EXPECT_EQ(sc::gate::outcome_name(weak.outcome), "weak_evidence");
  EXPECT_EQ(evaluate_retrieval({0.5, 0.25}, retrieval(0.2, 2, 0.5)).outcome, Outcome::kNormal);
  // weak_score never turns refused evidence into weak evidence.
  EXPECT_EQ(evaluate_retrieval({0.3}, retrieval(0.2, 2, 0.5)).outcome, Outcome::kNoEvidence);
}

TEST(GateRetrieval, NegativeScoresAreAllowed) {
  const auto r = evaluate_retrieval({-0.4, -0.2}, retrieval(-0.3, 1));
  EXPECT_EQ(r.max_score, -0.2);
  EXPECT_EQ(r.outcome, Outcome::kNormal);
  EXPECT_EQ(r.passing, (std::vector<std::size_t>{1}));
}

TEST(GateRetrieval, Errors) {
  EXPECT_EQ(invalid_argument_message([] {
              evaluate_retrieval({0.5, kNaN}, retrieval());
            }),
            "chunks_or_scores[1] is nan: scores must be finite");
  EXPECT_EQ(invalid_argument_message([] { evaluate_retrieval({kInf}, retrieval(), "scores"); }),
            "scores[0] is inf: scores must be finite");
  EXPECT_EQ(invalid_argument_message([] { evaluate_retrieval({0.5}, retrieval(kNaN)); }),
            "min_score must be a finite number; got nan");
  EXPECT_EQ(invalid_argument_message([] { evaluate_retrieval({0.5}, retrieval(0.2, 0)); }),
            "min_chunks must be >= 1; got 0");
  EXPECT_EQ(invalid_argument_message([] { evaluate_retrieval({0.5}, retrieval(0.2, 1, 0.1)); }),
            "weak_score must be >= min_score (0.2); got 0.1");
  EXPECT_EQ(invalid_argument_message([] { evaluate_retrieval({0.5}, retrieval(0.2, 1, kNaN)); }),
            "weak_score must be a finite number; got nan");
}

}  // namespace
