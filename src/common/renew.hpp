/// @brief renew(): replace an object with a fresh one and free everything it held.
#pragma once

#include <type_traits>
#include <utility>

namespace sc::common {

/// Makes `value` a default-constructed T and frees what it held. `value = T()` does not always:
/// libstdc++ move-assigns a std::string from a short (inline) one by copying into the target's
/// own heap buffer, which it keeps, so a cache emptied that way still held its string buffers.
/// Swapping gives `value`'s buffers to `fresh`, which frees them when it goes out of scope.
/// Callers empty caches from noexcept functions, so the swap must not throw.
template <class T>
void renew(T& value) {
  static_assert(std::is_nothrow_swappable_v<T>, "renew() runs where an exception cannot propagate");
  T fresh;
  std::swap(value, fresh);
}

}  // namespace sc::common
