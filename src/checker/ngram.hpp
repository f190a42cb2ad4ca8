/// @brief Lexical relevance: hashed character 3-5-gram vectors of word sequences and their cosine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sc::checker {

inline constexpr std::size_t kNgramMin = 3;
inline constexpr std::size_t kNgramMax = 5;
inline constexpr std::uint32_t kNgramBuckets = 1u << 20;

/// Calls emit(bucket) for every character n-gram (n = 3, 4, 5 code points) of `s`: the bucket is
/// the 64-bit FNV-1a hash of the n-gram's UTF-8 bytes modulo kNgramBuckets (the spec's
/// `_ngram_vector`). `s` must be valid UTF-8.
template <class Emit>
void for_each_ngram(std::string_view s, std::vector<std::uint32_t>& starts, Emit&& emit);

/// Counts of a small set of buckets with a bit filter in front, so testing a bucket that is not
/// there (the common case) costs one bit test.
class BucketCounts {
 public:
  void clear();
  /// Adds one occurrence of `bucket`; returns the count before.
  std::uint32_t add(std::uint32_t bucket) {
    if ((used_ + 1) * 2 > keys_.size()) grow();
    const std::uint32_t key = bucket + 1;
    const std::size_t mask = keys_.size() - 1;
    std::size_t slot = (key * 0x9E3779B1u) & mask;
    while (true) {
      if (keys_[slot] == key) return counts_[slot]++;
      if (keys_[slot] == 0) {
        keys_[slot] = key;
        counts_[slot] = 1;
        occupied_.push_back(static_cast<std::uint32_t>(slot));
        ++used_;
        filter_[(bucket % kFilterBits) / 64] |= 1ULL << (bucket % 64);
        return 0;
      }
      slot = (slot + 1) & mask;
    }
  }
  /// The count of `bucket` (0 when absent).
  std::uint32_t count(std::uint32_t bucket) const noexcept {
    if ((filter_[(bucket % kFilterBits) / 64] & (1ULL << (bucket % 64))) == 0) return 0;
    const std::uint32_t key = bucket + 1;
    const std::size_t mask = keys_.size() - 1;
    for (std::size_t slot = (key * 0x9E3779B1u) & mask; keys_[slot] != 0;
         slot = (slot + 1) & mask) {
      if (keys_[slot] == key) return counts_[slot];
    }
    return 0;
  }
  std::size_t distinct() const noexcept { return used_; }
  /// Whether `bucket` may be present (false: certainly absent). For hot loops.
  static bool maybe(const std::uint64_t* filter, std::uint32_t bucket) noexcept {
    return (filter[(bucket % kFilterBits) / 64] >> (bucket % 64)) & 1U;
  }
  const std::uint64_t* filter() const noexcept { return filter_.data(); }

 private:
  void grow();
  static constexpr std::size_t kFilterBits = 1u << 14;
  static constexpr std::size_t kInitialSlots = 256;
  static constexpr std::size_t kShrinkAbove = 1u << 14;
  std::vector<std::uint64_t> filter_ = std::vector<std::uint64_t>(kFilterBits / 64, 0);
  std::vector<std::uint32_t> keys_ = std::vector<std::uint32_t>(kInitialSlots, 0);  // bucket + 1
  std::vector<std::uint32_t> counts_ = std::vector<std::uint32_t>(kInitialSlots, 0);
  std::vector<std::uint32_t> occupied_;  // the slots in use, so clear() costs what was added
  std::size_t used_ = 0;
};

/// The sum of the squared counts of one string's n-gram buckets at a time (the squared norm of
/// its n-gram vector), in a table kept from string to string. A slot holds the bucket + 1 and the
/// string's stamp in one word and the count in the other; a slot with another stamp is free, so a
/// new string clears nothing (the whole table only when the stamp wraps).
class SquareCounts {
 public:
  /// Starts a string of at most `ngrams` n-grams.
  void begin(std::uint64_t ngrams);
  /// Counts one n-gram of the string.
  void add(std::uint32_t bucket) noexcept {
    const std::uint32_t key = (stamp_ << kStampShift) | (bucket + 1);
    for (std::size_t slot = (bucket * 0x9E3779B1u) >> shift_;; slot = (slot + 1) & mask_) {
      std::uint64_t& v = slots_[slot];
      const auto held = static_cast<std::uint32_t>(v);
      if (held == key) {
        sum_ += 2 * (v >> 32) + 1;  // (c + 1)^2 - c^2
        v += std::uint64_t{1} << 32;
        return;
      }
      if ((held >> kStampShift) != stamp_) {  // free
        v = key | (std::uint64_t{1} << 32);
        ++sum_;
        return;
      }
    }
  }
  /// The sum over the string's buckets of their squared counts.
  std::uint64_t sum() const noexcept { return sum_; }
  /// Ends the string: a table grown for a huge one is given back.
  void end() noexcept;

