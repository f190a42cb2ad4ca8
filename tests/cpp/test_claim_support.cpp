#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "claims/claim_support.hpp"

namespace {

using sc::claims::ClaimConfig;
using sc::claims::ClaimOptions;
using sc::claims::Mode;

std::shared_ptr<const sc::checker::TermStatistics> small_table() {
  // cheat weighs 7 - 3 = 4, punish 7 - 4.5 = 2.5 -> 3 (the floor); any other content word 6, a
  // stop word or particle 0.3, the speaker 3.
  return std::make_shared<const sc::checker::TermStatistics>(
      sc::checker::TermStatistics::from_tsv("cheat\t3.0\npunish\t4.5\n"));
}

std::shared_ptr<const sc::checker::WordRelations> small_relations() {
  return std::make_shared<const sc::checker::WordRelations>(sc::checker::WordRelations::from_tsv(
      "jail\timprison\t\nimprison\tjail\t\nlegal\t\tilleg\nilleg\t\tlegal\n"));
}

ClaimConfig config(Mode mode = Mode::Default) {
  ClaimOptions options;
  options.mode = mode;
  return ClaimConfig(options, small_table(), small_relations());
}

double support(const ClaimConfig& cfg, std::string_view claim, std::string_view chunk) {
  const std::vector<double> scores = sc::claims::support_scores(cfg, claim, {chunk});
  EXPECT_EQ(scores.size(), 1u);
  return scores.empty() ? -1.0 : scores[0];
}

using sc::claims::calibrate;

TEST(ClaimSupport, CalibrationPutsTheFittedCoverageAtTheShippedThreshold) {
  EXPECT_EQ(calibrate(0.0), 0.0);
  EXPECT_DOUBLE_EQ(calibrate(sc::claims::kCoverageAtThreshold), 0.3);
  EXPECT_EQ(calibrate(1.0), 1.0);
  EXPECT_LT(calibrate(0.80), 0.3);
  EXPECT_GT(calibrate(0.82), 0.3);
  EXPECT_GT(calibrate(0.9), calibrate(0.85));  // monotone
}

TEST(ClaimSupport, LocalityFollowsTheSourceSentences) {
  const ClaimConfig cfg = config();
  const std::string_view claim = "Whoever cheats shall be punished.";
  // However far apart inside one source sentence.
  EXPECT_EQ(support(cfg, claim,
                    "Whoever cheats and thereby dishonestly induces the person deceived to deliver "
                    "any property to any person shall be punished with imprisonment."),
            1.0);
  // Two adjacent sentences: 0.9 of the coverage, still covered; glued sentence ends split too.
  EXPECT_DOUBLE_EQ(support(cfg, claim, "Whoever cheats pays. They shall be punished."),
                   calibrate(0.9));
  EXPECT_DOUBLE_EQ(support(cfg, claim, "Whoever cheats pays.They shall be punished."),
                   calibrate(0.9));
  EXPECT_GT(calibrate(0.9), 0.3);
  // Not adjacent: the best window is "Whoever cheats pays." (whoever 6 + cheat 4).
  EXPECT_DOUBLE_EQ(
      support(cfg, claim, "Whoever cheats pays. Nothing else. They shall be punished."),
      calibrate(10.0 / (6.0 + 4.0 + 6.0 + 0.3 + 3.0)));
  EXPECT_LT(support(cfg, claim, "Whoever cheats pays. Nothing else. They shall be punished."), 0.3);
  EXPECT_EQ(support(cfg, claim, "Nothing relevant here."), 0.0);
  EXPECT_EQ(support(cfg, claim, ""), 0.0);
}

TEST(ClaimSupport, ParaphraseCreditForStemsAndRelatedWords) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "Cheating is punishable.", "Whoever cheats is punished."), 1.0);
  // "jailed" is related to "imprisoned": 0.8 of its weight; "are" (0.3) is missing.
  EXPECT_DOUBLE_EQ(support(cfg, "Cheats are jailed.", "Whoever cheats shall be imprisoned."),
                   calibrate((4.0 + 6.0 * 0.8) / (4.0 + 0.3 + 6.0)));
  EXPECT_GT(support(cfg, "Cheats are jailed.", "Whoever cheats shall be imprisoned."), 0.3);
  // Without the relations table there is no credit.
  const ClaimConfig bare(ClaimOptions{}, small_table());
  EXPECT_LT(support(bare, "Cheats are jailed.", "Whoever cheats shall be imprisoned."), 0.3);
}

