#include "text/asking.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace sc::text {
namespace {

// A word of up to 8 bytes as one integer (first byte lowest, zero-padded): compared without memcmp,
// since every sentence's first word is tested.
constexpr std::uint64_t pack(std::string_view word) noexcept {
  std::uint64_t out = 0;
  for (std::size_t i = 0; i < word.size() && i < 8; ++i) {
    out |= std::uint64_t{static_cast<unsigned char>(word[i])} << (8 * i);
  }
  return out;
}

// The Python oracle's ASKING (_reference.py), but "shouldn't" (9 bytes, tested apart).
constexpr std::array<std::string_view, 43> kAsking{
    "what",  "who",      "whom",  "whose",    "which",  "when",    "where", "why",     "how",
    "is",    "are",      "was",   "were",     "am",     "do",      "does",  "did",     "can",
    "could", "will",     "would", "shall",    "should", "may",     "might", "must",    "has",
    "have",  "had",      "isn't", "aren't",   "wasn't", "weren't", "don't", "doesn't", "didn't",
    "can't", "couldn't", "won't", "wouldn't", "hasn't", "haven't", "hadn't"};

constexpr std::array<std::uint64_t, kAsking.size()> packed_asking() noexcept {
  std::array<std::uint64_t, kAsking.size()> out{};
  for (std::size_t i = 0; i < kAsking.size(); ++i) out[i] = pack(kAsking[i]);
  // Insertion sort: std::sort is not constexpr in C++17.
  for (std::size_t i = 1; i < out.size(); ++i) {
    for (std::size_t j = i; j > 0 && out[j - 1] > out[j]; --j) {
      const std::uint64_t t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  }
  return out;
}

constexpr std::array<std::uint64_t, kAsking.size()> kPacked = packed_asking();

}  // namespace

bool asks(std::string_view folded) noexcept {
  if (folded.size() < 2 || folded.size() > 9) return false;
  if (folded.size() == 9) return folded == "shouldn't";
  return std::binary_search(kPacked.begin(), kPacked.end(), pack(folded));
}

}  // namespace sc::text
