#include "checker/sentence_split.hpp"

#include <cstring>

#include "checker/python_str.hpp"
#include "text/python_space.hpp"
#include "text/utf8.hpp"

namespace sc::checker {
namespace {

// Length in bytes of the closing quote or bracket at pos, 0 if there is none.
std::size_t closer_at(std::string_view text, std::size_t pos) noexcept {
  const char c = text[pos];
  if (c == '"' || c == '\'' || c == ')' || c == ']') return 1;
  // U+201D and U+2019 are E2 80 9D and E2 80 99.
  if (static_cast<unsigned char>(c) == 0xE2 && pos + 2 < text.size() &&
      static_cast<unsigned char>(text[pos + 1]) == 0x80) {
    const auto third = static_cast<unsigned char>(text[pos + 2]);
    if (third == 0x9D || third == 0x99) return 3;
  }
  return 0;
}

// Length in bytes of the Python-whitespace code point at pos, 0 if none.
std::size_t space_at(std::string_view text, std::size_t pos) noexcept {
  return text::python_space_at(text, pos);
}

bool has_non_space(std::string_view text, std::size_t begin, std::size_t end) noexcept {
  std::size_t pos = begin;
  while (pos < end) {
    const std::size_t len = space_at(text, pos);
    if (len == 0) return true;
    pos += len;
  }
  return false;
}

}  // namespace

void split_sentences(std::string_view text, std::vector<Span>& out) {
  const std::size_t size = text.size();
  std::size_t piece = 0;
  std::size_t pos = 0;
  while (pos < size) {
    const char c = text[pos];
    if (c != '.' && c != '!' && c != '?') {
      ++pos;
      continue;
    }
    std::size_t next = pos + 1;
    while (next < size) {
      const std::size_t len = closer_at(text, next);
      if (len == 0) break;
      next += len;
    }
    std::size_t spaces_end = next;
    while (spaces_end < size) {
      const std::size_t len = space_at(text, spaces_end);
      if (len == 0) break;
      spaces_end += len;
    }
    if (spaces_end == next) {  // no whitespace after the closers: not a break
      ++pos;
      continue;
    }
    if (has_non_space(text, piece, pos + 1)) {
      out.push_back(Span{static_cast<std::uint32_t>(piece), static_cast<std::uint32_t>(pos + 1)});
    }
    piece = spaces_end;
    pos = spaces_end;
  }
  if (piece < size && has_non_space(text, piece, size)) {
    out.push_back(Span{static_cast<std::uint32_t>(piece), static_cast<std::uint32_t>(size)});
  }
}

}  // namespace sc::checker
