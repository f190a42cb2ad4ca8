/// @brief GoogleTest suites for SufficiencyChecker (src/checker/checker.hpp): reference and
/// default scoring on hand-computed cases, Unicode, invalid UTF-8, 10 MB contexts, batches.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "checker/checker.hpp"
#include "checker/explain.hpp"

namespace {

namespace ck = sc::checker;

ck::SufficiencyChecker make_checker(ck::Scoring scoring,
                                    std::shared_ptr<const ck::TermStatistics> stats = nullptr,
                                    std::shared_ptr<const ck::WordRelations> relations = nullptr) {
  ck::CheckerConfig config;
  config.scoring = scoring;
  config.weights = ck::default_weights(scoring);
  return ck::SufficiencyChecker(config, std::move(stats), std::move(relations));
}

std::shared_ptr<const ck::WordRelations> relations(std::string_view tsv) {
  return std::make_shared<const ck::WordRelations>(ck::WordRelations::from_tsv(tsv));
}

ck::CheckInput input(std::string_view query, std::vector<std::string_view> contents) {
  ck::CheckInput in;
  in.query = query;
  in.contents = std::move(contents);
  return in;
}

using Strings = std::vector<std::string>;

// ---- reference scoring -------------------------------------------------------------------------

TEST(CheckerReference, NoContextIsInsufficient) {
  const ck::CheckResult r = make_checker(ck::Scoring::kReference).check(input("anything", {}));
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.level, ck::Level::kInsufficient);
  EXPECT_EQ(r.missing_aspects, Strings{"No relevant context found"});
  EXPECT_TRUE(std::isnan(r.signals.coverage));
  EXPECT_EQ(r.relevance_source, ck::RelevanceSource::kNone);
}

TEST(CheckerReference, OriginalFormulaOnOneChunk) {
  const std::string chunk = "Whoever cheats shall be punished with imprisonment.";  // 51 chars
  const ck::CheckResult r = make_checker(ck::Scoring::kReference)
                                .check(input("What is the penalty for cheating?", {chunk}));
  const double density = (51.0 / 1000.0 + 37.0 / 50.0) / 2.0;
  EXPECT_DOUBLE_EQ(r.signals.coverage, 0.0);
  EXPECT_DOUBLE_EQ(r.signals.relevance, 0.5);
  EXPECT_DOUBLE_EQ(r.signals.density, density);
  EXPECT_DOUBLE_EQ(r.signals.count, 1.0);
  EXPECT_TRUE(std::isnan(r.signals.recency));
  EXPECT_DOUBLE_EQ(r.score, 0.3 * 0.5 + 0.2 * density + 0.1);
  EXPECT_EQ(r.level, ck::Level::kInsufficient);
  EXPECT_EQ(r.missing_terms, (Strings{"penalty", "cheating"}));
  EXPECT_EQ(r.missing_aspects, (Strings{"Query term 'penalty' not found in context",
                                        "Query term 'cheating' not found in context",
                                        "Retrieved context lacks detailed information"}));
  EXPECT_TRUE(r.confidence_factors.empty());
}

TEST(CheckerReference, SubstringsAndSummariesCount) {
  // "cheat" is found inside "cheating" (substring semantics), "fraud" only in the summary.
  ck::CheckInput in = input("cheat fraud theft", {"Cheating is punished."});
  in.summaries = {"About FRAUD."};
  const ck::CheckResult r = make_checker(ck::Scoring::kReference).check(in);
  EXPECT_EQ(r.covered_terms, (Strings{"cheat", "fraud"}));
  EXPECT_EQ(r.missing_terms, Strings{"theft"});
  EXPECT_DOUBLE_EQ(r.signals.coverage, 2.0 / 3.0);
  EXPECT_EQ(r.confidence_factors, Strings{});  // 67% is not above 70%
}