TEST(ClaimSupport, RelatedWordsThatAreClaimWordsAndLaterClaimsRelations) {
  const ClaimConfig cfg = config();
  // "jail" and "imprison" are both items and each other's related word: "imprison" counts
  // exactly, "jail" through it (cheat 4, are 0.3, jail 6 x 0.8, and 0.3, imprison 6).
  EXPECT_DOUBLE_EQ(
      support(cfg, "Cheats are jailed and imprisoned.", "Whoever cheats shall be imprisoned."),
      calibrate((4.0 + 6.0 * 0.8 + 6.0) / (4.0 + 0.3 + 6.0 + 0.3 + 6.0)));
  // A related word of the second claim of an answer is found as in a check of its own, and a
  // related word of an earlier check credits nothing.
  const std::vector<sc::claims::ChunkInput> chunks = {{"S1", "Cheats are imprisoned."}};
  const auto answer =
      sc::claims::check_answer(cfg, "Cheats are punished [S1]. Cheats are jailed [S1].", chunks);
  ASSERT_EQ(answer.claims.size(), 2u);
  EXPECT_DOUBLE_EQ(answer.claims[1].score, support(cfg, "Cheats are jailed.", chunks[0].text));
  EXPECT_DOUBLE_EQ(answer.claims[1].score, calibrate((4.0 + 0.3 + 6.0 * 0.8) / (4.0 + 0.3 + 6.0)));
  EXPECT_DOUBLE_EQ(answer.claims[0].score, calibrate((4.0 + 0.3) / (4.0 + 0.3 + 3.0)));
  EXPECT_DOUBLE_EQ(support(cfg, "Cheats are punished.", chunks[0].text), answer.claims[0].score);
}

TEST(ClaimSupport, ContradictionsFail) {
  const ClaimConfig cfg = config();
  // A changed number: cheat 4, get 6, 10 6, year 6; "ten" is the number 10, absent.
  EXPECT_DOUBLE_EQ(support(cfg, "Cheats get ten years.", "Cheats get seven years."),
                   calibrate(16.0 / 22.0) * 0.25);
  EXPECT_EQ(support(cfg, "Cheats get seven years.", "Cheats get 7 years."), 1.0);
  EXPECT_EQ(support(cfg, "It cost 10,000 in the 19th century.", "It cost 10000 in the 19 century."),
            1.0);
  // Negation: everything else found, one contradiction.
  EXPECT_EQ(support(cfg, "Cheating is not punished.", "Whoever cheats is punished."), 0.25);
  EXPECT_EQ(support(cfg, "Cheating is not punished.", "Cheating is never punished."), 1.0);
  EXPECT_EQ(support(cfg, "Cheating isn't punished.", "Cheating is not punished."), 1.0);
  EXPECT_EQ(support(cfg, "Cheating is not punished.",
                    "Nothing happened. a b c d e f g h Cheating is punished."),
            0.25);  // the chunk's negation is too far (> 5 tokens) from the matched words
  // An antonym of a claim word in the best window.
  EXPECT_DOUBLE_EQ(support(cfg, "Cheating is legal.", "Cheating is illegal."),
                   calibrate((4.0 + 0.3) / (4.0 + 0.3 + 6.0)) * 0.25);
  // A missing number ("Smith" opens the sentence: no name).
  EXPECT_DOUBLE_EQ(support(cfg, "Smith was punished in 1999.", "He was punished in 1998."),
                   calibrate((0.3 + 3.0 + 0.3) / (6.0 + 0.3 + 3.0 + 0.3 + 6.0)) * 0.25);
  EXPECT_EQ(support(cfg, "Smith was punished in 1999.", "Smith was punished in 1999."), 1.0);
  // 1999, Smith, NASA missing: three contradictions, two count.
  EXPECT_DOUBLE_EQ(support(cfg, "In 1999 Smith and NASA were punished.", "They were punished."),
                   calibrate((0.3 + 3.0) / (0.3 + 6.0 + 6.0 + 0.3 + 6.0 + 0.3 + 3.0)) * 0.0625);
}

