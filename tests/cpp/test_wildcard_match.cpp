#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "common/wildcard_match.hpp"

namespace {

constexpr std::int32_t kAny = -2;
constexpr std::size_t kSkip = 3;

/// The plain depth-first search (shortest wildcard first), exponential in the wildcards: the
/// definition the memoized matcher must reproduce.
std::size_t plain(const std::vector<std::int32_t>& ids, std::size_t pos,
                  const std::vector<std::int32_t>& pattern, std::size_t p) {
  while (p < pattern.size()) {
    if (pattern[p] == kAny) {
      for (std::size_t skip = 1; skip <= kSkip && pos + skip <= ids.size(); ++skip) {
        const std::size_t end = plain(ids, pos + skip, pattern, p + 1);
        if (end != 0) return end;
      }
      return 0;
    }
    if (pos >= ids.size() || ids[pos] != pattern[p]) return 0;
    ++pos;
    ++p;
  }
  return pos;
}

TEST(WildcardMatcher, EqualsThePlainSearchInAnyOrderOfStarts) {
  std::mt19937 rng(7);
  sc::WildcardMatcher matcher(kAny, kSkip);  // one for every case: reset() must forget the last
  std::size_t matched = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::int32_t> pattern;
    const std::size_t length = 1 + rng() % 9;
    for (std::size_t i = 0; i < length; ++i) {
      const bool edge = i == 0 || i + 1 == length;
      pattern.push_back(!edge && rng() % 2 == 0 ? kAny : static_cast<std::int32_t>(rng() % 2));
    }
    std::vector<std::int32_t> ids(rng() % 24);
    for (std::int32_t& id : ids) id = static_cast<std::int32_t>(rng() % 3) - 1;  // -1: no key

    std::vector<std::size_t> starts(ids.size() + 1);
    std::iota(starts.begin(), starts.end(), std::size_t{0});
    if (round % 2 == 1) std::shuffle(starts.begin(), starts.end(), rng);
    matcher.reset(pattern, ids.size());
    for (const std::size_t pos : starts) {
      const std::size_t want = plain(ids, pos, pattern, 0);
      matched += want != 0;
      ASSERT_EQ(matcher.match_at([&ids](std::size_t i) { return ids[i]; }, pos), want)
          << "round " << round << " pos " << pos;
    }
  }
  EXPECT_GT(matched, 1000u);  // the cases match often enough to test the ends
}

TEST(WildcardMatcher, ShortestWildcardsFirstNotTheShortestMatch) {
  // 0 * 1 * 2 on 0 1 5 1 2 2: the first wildcard takes one token, so the match ends at the first
  // 2 reachable from there (index 4); a longer first wildcard could never give an earlier end.
  const std::vector<std::int32_t> pattern = {0, kAny, 1, kAny, 2};
  const std::vector<std::int32_t> ids = {0, 7, 1, 5, 2, 2};
  sc::WildcardMatcher matcher(kAny, kSkip);
  matcher.reset(pattern, ids.size());
  const auto id_at = [&ids](std::size_t i) { return ids[i]; };
  EXPECT_EQ(matcher.match_at(id_at, 0), 5u);
  EXPECT_EQ(matcher.match_at(id_at, 1), 0u);
  const std::vector<std::int32_t> none = {0, kAny, 1};
  matcher.reset(none, 0);
  EXPECT_EQ(matcher.match_at([](std::size_t) { return 0; }, 0), 0u);  // an empty text
}

}  // namespace
