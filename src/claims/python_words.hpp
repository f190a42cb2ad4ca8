/// @brief Python's str.split() on UTF-8: the whitespace-separated words of the reference mode.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "text/python_space.hpp"

namespace sc::claims {

using text::python_space_at;

/// Python's str.lower() of one word into `out` (cleared first), as far as the package's simple case
/// folding (text/casefold.hpp) reaches: ASCII by a byte loop; capitals of Latin, Greek, Cyrillic
/// and Armenian lowered; lowercase letters (including U+2019 and 'ſ', 'µ', 'ς', which folding
/// would change) kept. Differences from Python: 'İ' gives "i" (Python: "i̇"), a final 'Σ' gives
/// 'σ' (Python: 'ς'), and capitals outside the folding blocks (Greek Extended, Georgian,
/// Cherokee, Deseret...) stay as they are. Invalid UTF-8 bytes become U+FFFD.
void python_lower(std::string_view word, std::string& out);

/// Calls fn(std::string_view word, bool ascii) for each maximal run of non-whitespace bytes of
/// `text`, in order: Python's text.split() (invalid UTF-8 bytes are word characters, as U+FFFD
/// is). `ascii`: the word has no byte >= 0x80.
template <class Fn>
void for_each_python_word(std::string_view text, Fn&& fn) {
  // 0: ASCII word byte, 1: ASCII space, 2: byte >= 0x80 (may start a Unicode space).
  static constexpr auto kClass = [] {
    struct Table {
      unsigned char v[256];
    } t{};
    for (int b = 0; b < 256; ++b) {
      t.v[b] = b >= 0x80 ? 2 : (b == 0x20 || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F));
    }
    return t;
  }();
  const std::size_t n = text.size();
  std::size_t pos = 0;
  while (pos < n) {
    // Skip whitespace.
    while (pos < n) {
      const unsigned char c = kClass.v[static_cast<unsigned char>(text[pos])];
      if (c == 1) {
        ++pos;
      } else if (c == 2) {
        const std::size_t space = python_space_at(text, pos);
        if (space == 0) break;
        pos += space;
      } else {
        break;
      }
    }
    if (pos >= n) return;
    const std::size_t begin = pos;
    bool ascii = true;
    while (pos < n) {
      const unsigned char c = kClass.v[static_cast<unsigned char>(text[pos])];
      if (c == 0) {
        ++pos;
      } else if (c == 1) {
        break;
      } else {
        if (python_space_at(text, pos) != 0) break;
        ascii = false;
        ++pos;
      }
    }
    fn(text.substr(begin, pos - begin), ascii);
  }
}

}  // namespace sc::claims
