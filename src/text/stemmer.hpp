/// @brief English Porter2 (Snowball "english", 3.x revision) stemmer.
#pragma once

#include <array>
#include <cstddef>
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

/// Where stem_view() stems a word: 8 zero bytes, the word, 16 zero bytes, on the caller's stack or
/// in its object for words up to kInline bytes; 8 zero bytes then the word on the heap beyond.
struct StemBuffer {
  static constexpr std::size_t kInline = 64;
  std::array<char, 8 + kInline + 16> local;
  std::string heap;
};

/// Same stem as stem(), without copying it out: a view of `word` itself when the word is returned
/// unchanged, of a static string for a whole-word exception, else of `buffer`. Valid until
/// `buffer` is reused or destroyed (and, for the first case, while `word`'s bytes live).
std::string_view stem_view(std::string_view word, StemBuffer& buffer);

}  // namespace sc::text
