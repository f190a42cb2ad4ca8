/// @brief Chunks whose text repeats an earlier chunk's, byte for byte.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace sc::checker {

/// Sets first_of[c] to the index of the first chunk whose text equals chunk c's (c itself for a
/// text not seen before) and returns whether any chunk is a copy. A document indexed twice, or a
/// node a hybrid retriever returns twice, is one piece of evidence: default scoring reads a copy
/// once. `order` is scratch. Sorting compares only up to the first differing byte, so chunks
/// that differ early cost little; a single chunk costs nothing.
bool find_copies(const std::vector<std::string_view>& texts, std::vector<std::uint32_t>& first_of,
                 std::vector<std::uint32_t>& order);

}  // namespace sc::checker
