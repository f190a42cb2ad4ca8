#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"

namespace {

using sc::claims::ClaimConfig;
using sc::claims::ClaimOptions;
using sc::claims::Mode;

std::shared_ptr<const sc::checker::TermStatistics> small_table() {
  // cheat weighs 7 - 3 = 4, punish 7 - 4.5 = 2.5 -> 3 (the floor); anything else 6.
  return std::make_shared<const sc::checker::TermStatistics>(
      sc::checker::TermStatistics::from_tsv("cheat\t3.0\npunish\t4.5\n"));
}

ClaimConfig config(Mode mode = Mode::Default) {
  ClaimOptions options;
  options.mode = mode;
  return ClaimConfig(options, small_table());
}

double support(const ClaimConfig& cfg, std::string_view claim, std::string_view chunk) {
  const std::vector<double> scores = sc::claims::support_scores(cfg, claim, {chunk});
  EXPECT_EQ(scores.size(), 1u);
  return scores.empty() ? -1.0 : scores[0];
}

TEST(ClaimSupport, StemmedWeightedLocalOverlap) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "Cheating is punished.", "Whoever cheats shall be punished."), 1.0);
  // Window = 2 x 3 claim tokens: "punished" is 9 tokens after "Cheats", so the best window holds
  // cheat (4) of 4 + 3: (4/7)^4.
  EXPECT_DOUBLE_EQ(support(cfg, "Cheating is punished.", "Cheats a b c d e f g h punished."),
                   std::pow(4.0 / 7.0, 4.0));
  EXPECT_EQ(support(cfg, "Cheating is punished.", "Nothing relevant here."), 0.0);
  EXPECT_EQ(support(cfg, "Cheating is punished.", ""), 0.0);
}

TEST(ClaimSupport, MissingNumbersAndNamesCostAQuarterEachUpToTwo) {
  const ClaimConfig cfg = config();
  // smith 6, punish 3, 1999 6: punish only (3/15)^4, one miss (1999; "Smith" opens the sentence,
  // so it is no name).
  EXPECT_DOUBLE_EQ(support(cfg, "Smith was punished in 1999.", "He was punished in 1998."),
                   std::pow(0.2, 4.0) * 0.25);
  EXPECT_EQ(support(cfg, "Smith was punished in 1999.", "Smith was punished in 1999."), 1.0);
  // 1999, Smith, NASA missing: three misses, two count. (3/21)^4 x 0.25^2.
  EXPECT_DOUBLE_EQ(support(cfg, "In 1999 Smith and NASA were punished.", "They were punished."),
                   std::pow(3.0 / 21.0, 4.0) * 0.0625);
  // "10,000" and "10000" are one number; "19th" is the number 19.
  EXPECT_EQ(support(cfg, "It cost 10,000 in the 19th century.", "A cost of 10000 (19 century)."),
            1.0);
}

TEST(ClaimSupport, NegationMismatchHalvesTheScore) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "Cheating is not punished.", "Whoever cheats shall be punished."), 0.5);
  EXPECT_EQ(support(cfg, "Cheating is not punished.", "Cheating is never punished."), 1.0);
  EXPECT_EQ(support(cfg, "Cheating isn't punished.", "Cheating is not punished."), 1.0);
  // The chunk's negation is too far (> 5 tokens) from the matched words.
  EXPECT_EQ(support(cfg, "Cheating is not punished.",
                    "Nothing happened. a b c d e f g h Cheating was punished."),
            0.5);
}

TEST(ClaimSupport, EmptyClaimsAndMetaPhrases) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "", "anything"), 1.0);
  EXPECT_EQ(support(cfg, "Yes.", "anything"), 1.0);  // no content word: nothing to contradict
  EXPECT_EQ(support(cfg, "It is what it is [S1].", ""), 1.0);
  // An opening meta phrase is no part of the claim ("summary" is not looked for).
  EXPECT_EQ(support(cfg, "In summary, cheating is punished.", "Whoever cheats shall be punished."),
            1.0);
  // Citation markers are not words.
  EXPECT_EQ(support(cfg, "Cheating [IPC_420_0] is punished [S1].", "cheats punished"), 1.0);
  EXPECT_EQ(sc::claims::support_scores(cfg, "x", {}).size(), 0u);
}

TEST(ClaimSupport, ReferenceModeIsSetOverlapOfLowercaseWhitespaceWords) {
  const ClaimConfig cfg = config(Mode::Reference);
  // {"cat", "sat."} (stop word "the" removed, marker stripped so "sat." keeps its period).
  EXPECT_EQ(support(cfg, "The Cat sat [S1].", "a cat sat."), 1.0);
  EXPECT_EQ(support(cfg, "The Cat sat [S1].", "the cat sat on a mat"), 0.5);
  EXPECT_EQ(support(cfg, "the", "x"), 1.0);  // no word left: 1.0, as the original design
  EXPECT_EQ(support(cfg, "Über alles.", "über ALLES."), 1.0);
  EXPECT_EQ(support(cfg, "Cheating is punished.", "cheating is punishable."), 0.5);  // no stems
  EXPECT_DOUBLE_EQ(support(cfg, "x b c", "b\u00a0c"), 2.0 / 3.0);                    // NBSP splits
}

TEST(ClaimSupport, UnicodeAndInvalidUtf8) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "Der Bürgermeister von MÜNCHEN.", "der bürgermeister von münchen"), 1.0);
  EXPECT_EQ(support(cfg, "東京", "東京は首都"), 1.0);  // one token per ideograph
  // 7 ideograph/kana tokens of unknown weight, 5 found: (5/7)^4.
  EXPECT_DOUBLE_EQ(support(cfg, "東京は首都です", "東京は首都"), std::pow(5.0 / 7.0, 4.0));
  const std::string bad = "Cheating\xFF is \xE2\x80 punished\xC3";
  const double s = support(cfg, bad, "cheats are punished");
  EXPECT_EQ(s, 1.0);
  EXPECT_EQ(support(config(Mode::Reference), bad, bad), 1.0);
}

TEST(ClaimConfig, ValidatesAndReportsMode) {
  ClaimOptions options;
  options.min_overlap = 1.5;
  EXPECT_THROW(ClaimConfig{options}, std::invalid_argument);
  options.min_overlap = std::nan("");
  try {
    ClaimConfig{options};
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("min_overlap"), std::string::npos);
  }
  options.min_overlap = 0.3;
  options.multi_citation_factor = -0.1;
  EXPECT_THROW(ClaimConfig{options}, std::invalid_argument);
  EXPECT_THROW(sc::claims::parse_mode("strict"), std::invalid_argument);
  EXPECT_EQ(sc::claims::parse_mode("reference"), Mode::Reference);
  EXPECT_EQ(sc::claims::mode_name(Mode::Default), "default");
  const ClaimConfig cfg;
  EXPECT_DOUBLE_EQ(cfg.threshold(1), 0.3);
  EXPECT_DOUBLE_EQ(cfg.threshold(2), 0.3 * 0.7);
  EXPECT_EQ(cfg.meta().phrases(), sc::claims::default_meta_patterns());
  EXPECT_TRUE(cfg.stopwords().contains("The"));
  ClaimOptions custom;
  custom.stopwords = std::vector<std::string>{"Cheating"};
  EXPECT_TRUE(ClaimConfig(custom).stopwords().contains("cheating"));
}

}  // namespace
