/// @brief Python's str.isspace() on code points and on UTF-8, for every rule that splits or trims
/// exactly as Python does (sentence trimming, reference-mode str.split(), the `re` \s class).
#pragma once

#include <cstddef>
#include <string_view>

#include "text/utf8.hpp"

namespace sc::text {

/// Whether Python's str.isspace() is true for `cp`: ASCII \t \n \v \f \r, \x1c-\x1f and space;
/// U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
constexpr bool is_python_space(char32_t cp) noexcept {
  if (cp < 0x80) return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x1F);
  switch (cp) {
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

/// The byte length of the Python whitespace character at text[pos] (pos < text.size()), or 0 when
/// it is something else (invalid UTF-8 included).
inline std::size_t python_space_at(std::string_view text, std::size_t pos) noexcept {
  const auto b0 = static_cast<unsigned char>(text[pos]);
  if (b0 < 0x80) return is_python_space(b0) ? 1 : 0;
  const CodePoint cp = decode_utf8(text, pos);
  return cp.valid && is_python_space(cp.value) ? cp.length : 0;
}

}  // namespace sc::text
