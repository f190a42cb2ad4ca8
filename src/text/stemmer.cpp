#include "text/stemmer.hpp"

namespace sc::text {

// Placeholder until the Porter2 implementation lands (identity keeps the build green).
void stem_into(std::string_view word, std::string& out) { out.assign(word); }

std::string stem(std::string_view word) {
  std::string out;
  stem_into(word, out);
  return out;
}

}  // namespace sc::text
