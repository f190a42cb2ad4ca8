#include "checker/questions.hpp"

#include <algorithm>

#include "checker/scanner.hpp"
#include "text/utf8.hpp"

namespace sc::checker {

bool ends_in_question(std::string_view text, std::size_t from) noexcept {
  const std::size_t size = text.size();
  // The first break: a [.!?] (possibly the token's own last byte) followed by a sentence break.
  for (std::size_t p = std::max<std::size_t>(from, 1); p < size; ++p) {
    const char c = text[p - 1];
    if ((c == '.' || c == '!' || c == '?') && scan_detail::break_end(text, p) != 0) {
      return c == '?';
    }
  }
  // The last sentence of the text: its last code point that is not whitespace.
  bool question = false;
  for (std::size_t p = from; p < size;) {
    const std::size_t space = scan_detail::space_at(text, p);
    if (space > 0) {
      p += space;
      continue;
    }
    question = text[p] == '?';
    p += std::max<std::size_t>(1, text::decode_utf8(text, p).length);
  }
  return question;
}

}  // namespace sc::checker
