/// @brief GoogleTest suite for the compiled-in English tables (src/checker/english_tables.hpp)
/// and seed vocabularies (src/tools/seed_builder.hpp): a seed analyses words exactly as a
/// vocabulary without it, term ids stay dense and unique across the seed and a thread's memo, and
/// the English term statistics and relations equal what from_tsv makes of the packaged TSVs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "checker/english_tables.hpp"
#include "checker/term_statistics.hpp"
#include "checker/vocabulary.hpp"
#include "checker/word_relations.hpp"
#include "text/tokenizer.hpp"
#include "tools/seed_builder.hpp"

namespace {

namespace ck = sc::checker;

std::vector<sc::text::Token> tokens_of(std::string_view text) {
  std::vector<sc::text::Token> out;
  sc::text::for_each_token(text, [&](const sc::text::Token& t) { out.push_back(t); });
  return out;
}

std::string read_data(const char* name) {
  std::ifstream in(std::string(SC_DATA_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// What a lookup means, independent of ids: the strings behind them.
struct Meaning {
  sc::text::TokenKind kind;
  bool negation;
  std::string folded;
  std::string term;      // "<none>" for a stop word
  std::uint32_t prefix;  // prefix_hash of its first five code points; kNoTerm below five
  std::uint32_t term_length;
  bool operator==(const Meaning& o) const {
    return kind == o.kind && negation == o.negation && folded == o.folded && term == o.term &&
           prefix == o.prefix && term_length == o.term_length;
  }
};

Meaning meaning(ck::Vocabulary& v, const sc::text::Token& token) {
  const ck::WordInfo info = v.lookup(token);
  return {info.kind,
          info.negation,
          std::string(info.folded),
          info.term == ck::kNoTerm ? "<none>" : std::string(v.term(info.term)),
          info.prefix,
          info.term_length};
}

std::string_view seed_spelling(const ck::SeedVocabulary& seed, std::uint32_t i) {
  const ck::SeedWord& w = seed.words[i];
  return {seed.bytes + w.spelling, w.spelling_length};
}

// A seed as the generator builds one, from a few common spellings and some awkward ones (and some
// the builder must refuse: more than one token, too long).
const ck::SeedVocabulary& test_seed() {
  static const ck::SeedBuilder::Seed seed = [] {
    ck::SeedBuilder builder;
    for (const char* word :
         {"The",         "the",    "to",        "people",    "were",       "walking",
          "walk",        "houses", "in",        "1066",      "and",        "they",
          "won't",       "stop",   "committee", "approved",  "budget",     "Tuesday",
          "critics",     "said",   "plan",      "would",     "cost",       "jobs",
          "Normandy",    "France", "region",    "Don't",     "don\u2019t", "na\u00efve",
          "Stra\u00dfe", "10,000", "IPC_420",   "caf\u00e9", "never",      "not",
          "two words",   "",       "x-ray",     "walking"}) {
      builder.add(word);
    }
    builder.add(std::string(65, 'a'));
    return builder.build();
  }();
  static const ck::SeedVocabulary view = seed.view();
  return view;
}

void expect_seed_analysed_as_without(const ck::SeedVocabulary& seed) {
  ck::Vocabulary seeded(seed);
  ck::Vocabulary plain(ck::kNoSeed);
  for (std::uint32_t i = 0; i < seed.word_count; ++i) {
    const std::string_view spelling = seed_spelling(seed, i);
    const std::vector<sc::text::Token> tokens = tokens_of(spelling);
    ASSERT_EQ(tokens.size(), 1u) << spelling;
    ASSERT_EQ(tokens[0].text, spelling);
    ASSERT_EQ(meaning(seeded, tokens[0]), meaning(plain, tokens[0])) << spelling;
    ASSERT_EQ(seeded.lookup(tokens[0]).id, i);
  }
  EXPECT_EQ(seeded.analysed(), 0u);  // every one was a seed hit: none was analysed again
  EXPECT_EQ(seeded.size(), seed.word_count);
  EXPECT_EQ(plain.term_count(), seed.terms.count);  // the seed's terms are exactly theirs
}

TEST(SeedVocabulary, EverySeedWordIsAnalysedAsWithoutTheSeed) {
  ASSERT_EQ(test_seed().word_count,
            36u);  // the 41 words less a repeat, 4 not one token or too long
  expect_seed_analysed_as_without(test_seed());
  // The compiled-in seed (empty unless built with SC_ENGLISH_SEED=ON).
  expect_seed_analysed_as_without(ck::english_seed_vocabulary());
}

TEST(SeedVocabulary, CoversCommonTextAndMissesTheRest) {
  ck::Vocabulary v(test_seed());
  for (const auto& token :
       tokens_of("The people were walking to the houses in 1066, and they won't stop.")) {
    v.lookup(token);
  }
  EXPECT_EQ(v.analysed(), 0u);
  const std::size_t common = v.size();
  for (const auto& token : tokens_of("Zorblaxian XYZ_999 3.14159 caf\u00e9s RUNNING")) {
    v.lookup(token);
  }
  EXPECT_EQ(v.analysed(), 5u);
  EXPECT_EQ(v.size(), common + 5u);
}

TEST(SeedVocabulary, MixedTextMeansTheSameWithAndWithoutTheSeed) {
  const std::string text =
      "The Normans (Norman: Nourmands; French: Normands) gave their name to Normandy, a region in "
      "France. RUNNING runs Running ran; 10,000 x_1 IPC_420 don\u2019t Don't CAF\u00c9S na\u00efve "
      "\xff\xfe invalid \xe2\x80 bytes, \u00df\u00e6 Stra\u00dfe ZORBLAXES zorblax unhappiness";
  ck::Vocabulary seeded(test_seed());
  ck::Vocabulary plain(ck::kNoSeed);
  for (int pass = 0; pass < 2; ++pass) {  // the second pass reads both memos
    for (const auto& token : tokens_of(text)) {
      EXPECT_EQ(meaning(seeded, token), meaning(plain, token)) << token.text;
    }
  }
}

TEST(SeedVocabulary, OneTermHasOneIdAcrossTheSeedAndTheMemo) {
  ck::Vocabulary v(test_seed());
  const ck::SeedVocabulary& seed = v.seed();
  const auto id_of = [&](std::string_view word) { return v.lookup(tokens_of(word)[0]).term; };
  const std::uint32_t seeded = id_of("walking");
  EXPECT_LT(seeded, seed.terms.count);
  EXPECT_EQ(v.analysed(), 0u);
  EXPECT_EQ(id_of("WALKING"), seeded);  // not a seed spelling, but its term is
  EXPECT_EQ(v.analysed(), 1u);
  const std::uint32_t fresh = id_of("zorblaxes");
  EXPECT_EQ(fresh, seed.terms.count);  // the memo's first term: ids stay dense
  EXPECT_EQ(id_of("ZORBLAXES"), fresh);
  EXPECT_EQ(v.term(fresh), "zorblax");
  EXPECT_EQ(v.find_term("zorblax"), fresh);
  EXPECT_EQ(v.find_term("walk"), seeded);
  EXPECT_EQ(v.find_term("never-seen"), ck::kNoTerm);
  EXPECT_EQ(v.intern_term("walk"), seeded);
  EXPECT_EQ(v.intern_term("zorblax"), fresh);
  EXPECT_EQ(v.term_count(), seed.terms.count + 1u);
  const ck::WordInfo info = v.lookup(tokens_of("zorblaxes")[0]);
  EXPECT_EQ(info.prefix, ck::prefix_hash("zorbl"));
  // Forgetting the memo keeps the seed; the memo's ids start over.
  v.clear();
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.analysed(), 0u);
  EXPECT_EQ(id_of("walking"), seeded);
  EXPECT_EQ(v.term_count(), seed.terms.count);
  EXPECT_EQ(id_of("quuxes"), seed.terms.count);
}

// Named for the sanitizer filter (*Batch*): many threads read the one seed at once.
TEST(SeedVocabularyBatch, ThreadsShareTheSeedReadOnly) {
  const std::string text =
      "The committee approved the new budget on Tuesday, but critics said the Zorblax plan "
      "would cost 4,500 jobs in Normandy and elsewhere.";
  ck::Vocabulary reference(ck::kNoSeed);
  std::vector<Meaning> expected;
  for (const auto& token : tokens_of(text)) expected.push_back(meaning(reference, token));
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < ok.size(); ++t) {
    threads.emplace_back([&, t]() {
      ck::Vocabulary v(test_seed());
      bool all = true;
      for (int round = 0; round < 50; ++round) {
        std::size_t i = 0;
        for (const auto& token : tokens_of(text)) all = all && meaning(v, token) == expected[i++];
      }
      ok[t] = all ? 1 : 0;
    });
  }
  for (auto& thread : threads) thread.join();
  for (const int o : ok) EXPECT_EQ(o, 1);
}

TEST(EnglishTables, TermStatisticsEqualTheParsedTsv) {
  const ck::TermStatistics parsed = ck::TermStatistics::from_tsv(read_data("english_freq.tsv"));
  const ck::TermStatistics& english = *ck::TermStatistics::english();
  EXPECT_EQ(&english, ck::TermStatistics::english().get());  // one table per process
  ASSERT_GT(parsed.size(), 0u);
  EXPECT_EQ(english.size(), parsed.size());
  const auto items = parsed.items();
  const auto compiled = english.items();
  ASSERT_EQ(compiled.size(), items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    ASSERT_EQ(compiled[i].first, items[i].first);
    ASSERT_EQ(std::memcmp(&compiled[i].second, &items[i].second, sizeof(double)), 0);  // bit-exact
    const auto found = english.zipf(items[i].first);  // through the slot's zipf code
    ASSERT_TRUE(found.has_value()) << items[i].first;
    ASSERT_EQ(std::memcmp(&*found, &items[i].second, sizeof(double)), 0) << items[i].first;
  }
  EXPECT_FALSE(english.zipf("zorblax").has_value());
  EXPECT_FALSE(english.zipf("").has_value());
}

TEST(StaticStrings, AHeadIsTheFirstEightBytesZeroPadded) {
  // With the length it is the whole string up to 8 bytes: the slots compare nothing else.
  std::uint64_t state = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::string s;
    const std::size_t n = static_cast<std::size_t>(round % 12);
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      s.push_back(static_cast<char>(state >> 56));
    }
    std::uint64_t expected = 0;
    std::memcpy(&expected, s.data(), std::min<std::size_t>(n, 8));
    ASSERT_EQ(ck::string_head(s), expected) << n;
  }
}

