#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "text/interner.hpp"

namespace {

using sc::text::TermInterner;

TEST(TermInterner, Empty) {
  const TermInterner interner;
  EXPECT_EQ(interner.size(), 0U);
  EXPECT_TRUE(interner.empty());
  EXPECT_FALSE(interner.find("x").has_value());
  EXPECT_FALSE(interner.contains(""));
  EXPECT_THROW((void)interner.term(0), std::out_of_range);
}

TEST(TermInterner, DenseIdsInFirstSeenOrder) {
  TermInterner interner;
  EXPECT_EQ(interner.intern("cat"), 0U);
  EXPECT_EQ(interner.intern("dog"), 1U);
  EXPECT_EQ(interner.intern("cat"), 0U);
  EXPECT_EQ(interner.intern(""), 2U);
  EXPECT_EQ(interner.intern(std::string("a\0b", 3)), 3U);
  EXPECT_EQ(interner.intern(std::string("a\0c", 3)), 4U);
  EXPECT_EQ(interner.size(), 5U);
  EXPECT_EQ(interner.term(0), "cat");
  EXPECT_EQ(interner.term(1), "dog");
  EXPECT_EQ(interner.term(2), "");
  EXPECT_EQ(interner.term(3), std::string_view("a\0b", 3));
  EXPECT_EQ(interner.terms(),
            (std::vector<std::string_view>{"cat", "dog", "", std::string_view("a\0b", 3),
                                           std::string_view("a\0c", 3)}));
}

TEST(TermInterner, FindDoesNotInsert) {
  TermInterner interner;
  interner.intern("alpha");
  EXPECT_EQ(interner.find("alpha"), std::optional<std::uint32_t>(0));
  EXPECT_FALSE(interner.find("beta").has_value());
  EXPECT_EQ(interner.size(), 1U);
  EXPECT_THROW((void)interner.term(1), std::out_of_range);
  try {
    (void)interner.term(7);
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("id 7"), std::string::npos);
  }
}

TEST(TermInterner, FindHashedReadsTheTermOnlyWhenAHashMatches) {
  TermInterner interner;
  EXPECT_FALSE(interner.find_hashed(0, [] { return std::string_view("x"); }).has_value());
  std::vector<std::string> terms;
  for (int i = 0; i < 500; ++i) terms.push_back("term" + std::to_string(i));
  for (const std::string& t : terms) interner.intern(t);
  int reads = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const auto hash = static_cast<std::uint32_t>(sc::text::hash_term(terms[i]));
    const auto found = interner.find_hashed(hash, [&] {
      ++reads;
      return std::string_view(terms[i]);
    });
    ASSERT_EQ(found, std::optional<std::uint32_t>(static_cast<std::uint32_t>(i)));
  }
  EXPECT_EQ(reads, 500);  // one comparison per hit: slots of other hashes are passed unread
  reads = 0;
  for (int i = 500; i < 1500; ++i) {
    const std::string absent = "term" + std::to_string(i);
    const auto hash = static_cast<std::uint32_t>(sc::text::hash_term(absent));
    EXPECT_FALSE(interner
                     .find_hashed(hash,
                                  [&] {
                                    ++reads;
                                    return std::string_view(absent);
                                  })
                     .has_value());
  }
  EXPECT_LE(reads, 2);  // only a 32-bit hash collision reads the term
  // The same id as find(), and a hash that names another slot finds nothing.
  EXPECT_EQ(interner.find_hashed(static_cast<std::uint32_t>(sc::text::hash_term("term7")),
                                 [] { return std::string_view("term7"); }),
            interner.find("term7"));
  EXPECT_FALSE(interner
                   .find_hashed(static_cast<std::uint32_t>(sc::text::hash_term("term8")),
                                [] { return std::string_view("term7"); })
                   .has_value());
}

TEST(TermInterner, ViewsStayValidWhileGrowing) {
  TermInterner interner;
  interner.intern("first");
  const std::string_view first = interner.term(0);
  for (int i = 0; i < 200000; ++i) interner.intern("term" + std::to_string(i));
  EXPECT_EQ(first, "first");
  EXPECT_EQ(first.data(), interner.term(0).data());
  EXPECT_EQ(interner.size(), 200001U);
  for (int i = 0; i < 200000; i += 997) {
    const std::string t = "term" + std::to_string(i);
    ASSERT_EQ(interner.find(t), std::optional<std::uint32_t>(i + 1));
    ASSERT_EQ(interner.term(static_cast<std::uint32_t>(i + 1)), t);
  }
}

