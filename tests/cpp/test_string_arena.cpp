/// @brief GoogleTest suite for text::StringArena (src/text/string_arena.hpp).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/string_arena.hpp"

namespace {

using sc::text::StringArena;

// copy_bytes() moves up to 16 bytes by two fixed-size (overlapping) moves: every length copies
// exactly its bytes and writes nothing around them.
TEST(CopyBytes, CopiesExactlyTheBytesAtEveryLength) {
  std::string source;
  for (int i = 0; i < 40; ++i) source.push_back(static_cast<char>('A' + i));
  for (std::size_t n = 0; n <= source.size(); ++n) {
    std::string target(source.size() + 2, '#');
    sc::text::copy_bytes(target.data() + 1, source.data(), n);
    EXPECT_EQ(target.substr(1, n), source.substr(0, n)) << n;
    EXPECT_EQ(target[0], '#') << n;
    EXPECT_EQ(target.substr(n + 1), std::string(target.size() - n - 1, '#')) << n;
  }
}

TEST(StringArena, EmptyArenaHoldsNothing) {
  const StringArena arena;
  EXPECT_EQ(arena.memory_bytes(), 0U);
}

TEST(StringArena, EmptyStringTakesNoSpace) {
  StringArena arena;
  EXPECT_EQ(arena.store(""), "");
  EXPECT_EQ(arena.memory_bytes(), 0U);
}

TEST(StringArena, CopiesBytesAsGiven) {
  StringArena arena;
  std::string source("a\0b", 3);
  const std::string_view nul = arena.store(source);
  const std::string_view unicode = arena.store("Stra\u00dfe \xF0\x9F\x98\x80");
  const std::string_view invalid = arena.store("\xff\xfe lone \xed\xa0\x80 surrogate");
  source[0] = 'z';  // a copy, not a view of the source
  EXPECT_EQ(nul, std::string_view("a\0b", 3));
  EXPECT_EQ(unicode, "Stra\u00dfe \xF0\x9F\x98\x80");
  EXPECT_EQ(invalid, "\xff\xfe lone \xed\xa0\x80 surrogate");
  EXPECT_GT(arena.memory_bytes(), 0U);
}

TEST(StringArena, AllocateGivesRoomNextToStoredCopies) {
  StringArena arena;
  const std::string_view first = arena.store("abc");
  char* room = arena.allocate(4);
  std::memcpy(room, "WXYZ", 4);
  const std::string_view second = arena.store("def");
  EXPECT_EQ(first, "abc");
  EXPECT_EQ(std::string_view(room, 4), "WXYZ");
  EXPECT_EQ(second, "def");
  // Larger than a block: a block of its own, the earlier bytes untouched.
  const std::size_t big = 100000;
  char* large = arena.allocate(big);
  std::memset(large, 'q', big);
  EXPECT_EQ(std::string_view(room, 4), "WXYZ");
  EXPECT_EQ(std::string_view(large, big), std::string(big, 'q'));
  EXPECT_GE(arena.memory_bytes(), big);
}

TEST(StringArena, ViewsStayValidAcrossBlocksAndMoves) {
  StringArena arena;
  std::vector<std::pair<std::string, std::string_view>> kept;
  for (int i = 0; i < 20000; ++i) {
    std::string s = "word" + std::to_string(i);
    kept.emplace_back(s, arena.store(s));
  }
  const std::string big(100000, 'x');  // larger than a block: a block of its own
  const std::string_view big_view = arena.store(big);
  const std::string_view after = arena.store("after");
  StringArena moved(std::move(arena));
  for (const auto& [expected, view] : kept) ASSERT_EQ(view, expected);
  EXPECT_EQ(big_view, big);
  EXPECT_EQ(after, "after");
  EXPECT_GE(moved.memory_bytes(), big.size());
  // The moved-from arena is empty and still usable.
  EXPECT_EQ(arena.memory_bytes(), 0U);  // NOLINT(bugprone-use-after-move): specified empty
  EXPECT_EQ(arena.store("again"), "again");
  StringArena assigned;
  assigned = std::move(moved);
  EXPECT_EQ(kept.front().second, kept.front().first);
  EXPECT_EQ(moved.memory_bytes(), 0U);  // NOLINT(bugprone-use-after-move): specified empty
}

TEST(StringArena, ClearFreesEverything) {
  StringArena arena;
  arena.store("one");
  arena.store(std::string(50000, 'y'));
  arena.clear();
  EXPECT_EQ(arena.memory_bytes(), 0U);
  EXPECT_EQ(arena.store("two"), "two");
}

}  // namespace