TEST(StaticStrings, FindsStringsOfEveryLengthByTheirSlotsAlone) {
  // Heads of up to 8 bytes decide a hit alone: strings that differ only in length, in a NUL byte,
  // past byte 8 or in their last byte must stay apart.
  std::vector<std::string> strings{"",  std::string(1, '\0'),  std::string(2, '\0'),
                                   "a", std::string("a\0", 2), std::string("\0a", 2)};
  for (std::size_t n = 1; n <= 20; ++n) {
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s.push_back(static_cast<char>('a' + (i * 7 + n) % 26));
    strings.push_back(s);
    s.back() = 'Z';
    strings.push_back(s);
    strings.push_back(s + "\xc3\xa9");
  }
  strings.push_back(std::string(300, 'x'));
  strings.push_back(std::string(299, 'x') + "y");
  strings.push_back(std::string(255, 'x'));
  std::vector<std::uint8_t> payloads;
  for (std::size_t i = 0; i < strings.size(); ++i)
    payloads.push_back(static_cast<std::uint8_t>(i * 37));
  const ck::OwnedStrings owned(strings, payloads);
  const ck::StaticStrings table = owned.view();
  for (std::uint32_t id = 0; id < strings.size(); ++id) {
    const auto found = table.find(strings[id]);
    ASSERT_TRUE(found.has_value()) << id;
    EXPECT_EQ(*found, id);
    EXPECT_EQ(table.at(id), strings[id]);
    EXPECT_EQ(static_cast<std::uint8_t>(table.find_meta(strings[id]) >> 56), payloads[id]);
  }
  for (const std::string& absent :
       {std::string(3, '\0'), std::string("a\0\0", 3), std::string("#"), std::string(301, 'x'),
        std::string(254, 'x'), std::string(299, 'x') + "z", std::string("abcdefgh") + "!"}) {
    EXPECT_FALSE(table.find(absent).has_value()) << absent.size();
  }
  const ck::OwnedStrings none({});
  EXPECT_FALSE(none.view().find("a").has_value());
}

