/// @brief Python `str` semantics the reference formula relies on: `re` \w and \s, and str.lower().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sc::checker::pystr {

/// An inclusive range of code points.
struct CodePointRange {
  char32_t first;
  char32_t last;
};

/// Non-ASCII code points Python's `re` matches with `\w` (str.isalnum()), sorted and disjoint.
/// Generated from a Python interpreter's Unicode database (see python_word_table.cpp).
extern const CodePointRange kWordRanges[];
extern const std::size_t kWordRangeCount;

/// Whether `re` on a `str` matches `cp` with `\w`: a Unicode letter or digit (str.isalnum()) or
/// '_'.
bool is_word(char32_t cp) noexcept;

/// Whether `re` matches `cp` with `\s` (the same set as str.isspace()).
bool is_space(char32_t cp) noexcept;

/// The distinct matches of `\b[a-zA-Z]{3,}\b` in query.lower() in order of first appearance, minus
/// `stop_words` (lowercase ASCII). Python semantics throughout: str.lower() maps U+212A (Kelvin) to
/// 'k' and U+0130 to "i" + U+0307, a letter run next to any Unicode letter or digit has no \b.
/// Invalid UTF-8 bytes count as U+FFFD (not a word character).
std::vector<std::string> ascii_query_terms(std::string_view query,
                                           const std::vector<std::string_view>& stop_words);

/// Appends to `out` a byte string in which every ASCII-letter substring of text.lower() appears
/// exactly where Python would find it: ASCII bytes lowercased, U+212A -> 'k', U+0130 -> 'i' and a
/// 0x80 byte, any other code point (or invalid byte) -> one 0x80 byte. So for a lowercase ASCII
/// term t, `t in text.lower()` equals `out.find(t) != npos`.
void append_ascii_lowered(std::string_view text, std::string& out);

/// len(text) in Python: the number of code points (each invalid byte counts as one U+FFFD).
std::size_t code_point_count(std::string_view text) noexcept;

}  // namespace sc::checker::pystr
