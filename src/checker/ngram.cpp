#include "checker/ngram.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sc::checker {

void BucketCounts::clear() {
  // In proportion to what was added when that is little (the usual sentence or query fills a few
  // dozen of the table's slots and filter words): filling the whole table and filter each time was
  // about a tenth of a check.
  if (used_ * 8 < keys_.size()) {
    for (const std::uint32_t slot : occupied_) {
      filter_[((keys_[slot] - 1) % kFilterBits) / 64] = 0;
      keys_[slot] = 0;
    }
  } else {
    std::fill(filter_.begin(), filter_.end(), 0);
    std::fill(keys_.begin(), keys_.end(), 0);
  }
  used_ = 0;
  occupied_.clear();
  if (keys_.empty() ||
      keys_.size() > kShrinkAbove) {  // a huge sentence once: do not keep its table
    keys_.assign(kInitialSlots, 0);
    counts_.assign(kInitialSlots, 0);
    std::vector<std::uint32_t>().swap(occupied_);
  }
}

void BucketCounts::grow() {
  std::vector<std::uint32_t> keys(keys_.size() * 2, 0);
  std::vector<std::uint32_t> counts(keys.size(), 0);
  const std::size_t mask = keys.size() - 1;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    if (keys_[i] == 0) continue;
    std::size_t slot = (keys_[i] * 0x9E3779B1u) & mask;
    while (keys[slot] != 0) slot = (slot + 1) & mask;
    keys[slot] = keys_[i];
    counts[slot] = counts_[i];
  }
  occupied_.clear();
  for (std::size_t slot = 0; slot < keys.size(); ++slot) {
    if (keys[slot] != 0) occupied_.push_back(static_cast<std::uint32_t>(slot));
  }
  keys_.swap(keys);
  counts_.swap(counts);
}

void SquareCounts::begin(std::uint64_t ngrams) {
  // At most half full even when every n-gram has its own bucket.
  const std::uint64_t distinct = std::min<std::uint64_t>(ngrams, kNgramBuckets);
  std::size_t size = std::max<std::size_t>(slots_.size(), 64);
  while (size < 2 * distinct) size *= 2;
  if (size != slots_.size() || stamp_ == kMaxStamp) {
    slots_.assign(size, 0);
    stamp_ = 0;
  }
  ++stamp_;
  std::uint32_t bits = 0;
  while ((std::size_t{1} << bits) < size) ++bits;
  shift_ = 32 - bits;
  mask_ = size - 1;
  sum_ = 0;
}

void SquareCounts::end() noexcept {
  if (slots_.size() > kKeepSlots) {  // a huge string once: do not keep its table
    std::vector<std::uint64_t>().swap(slots_);
    stamp_ = 0;
  }
}

void NgramRelevance::set_query(const std::vector<std::string_view>& words, double saturation) {
  used_ = 0;
  put(' ');
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) put(' ');
    append(words[i]);
  }
  put(' ');
  query_.clear();
  query_sq_ = 0;
  for_each_ngram(std::string_view(text_.data(), used_), starts_, [this](std::uint32_t bucket) {
    const std::uint64_t before = query_.add(bucket);
    query_sq_ += 2 * before + 1;  // (c + 1)^2 - c^2
  });
  query_norm_ = std::sqrt(static_cast<double>(query_sq_));
  saturation_ = saturation;
  best_ = 0.0;
  candidates_.clear();
  used_ = 0;
}

void NgramRelevance::grow(std::size_t more) {
  text_.resize(std::max(2 * text_.size(), used_ + more));
}