TEST(CheckerReference, CountTemperatureAndFactors) {
  const std::string long_chunk = std::string(2000, 'x') + " penalty cheating";
  ck::CheckInput in = input("penalty cheating", {long_chunk});
  const double temperatures[] = {80.0};
  in.temperatures = temperatures;
  in.min_contexts = 3;
  const ck::CheckResult r = make_checker(ck::Scoring::kReference).check(in);
  EXPECT_DOUBLE_EQ(r.signals.density, 1.0);
  EXPECT_DOUBLE_EQ(r.signals.count, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(r.score, 0.4 + 0.3 * 0.5 + 0.2 + 0.1 / 3.0);
  EXPECT_EQ(r.level, ck::Level::kPartial);  // 0.783
  EXPECT_EQ(r.missing_aspects, Strings{"Only 1 context(s), need 3"});
  EXPECT_EQ(r.confidence_factors, Strings{"Good keyword coverage (100%)"});
}

TEST(CheckerDefault, ACopyOfAChunkIsReadOnce) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  const std::string_view fact = "The Eiffel Tower is 330 metres tall.";
  ck::CheckInput once = input("How tall is the Eiffel Tower?", {fact});
  ck::CheckInput copies = input("How tall is the Eiffel Tower?", {fact, fact, "", fact, ""});
  once.min_contexts = copies.min_contexts = 3;
  const ck::CheckResult a = checker.check(once);
  const ck::CheckResult b = checker.check(copies);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.signals.density, b.signals.density);
  EXPECT_DOUBLE_EQ(b.signals.count, 1.0 / 3.0);
  EXPECT_EQ(b.missing_aspects.back(),
            "Only 1 distinct context(s) with text, need 3 (2 blank, 2 repeated)");
}

TEST(CheckerReference, EmbeddingsGiveUnclippedCosine) {
  ck::CheckInput in = input("q", {"a", "b"});
  const double query[] = {1.0, 0.0};
  const double rows[] = {0.0, 1.0, 1.0, 1.0};
  in.query_embedding = query;
  in.chunk_embeddings = rows;
  in.dim = 2;
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kReference);
  const ck::CheckResult r = checker.check(in);
  EXPECT_DOUBLE_EQ(r.signals.relevance, 1.0 / std::sqrt(2.0));
  EXPECT_EQ(r.relevance_source, ck::RelevanceSource::kEmbedding);
  EXPECT_EQ(r.confidence_factors,
            (Strings{"Good keyword coverage (100%)", "High semantic relevance (71%)"}));
  const double negative[] = {-1.0, 0.0, -2.0, 0.0};
  in.chunk_embeddings = negative;
  EXPECT_DOUBLE_EQ(checker.check(in).signals.relevance, -1.0);
  const double nan_row[] = {0.0, 1.0, NAN, 0.0};
  in.chunk_embeddings = nan_row;
  EXPECT_THROW(checker.check(in), std::invalid_argument);
}

TEST(CheckerReference, UnicodeFollowsPythonRules) {
  // "caf" + "é" has no \b; "naïve" neither; Kelvin sign lowercases to k; lengths in code points.
  const ck::CheckResult r = make_checker(ck::Scoring::kReference)
                                .check(input("café naïve \u212Aelvin r\u00e9sum\u00e9 tea",
                                             {"\u212AELVIN TEA \U0001F600"}));
  EXPECT_EQ(r.covered_terms, (Strings{"kelvin", "tea"}));
  EXPECT_TRUE(r.missing_terms.empty());
  EXPECT_DOUBLE_EQ(r.signals.density, (12.0 / 1000.0 + 37.0 / 50.0) / 2.0);
}

TEST(CheckerReference, InvalidUtf8NeverCrashes) {
  const std::string chunk =
      "pen\xff"
      "alty \xc3 cheating \xed\xa0\x80";
  const ck::CheckResult r =
      make_checker(ck::Scoring::kReference).check(input("penalty \xfe cheating", {chunk}));
  EXPECT_EQ(r.covered_terms, Strings{"cheating"});
  EXPECT_EQ(r.missing_terms, Strings{"penalty"});
  // Each invalid byte counts as one code point (U+FFFD).
  EXPECT_DOUBLE_EQ(r.signals.density, (static_cast<double>(chunk.size()) / 1000.0 + 0.74) / 2.0);
}