TEST(TermInterner, TermsLargerThanABlock) {
  TermInterner interner;
  const std::string big(100000, 'x');
  interner.intern("small");
  EXPECT_EQ(interner.intern(big), 1U);
  EXPECT_EQ(interner.intern("after"), 2U);
  EXPECT_EQ(interner.term(1), big);
  EXPECT_EQ(interner.term(0), "small");
  EXPECT_EQ(interner.term(2), "after");
  EXPECT_EQ(interner.find(big), std::optional<std::uint32_t>(1));
}

TEST(TermInterner, CopyReinternsWithSameIds) {
  auto original = std::make_unique<TermInterner>();
  for (const char* t : {"a", "b", "c"}) original->intern(t);
  TermInterner copy = *original;
  original.reset();
  EXPECT_EQ(copy.size(), 3U);
  EXPECT_EQ(copy.term(2), "c");
  EXPECT_EQ(copy.find("b"), std::optional<std::uint32_t>(1));
  EXPECT_EQ(copy.intern("d"), 3U);
  TermInterner assigned;
  assigned.intern("zzz");
  assigned = copy;
  EXPECT_EQ(assigned.size(), 4U);
  EXPECT_FALSE(assigned.contains("zzz"));
}

TEST(TermInterner, MoveKeepsViewsAndLeavesSourceUsable) {
  TermInterner source;
  source.intern("kept");
  const std::string_view view = source.term(0);
  TermInterner moved = std::move(source);
  EXPECT_EQ(view, "kept");
  EXPECT_EQ(moved.term(0).data(), view.data());
  // The moved-from interner is empty and owns nothing of `moved`'s arena.
  EXPECT_EQ(source.size(), 0U);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(source.intern("fresh"), 0U);
  EXPECT_EQ(moved.term(0), "kept");
  TermInterner target;
  target = std::move(moved);
  EXPECT_EQ(target.term(0), "kept");
  EXPECT_EQ(target.intern("kept"), 0U);
}

TEST(TermInterner, ClearAndReserve) {
  TermInterner interner;
  interner.reserve(1000);
  for (int i = 0; i < 1000; ++i) interner.intern(std::to_string(i));
  EXPECT_EQ(interner.size(), 1000U);
  interner.clear();
  EXPECT_TRUE(interner.empty());
  EXPECT_FALSE(interner.contains("1"));
  EXPECT_EQ(interner.intern("1"), 0U);
}

TEST(TermInterner, HashIsDeterministic) {
  EXPECT_EQ(sc::text::hash_term("hello world, long term"),
            sc::text::hash_term("hello world, long term"));
  EXPECT_NE(sc::text::hash_term("ab"), sc::text::hash_term("ba"));
  EXPECT_NE(sc::text::hash_term(""), sc::text::hash_term(std::string_view("\0", 1)));
}

}  // namespace

namespace {

// same_bytes() reads 8 (4) bytes at a time with overlapping last loads: it must see a difference
// at any position of any length, and tell lengths apart.
TEST(SameBytes, MatchesStringCompareAtEveryPosition) {
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string a(n, 'q');
    EXPECT_TRUE(sc::text::same_bytes(a, std::string(n, 'q'))) << n;
    EXPECT_FALSE(sc::text::same_bytes(a, std::string(n + 1, 'q'))) << n;
    for (std::size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = '\0';
      EXPECT_FALSE(sc::text::same_bytes(a, b)) << n << " " << at;
      EXPECT_FALSE(sc::text::same_bytes(b, a)) << n << " " << at;
    }
  }
}

// Ids and lookups survive every rehash, also for terms whose hashes share their low bits (the
// slot's stored hash is what re-places them) and for the empty term.
TEST(TermInterner, IdsSurviveRehashesWithStoredHashes) {
  TermInterner interner;
  std::vector<std::string> terms{"", "\xff", "caf\u00e9", std::string("\0", 1)};
  for (int i = 0; i < 5000; ++i) terms.push_back("t" + std::to_string(i * 7919));
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ASSERT_EQ(interner.intern(terms[i]), i);
    ASSERT_EQ(interner.find(terms[0]), std::optional<std::uint32_t>(0));
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ASSERT_EQ(interner.find(terms[i]), std::optional<std::uint32_t>(i));
    ASSERT_EQ(interner.intern(terms[i]), i);
  }
  EXPECT_FALSE(interner.find("absent").has_value());
  const std::size_t bytes = interner.memory_bytes();
  interner.reserve(100000);  // grows the table with every term in place
  EXPECT_GT(interner.memory_bytes(), bytes);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    ASSERT_EQ(interner.find(terms[i]), std::optional<std::uint32_t>(i));
  }
  const TermInterner copy(interner);
  EXPECT_EQ(copy.terms(), interner.terms());
  EXPECT_EQ(copy.find("caf\u00e9"), std::optional<std::uint32_t>(2));
}

}  // namespace
