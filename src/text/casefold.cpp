#include "text/casefold.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>

#include "text/utf8.hpp"

namespace sc::text {
namespace {

/// Code points first..last (every `stride`-th one) fold to cp + delta.
struct FoldRun {
  char32_t first;
  char32_t last;
  std::int32_t delta;
  std::uint8_t stride;
};

// Derived from Python's unicodedata (Unicode 14) over the blocks listed in casefold.hpp: for each
// code point, str.casefold() when that is one character, U+1E9E -> U+00DF (status S) and
// U+0130 -> 'i' (our choice); runs compressed by constant delta and stride 1 or 2. Sorted and
// disjoint. tests/python/test_text.py checks every code point of those blocks against Python.
constexpr FoldRun kRuns[] = {
    {0x00B5, 0x00B5, 775, 1},  {0x00C0, 0x00D6, 32, 1},    {0x00D8, 0x00DE, 32, 1},
    {0x0100, 0x012E, 1, 2},    {0x0130, 0x0130, -199, 1},  {0x0132, 0x0136, 1, 2},
    {0x0139, 0x0147, 1, 2},    {0x014A, 0x0176, 1, 2},     {0x0178, 0x0178, -121, 1},
    {0x0179, 0x017D, 1, 2},    {0x017F, 0x017F, -268, 1},  {0x0181, 0x0181, 210, 1},
    {0x0182, 0x0184, 1, 2},    {0x0186, 0x0186, 206, 1},   {0x0187, 0x0187, 1, 1},
    {0x0189, 0x018A, 205, 1},  {0x018B, 0x018B, 1, 1},     {0x018E, 0x018E, 79, 1},
    {0x018F, 0x018F, 202, 1},  {0x0190, 0x0190, 203, 1},   {0x0191, 0x0191, 1, 1},
    {0x0193, 0x0193, 205, 1},  {0x0194, 0x0194, 207, 1},   {0x0196, 0x0196, 211, 1},
    {0x0197, 0x0197, 209, 1},  {0x0198, 0x0198, 1, 1},     {0x019C, 0x019C, 211, 1},
    {0x019D, 0x019D, 213, 1},  {0x019F, 0x019F, 214, 1},   {0x01A0, 0x01A4, 1, 2},
    {0x01A6, 0x01A6, 218, 1},  {0x01A7, 0x01A7, 1, 1},     {0x01A9, 0x01A9, 218, 1},
    {0x01AC, 0x01AC, 1, 1},    {0x01AE, 0x01AE, 218, 1},   {0x01AF, 0x01AF, 1, 1},
    {0x01B1, 0x01B2, 217, 1},  {0x01B3, 0x01B5, 1, 2},     {0x01B7, 0x01B7, 219, 1},
    {0x01B8, 0x01B8, 1, 1},    {0x01BC, 0x01BC, 1, 1},     {0x01C4, 0x01C4, 2, 1},
    {0x01C5, 0x01C5, 1, 1},    {0x01C7, 0x01C7, 2, 1},     {0x01C8, 0x01C8, 1, 1},
    {0x01CA, 0x01CA, 2, 1},    {0x01CB, 0x01DB, 1, 2},     {0x01DE, 0x01EE, 1, 2},
    {0x01F1, 0x01F1, 2, 1},    {0x01F2, 0x01F4, 1, 2},     {0x01F6, 0x01F6, -97, 1},
    {0x01F7, 0x01F7, -56, 1},  {0x01F8, 0x021E, 1, 2},     {0x0220, 0x0220, -130, 1},
    {0x0222, 0x0232, 1, 2},    {0x023A, 0x023A, 10795, 1}, {0x023B, 0x023B, 1, 1},
    {0x023D, 0x023D, -163, 1}, {0x023E, 0x023E, 10792, 1}, {0x0241, 0x0241, 1, 1},
    {0x0243, 0x0243, -195, 1}, {0x0244, 0x0244, 69, 1},    {0x0245, 0x0245, 71, 1},
    {0x0246, 0x024E, 1, 2},    {0x0370, 0x0372, 1, 2},     {0x0376, 0x0376, 1, 1},
    {0x037F, 0x037F, 116, 1},  {0x0386, 0x0386, 38, 1},    {0x0388, 0x038A, 37, 1},
    {0x038C, 0x038C, 64, 1},   {0x038E, 0x038F, 63, 1},    {0x0391, 0x03A1, 32, 1},
    {0x03A3, 0x03AB, 32, 1},   {0x03C2, 0x03C2, 1, 1},     {0x03CF, 0x03CF, 8, 1},
    {0x03D0, 0x03D0, -30, 1},  {0x03D1, 0x03D1, -25, 1},   {0x03D5, 0x03D5, -15, 1},
    {0x03D6, 0x03D6, -22, 1},  {0x03D8, 0x03EE, 1, 2},     {0x03F0, 0x03F0, -54, 1},
    {0x03F1, 0x03F1, -48, 1},  {0x03F4, 0x03F4, -60, 1},   {0x03F5, 0x03F5, -64, 1},
    {0x03F7, 0x03F7, 1, 1},    {0x03F9, 0x03F9, -7, 1},    {0x03FA, 0x03FA, 1, 1},
    {0x03FD, 0x03FF, -130, 1}, {0x0400, 0x040F, 80, 1},    {0x0410, 0x042F, 32, 1},
    {0x0460, 0x0480, 1, 2},    {0x048A, 0x04BE, 1, 2},     {0x04C0, 0x04C0, 15, 1},
    {0x04C1, 0x04CD, 1, 2},    {0x04D0, 0x052E, 1, 2},     {0x0531, 0x0556, 48, 1},
    {0x1E00, 0x1E94, 1, 2},    {0x1E9B, 0x1E9B, -58, 1},   {0x1E9E, 0x1E9E, -7615, 1},
    {0x1EA0, 0x1EFE, 1, 2},    {0xFF21, 0xFF3A, 32, 1}};

constexpr char32_t kRightSingleQuote = 0x2019;

constexpr std::array<char, 128> make_ascii_fold() {
  std::array<char, 128> table{};
  for (int c = 0; c < 128; ++c) {
    table[c] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
  }
  return table;
}
constexpr std::array<char, 128> kAsciiFold = make_ascii_fold();

}  // namespace

char32_t fold_code_point(char32_t cp) noexcept {
  if (cp < 0x80) return static_cast<char32_t>(kAsciiFold[cp]);
  if (cp == kRightSingleQuote) return U'\'';
  // The run whose first code point is the greatest <= cp.
  const auto* it = std::upper_bound(std::begin(kRuns), std::end(kRuns), cp,
                                    [](char32_t c, const FoldRun& run) { return c < run.first; });
  if (it == std::begin(kRuns)) return cp;
  --it;
  if (cp > it->last || (cp - it->first) % it->stride != 0) return cp;
  return static_cast<char32_t>(static_cast<std::int64_t>(cp) + it->delta);
}

namespace {

/// Folds `text` (already NFKC or ASCII) code point by code point.
void append_simple_folded(std::string_view text, std::string& out) {
  out.reserve(out.size() + text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {  // ASCII fast path: one table lookup per byte
      out.push_back(kAsciiFold[byte]);
      ++pos;
      continue;
    }
    const CodePoint cp = decode_utf8(text, pos);
    const char32_t folded = cp.valid ? fold_code_point(cp.value) : kReplacementChar;
    if (cp.valid && folded == cp.value) {
      out.append(text.data() + pos, cp.length);  // unchanged: copy the bytes as they are
    } else {
      append_utf8(folded, out);
    }
    pos += cp.length;
  }
}

bool has_non_ascii(std::string_view text) noexcept {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

struct FreeDeleter {
  void operator()(utf8proc_uint8_t* p) const noexcept { std::free(p); }
};

/// NFKC of `text` (invalid bytes first become U+FFFD, one per byte), or empty when utf8proc fails.
std::string nfkc(std::string_view text) {
  std::string valid;
  valid.reserve(text.size());
  for (std::size_t pos = 0; pos < text.size();) {
    const CodePoint cp = decode_utf8(text, pos);
    if (cp.valid) {
      valid.append(text.data() + pos, cp.length);
    } else {
      append_utf8(kReplacementChar, valid);
    }
    pos += cp.length;
  }
  utf8proc_uint8_t* raw = nullptr;
  const utf8proc_ssize_t length = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(valid.data()),
      static_cast<utf8proc_ssize_t>(valid.size()), &raw,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT));
  const std::unique_ptr<utf8proc_uint8_t, FreeDeleter> owned(raw);
  if (length < 0) return valid;
  return std::string(reinterpret_cast<const char*>(owned.get()), static_cast<std::size_t>(length));
}

}  // namespace

void append_folded(std::string_view text, std::string& out) {
  // Compatibility normalization first, so that NFC and NFD, fullwidth forms and ligatures fold
  // alike ("café" either way, "ＡＢＣ" -> "abc", "ﬁ" -> "fi"); ASCII needs none.
  if (!has_non_ascii(text)) {
    append_simple_folded(text, out);
    return;
  }
  append_simple_folded(nfkc(text), out);
}

std::string fold(std::string_view text) {
  std::string out;
  append_folded(text, out);
  return out;
}

}  // namespace sc::text
