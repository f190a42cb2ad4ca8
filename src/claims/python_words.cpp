#include "claims/python_words.hpp"

#include "claims/claim_tokens.hpp"
#include "text/casefold.hpp"
#include "text/utf8.hpp"

namespace sc::claims {

void python_lower(std::string_view word, std::string& out) {
  out.clear();
  std::size_t pos = 0;
  for (; pos < word.size() && static_cast<unsigned char>(word[pos]) < 0x80; ++pos) {
    const char c = word[pos];
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c);
  }
  while (pos < word.size()) {
    const text::CodePoint cp = text::decode_utf8(word, pos);
    pos += cp.length;
    // Only capitals change: str.lower() keeps lowercase letters that case folding would map.
    text::append_utf8(is_capital(cp.value) ? text::fold_code_point(cp.value) : cp.value, out);
  }
}

}  // namespace sc::claims