TEST(StaticStrings, ZipfCodesPastTheDistinctValuesFallBackToTheZipfById) {
  // Three stems with codes and one read by id (kZipfById): each gives back its own double.
  const std::vector<std::string> stems{"alpha", "beta", "gammaray", "deltawavelength"};
  const std::vector<double> by_id{1.5, 2.25, 1.5, 0.1 + 0.2};
  const std::vector<double> values{1.5, 2.25};
  const ck::OwnedStrings owned(stems, {0, 1, 0, ck::EnglishFrequencies::kZipfById});
  const ck::EnglishFrequencies table{owned.view(), by_id.data(), values.data()};
  for (std::size_t i = 0; i < stems.size(); ++i) {
    const auto zipf = table.find_zipf(stems[i]);
    ASSERT_TRUE(zipf.has_value()) << stems[i];
    EXPECT_EQ(std::memcmp(&*zipf, &by_id[i], sizeof(double)), 0) << stems[i];
  }
  EXPECT_FALSE(table.find_zipf("alph").has_value());
  EXPECT_FALSE(table.find_zipf("deltawavelengthz").has_value());
}

TEST(EnglishTables, WordRelationsEqualTheParsedTsv) {
  const ck::WordRelations parsed = ck::WordRelations::from_tsv(read_data("english_relations.tsv"));
  const ck::WordRelations& english = *ck::WordRelations::english();
  ASSERT_GT(parsed.size(), 0u);
  EXPECT_EQ(english.size(), parsed.size());
  EXPECT_EQ(english.word_count(), parsed.word_count());
  const auto words = [](const ck::WordRelations& r, ck::WordRelations::Links links) {
    std::vector<std::string_view> out;
    for (std::size_t k = 0; k < links.size(); ++k) {
      const std::string_view word = r.word(links.id(k));
      // Each link carries its word's hash, which lookups use instead of reading the word.
      EXPECT_EQ(links.hash(k), static_cast<std::uint32_t>(sc::text::hash_term(word))) << word;
      out.push_back(word);
    }
    return out;
  };
  for (std::uint32_t k = 0; k < parsed.size(); ++k) {
    const std::string_view key = parsed.key(k);
    ASSERT_EQ(english.key(k), key);
    ASSERT_EQ(words(english, english.related(key)), words(parsed, parsed.related(key))) << key;
    ASSERT_EQ(words(english, english.antonyms(key)), words(parsed, parsed.antonyms(key))) << key;
  }
  EXPECT_TRUE(english.related("zorblax").empty());
  EXPECT_TRUE(english.antonyms("").empty());
}

}  // namespace
