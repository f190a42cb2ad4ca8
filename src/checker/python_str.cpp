#include "checker/python_str.hpp"

#include <algorithm>
#include <cstdint>

#include "text/python_space.hpp"
#include "text/utf8.hpp"

namespace sc::checker::pystr {
namespace {

constexpr char32_t kKelvin = 0x212A;                    // lower() -> 'k'
constexpr char32_t kCapitalIWithDot = 0x0130;           // lower() -> "i" + U+0307 (not a word char)
constexpr char kPlaceholder = static_cast<char>(0x80);  // never part of an ASCII term

constexpr bool is_ascii_letter(unsigned char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

constexpr bool is_ascii_word(unsigned char c) noexcept {
  return is_ascii_letter(c) || (c >= '0' && c <= '9') || c == '_';
}

// How one code point of the query reads after str.lower(), for the term regex.
enum class Lowered : std::uint8_t {
  kLetter,          // one ASCII letter (`letter` holds it)
  kLetterThenStop,  // 'i' followed by a non-word code point (U+0130)
  kWord,            // a word character that is not an ASCII letter
  kOther,           // not a word character
};

}  // namespace

bool is_word(char32_t cp) noexcept {
  if (cp < 0x80) return is_ascii_word(static_cast<unsigned char>(cp));
  const CodePointRange* begin = kWordRanges;
  const CodePointRange* end = kWordRanges + kWordRangeCount;
  const auto* it = std::upper_bound(
      begin, end, cp, [](char32_t c, const CodePointRange& r) { return c < r.first; });
  if (it == begin) return false;
  --it;
  return cp <= it->last;
}

bool is_space(char32_t cp) noexcept { return text::is_python_space(cp); }

std::vector<std::string> ascii_query_terms(std::string_view query,
                                           const std::vector<std::string_view>& stop_words) {
  std::vector<std::string> terms;
  std::string run;
  bool run_open = true;  // the run started after a non-word code point (or at the start)
  const auto close_run = [&](bool next_is_word) {
    if (run_open && !next_is_word && run.size() >= 3 &&
        std::find(stop_words.begin(), stop_words.end(), run) == stop_words.end() &&
        std::find(terms.begin(), terms.end(), run) == terms.end()) {
      terms.push_back(run);
    }
    run.clear();
  };
  std::size_t pos = 0;
  bool prev_word = false;  // the previous lowered code point is a word character
  while (pos < query.size()) {
    const text::CodePoint cp = text::decode_utf8(query, pos);
    pos += cp.length;
    Lowered kind = Lowered::kOther;
    char letter = 0;
    if (cp.value < 0x80) {
      const auto c = static_cast<unsigned char>(cp.value);
      if (is_ascii_letter(c)) {
        kind = Lowered::kLetter;
        letter = static_cast<char>(c | 0x20);
      } else if (is_ascii_word(c)) {
        kind = Lowered::kWord;
      }
    } else if (!cp.valid) {
      kind = Lowered::kOther;
    } else if (cp.value == kKelvin) {
      kind = Lowered::kLetter;
      letter = 'k';
    } else if (cp.value == kCapitalIWithDot) {
      kind = Lowered::kLetterThenStop;
      letter = 'i';
    } else if (is_word(cp.value)) {
      kind = Lowered::kWord;
    }
    if (kind == Lowered::kLetter || kind == Lowered::kLetterThenStop) {
      if (run.empty()) run_open = !prev_word;
      run.push_back(letter);
      prev_word = true;
      if (kind == Lowered::kLetterThenStop) {  // U+0307 follows: not a word character
        close_run(false);
        prev_word = false;
      }
      continue;
    }
    const bool word = kind == Lowered::kWord;
    if (!run.empty()) close_run(word);
    prev_word = word;
  }
  if (!run.empty()) close_run(false);
  return terms;
}

void append_ascii_lowered(std::string_view text, std::string& out) {
  const std::size_t base = out.size();
  out.resize(base + text.size());  // never longer: U+0130 is 2 bytes in and out, the rest shrink
  char* dst = out.data() + base;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      *dst++ = static_cast<char>(byte >= 'A' && byte <= 'Z' ? byte | 0x20 : byte);
      ++pos;
      continue;
    }
    const text::CodePoint cp = text::decode_utf8(text, pos);
    pos += cp.length;
    if (cp.valid && cp.value == kKelvin) {
      *dst++ = 'k';
    } else if (cp.valid && cp.value == kCapitalIWithDot) {
      *dst++ = 'i';
      *dst++ = kPlaceholder;
    } else {
      *dst++ = kPlaceholder;
    }
  }
  out.resize(static_cast<std::size_t>(dst - out.data()));
}

std::size_t code_point_count(std::string_view text) noexcept {
  std::size_t count = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte < 0x80) {
      ++pos;
    } else {
      pos += text::decode_utf8(text, pos).length;
    }
    ++count;
  }
  return count;
}

}  // namespace sc::checker::pystr
