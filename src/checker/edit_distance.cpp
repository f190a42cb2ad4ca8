#include "checker/edit_distance.hpp"

#include <cstddef>
#include <string>

#include "text/utf8.hpp"

namespace sc::checker {
namespace {

template <class S>
bool one_edit(const S& a, const S& b) {
  const std::size_t la = a.size();
  const std::size_t lb = b.size();
  if (a == b || (la > lb ? la - lb : lb - la) > 1) return false;
  if (la == lb) {
    std::size_t first = la;
    std::size_t diffs = 0;
    for (std::size_t i = 0; i < la; ++i) {
      if (a[i] == b[i]) continue;
      if (diffs == 0) first = i;
      if (++diffs > 2) return false;
    }
    if (diffs == 1) return true;
    return diffs == 2 && a[first + 1] != b[first + 1] && a[first] == b[first + 1] &&
           a[first + 1] == b[first];
  }
  const S& shorter = la < lb ? a : b;
  const S& longer = la < lb ? b : a;
  std::size_t i = 0;
  while (i < shorter.size() && shorter[i] == longer[i]) ++i;
  return shorter.substr(i) == longer.substr(i + 1);
}

bool is_ascii(std::string_view s) noexcept {
  for (const char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

std::u32string decode(std::string_view s) {
  std::u32string out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const text::CodePoint cp = text::decode_utf8(s, pos);
    out.push_back(cp.value);
    pos += cp.length;
  }
  return out;
}

}  // namespace

bool one_edit_apart(std::string_view a, std::string_view b) {
  if (is_ascii(a) && is_ascii(b)) return one_edit(a, b);
  return one_edit(decode(a), decode(b));
}

}  // namespace sc::checker