// ---- default scoring ---------------------------------------------------------------------------

TEST(CheckerDefault, NoContextIsInsufficient) {
  const ck::CheckResult r = make_checker(ck::Scoring::kDefault).check(input("zebra", {}));
  EXPECT_EQ(r.score, 0.0);
  EXPECT_EQ(r.level, ck::Level::kInsufficient);
  EXPECT_EQ(r.missing_aspects, Strings{"No relevant context found"});
}

TEST(CheckerDefault, OneChunkOneWordByHand) {
  const ck::CheckResult r = make_checker(ck::Scoring::kDefault).check(input("Zebra?", {"zebras."}));
  // coverage: the stem matches in the only chunk and sentence -> (.35 + .65)^2 = 1
  EXPECT_DOUBLE_EQ(r.signals.coverage, 1.0);
  // relevance: " zebra " vs " zebras ": 3..5-grams; cosine computed by hand below
  //   query n-grams (7 chars): " ze","zeb","ebr","bra","ra ", " zeb","zebr","ebra","bra ",
  //   " zebr","zebra","ebra " = 12; context (8 chars): 6 + 5 + 4 = 15, sharing 9 of them.
  const double cosine = 9.0 / (std::sqrt(12.0) * std::sqrt(15.0));
  EXPECT_DOUBLE_EQ(r.signals.relevance, std::min(1.0, cosine / 0.5));
  // density: 1 content word of 1 token -> (1/50 + 1) / 2
  EXPECT_DOUBLE_EQ(r.signals.density, (1.0 / 50.0 + 1.0) / 2.0);
  EXPECT_DOUBLE_EQ(r.signals.count, 1.0);
  EXPECT_TRUE(std::isnan(r.signals.recency));
  const double mean =
      (0.6 * 1.0 + 0.2 * r.signals.relevance + 0.1 * r.signals.density + 0.1 * 1.0) / 1.0;
  EXPECT_NEAR(r.score, mean * mean, 1e-12);
  EXPECT_EQ(r.covered_terms, Strings{"zebra"});
  EXPECT_TRUE(r.missing_terms.empty());
  EXPECT_EQ(r.relevance_source, ck::RelevanceSource::kLexical);
  EXPECT_EQ(r.level, ck::Level::kSufficient);
  EXPECT_EQ(r.confidence_factors, (Strings{"Good keyword coverage (100%)",
                                           "Query terms found together in one passage (100%)",
                                           "High lexical relevance (100%)"}));
  EXPECT_TRUE(r.missing_aspects.empty());  // density 0.51 is not below 0.5
}

TEST(CheckerDefault, QueryWithoutTermsCoversNothingAndSaysSo) {
  const ck::CheckResult r =
      make_checker(ck::Scoring::kDefault).check(input("What is it?", {"Anything."}));
  EXPECT_DOUBLE_EQ(r.signals.coverage, 0.0);
  EXPECT_DOUBLE_EQ(r.signals.relevance, 0.0);  // no n-gram in the query
  EXPECT_TRUE(r.covered_terms.empty());
  EXPECT_TRUE(r.missing_terms.empty());
  EXPECT_EQ(r.level, ck::Level::kInsufficient);
  ASSERT_FALSE(r.missing_aspects.empty());
  EXPECT_EQ(r.missing_aspects.front(), ck::explain::kNoKeyTerms);
}

