#include "checker/scanner.hpp"

namespace sc::checker::scan_detail {

bool has_non_space(std::string_view s) noexcept {
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t len = space_at(s, pos);
    if (len == 0) return true;
    pos += len;
  }
  return false;
}

}  // namespace sc::checker::scan_detail
