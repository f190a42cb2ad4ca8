/// @brief renew(): replace an object with a fresh one and free everything it held.
#pragma once

#include <utility>

namespace sc::common {

/// Makes `value` a default-constructed T and frees what it held. `value = T()` does not always:
/// libstdc++ move-assigns a std::string from a short (inline) one by copying into the target's
/// own heap buffer, which it keeps, so a cache emptied that way still held its string buffers.
/// std::swap move-constructs the old contents into `fresh` first, and they die with it.
template <class T>
void renew(T& value) {
  T fresh;
  std::swap(value, fresh);
}

}  // namespace sc::common