TEST(CheckerDefault, EmptyQuery) {
  const ck::CheckResult r = make_checker(ck::Scoring::kDefault).check(input("", {"zebra"}));
  EXPECT_DOUBLE_EQ(r.signals.coverage, 0.0);
  EXPECT_DOUBLE_EQ(r.signals.relevance, 0.0);
  EXPECT_DOUBLE_EQ(r.doc_coverage, 0.0);
  EXPECT_TRUE(r.covered_terms.empty());
  const ck::CheckResult ref = make_checker(ck::Scoring::kReference).check(input("", {"zebra"}));
  EXPECT_DOUBLE_EQ(ref.signals.coverage, 1.0);
  // Blank chunks have no sentence at all: relation 0 with query terms.
  const ck::CheckResult blank =
      make_checker(ck::Scoring::kDefault).check(input("zebra", {"", "  \n"}));
  EXPECT_DOUBLE_EQ(blank.signals.coverage, 0.0);
  EXPECT_DOUBLE_EQ(blank.relation, 0.0);
  EXPECT_DOUBLE_EQ(blank.signals.density, 0.0);
}

TEST(CheckerDefault, RareTermsWeighMore) {
  // "zebra" rare (zipf 2), "animal" common (zipf 5): only the common one present.
  auto stats = std::make_shared<ck::TermStatistics>(
      ck::TermStatistics::from_pairs({{"zebra", 2.0}, {"anim", 5.0}}));
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault, stats);
  const ck::CheckResult common = checker.check(input("zebra animal", {"An animal."}));
  const ck::CheckResult rare = checker.check(input("zebra animal", {"A zebra."}));
  // weights: zebra 7 - 2 = 5, animal 7 - 5 = 2 (total 7)
  EXPECT_DOUBLE_EQ(common.doc_coverage, 2.0 / 7.0);
  EXPECT_DOUBLE_EQ(rare.doc_coverage, 5.0 / 7.0);
  EXPECT_GT(rare.score, common.score);
  EXPECT_EQ(common.missing_aspects.front(), "Query term 'zebra' not found in context");
}

TEST(CheckerDefault, NumbersIdentifiersVariantsAndPrefixes) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  const ck::CheckResult r =
      checker.check(input("Section 420 of IPC_420 on zorblax photosynthesis",
                          {"Section 421 covers zorblaz and photosynthetic processes."}));
  EXPECT_EQ(r.covered_terms, Strings{"section"});
  EXPECT_EQ(r.missing_terms, (Strings{"420", "ipc_420", "zorblax", "photosynthesis"}));
  EXPECT_EQ(r.missing_aspects,
            (Strings{"Number '420' from the query not found in context",
                     "Identifier 'ipc_420' from the query not found in context",
                     "Query term 'zorblax' only matched as a spelling variant in context",
                     "Query term 'photosynthesis' only partly matched in context"}));
  // (Relation .45 + the concentration bonus .25 x .45 of a lone sentence reaches .5625: no "never
  // together" aspect.) Without statistics every term weighs 6: credits 1 + 0 + 0 + .75 + .5 of 5
  // terms.
  EXPECT_DOUBLE_EQ(r.doc_coverage, (6.0 + 0.75 * 6.0 + 0.5 * 6.0) / 30.0);
}

// Prefix groups (five code points, compared by hash then bytes): a multi-byte prefix matches
// whole, one code point off does not, and two query terms sharing a prefix share its group.
TEST(CheckerDefault, PrefixGroupsMatchWholeCodePoints) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  EXPECT_EQ(checker.check(input("\u00c9coliers", {"Les \u00e9coli\u00e8res."})).missing_aspects,
            Strings{"Query term '\u00e9coliers' only partly matched in context"});
  EXPECT_EQ(checker.check(input("\u00e9coliers", {"Les \u00e9coles."})).missing_aspects.front(),
            "Query term '\u00e9coliers' not found in context");
  EXPECT_EQ(checker.check(input("photosynthesis photosynthetic", {"Photons."})).missing_aspects,
            (Strings{"Query term 'photosynthesis' only partly matched in context",
                     "Query term 'photosynthetic' only partly matched in context"}));
}