 private:
  static constexpr std::uint32_t kStampShift = 21;  // bucket + 1 <= 2^20 fits below
  static constexpr std::uint32_t kMaxStamp = (1u << (32 - kStampShift)) - 1;
  static constexpr std::size_t kKeepSlots = std::size_t{1} << 14;
  static_assert(kNgramBuckets < (1u << kStampShift), "bucket + 1 must fit below the stamp");
  std::vector<std::uint64_t> slots_;  // stamp << 21 | (bucket + 1), count << 32
  std::uint32_t stamp_ = 0;
  std::uint32_t shift_ = 32;
  std::size_t mask_ = 0;
  std::uint64_t sum_ = 0;
};

/// The best n-gram cosine of a query against a check's sentences (the spec's
/// max over sentences of `_ngram_cosine`), bit for bit: integer counts, one division.
/// Each sentence costs one pass over its n-grams for the dot product; the exact norm (a second
/// pass) is computed only for sentences whose bound dot / (|q| sqrt(#n-grams)) can beat the best,
/// in decreasing order of bound, and scoring stops once a cosine reaches `saturation` (the
/// caller's signal no longer changes above it).
class NgramRelevance {
 public:
  /// Starts a check: the query is " " + words joined by " " + " ".
  void set_query(const std::vector<std::string_view>& words, double saturation);
  /// Whether the query has no n-gram (then every cosine is 0).
  bool empty() const noexcept { return query_sq_ == 0; }
  /// Whether some sentence already reached the saturation cosine (later words need not be added).
  bool saturated() const noexcept { return best_ >= saturation_; }

  /// Starts a sentence; words follow.
  void begin_sentence() {
    sentence_begin_ = used_;
    put(' ');
  }
  /// Inline, with the text in a buffer of its own: a call and std::string::append per word were
  /// a few percent of a check.
  void add_word(std::string_view folded) {
    if (used_ > sentence_begin_ + 1) put(' ');
    append(folded);
  }
  /// Ends the sentence begun last.
  void end_sentence();
  /// Forgets the sentence begun last (it turned out not to exist).
  void discard_sentence() noexcept { used_ = sentence_begin_; }

  /// The best cosine over the sentences so far (>= 0).
  double best();

 private:
  struct Candidate {
    double bound;
    std::uint64_t dot;
    std::uint32_t begin;
    std::uint32_t end;
  };
  double exact(const Candidate& c);
  // Room for `more` bytes after the used ones.
  void grow(std::size_t more);
  void put(char c) {
    if (used_ == text_.size()) grow(1);
    text_[used_++] = c;
  }
  void append(std::string_view s) {
    if (s.empty()) return;  // memcpy from a null view's data() is undefined even for 0 bytes
    if (s.size() > text_.size() - used_) grow(s.size());
    std::memcpy(text_.data() + used_, s.data(), s.size());
    used_ += s.size();
  }

  // " w1 w2 ... " of every sentence, one after the other, in the first used_ bytes (the size is
  // the capacity).
  std::string text_;
  std::size_t used_ = 0;
  std::size_t sentence_begin_ = 0;
  std::vector<Candidate> candidates_;
  std::vector<std::uint32_t> starts_;
  BucketCounts query_;
  SquareCounts squares_;
  std::uint64_t query_sq_ = 0;
  double query_norm_ = 0.0;
  double saturation_ = 1.0;
  double best_ = 0.0;
};

// ---- implementation of the template ----

namespace detail {
inline constexpr std::uint64_t kFnvOffset = 0xCBF29CE484222325ULL;
inline constexpr std::uint64_t kFnvPrime = 0x100000001B3ULL;
}  // namespace detail

template <class Emit>
void for_each_ngram(std::string_view s, std::vector<std::uint32_t>& starts, Emit&& emit) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t size = s.size();
  bool ascii = true;
  for (std::size_t i = 0; i < size; ++i) ascii &= bytes[i] < 0x80;
  if (ascii) {
    for (std::size_t i = 0; i + kNgramMin <= size; ++i) {
      std::uint64_t h = detail::kFnvOffset;
      for (std::size_t j = 0; j < kNgramMin; ++j) h = (h ^ bytes[i + j]) * detail::kFnvPrime;
      emit(static_cast<std::uint32_t>(h & (kNgramBuckets - 1)));
      for (std::size_t j = kNgramMin; j < kNgramMax && i + j < size; ++j) {
        h = (h ^ bytes[i + j]) * detail::kFnvPrime;
        emit(static_cast<std::uint32_t>(h & (kNgramBuckets - 1)));
      }
    }
    return;
  }
  // Code point starts (lead bytes), then the same walk over code points.
  starts.clear();
  for (std::size_t i = 0; i < size; ++i) {
    if ((bytes[i] & 0xC0) != 0x80) starts.push_back(static_cast<std::uint32_t>(i));
  }
  const std::size_t n = starts.size();
  starts.push_back(static_cast<std::uint32_t>(size));
  for (std::size_t i = 0; i + kNgramMin <= n; ++i) {
    std::uint64_t h = detail::kFnvOffset;
    for (std::size_t j = 0; j < kNgramMax && i + j < n; ++j) {
      for (std::uint32_t b = starts[i + j]; b < starts[i + j + 1]; ++b) {
        h = (h ^ bytes[b]) * detail::kFnvPrime;
      }
      if (j + 1 >= kNgramMin) emit(static_cast<std::uint32_t>(h & (kNgramBuckets - 1)));
    }
  }
}

}  // namespace sc::checker
