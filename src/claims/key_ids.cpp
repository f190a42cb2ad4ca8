#include "claims/key_ids.hpp"

#include <algorithm>

namespace sc::claims {

void KeyIds::clear_stable() noexcept {
  table_.clear();
  codes_.clear();
  grams_.clear();
  locals_.clear();
  // Slots of the current generation would name reused ids.
  start_check();
}

void KeyIds::start_check() noexcept {
  locals_.clear();
  if (++generation_ == 0) {  // wrapped: no slot may look current
    std::fill(slots_.begin(), slots_.end(), 0);
    generation_ = 1;
  }
}

std::size_t KeyIds::memory_bytes() const noexcept {
  return table_.memory_bytes() + (codes_.capacity() + grams_.capacity()) * sizeof(std::uint16_t) +
         slots_.capacity() * sizeof(std::uint64_t) + locals_.capacity() * sizeof(std::uint32_t);
}

}  // namespace sc::claims