TEST(CheckerDefault, NegationMismatchCostsCoverage) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  const ck::CheckResult negated =
      checker.check(input("Is cheating not punished?", {"Cheating is punished."}));
  EXPECT_EQ(negated.polarity_ok, false);
  EXPECT_DOUBLE_EQ(negated.signals.coverage, 0.5 * 0.5);
  EXPECT_EQ(negated.missing_aspects.front(),
            "Query is negated but its best supporting sentence is not");
  const ck::CheckResult reverse =
      checker.check(input("Is cheating punished?", {"Cheating is never punished."}));
  EXPECT_EQ(reverse.polarity_ok, false);
  EXPECT_DOUBLE_EQ(reverse.signals.coverage, 0.85 * 0.85);
  const ck::CheckResult both =
      checker.check(input("Isn't cheating punished?", {"Cheating isn\u2019t punished."}));
  EXPECT_EQ(both.polarity_ok, true);
  EXPECT_DOUBLE_EQ(both.signals.coverage, 1.0);
}

TEST(CheckerDefault, RelationNeedsTermsTogether) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  // Sentences 0 and 2 hold half each; neither term is in half the sentences (no topic); the far
  // sentence 2 is as good as the best, so no concentration bonus.
  const ck::CheckResult apart =
      checker.check(input("zebra stripes", {"A zebra. Grass grows. Stripes."}));
  const ck::CheckResult together =
      checker.check(input("zebra stripes", {"A zebra with stripes. Grass grows. Rain falls."}));
  EXPECT_DOUBLE_EQ(apart.doc_coverage, 1.0);
  EXPECT_DOUBLE_EQ(apart.relation, 0.5);
  EXPECT_DOUBLE_EQ(together.relation, 1.0);
  EXPECT_LT(apart.score, together.score);
  // In two chunks, the best sentence pairs with a sentence of the other chunk that shares a rare
  // non-query term with the best sentence's chunk (multi-hop through "Kenya")...
  const ck::CheckResult hop =
      checker.check(input("zebra stripes", {"A zebra lives in Kenya.", "Kenya has stripes."}));
  EXPECT_DOUBLE_EQ(hop.relation, 1.0);
  EXPECT_DOUBLE_EQ(hop.doc_coverage, 1.0);
  // ... and not without such a bridge (the far sentence matches the best: no bonus either).
  const ck::CheckResult no_bridge =
      checker.check(input("zebra stripes", {"A zebra lives in Kenya.", "Stripes glow."}));
  EXPECT_DOUBLE_EQ(no_bridge.relation, 0.5);
  EXPECT_DOUBLE_EQ(no_bridge.doc_coverage, 1.0);
}

TEST(CheckerDefault, ChunkTopicCountsInEachOfItsSentences) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  // "zebra" is in 2 of 3 sentences: the chunk's topic, so "They have stripes." answers it all.
  const ck::CheckResult topic = checker.check(
      input("zebra stripes", {"Zebras live in Africa. Zebras eat grass. They have stripes."}));
  EXPECT_DOUBLE_EQ(topic.relation, 1.0);
  // In 1 of 3 it is not the topic: the best sentence holds half, and so does a far one.
  const ck::CheckResult once = checker.check(
      input("zebra stripes", {"Zebras live in Africa. Lions eat meat. They have stripes."}));
  EXPECT_DOUBLE_EQ(once.relation, 0.5);
}

TEST(CheckerDefault, ConcentrationBonusRewardsOnePlaceThatAnswers) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  // Best sentence 2/3; the far sentence (two away) holds 0 or 1/3: bonus .25 x the difference.
  const ck::CheckResult alone = checker.check(
      input("zebra stripes lion", {"A zebra with stripes. Grass grows. Rain falls."}));
  EXPECT_NEAR(alone.relation, 2.0 / 3.0 + 0.25 * (2.0 / 3.0), 1e-12);
  const ck::CheckResult echoed = checker.check(
      input("zebra stripes lion", {"A zebra with stripes. Grass grows. A zebra runs."}));
  EXPECT_NEAR(echoed.relation, 2.0 / 3.0 + 0.25 * (2.0 / 3.0 - 1.0 / 3.0), 1e-12);
  // The adjacent sentence does not count as far ("zebra" in 2 of 5 sentences is not the topic).
  const ck::CheckResult next = checker.check(
      input("zebra stripes lion",
            {"A zebra with stripes. A zebra runs. Rain falls. Snow melts. Wind blows."}));
  EXPECT_NEAR(next.relation, 2.0 / 3.0 + 0.25 * (2.0 / 3.0), 1e-12);
}

