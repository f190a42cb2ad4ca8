#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "text/stopwords.hpp"

namespace {

using sc::text::StopWords;

TEST(StopWords, EnglishList) {
  const StopWords& english = StopWords::english();
  EXPECT_EQ(english.size(), 179U);
  EXPECT_EQ(&english, &StopWords::english());  // one instance
  for (const char* w : {"the", "a", "and", "is", "don't", "don", "t", "isn't", "ll", "ve",
                        "themselves", "wouldn't", "should've", "i"}) {
    EXPECT_TRUE(english.contains(w)) << w;
  }
  for (const char* w : {"", "arthur", "thee", "them ", "dont", "cat", "420", "x"}) {
    EXPECT_FALSE(english.contains(w)) << w;
  }
}

TEST(StopWords, CaseFoldedLookup) {
  const StopWords& english = StopWords::english();
  EXPECT_TRUE(english.contains("The"));
  EXPECT_TRUE(english.contains("THE"));
  EXPECT_TRUE(english.contains("DON'T"));
  EXPECT_TRUE(english.contains("Don\u2019t"));  // typographic apostrophe folds to '\''
  EXPECT_TRUE(english.contains_folded("the"));
  EXPECT_FALSE(english.contains_folded("The"));  // the caller promised folded input
}

TEST(StopWords, WordsSortedAndFolded) {
  const std::vector<std::string_view> words = StopWords::english().words();
  ASSERT_EQ(words.size(), 179U);
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  EXPECT_TRUE(std::adjacent_find(words.begin(), words.end()) == words.end());
  EXPECT_EQ(words.front(), "a");
}

TEST(StopWords, CustomListFoldsAndDeduplicates) {
  const StopWords custom{"Foo", "BAR", "foo", "", "Straße", "ÉTÉ"};
  EXPECT_EQ(custom.size(), 4U);
  EXPECT_TRUE(custom.contains("foo"));
  EXPECT_TRUE(custom.contains("bar"));
  EXPECT_TRUE(custom.contains("STRAẞE"));
  EXPECT_FALSE(custom.contains("strasse"));  // ß is not folded to "ss"
  EXPECT_TRUE(custom.contains("été"));
  EXPECT_FALSE(custom.contains("the"));
  EXPECT_FALSE(custom.contains(""));
  const std::vector<std::string> list = {"Alpha", "beta"};
  const StopWords from_vector(list);
  EXPECT_TRUE(from_vector.contains("ALPHA"));
  EXPECT_EQ(from_vector.words(), (std::vector<std::string_view>{"alpha", "beta"}));
}

TEST(StopWords, EmptySetRemovesNothing) {
  const StopWords none;
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.contains("the"));
  EXPECT_FALSE(none.contains(""));
}

TEST(StopWords, InvalidAndLongInput) {
  const StopWords& english = StopWords::english();
  EXPECT_FALSE(english.contains("th\xff"));
  EXPECT_FALSE(english.contains("\xC3"));
  EXPECT_FALSE(english.contains(std::string(1 << 20, 'A')));
  // A list with a word longer than the stack buffer takes the allocating path.
  const std::string long_word(300, 'q');
  const StopWords custom{std::string_view(long_word)};
  EXPECT_TRUE(custom.contains(std::string(300, 'Q')));
  EXPECT_FALSE(custom.contains(std::string(299, 'Q')));
  const StopWords replacement{"a\xff"};  // stored folded: "a" U+FFFD
  EXPECT_TRUE(replacement.contains("A\xfe"));
  EXPECT_TRUE(replacement.contains("a\uFFFD"));
}

TEST(StopWords, CopiesAreIndependent) {
  std::vector<std::string> words = {"one", "two"};
  auto original = std::make_unique<StopWords>(words);
  const StopWords copy = *original;
  original.reset();
  EXPECT_TRUE(copy.contains("ONE"));
  EXPECT_TRUE(copy.contains("two"));
  EXPECT_EQ(copy.size(), 2U);
}

// contains_folded answers words longer than every stop word without a lookup; the longest stop
// words themselves are still found, and an empty set or an empty word finds nothing.
TEST(StopWords, ContainsFoldedAroundTheLongestWord) {
  const StopWords& english = StopWords::english();
  EXPECT_TRUE(english.contains_folded("yourselves"));  // the longest English stop words (10 bytes)
  EXPECT_TRUE(english.contains_folded("themselves"));
  EXPECT_FALSE(english.contains_folded("yourselvess"));
  EXPECT_FALSE(english.contains_folded("internationalization"));
  EXPECT_FALSE(english.contains_folded(""));
  EXPECT_TRUE(english.contains_folded("a"));
  const StopWords none;
  EXPECT_FALSE(none.contains_folded(""));
  EXPECT_FALSE(none.contains_folded("a"));
  const StopWords unicode{"\u00e9t\u00e9"};  // 5 bytes, 3 code points
  EXPECT_TRUE(unicode.contains_folded("\u00e9t\u00e9"));
  EXPECT_FALSE(unicode.contains_folded("\u00e9t\u00e9s"));
}

// The bit filter in front of the set never changes an answer: every string of one to three
// lowercase letters (and a few others) is found exactly when the word list holds it.
TEST(StopWords, ContainsFoldedEqualsTheWordList) {
  const StopWords& english = StopWords::english();
  const std::vector<std::string_view> listed = english.words();
  const std::set<std::string_view> set(listed.begin(), listed.end());
  std::vector<std::string> probes{"don't",  "shouldn't", "yourselves", "themselves",         "\xff",
                                  "\u00e9", "a\xff",     "it\u2019s",  std::string("a\0", 2)};
  for (const std::string_view word : listed) probes.emplace_back(word);
  for (char a = 'a'; a <= 'z'; ++a) {
    probes.emplace_back(1, a);
    for (char b = 'a'; b <= 'z'; ++b) {
      probes.push_back(std::string{a, b});
      for (char c = 'a'; c <= 'z'; ++c) probes.push_back(std::string{a, b, c});
    }
  }
  std::size_t found = 0;
  for (const std::string& probe : probes) {
    const bool expected = set.count(probe) > 0;
    ASSERT_EQ(english.contains_folded(probe), expected) << probe;
    found += expected ? 1 : 0;
  }
  EXPECT_GE(found, listed.size());
}

}  // namespace
