/// @brief Context sentences that ask rather than assert.
#pragma once

#include <cstddef>
#include <string_view>

#include "text/asking.hpp"

namespace sc::checker {

/// Whether the sentence of `text` whose last token ends at byte `from` ends in "?", where the
/// spec's splitter ends it: at the first sentence break at or after `from` ([.!?], closing
/// quotes or brackets, whitespace; the break's closers are not part of the sentence), else at the
/// end of `text` with trailing whitespace dropped. Reads only up to that end.
bool ends_in_question(std::string_view text, std::size_t from) noexcept;

}  // namespace sc::checker