TEST(CheckerDefault, RelatedWordEarnsVariantCredit) {
  const auto table = relations("growth\tincreas\t\n");
  const ck::CheckResult with = make_checker(ck::Scoring::kDefault, nullptr, table)
                                   .check(input("zebra growth", {"Zebras increase."}));
  EXPECT_DOUBLE_EQ(with.doc_coverage, (6.0 + 0.75 * 6.0) / 12.0);
  EXPECT_EQ(with.missing_aspects.front(),
            "Query term 'growth' only matched by a related word in context");
  const ck::CheckResult without =
      make_checker(ck::Scoring::kDefault).check(input("zebra growth", {"Zebras increase."}));
  EXPECT_DOUBLE_EQ(without.doc_coverage, 6.0 / 12.0);
}

TEST(CheckerDefault, AntonymOfAnAbsentQueryTermContradicts) {
  const auto table = relations("increas\tgain\tdecreas\n");
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault, nullptr, table);
  const ck::CheckResult r = checker.check(input("Did exports increase?", {"Exports decreased."}));
  const double combined = (0.35 * 0.5 + 0.65 * (0.5 + 0.25 * 0.5)) * 0.5;
  EXPECT_NEAR(r.signals.coverage, combined * combined, 1e-12);
  EXPECT_EQ(r.missing_aspects.back() == "Retrieved context lacks detailed information"
                ? r.missing_aspects[r.missing_aspects.size() - 2]
                : r.missing_aspects.back(),
            "Best supporting sentence holds an antonym of query term 'increase'");
  // When the query names both, the antonym is a query term: no contradiction.
  const ck::CheckResult both =
      checker.check(input("Did exports increase or decrease?", {"Exports decreased."}));
  for (const std::string& aspect : both.missing_aspects) {
    EXPECT_EQ(aspect.find("antonym"), std::string::npos) << aspect;
  }
  // Without the table nothing is contradicted.
  const ck::CheckResult plain = make_checker(ck::Scoring::kDefault)
                                    .check(input("Did exports increase?", {"Exports decreased."}));
  EXPECT_NEAR(plain.signals.coverage, (combined * 2.0) * (combined * 2.0), 1e-12);
}

TEST(CheckerDefault, RecencyFromTimestampsAndRenormalisedWithout) {
  ck::CheckerConfig config;  // weights .6 .2 .1 .1 .1
  config.recency_days = 10.0;
  const ck::SufficiencyChecker checker(config, nullptr);
  ck::CheckInput in = input("zebra", {"zebra", "zebra", "zebra"});
  const double now = 1.0e9;
  const double stamps[] = {now, now - 5 * 86400.0, NAN};  // fresh, half-aged, none
  in.timestamps = stamps;
  in.now = now;
  const ck::CheckResult r = checker.check(in);
  EXPECT_DOUBLE_EQ(r.signals.recency, (1.0 + 0.5) / 2.0);
  const ck::CheckResult without = checker.check(input("zebra", {"zebra", "zebra", "zebra"}));
  EXPECT_TRUE(std::isnan(without.signals.recency));
  const auto& s = r.signals;
  const double mean =
      (0.6 * s.coverage + 0.2 * s.relevance + 0.1 * s.density + 0.1 * s.count + 0.1 * s.recency) /
      1.1;
  EXPECT_NEAR(r.score, mean * mean, 1e-12);
  const double old_stamp[] = {now - 100 * 86400.0, NAN, NAN};
  in.timestamps = old_stamp;
  EXPECT_DOUBLE_EQ(checker.check(in).signals.recency, 0.0);
  const double future[] = {now + 86400.0, NAN, NAN};
  in.timestamps = future;
  EXPECT_DOUBLE_EQ(checker.check(in).signals.recency, 1.0);
  in.recency_days = -1.0;
  EXPECT_THROW(checker.check(in), std::invalid_argument);
}

