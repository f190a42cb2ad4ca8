/// @brief StopWords: a case-folded word set with allocation-free lookup; the English list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "text/interner.hpp"

namespace sc::text {

/// A set of stop words, stored case-folded (see casefold.hpp). Callers may build their own from
/// any list; StopWords::english() is the package's English list. Immutable once built, so one
/// set can serve many threads.
class StopWords {
 public:
  /// An empty set (removes nothing).
  StopWords() = default;
  /// The given words, case-folded; duplicates and empty strings are ignored.
  explicit StopWords(const std::vector<std::string>& words);
  explicit StopWords(const std::vector<std::string_view>& words);
  StopWords(std::initializer_list<std::string_view> words);

  /// The English list: NLTK's 179 words (Snowball's list plus contraction parts: "don't",
  /// "don", "t", "isn't", "isn", "ll", "ve", ...). Built once, on first use.
  static const StopWords& english();

  /// Whether `word` is in the set, comparing case-folded (folds `word` on the stack; allocates
  /// only when the set holds a word longer than 128 bytes).
  bool contains(std::string_view word) const;

  /// Whether the already case-folded `folded` is in the set. Never allocates. Most words that are
  /// not in it (longer than every stop word, or of a length and first and last byte no stop word
  /// has) are answered by a bit test, without hashing.
  bool contains_folded(std::string_view folded) const noexcept {
    if (folded.size() > max_length_) return false;
    if (!folded.empty()) {
      const std::size_t bit = filter_bit(folded);
      if (((filter_[bit / 64] >> (bit % 64)) & 1U) == 0) return false;
    }
    return words_.contains(folded);
  }

  std::size_t size() const noexcept { return words_.size(); }
  bool empty() const noexcept { return words_.empty(); }

  /// The folded words in sorted (byte) order.
  std::vector<std::string_view> words() const;

 private:
  void add(std::string_view word);

  // A bit of filter_ for a non-empty word: its length, first and last byte mixed.
  static std::size_t filter_bit(std::string_view word) noexcept {
    const std::size_t first = static_cast<unsigned char>(word.front());
    const std::size_t last = static_cast<unsigned char>(word.back());
    return (first + 31 * last + 977 * word.size()) % kFilterBits;
  }

  static constexpr std::size_t kFilterBits = 4096;

  TermInterner words_;
  std::size_t max_length_ = 0;                            // longest folded word, in bytes
  std::array<std::uint64_t, kFilterBits / 64> filter_{};  // filter_bit() of every word, set
};

}  // namespace sc::text
