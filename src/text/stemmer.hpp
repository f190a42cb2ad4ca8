/// @brief English Porter2 (Snowball "english", 3.x revision) stemmer.
#pragma once

#include <string>
#include <string_view>

namespace sc::text {

/// Stems one case-folded (lowercase) English word with the Porter2 algorithm, as Snowball 3.x
/// defines it (snowballstemmer's "english" stemmer gives the same stem for every a-z word).
/// Words shorter than 3 bytes and words holding anything but a-z and apostrophe (upper case,
/// digits, underscore, non-ASCII or invalid UTF-8 bytes) are returned unchanged.
std::string stem(std::string_view word);

/// Same as stem(), writing into `out` (cleared first) so callers can reuse one buffer: no other
/// allocation happens. `word` may view `out` itself (stemming in place).
void stem_into(std::string_view word, std::string& out);

}  // namespace sc::text
