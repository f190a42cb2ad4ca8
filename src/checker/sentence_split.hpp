/// @brief Sentence pieces of a chunk, exactly as the default scoring's Python spec splits them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace sc::checker {

/// A sentence: bytes [begin, end) of its text.
struct Span {
  std::uint32_t begin;
  std::uint32_t end;
};

/// Appends to `out` the sentences of `text` as Python computes
///   [s for s in re.split(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+", text) if s.strip()]
/// (a break after . ! or ?, optionally followed by closing quotes or brackets, then whitespace;
/// pieces holding only whitespace are dropped). Whitespace is Python's (str.isspace()); invalid
/// UTF-8 bytes are not whitespace. Texts must be shorter than 4 GiB.
void split_sentences(std::string_view text, std::vector<Span>& out);

}  // namespace sc::checker
