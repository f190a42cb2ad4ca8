/// @brief GoogleTest suite for sc::fixed2 (src/common/fixed2.hpp): byte for byte what glibc's
/// "%.2f" prints, ties to even included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "common/fixed2.hpp"

namespace {

std::string printf2(double value) {
  char buffer[400];
  const int n = std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return std::string(buffer, static_cast<std::size_t>(n));
}

TEST(Fixed2, Examples) {
  EXPECT_EQ(sc::fixed2(0.0), "0.00");
  EXPECT_EQ(sc::fixed2(-0.0), "-0.00");
  EXPECT_EQ(sc::fixed2(1.0), "1.00");
  EXPECT_EQ(sc::fixed2(0.3), "0.30");
  EXPECT_EQ(sc::fixed2(0.125), "0.12");  // an exact tie: to even
  EXPECT_EQ(sc::fixed2(0.375), "0.38");
  EXPECT_EQ(sc::fixed2(0.005), "0.01");  // the double is a little above 0.005
  EXPECT_EQ(sc::fixed2(0.015), "0.01");  // ... and this one a little below 0.015
  EXPECT_EQ(sc::fixed2(0.999), "1.00");
  EXPECT_EQ(sc::fixed2(12345.678), "12345.68");
  EXPECT_EQ(sc::fixed2(std::nan("")), printf2(std::nan("")));
  EXPECT_EQ(sc::fixed2(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(sc::fixed2(-0.5), "-0.50");
}

TEST(Fixed2, AgreesWithPrintfEverywhere) {
  // Scores and thresholds (0 to 100): thousandths, their neighbours, halves of hundredths, and
  // random values.
  for (int k = 0; k <= 100000; ++k) {
    const double x = k / 1000.0;
    for (const double v : {x, std::nextafter(x, 0.0), std::nextafter(x, 1e9), k / 200.0}) {
      ASSERT_EQ(sc::fixed2(v), printf2(v)) << k;
    }
  }
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> unit(0.0, 2.0);
  for (int i = 0; i < 150000; ++i) {
    const double v = unit(random);
    ASSERT_EQ(sc::fixed2(v), printf2(v)) << v;
  }
  // Any finite bit pattern: tiny, subnormal, huge, negative (the printf path).
  for (int i = 0; i < 150000; ++i) {
    const std::uint64_t bits = random();
    double v = 0;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(sc::fixed2(v), printf2(v)) << v;
  }
  for (const double v :
       {1099511627775.996, 1099511627776.0, 4503599627370495.5, 9.0e15, 1e300,
        std::numeric_limits<double>::denorm_min(), 5e-324, 0.0049999999999999999}) {
    ASSERT_EQ(sc::fixed2(v), printf2(v)) << v;
  }
}

}  // namespace
