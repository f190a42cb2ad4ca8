/// @brief One-edit test (Damerau: insertion, deletion, substitution, adjacent transposition).
#pragma once

#include <string_view>

namespace sc::checker {

/// True when `a` and `b` differ by exactly one insertion, deletion, substitution or transposition
/// of adjacent characters, counting code points (the spec's `_edit1`). Equal strings are false.
/// Both must be valid UTF-8.
bool one_edit_apart(std::string_view a, std::string_view b);

}  // namespace sc::checker
