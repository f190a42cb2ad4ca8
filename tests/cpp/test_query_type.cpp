#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "claims/query_type.hpp"

namespace {

using sc::claims::EvidenceCheck;
using sc::claims::QueryTypeRules;
using sc::claims::QueryTypeSpec;

const QueryTypeRules& defaults() {
  static const QueryTypeRules rules(QueryTypeRules::default_types());
  return rules;
}

TEST(QueryType, ClassifyPicksTheMostSpecificType) {
  const QueryTypeRules& r = defaults();
  EXPECT_EQ(r.classify("What is the punishment for cheating?"), "punishment");
  EXPECT_EQ(r.classify("What is the PENALTY for theft"), "punishment");
  EXPECT_EQ(r.classify("Is bribery punishable?"), "punishment");  // stems: punishable -> punish
  EXPECT_EQ(r.classify("What is cheating?"), "definition");
  EXPECT_EQ(r.classify("What does mens rea mean?"), "definition");
  EXPECT_EQ(r.classify("Define theft."), "definition");
  EXPECT_EQ(r.classify("How to file an FIR?"), "procedure");
  EXPECT_EQ(r.classify("What are the steps to register a company?"), "procedure");
  EXPECT_EQ(r.classify("What is the extent of the Act?"), "scope");
  EXPECT_EQ(r.classify("Does the Act apply to Jammu?"), "scope");
  EXPECT_EQ(r.classify("Who founded the Oberoi Group?"), "general");
  EXPECT_EQ(r.classify(""), "general");
  EXPECT_EQ(r.classify("\xFF\xFE"), "general");
}

TEST(QueryType, PunishmentNeedsPenaltyLanguageInARelevantChunk) {
  const std::vector<std::string_view> chunks = {
      "Cheating means deceiving a person dishonestly.",
      "Whoever cheats shall be punished with imprisonment for seven years.",
      "Theft is punished with a fine.",
  };
  const EvidenceCheck e = defaults().evidence("What is the punishment for cheating?", chunks);
  EXPECT_EQ(e.query_type, "punishment");
  EXPECT_TRUE(e.is_sufficient);
  EXPECT_EQ(e.key_terms, std::vector<std::string>{"cheating"});
  EXPECT_EQ(e.relevant, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(e.supporting, std::vector<std::size_t>{1});
  EXPECT_EQ(e.reason, "punishment query: a relevant chunk has punishment language ('cheating')");

  const EvidenceCheck none =
      defaults().evidence("What is the punishment for cheating?", {chunks[0], chunks[2]});
  EXPECT_FALSE(none.is_sufficient);
  EXPECT_TRUE(none.supporting.empty());
  EXPECT_EQ(none.relevant, std::vector<std::size_t>{0});
  EXPECT_EQ(none.reason, "punishment query: no relevant chunk has punishment language");
}

TEST(QueryType, DefinitionScopeProcedureAndGeneral) {
  const std::vector<std::string_view> chunks = {
      "Cheating means deceiving a person dishonestly.",
      "This Act extends to the whole of India.",
      "To file an FIR, first submit a written complaint at the police station.",
      "The Oberoi Group was founded in 1934 by Mohan Singh Oberoi.",
  };
  const EvidenceCheck def = defaults().evidence("What is cheating?", chunks);
  EXPECT_EQ(def.query_type, "definition");
  EXPECT_EQ(def.supporting, std::vector<std::size_t>{0});
  const EvidenceCheck scope = defaults().evidence("What is the extent of this Act?", chunks);
  EXPECT_EQ(scope.query_type, "scope");
  EXPECT_EQ(scope.key_terms, std::vector<std::string>{"Act"});
  EXPECT_EQ(scope.supporting, std::vector<std::size_t>{1});
  const EvidenceCheck proc = defaults().evidence("How to file an FIR?", chunks);
  EXPECT_EQ(proc.query_type, "procedure");
  EXPECT_EQ(proc.key_terms, (std::vector<std::string>{"file", "FIR"}));
  EXPECT_EQ(proc.supporting, std::vector<std::size_t>{2});
  // General: a chunk with any key term (founded, Oberoi, Group: all 3 here).
  const EvidenceCheck gen = defaults().evidence("Who founded the Oberoi Group?", chunks);
  EXPECT_EQ(gen.query_type, "general");
  EXPECT_TRUE(gen.is_sufficient);
  EXPECT_EQ(gen.key_terms, (std::vector<std::string>{"founded", "Oberoi", "Group"}));
  EXPECT_EQ(gen.supporting, std::vector<std::size_t>{3});
  const EvidenceCheck one = defaults().evidence("Who founded Tata Motors?", chunks);
  EXPECT_TRUE(one.is_sufficient);  // 1 of 3 key terms ("founded") is enough for a general query
  EXPECT_EQ(one.supporting, std::vector<std::size_t>{3});
  const EvidenceCheck miss = defaults().evidence("Who owns Tata Motors?", chunks);
  EXPECT_FALSE(miss.is_sufficient);
  EXPECT_EQ(miss.reason,
            "general query: no chunk holds a key term of the query ('owns', 'Tata', 'Motors')");
  // A statute's own section text defines its offence.
  const EvidenceCheck section = defaults().evidence(
      "What is Section 420 IPC?",
      {"Section 420: whoever cheats and thereby dishonestly induces the person deceived to deliver "
       "any property shall be punished with imprisonment."});
  EXPECT_EQ(section.query_type, "definition");
  EXPECT_TRUE(section.is_sufficient);
  const EvidenceCheck empty = defaults().evidence("What is cheating?", {});
  EXPECT_FALSE(empty.is_sufficient);
  EXPECT_EQ(empty.reason, "no chunks retrieved");
}

TEST(QueryType, RulesAreDataUsersExtend) {
  std::vector<QueryTypeSpec> types = QueryTypeRules::default_types();
  types.insert(types.begin(), {"eligibility", {"eligible", "who can"}, {"eligible", "must be"}});
  const QueryTypeRules rules(types, 1.0);
  EXPECT_EQ(rules.classify("Who is eligible for bail?"), "eligibility");  // not "definition"
  EXPECT_EQ(rules.types().size(), 5u);
  EXPECT_EQ(rules.min_term_fraction(), 1.0);
  const EvidenceCheck e = rules.evidence("Who is eligible for bail?",
                                         {"Bail is granted to an eligible accused.", "bail"});
  EXPECT_EQ(e.supporting, std::vector<std::size_t>{0});
  EXPECT_EQ(e.relevant, (std::vector<std::size_t>{0, 1}));

  EXPECT_THROW(QueryTypeRules({{"general", {"x"}, {"y"}}}), std::invalid_argument);
  EXPECT_THROW(QueryTypeRules({{"", {"x"}, {"y"}}}), std::invalid_argument);
  EXPECT_THROW(QueryTypeRules({{"a", {}, {}}, {"a", {}, {}}}), std::invalid_argument);
  EXPECT_THROW(QueryTypeRules({}, 0.0), std::invalid_argument);
  EXPECT_THROW(QueryTypeRules({}, 1.5), std::invalid_argument);
  EXPECT_EQ(QueryTypeRules({}).classify("What is the punishment?"), "general");
}

}  // namespace
