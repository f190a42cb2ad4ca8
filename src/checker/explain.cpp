#include "checker/explain.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace sc::checker::explain {

std::string percent(double x) {
  const double y = x * 100.0;
  // Every check formats a few of these: rounding by hand skips printf (several times slower).
  // Below 2^52 `y - floor(y)` is exact, so ties are seen exactly and go to the even neighbour, as
  // glibc's "%.0f" and Python's float formatting do.
  if (std::fabs(y) < 4503599627370496.0) {
    double r = std::floor(y);
    const double frac = y - r;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0)) r += 1.0;
    char buffer[24];
    char* out = buffer;
    if (r == 0.0 && std::signbit(y)) *out++ = '-';  // "-0%", as printf prints -0.3 or -0.0
    const auto done = std::to_chars(out, buffer + sizeof buffer - 1, static_cast<long long>(r));
    *done.ptr = '%';
    return std::string(buffer, static_cast<std::size_t>(done.ptr + 1 - buffer));
  }
  // Huge, infinite or NaN: glibc prints the exact binary value rounded half-to-even, as Python's
  // float formatting does.
  char buffer[512];
  const int n = std::snprintf(buffer, sizeof buffer, "%.0f%%", y);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string("nan%");
}

std::string too_few_contexts(std::size_t n, long long min_contexts, std::size_t blank,
                             std::size_t repeated) {
  std::string out = "Only " + std::to_string(n) + (repeated > 0 ? " distinct" : "") +
                    " context(s)" + (blank > 0 ? " with text" : "") + ", need " +
                    std::to_string(min_contexts);
  if (blank > 0 && repeated > 0) {
    out += " (" + std::to_string(blank) + " blank, " + std::to_string(repeated) + " repeated)";
  } else if (blank > 0) {
    out += " (" + std::to_string(blank) + " blank)";
  } else if (repeated > 0) {
    out += " (" + std::to_string(repeated) + " repeated)";
  }
  return out;
}

std::string quoted(std::string_view prefix, std::string_view term, std::string_view suffix) {
  std::string out;
  out.reserve(prefix.size() + term.size() + suffix.size());
  out.append(prefix).append(term).append(suffix);
  return out;
}

}  // namespace sc::checker::explain
