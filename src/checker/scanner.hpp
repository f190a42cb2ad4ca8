/// @brief One pass over a chunk: the text engine's tokens and the spec's sentence breaks, together.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "checker/python_str.hpp"
#include "text/python_space.hpp"
#include "text/tokenizer.hpp"
#include "text/utf8.hpp"

namespace sc::checker {

namespace scan_detail {

// Length in bytes of the closing quote or bracket at pos (" ' ) ] U+201D U+2019), 0 if none.
inline std::size_t closer_at(std::string_view s, std::size_t pos) noexcept {
  const char c = s[pos];
  if (c == '"' || c == '\'' || c == ')' || c == ']') return 1;
  if (static_cast<unsigned char>(c) == 0xE2 && pos + 2 < s.size() &&
      static_cast<unsigned char>(s[pos + 1]) == 0x80) {
    const auto third = static_cast<unsigned char>(s[pos + 2]);
    if (third == 0x9D || third == 0x99) return 3;
  }
  return 0;
}

// Length in bytes of the Python-whitespace code point at pos, 0 if none.
inline std::size_t space_at(std::string_view s, std::size_t pos) noexcept {
  return text::python_space_at(s, pos);
}

// If a sentence break (closers, then at least one whitespace) follows the [.!?] at pos - 1,
// returns the end of its whitespace; otherwise returns 0.
inline std::size_t break_end(std::string_view s, std::size_t pos) noexcept {
  std::size_t next = pos;
  while (next < s.size()) {
    const std::size_t len = closer_at(s, next);
    if (len == 0) break;
    next += len;
  }
  std::size_t end = next;
  while (end < s.size()) {
    const std::size_t len = space_at(s, end);
    if (len == 0) break;
    end += len;
  }
  return end == next ? 0 : end;
}

bool has_non_space(std::string_view s) noexcept;

}  // namespace scan_detail

/// Walks `text` once, calling on_token(const text::Token&) for every token exactly as
/// text::for_each_token finds it, and on_break() between sentences exactly where the spec's
///   [s for s in re.split(r"(?<=[.!?])[\"')\]\u201d\u2019]*\s+", text) if s.strip()]
/// separates them (see split_sentences). Returns the number of sentences: on_break() is called
/// (sentences - 1) times; with 0 sentences (a blank text) it is never called. Tokens never span
/// a break, so every token belongs to the sentence the last on_break() started.
template <class OnToken, class OnBreak>
std::size_t scan_chunk(std::string_view text, OnToken&& on_token, OnBreak&& on_break) {
  using namespace scan_detail;
  using text::detail::kByteClass;
  using text::detail::kDigit;
  using text::detail::kHigh;
  using text::detail::kLetter;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t pos = 0;
  std::size_t breaks = 0;
  std::size_t last_break_end = 0;
  bool any_token = false;
  text::Token token{};
  // A break is reported when the next sentence turns out to exist: the piece after the last
  // break is a sentence only if it is not empty (it then starts with a non-space).
  bool pending_break = false;
  // A token also confirms the sentence break before it. Always inlined: called from two places,
  // GCC otherwise makes it a call once on_token grows, which costs more than on_token's own work.
  const auto emit_token = [&]() __attribute__((always_inline)) {
    if (pending_break) {
      on_break();
      pending_break = false;
    }
    any_token = true;
    on_token(static_cast<const text::Token&>(token));
  };
  while (pos < size) {
    const unsigned char byte = b[pos];
    const std::uint8_t c = kByteClass[byte];
    if (c == kLetter || c == kDigit) {
      std::size_t end = 0;
      text::TokenKind kind{};
      if (text::detail::ascii_token(text, pos, end, kind)) {
        token = text::Token{text.substr(pos, end - pos), pos, kind};
        pos = end;
      } else {
        text::next_token(text, pos, token);
      }
      emit_token();
      continue;
    }
    if (c == kHigh) {
      const text::CodePoint cp = text::decode_utf8(text, pos);
      const text::CharClass cls = cp.valid ? text::classify(cp.value) : text::CharClass::Separator;
      if (cls == text::CharClass::Letter || cls == text::CharClass::Ideograph) {
        text::next_token(text, pos, token);
        emit_token();
        continue;
      }
      pos += cp.length;
      continue;
    }
    if (byte == '.' || byte == '!' || byte == '?') {
      const std::size_t end = break_end(text, pos + 1);
      if (end != 0) {
        // The piece before is a sentence: it holds this [.!?]. Report the break once something
        // follows it.
        if (pending_break) on_break();  // the previous piece ended with a break too
        pending_break = true;
        ++breaks;
        last_break_end = end;
        pos = end;
        continue;
      }
    }
    ++pos;
  }
  if (breaks == 0) return any_token || has_non_space(text) ? 1 : 0;
  // Pieces: breaks + 1; the last one counts only when it is not empty.
  if (last_break_end < size) {
    if (pending_break) on_break();
    return breaks + 1;
  }
  return breaks;
}

}  // namespace sc::checker
