#include "checker/copies.hpp"

#include <algorithm>
#include <numeric>

namespace sc::checker {

bool find_copies(const std::vector<std::string_view>& texts, std::vector<std::uint32_t>& first_of,
                 std::vector<std::uint32_t>& order) {
  const std::size_t n = texts.size();
  if (n < 2) return false;
  order.resize(n);
  std::iota(order.begin(), order.end(), 0U);
  // Equal texts end up adjacent, in input order, so the first of each run is the first occurrence
  // (std::sort with the index as tie-break: stable_sort would allocate a buffer on every check).
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const int c = texts[a].compare(texts[b]);
    return c < 0 || (c == 0 && a < b);
  });
  bool any = false;
  first_of.resize(n);
  first_of[order[0]] = order[0];
  for (std::size_t k = 1; k < n; ++k) {
    const std::uint32_t c = order[k];
    const std::uint32_t before = order[k - 1];
    const bool copy = texts[c] == texts[before];
    first_of[c] = copy ? first_of[before] : c;
    any = any || copy;
  }
  return any;
}

}  // namespace sc::checker
