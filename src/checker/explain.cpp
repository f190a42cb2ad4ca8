#include "checker/explain.hpp"

#include <cstdio>

namespace sc::checker::explain {

std::string percent(double x) {
  // glibc prints the exact binary value rounded half-to-even, as Python's float formatting does.
  char buffer[64];
  const int n = std::snprintf(buffer, sizeof buffer, "%.0f%%", x * 100.0);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string("nan%");
}

std::string too_few_contexts(std::size_t n, long long min_contexts) {
  return "Only " + std::to_string(n) + " context(s), need " + std::to_string(min_contexts);
}

std::string quoted(std::string_view prefix, std::string_view term, std::string_view suffix) {
  std::string out;
  out.reserve(prefix.size() + term.size() + suffix.size());
  out.append(prefix).append(term).append(suffix);
  return out;
}

}  // namespace sc::checker::explain
