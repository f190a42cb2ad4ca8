/// @brief Giving back per-thread buffers after a large input, so a thread keeps a bounded amount.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sc {

/// Per-thread scratch a thread may keep between calls.
inline constexpr std::size_t kScratchKeepBytes = std::size_t{8} << 20;

template <class T>
void release_if_over(std::vector<T>& v, std::size_t cap_bytes = kScratchKeepBytes) noexcept {
  if (v.capacity() * sizeof(T) > cap_bytes) std::vector<T>().swap(v);
}

inline void release_if_over(std::string& s, std::size_t cap_bytes = kScratchKeepBytes) noexcept {
  if (s.capacity() > cap_bytes) std::string().swap(s);
}

}  // namespace sc