TEST(CheckerDefault, TemperatureOnlyWhenChunksCarryIt) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  ck::CheckInput in = input("zebra", {"zebra", "zebra"});
  const double base = checker.check(in).signals.density;
  const double temps[] = {25.0, NAN};
  in.temperatures = temps;
  EXPECT_DOUBLE_EQ(checker.check(in).signals.density, (base * 2.0 + 0.5) / 3.0);
}

TEST(CheckerDefault, EmbeddingRelevanceIsClipped) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  ck::CheckInput in = input("zebra", {"zebra", "horse"});
  const double query[] = {1.0, 0.0};
  const double rows[] = {-1.0, 0.0, -0.5, -0.5};
  in.query_embedding = query;
  in.chunk_embeddings = rows;
  in.dim = 2;
  const ck::CheckResult r = checker.check(in);
  EXPECT_EQ(r.signals.relevance, 0.0);
  EXPECT_EQ(r.relevance_source, ck::RelevanceSource::kEmbedding);
  const double close[] = {1.0, 0.1, 0.0, 1.0};
  in.chunk_embeddings = close;
  const ck::CheckResult c = checker.check(in);
  EXPECT_NEAR(c.signals.relevance, 1.0 / std::sqrt(1.01), 1e-6);
  EXPECT_EQ(c.confidence_factors.back(), "High semantic relevance (100%)");
}

TEST(CheckerDefault, ZeroOrOverflowingWeightsAreRejected) {
  ck::CheckerConfig config;
  config.weights = ck::Weights{};
  EXPECT_THROW(ck::SufficiencyChecker(config, nullptr), std::invalid_argument);
  config.weights =
      ck::Weights{0.0, 0.0, 0.0, 0.0, 1.0};  // recency alone drops out without timestamps
  EXPECT_THROW(ck::SufficiencyChecker(config, nullptr), std::invalid_argument);
  config.weights = ck::Weights{1e308, 1e308, 0.0, 0.0, 0.0};  // finite, but the sum is not
  EXPECT_THROW(ck::SufficiencyChecker(config, nullptr), std::invalid_argument);
  config.weights = ck::Weights{1e300, 1e300, 0.0, 0.0, 0.0};  // huge but summable: a finite score
  const ck::SufficiencyChecker checker(config, nullptr);
  const double score = checker.check(input("zebra", {"zebra"})).score;
  EXPECT_TRUE(std::isfinite(score));
  EXPECT_GE(score, 0.0);
  EXPECT_LE(score, 1.0);
}

TEST(CheckerDefault, UnicodeAndInvalidUtf8) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  const ck::CheckResult r =
      checker.check(input("Straße café 日本", {"Die STRASSE und das Café in 日本\xff\xfe."}));
  // ß folds to ß (not "ss"); é and CJK characters are words of their own.
  EXPECT_EQ(r.covered_terms, (Strings{"café", "日", "本"}));
  EXPECT_EQ(r.missing_terms, Strings{"straße"});
  const ck::CheckResult bad =
      checker.check(input("\xff pen\xc3 alty", {"pen\xff alty \xed\xa0\x80"}));
  EXPECT_EQ(bad.covered_terms, (Strings{"pen", "alty"}));  // as written in the query (folded)
  EXPECT_GE(bad.score, 0.0);
  EXPECT_LE(bad.score, 1.0);
}