namespace {

// Only the low 20 bits of the 64-bit FNV-1a hash pick the bucket, and the low bits of a product
// or an xor depend only on the low bits of the operands: 32-bit arithmetic with the constants'
// low halves gives the same buckets, with cheaper multiplies.
constexpr std::uint32_t kFnvOffset32 = static_cast<std::uint32_t>(detail::kFnvOffset);
constexpr std::uint32_t kFnvPrime32 = static_cast<std::uint32_t>(detail::kFnvPrime);
constexpr std::uint32_t kBucketMask = kNgramBuckets - 1;
static_assert(kNgramBuckets <= (1ULL << 32), "buckets must fit the 32-bit hash");

std::uint64_t ngram_count(std::size_t code_points) noexcept {
  std::uint64_t n = 0;
  for (std::size_t len = kNgramMin; len <= kNgramMax; ++len) {
    if (code_points >= len) n += code_points - len + 1;
  }
  return n;
}

// Calls emit(h) for every n-gram of an ASCII string, h the 32-bit hash whose low bits are its
// bucket. Every start is an independent chain of five multiplies, so the loop runs at multiply
// throughput.
template <class Emit>
void for_each_ascii_hash(std::string_view s, Emit&& emit) noexcept {
  static_assert(kNgramMin == 3 && kNgramMax == 5, "the unrolled loop hashes 3-, 4- and 5-grams");
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t size = s.size();
  std::size_t i = 0;
  for (; i + 5 <= size; ++i) {
    std::uint32_t h = (kFnvOffset32 ^ p[i]) * kFnvPrime32;
    h = (h ^ p[i + 1]) * kFnvPrime32;
    h = (h ^ p[i + 2]) * kFnvPrime32;
    emit(h);
    h = (h ^ p[i + 3]) * kFnvPrime32;
    emit(h);
    h = (h ^ p[i + 4]) * kFnvPrime32;
    emit(h);
  }
  for (; i + 3 <= size; ++i) {
    std::uint32_t h = kFnvOffset32;
    for (std::size_t j = 0; i + j < size && j < 5; ++j) {
      h = (h ^ p[i + j]) * kFnvPrime32;
      if (j >= 2) emit(h);
    }
  }
}

// Sum over the n-grams of an ASCII string of the query's count of their bucket.
std::uint64_t ascii_dot(std::string_view s, const BucketCounts& query) noexcept {
  const std::uint64_t* filter = query.filter();
  std::uint64_t dot = 0;
  for_each_ascii_hash(s, [&](std::uint32_t h) {
    const std::uint32_t bucket = h & kBucketMask;
    if (BucketCounts::maybe(filter, bucket)) dot += query.count(bucket);
  });
  return dot;
}

bool is_ascii(std::string_view s) noexcept {
  const char* p = s.data();
  std::size_t left = s.size();
  std::uint64_t high = 0;
  for (; left >= 8; p += 8, left -= 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    high |= word;
  }
  for (; left > 0; ++p, --left) high |= static_cast<unsigned char>(*p);
  return (high & 0x8080808080808080ULL) == 0;
}

}  // namespace

void NgramRelevance::end_sentence() {
  put(' ');
  const std::string_view sentence(text_.data() + sentence_begin_, used_ - sentence_begin_);
  std::uint64_t dot = 0;
  std::uint64_t n = 0;
  if (is_ascii(sentence)) {
    dot = ascii_dot(sentence, query_);
    n = ngram_count(sentence.size());
  } else {
    for_each_ngram(sentence, starts_, [&](std::uint32_t bucket) {
      dot += query_.count(bucket);
      ++n;
    });
  }
  if (dot == 0) {  // cosine 0: nothing to remember
    used_ = sentence_begin_;
    return;
  }
  // The sum of squared counts is >= the number of n-grams, so this bounds the cosine from above
  // (IEEE division and sqrt are monotonic: the bound holds after rounding too).
  const Candidate c{static_cast<double>(dot) / (query_norm_ * std::sqrt(static_cast<double>(n))),
                    dot, static_cast<std::uint32_t>(sentence_begin_),
                    static_cast<std::uint32_t>(used_)};
  if (c.bound <= best_) {
    used_ = sentence_begin_;
    return;
  }
  if (c.bound >= saturation_) {  // likely saturates: settle it now and maybe stop early
    best_ = std::max(best_, exact(c));
    used_ = sentence_begin_;
    return;
  }
  candidates_.push_back(c);
}

double NgramRelevance::exact(const Candidate& c) {
  const std::string_view sentence(text_.data() + c.begin, c.end - c.begin);
  squares_.begin(3 * std::uint64_t{sentence.size()});  // at most 3 n-grams start at a byte
  if (is_ascii(sentence)) {
    for_each_ascii_hash(sentence, [&](std::uint32_t h) { squares_.add(h & kBucketMask); });
  } else {
    for_each_ngram(sentence, starts_, [&](std::uint32_t bucket) { squares_.add(bucket); });
  }
  const std::uint64_t sq = squares_.sum();
  squares_.end();
  return static_cast<double>(c.dot) / (query_norm_ * std::sqrt(static_cast<double>(sq)));
}

double NgramRelevance::best() {
  std::sort(candidates_.begin(), candidates_.end(),
            [](const Candidate& a, const Candidate& b) { return a.bound > b.bound; });
  for (const Candidate& c : candidates_) {
    if (c.bound <= best_) break;
    best_ = std::max(best_, exact(c));
  }
  candidates_.clear();
  return best_;
}

}  // namespace sc::checker