TEST(ClaimSupport, LengthIsNoFeature) {
  const ClaimConfig cfg = config();
  const std::string chunk = "Whoever cheats shall be punished with imprisonment for seven years.";
  for (const std::string claim :
       {"Cheats are punished.", "Cheats get ten years.", "Seven years."}) {
    EXPECT_EQ(support(cfg, claim, chunk), support(cfg, claim + " " + claim + " " + claim, chunk));
  }
  EXPECT_EQ(support(cfg, "Cheats.", chunk), support(cfg, chunk, chunk));
}

TEST(ClaimSupport, EmptyClaimsSpeakerAndMetaPhrases) {
  const ClaimConfig cfg = config();
  EXPECT_EQ(support(cfg, "", "anything"), 1.0);
  EXPECT_EQ(support(cfg, "Yes.", "anything"), 1.0);  // a particle: nothing to contradict
  EXPECT_EQ(support(cfg, "It is what it is [S1].", ""), 1.0);
  // The speaker is an item of its own: found only where the source speaks in the first person.
  EXPECT_DOUBLE_EQ(support(cfg, "I think cheating is punished.", "Whoever cheats is punished."),
                   calibrate((4.0 + 0.3 + 3.0) / (3.0 + 6.0 + 4.0 + 0.3 + 3.0)));
  EXPECT_EQ(support(cfg, "I think cheating is punished.", "I think cheats is punished."), 1.0);
  // An opening meta phrase is no part of the claim ("summary" is not looked for).
  EXPECT_EQ(support(cfg, "In summary, cheating is punished.", "Whoever cheats is punished."), 1.0);
  // Citation markers are not words.
  EXPECT_EQ(support(cfg, "Cheating [IPC_420_0] is punished [S1].", "cheats is punished"), 1.0);
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
  // 7 ideograph/kana tokens of unknown weight, 5 found.
  EXPECT_DOUBLE_EQ(support(cfg, "東京は首都です", "東京は首都"), calibrate(30.0 / 42.0));
  const std::string bad = "Cheating\xFF is \xE2\x80 punished\xC3";
  EXPECT_EQ(support(cfg, bad, "cheats is punished"), 1.0);
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

namespace {

TEST(ClaimSupport, AQuestionSupportsNothingAloneButCountsBesideAnAnswer) {
  const ClaimConfig cfg = config();
  const std::string_view claim = "Smith cheats in court.";
  EXPECT_EQ(support(cfg, claim, "Does Smith cheat in court?"), 0.0);
  EXPECT_EQ(support(cfg, claim, "Does Smith cheat in court? Nobody knows."), 0.0);  // holds nothing
  EXPECT_EQ(support(cfg, claim, "Who cheats? Does Smith cheat in court?"), 0.0);    // two questions
  EXPECT_EQ(support(cfg, claim, "Does Smith cheat [S2.1] in court? We know."), 0.0);
  // Beside a sentence holding some of the claim, the pair counts (x0.9), as any pair does.
  const double pair = support(cfg, claim, "Does Smith cheat in court? Smith does.");
  EXPECT_DOUBLE_EQ(pair, calibrate(0.9));
  EXPECT_GT(pair, 0.3);
  // Not questions: no '?' first after the last word, or a first word that does not ask.
  EXPECT_EQ(support(cfg, claim, "Smith cheats in court?"), 1.0);
  EXPECT_EQ(support(cfg, claim, "Does Smith cheat in court. Yes?"), 1.0);
  EXPECT_EQ(support(cfg, claim, "Does Smith cheat in court! Yes?"), 1.0);
  // Reference mode reproduces the original design, which reads every word.
  EXPECT_GT(support(config(Mode::Reference), claim, "Does Smith cheat in court?"), 0.0);
}

}  // namespace