TEST(CheckerDefault, TenMegabyteContexts) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  std::string sentences;
  while (sentences.size() < 10'000'000)
    sentences += "The striped zebra grazes on the savanna grass. ";
  const ck::CheckResult r = checker.check(input("Where does the zebra graze?", {sentences}));
  EXPECT_DOUBLE_EQ(r.signals.coverage, 1.0);
  EXPECT_DOUBLE_EQ(r.signals.density, 1.0);
  EXPECT_EQ(r.level, ck::Level::kSufficient);
  // One 10 MB sentence (no break at all): the n-gram vector of a huge sentence.
  std::string one;
  while (one.size() < 10'000'000) {
    one += "zebra stripes grass savanna lion giraffe elephant baobab acacia river dust heat ";
  }
  const ck::CheckResult big = checker.check(input("zebra stripes", {one}));
  EXPECT_DOUBLE_EQ(big.signals.coverage, 1.0);
  EXPECT_GT(big.signals.relevance, 0.0);
  EXPECT_LT(big.signals.relevance, 1.0);
  const ck::CheckResult ref =
      make_checker(ck::Scoring::kReference).check(input("zebra lion", {one}));
  EXPECT_DOUBLE_EQ(ref.signals.coverage, 1.0);
}

// ---- checker, batch, threads -------------------------------------------------------------------

TEST(CheckerBatch, EqualsSequentialAndKeepsOrder) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  std::vector<std::string> texts;
  for (int i = 0; i < 64; ++i) {
    texts.push_back("Chunk " + std::to_string(i) + " about zebra number " + std::to_string(i * 7) +
                    ".");
  }
  std::vector<std::string> queries;
  std::vector<ck::CheckInput> inputs;
  for (int i = 0; i < 64; ++i) queries.push_back("zebra number " + std::to_string(i * 7));
  // A long third chunk: batches under 16 KiB a thread stay on the calling thread (threads_for).
  std::string filler;
  while (filler.size() < 4096) filler += "Savanna grass grows tall after the rains. ";
  for (int i = 0; i < 64; ++i) {
    inputs.push_back(input(queries[i], {texts[i], texts[(i + 1) % 64], filler}));
  }
  for (const std::size_t threads : {1U, 2U, 4U, 0U}) {
    const std::vector<ck::CheckResult> batch = checker.check_batch(inputs, threads);
    ASSERT_EQ(batch.size(), inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const ck::CheckResult one = checker.check(inputs[i]);
      EXPECT_EQ(batch[i].score, one.score) << i;
      EXPECT_EQ(batch[i].missing_aspects, one.missing_aspects) << i;
      EXPECT_EQ(batch[i].covered_terms, one.covered_terms) << i;
    }
  }
  EXPECT_TRUE(checker.check_batch({}, 2).empty());
}

TEST(CheckerBatch, FirstFailingIndexIsRethrown) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  std::string filler;
  while (filler.size() < 4096) filler += "Savanna grass grows tall after the rains. ";
  std::vector<ck::CheckInput> inputs(50, input("zebra", {"zebra", filler}));
  inputs[7].min_contexts = 0;
  inputs[30].recency_days = -2.0;
  try {
    checker.check_batch(inputs, 2);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("min_contexts"), std::string::npos) << e.what();
  }
}

TEST(CheckerBatch, ConcurrentChecksAgree) {
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  const ck::CheckInput in =
      input("Where do zebras graze?", {"Zebras graze on savanna grass.", "Lions hunt."});
  const double expected = checker.check(in).score;
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) mismatches[t] += checker.check(in).score != expected;
    });
  }
  for (std::thread& t : threads) t.join();
  for (const int m : mismatches) EXPECT_EQ(m, 0);
}

TEST(CheckerConstruction, RejectsBadConfigAndInputs) {
  ck::CheckerConfig config;
  config.partial = 0.9;
  EXPECT_THROW(ck::SufficiencyChecker(config, nullptr), std::invalid_argument);
  const ck::SufficiencyChecker checker = make_checker(ck::Scoring::kDefault);
  ck::CheckInput in = input("q", {"a", "b"});
  in.summaries = {"only one"};
  EXPECT_THROW(checker.check(in), std::invalid_argument);
  ck::CheckInput half = input("q", {"a"});
  const double q[] = {1.0};
  half.query_embedding = q;
  half.dim = 1;
  EXPECT_THROW(checker.check(half), std::invalid_argument);
}

}  // namespace
