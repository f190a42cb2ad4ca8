/// @brief StringArena: copies of byte strings in a few large blocks that never move.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace sc::text {

/// Copies n bytes. Up to 16 by two fixed-size moves each (overlapping when n is not a power of
/// two): for the words copied here a memcpy call cost more than the copy itself.
inline void copy_bytes(char* to, const char* from, std::size_t n) noexcept {
  if (n > 16) {
    std::memcpy(to, from, n);
  } else if (n >= 8) {
    std::memcpy(to, from, 8);
    std::memcpy(to + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(to, from, 4);
    std::memcpy(to + n - 4, from + n - 4, 4);
  } else if (n > 0) {
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
}

/// Owns copies of byte strings. A copy is a bump of a pointer in the current block (no allocation
/// per string, no header, neighbours share cache lines), and its view stays valid until clear() or
/// destruction; moving the arena keeps the views valid (the blocks are on the heap).
class StringArena {
 public:
  StringArena() = default;
  StringArena(const StringArena&) = delete;
  StringArena& operator=(const StringArena&) = delete;
  // A moved-from arena is empty and usable.
  StringArena(StringArena&& other) noexcept
      : blocks_(std::move(other.blocks_)),
        block_used_(std::exchange(other.block_used_, 0)),
        block_capacity_(std::exchange(other.block_capacity_, 0)),
        bytes_(std::exchange(other.bytes_, 0)) {
    other.blocks_.clear();
  }
  StringArena& operator=(StringArena&& other) noexcept {
    if (this != &other) {
      blocks_ = std::move(other.blocks_);
      other.blocks_.clear();
      block_used_ = std::exchange(other.block_used_, 0);
      block_capacity_ = std::exchange(other.block_capacity_, 0);
      bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
  }
  ~StringArena() = default;

  /// A view of a copy of `s` (an empty view for an empty `s`).
  std::string_view store(std::string_view s) {
    if (s.empty()) return std::string_view();
    char* dest = allocate(s.size());
    copy_bytes(dest, s.data(), s.size());
    return std::string_view(dest, s.size());
  }

  /// Room for `size` (> 0) bytes that the caller fills: a copy made while writing it, with no
  /// intermediate buffer. Valid as long as a stored view.
  char* allocate(std::size_t size) {
    if (block_capacity_ - block_used_ < size) {
      // A string larger than a block gets a block of its own size.
      block_capacity_ = std::max(kBlockSize, size);
      blocks_.push_back(std::make_unique<char[]>(block_capacity_));
      bytes_ += block_capacity_;
      block_used_ = 0;
    }
    char* dest = blocks_.back().get() + block_used_;
    block_used_ += size;
    return dest;
  }

  /// Frees every block (invalidates the views handed out).
  void clear() noexcept {
    std::vector<std::unique_ptr<char[]>>().swap(blocks_);
    block_used_ = 0;
    block_capacity_ = 0;
    bytes_ = 0;
  }

  /// Heap bytes held.
  std::size_t memory_bytes() const noexcept {
    return bytes_ + blocks_.capacity() * sizeof(blocks_[0]);
  }

 private:
  static constexpr std::size_t kBlockSize = 16 * 1024;

  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t block_used_ = 0;      // bytes used in blocks_.back()
  std::size_t block_capacity_ = 0;  // size of blocks_.back()
  std::size_t bytes_ = 0;           // sum of the blocks' sizes
};

}  // namespace sc::text
