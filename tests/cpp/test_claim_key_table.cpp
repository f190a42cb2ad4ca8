#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "claims/key_table.hpp"

namespace {

using sc::claims::KeyTable;

// Cleared and refilled many times (as once per check), the table must map exactly like a fresh
// one: clear() empties only the slots it used, keeping the capacity.
TEST(KeyTable, ClearAndRefillMatchesAFreshMap) {
  KeyTable table;
  const std::string outside = "kept as a view";
  for (int round = 0; round < 50; ++round) {
    table.clear();
    EXPECT_TRUE(table.empty());
    EXPECT_FALSE(table.find("w0").has_value());
    std::unordered_map<std::string, std::uint32_t> expected;
    const int count = (round * 37) % 700 + (round == 7 ? 20000 : 0);
    for (int i = 0; i < count; ++i) {
      const std::string word = "w" + std::to_string((i * 7919 + round) % (count / 2 + 1)) +
                               std::string(static_cast<std::size_t>(i % 9), 'x');
      const auto [it, added] = expected.emplace(word, static_cast<std::uint32_t>(expected.size()));
      EXPECT_EQ(table.intern(word), it->second);
      (void)added;
    }
    const std::uint32_t view_id = table.intern_view(outside);
    EXPECT_EQ(table.term(view_id).data(), outside.data());
    EXPECT_EQ(table.size(), expected.size() + 1);
    for (const auto& [word, id] : expected) {
      ASSERT_TRUE(table.find(word).has_value());
      EXPECT_EQ(*table.find(word), id);
      EXPECT_EQ(table.term(id), word);
    }
    EXPECT_FALSE(table.find("absent").has_value());
  }
  const std::string huge(10000, 'h');
  const std::uint32_t id = table.intern(huge);
  EXPECT_EQ(table.term(id), huge);
  EXPECT_EQ(table.intern(huge), id);
  table.clear();
  EXPECT_FALSE(table.find(huge).has_value());
}

}  // namespace
