/// @brief quoted(): a value inside an error message, escaped so that the message survives as a C
/// string.
#pragma once

#include <string>
#include <string_view>

namespace sc {

/// `value` between single quotes with backslash, quote and control bytes escaped (\\, \', \n, \t,
/// \xNN): an exception's what() is a C string, so an unescaped NUL would cut the message short.
/// Other bytes (UTF-8 included) are kept.
inline std::string quoted(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('\'');
  for (const char c : value) {
    const auto b = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out.push_back('\\');
      out.push_back(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (b < 0x20 || b == 0x7f) {
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xf]);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

}  // namespace sc
