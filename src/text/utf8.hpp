/// @brief UTF-8 decoding that never reads past the buffer, and byte -> code point offset mapping.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace sc::text {

inline constexpr char32_t kReplacementChar = 0xFFFD;

/// One decoded code point. `length` is the number of bytes consumed (>= 1 whenever pos < size):
/// an invalid or truncated sequence consumes one byte and decodes to U+FFFD with valid == false.
struct CodePoint {
  char32_t value;
  std::uint8_t length;
  bool valid;
};

/// Decodes the code point starting at byte `pos` (pos < text.size()). Rejects overlong forms,
/// surrogates and values above U+10FFFF, as the Unicode standard requires.
inline CodePoint decode_utf8(std::string_view text, std::size_t pos) noexcept {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b0 = byte(pos);
  if (b0 < 0x80) return {b0, 1, true};
  const std::size_t left = text.size() - pos;
  const auto cont = [&](std::size_t i) { return i < left && (byte(pos + i) & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF && cont(1)) {
    return {static_cast<char32_t>(((b0 & 0x1Fu) << 6) | (byte(pos + 1) & 0x3Fu)), 2, true};
  }
  if (b0 >= 0xE0 && b0 <= 0xEF && cont(1) && cont(2)) {
    const char32_t cp =
        ((b0 & 0x0Fu) << 12) | ((byte(pos + 1) & 0x3Fu) << 6) | (byte(pos + 2) & 0x3Fu);
    if (cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) return {cp, 3, true};
  } else if (b0 >= 0xF0 && b0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    const char32_t cp = ((b0 & 0x07u) << 18) | ((byte(pos + 1) & 0x3Fu) << 12) |
                        ((byte(pos + 2) & 0x3Fu) << 6) | (byte(pos + 3) & 0x3Fu);
    if (cp >= 0x10000 && cp <= 0x10FFFF) return {cp, 4, true};
  }
  return {kReplacementChar, 1, false};
}

/// Appends the UTF-8 encoding of `cp` to `out` (Container: std::string or similar).
template <class Container>
void append_utf8(char32_t cp, Container& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

/// Maps byte offsets of a UTF-8 text to code point offsets (what Python's str indexing uses).
/// Built once per text in one pass; each lookup is O(1). ASCII text (the common case) needs no
/// table: byte and code point offsets coincide. Offsets inside a multi-byte sequence map to the
/// code point that contains them; text.size() maps to the code point count.
class CodePointIndex {
 public:
  explicit CodePointIndex(std::string_view text) : size_(text.size()) {
    std::size_t first_high = 0;
    while (first_high < text.size() && static_cast<unsigned char>(text[first_high]) < 0x80) {
      ++first_high;
    }
    if (first_high == text.size()) return;
    index_.resize(text.size() + 1);
    for (std::size_t i = 0; i < first_high; ++i) index_[i] = i;
    std::size_t pos = first_high;
    std::size_t count = first_high;
    while (pos < text.size()) {
      const CodePoint cp = decode_utf8(text, pos);
      for (std::size_t i = 0; i < cp.length; ++i) index_[pos + i] = count;
      pos += cp.length;
      ++count;
    }
    index_[text.size()] = count;
  }

  std::size_t operator()(std::size_t byte_offset) const {
    if (index_.empty()) {
      if (byte_offset > size_) throw std::out_of_range("byte offset past the end of the text");
      return byte_offset;
    }
    return index_.at(byte_offset);
  }
  std::size_t size() const noexcept { return index_.empty() ? size_ : index_.back(); }

 private:
  std::size_t size_;                // bytes of the text
  std::vector<std::size_t> index_;  // empty for ASCII text
};

}  // namespace sc::text
