#include "claims/chunk_grams.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sc::claims {

std::string_view kept_prefix(std::string_view key) noexcept {
  if (key.size() < 4) return {};
  for (const char c : key) {
    if (!((c >= 'a' && c <= 'z') || c == '\'')) return {};
  }
  return key.substr(0, std::max<std::size_t>(3, key.size() - 2));
}

std::uint16_t gram_slot(std::string_view key) noexcept {
  const std::string_view prefix = kept_prefix(key);
  if (prefix.empty()) return kNoGram;
  return ChunkGrams::slot(static_cast<unsigned char>(prefix[0]),
                          static_cast<unsigned char>(prefix[1]),
                          static_cast<unsigned char>(prefix[2]));
}

namespace {

unsigned lower(unsigned char b) noexcept {
  return b + (static_cast<unsigned>(b - 'A') < 26u ? 'a' - 'A' : 0u);
}

bool alnum(unsigned char b) noexcept {
  return static_cast<unsigned>((b | 0x20u) - 'a') < 26u || static_cast<unsigned>(b - '0') < 10u;
}

}  // namespace

bool ChunkGrams::read(std::string_view text) {
  text_ = text;
  bits_.fill(0);
  count_ = 0;
  ascii_ = false;
  // A long chunk would fill the set and make every verification a scan of its words: analysed
  // once instead (its presence profile serves every claim).
  if (text.size() > kMaxBytes) return false;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  // A start at the last two bytes holds no kept_prefix: only starts before n - 2 are kept.
  const std::size_t limit = n >= 2 ? n - 2 : 0;
  std::size_t i = 0;
  bool previous = false;  // the byte before i is a letter or digit
#if defined(__SSE2__)
  // 16 bytes at a time: a mask of the letters and digits, and of the bytes >= 0x80.
  const __m128i to_lower = _mm_set1_epi8(0x20);
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  const __m128i a = _mm_set1_epi8('a');
  const __m128i letters = _mm_set1_epi8(static_cast<char>(26 ^ 0x80));
  const __m128i zero = _mm_set1_epi8('0');
  const __m128i digits = _mm_set1_epi8(static_cast<char>(10 ^ 0x80));
  const __m128i low5 = _mm_set1_epi8(31);
  const __m128i mask12 = _mm_set1_epi16(4095);
  const __m128i none = _mm_setzero_si128();
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    if (_mm_movemask_epi8(v) != 0) return false;
    const __m128i letter =
        _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(_mm_or_si128(v, to_lower), a), flip), letters);
    const __m128i digit = _mm_cmplt_epi8(_mm_xor_si128(_mm_sub_epi8(v, zero), flip), digits);
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(letter, digit)));
    unsigned starts = mask & ~((mask << 1) | (previous ? 1u : 0u));
    previous = (mask >> 15) != 0;
    if (starts == 0) continue;
    if (i + 18 > n) {  // the last block: its slots would read past the end
      for (; starts != 0; starts &= starts - 1) {
        const std::size_t at = i + static_cast<std::size_t>(__builtin_ctz(starts));
        if (at < limit) add_start(at, slot(b[at], b[at + 1], b[at + 2]));
      }
      continue;
    }
    // The slots of the 16 positions at once (slot() in 16-bit lanes), then one bit and chain
    // link per start.
    alignas(16) std::uint16_t slots[16];
    const __m128i v1 =
        _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 1)), low5);
    const __m128i v2 =
        _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i + 2)), low5);
    const __m128i v0 = _mm_and_si128(v, low5);
    const auto slots_of = [&](__m128i x0, __m128i x1, __m128i x2) {
      const __m128i code =
          _mm_or_si128(_mm_or_si128(_mm_slli_epi16(x0, 10), _mm_slli_epi16(x1, 5)), x2);
      return _mm_and_si128(_mm_xor_si128(code, _mm_srli_epi16(code, 7)), mask12);
    };
    _mm_store_si128(reinterpret_cast<__m128i*>(slots),
                    slots_of(_mm_unpacklo_epi8(v0, none), _mm_unpacklo_epi8(v1, none),
                             _mm_unpacklo_epi8(v2, none)));
    _mm_store_si128(reinterpret_cast<__m128i*>(slots + 8),
                    slots_of(_mm_unpackhi_epi8(v0, none), _mm_unpackhi_epi8(v1, none),
                             _mm_unpackhi_epi8(v2, none)));
    for (; starts != 0; starts &= starts - 1) {
      const unsigned k = static_cast<unsigned>(__builtin_ctz(starts));
      if (i + k < limit) add_start(i + k, slots[k]);
    }
  }
#endif
  for (; i < n; ++i) {
    if (b[i] >= 0x80) return false;
    const bool here = alnum(b[i]);
    if (here && !previous && i < limit) add_start(i, slot(b[i], b[i + 1], b[i + 2]));
    previous = here;
  }
  budget_ = kBaseBudget + kBudgetPerStart * count_;
  ascii_ = true;
  return true;
}

bool ChunkGrams::starts_with_prefix(std::uint16_t slot, std::string_view prefix) noexcept {
  const auto* b = reinterpret_cast<const unsigned char*>(text_.data());
  for (std::uint16_t at = head_[slot]; at != kEnd; at = next_[at]) {
    if (budget_ == 0) return true;  // may hold: the analysis decides
    --budget_;
    const std::uint32_t start = starts_[at];
    if (text_.size() - start < prefix.size()) continue;
    std::size_t k = 0;
    while (k < prefix.size() && lower(b[start + k]) == static_cast<unsigned char>(prefix[k])) ++k;
    if (k == prefix.size()) return true;
  }
  return false;
}

}  // namespace sc::claims
