/// @brief GoogleTest suite for WordRelations (src/checker/word_relations.hpp): parsing and lookup.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "checker/word_relations.hpp"

namespace {

namespace ck = sc::checker;

std::vector<std::string> words(const ck::WordRelations& r, ck::WordRelations::Links links) {
  std::vector<std::string> out;
  for (const std::uint32_t id : links) out.emplace_back(r.word(id));
  return out;
}

TEST(WordRelations, ParsesListsSkippingCommentsAndBlankLines) {
  const ck::WordRelations r = ck::WordRelations::from_tsv(
      "# header\n\nincreas\tgain growth\tdecreas\r\nexpans\texpand\t\nfast\t\tslow\n");
  EXPECT_EQ(r.size(), 3u);
  EXPECT_EQ(words(r, r.related("increas")), (std::vector<std::string>{"gain", "growth"}));
  EXPECT_EQ(words(r, r.antonyms("increas")), (std::vector<std::string>{"decreas"}));
  EXPECT_EQ(words(r, r.related("expans")), (std::vector<std::string>{"expand"}));
  EXPECT_TRUE(r.antonyms("expans").empty());
  EXPECT_TRUE(r.related("fast").empty());
  EXPECT_EQ(words(r, r.antonyms("fast")), (std::vector<std::string>{"slow"}));
  EXPECT_TRUE(r.related("unknown").empty());
  EXPECT_TRUE(r.related("").empty());
}

TEST(WordRelations, RepeatedStemAddsToItsLists) {
  const ck::WordRelations r = ck::WordRelations::from_tsv("a\tb\t\na\tc\td\n");
  EXPECT_EQ(r.size(), 1u);
  EXPECT_EQ(words(r, r.related("a")), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(words(r, r.antonyms("a")), (std::vector<std::string>{"d"}));
}

TEST(WordRelations, MalformedLineNamesTheLine) {
  for (const char* bad :
       {"ok\tx\t\nbad\tonly-two\n", "ok\tx\t\n\tempty-stem\t\n", "a\tb\tc\td\n"}) {
    try {
      (void)ck::WordRelations::from_tsv(bad);
      FAIL() << "no exception for " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("word relations line"), std::string::npos) << e.what();
    }
  }
}

TEST(WordRelations, EmptyTableHasNoRelations) {
  const ck::WordRelations r;
  EXPECT_EQ(r.size(), 0u);
  EXPECT_TRUE(r.related("increas").empty());
  EXPECT_TRUE(r.antonyms("increas").empty());
}

}  // namespace
