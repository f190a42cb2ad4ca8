#include "common/fixed2.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace sc {

std::string fixed2(double value) {
  // By hand below 2^40 (scores, thresholds): std::to_chars with a precision allocates, and cost
  // ~3% of a short check_answer. value = m / 2^shift exactly, m a 53-bit integer.
  constexpr double kLimit = 1099511627776.0;  // 2^40: m * 100 and the integer part stay in 64 bits
  if (!std::signbit(value) && value < kLimit) {
    int exponent = 0;
    const double mantissa = std::frexp(value, &exponent);  // in [0.5, 1), or 0
    const auto m = static_cast<std::uint64_t>(std::ldexp(mantissa, 53));
    const int shift = 53 - exponent;
    std::uint64_t hundredths = 0;
    if (shift <= 0) {
      hundredths = (m << -shift) * 100;  // an integer
    } else if (shift < 64) {
      const std::uint64_t scaled = m * 100;  // < 2^60
      hundredths = scaled >> shift;
      const std::uint64_t rest = scaled & ((std::uint64_t{1} << shift) - 1);
      const std::uint64_t half = std::uint64_t{1} << (shift - 1);
      if (rest > half || (rest == half && (hundredths & 1U) != 0)) ++hundredths;
    }  // else m * 100 < 2^60 < half of 2^shift: rounds to 0
    char buffer[32];
    char* end = std::to_chars(buffer, buffer + 24, hundredths / 100).ptr;
    *end++ = '.';
    *end++ = static_cast<char>('0' + hundredths / 10 % 10);
    *end++ = static_cast<char>('0' + hundredths % 10);
    return std::string(buffer, end);
  }
  char buffer[400];  // DBL_MAX prints 309 digits
  const int n = std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0);
}

}  // namespace sc
