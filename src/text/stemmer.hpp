/// @brief English Porter2 (Snowball "english") stemmer.
#pragma once

#include <string>
#include <string_view>

namespace sc::text {

/// Stems one case-folded (lowercase) English word with the Porter2 algorithm.
/// Words that are not plain a-z (digits, accents, other scripts) are returned unchanged.
std::string stem(std::string_view word);

/// Same as stem(), writing into `out` (cleared first) so callers can reuse one buffer.
void stem_into(std::string_view word, std::string& out);

}  // namespace sc::text
