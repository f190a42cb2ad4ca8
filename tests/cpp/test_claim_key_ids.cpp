// KeyIds: stable ids across checks, local ids in first-seen order per check, O(1) forgetting.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "claims/claim_tokens.hpp"
#include "claims/key_ids.hpp"

namespace {

using sc::claims::KeyIds;

TEST(ClaimKeyIds, StableIdsOutliveChecksAndLocalIdsAreFirstSeen) {
  KeyIds keys;
  const std::uint32_t boil = keys.intern("boil");
  const std::uint32_t water = keys.intern("water");
  EXPECT_EQ(keys.intern("boil"), boil);
  EXPECT_EQ(keys.find("water"), water);
  EXPECT_EQ(keys.find("steam"), KeyIds::kNone);
  EXPECT_EQ(keys.term(boil), "boil");
  EXPECT_EQ(keys.code(water), sc::claims::prefix_code("water"));
  for (int check = 0; check < 3; ++check) {
    keys.start_check();
    EXPECT_EQ(keys.local(boil), KeyIds::kNone);
    EXPECT_EQ(keys.local(KeyIds::kNone), KeyIds::kNone);
    bool added = false;
    // Registered in another order each check: local ids follow this check's order.
    const std::uint32_t first = check % 2 == 0 ? water : boil;
    const std::uint32_t second = check % 2 == 0 ? boil : water;
    EXPECT_EQ(keys.add_local(first, added), 0u);
    EXPECT_TRUE(added);
    EXPECT_EQ(keys.add_local(second, added), 1u);
    EXPECT_TRUE(added);
    EXPECT_EQ(keys.add_local(first, added), 0u);
    EXPECT_FALSE(added);
    EXPECT_EQ(keys.local(second), 1u);
    EXPECT_EQ(keys.local_count(), 2u);
    EXPECT_EQ(keys.local_term(0), keys.term(first));
  }
  keys.clear_stable();
  EXPECT_EQ(keys.stable_count(), 0u);
  EXPECT_EQ(keys.find("boil"), KeyIds::kNone);
  const std::uint32_t again = keys.intern("steam");
  EXPECT_EQ(again, 0u);
  EXPECT_EQ(keys.local(again), KeyIds::kNone);  // no local id survives clear_stable
  EXPECT_EQ(keys.local_count(), 0u);
}

TEST(ClaimKeyIds, ManyKeysAndChecks) {
  KeyIds keys;
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(keys.intern("k" + std::to_string(i)));
  for (int check = 0; check < 300; ++check) {
    keys.start_check();
    bool added = false;
    for (int i = check; i < 5000; i += 97) {
      const std::uint32_t local = keys.add_local(ids[static_cast<std::size_t>(i)], added);
      EXPECT_TRUE(added);
      EXPECT_EQ(keys.local_term(local), "k" + std::to_string(i));
    }
    for (int i = check + 1; i < 5000; i += 97) {
      EXPECT_EQ(keys.local(ids[static_cast<std::size_t>(i)]), KeyIds::kNone);
    }
  }
  EXPECT_GT(keys.memory_bytes(), 5000 * sizeof(std::uint64_t));
}

}  // namespace
