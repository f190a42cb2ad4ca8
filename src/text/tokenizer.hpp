/// @brief UTF-8 tokenizer: words, numbers and identifiers as views into the input, in one pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace sc::text {

/// What a token is made of.
/// - Word: letters only, possibly joined by internal apostrophes ("don't", "Arthur's",
///   "l'homme"; the stemmer removes the possessive "'s"), or one CJK/kana/Hangul character.
/// - Number: ASCII digits, possibly joined by single '.' or ',' between digits ("420",
///   "10,000", "3.14", "1.2.3"; "1,2" is one number, as in European decimals).
/// - Identifier: letters and digits mixed and/or joined by underscores ("IPC_420", "covid19",
///   "snake_case_name", "10th", "v1.2").
enum class TokenKind : std::uint8_t { Word, Number, Identifier };

/// "word", "number" or "identifier".
std::string_view to_string(TokenKind kind) noexcept;

/// One token: a view into the tokenized text, its byte offset there, and its kind.
struct Token {
  std::string_view text;
  std::size_t offset;
  TokenKind kind;
};

/// How the tokenizer sees one code point.
enum class CharClass : std::uint8_t {
  Separator,    // spaces, punctuation, symbols, emoji, controls, private use, U+FFFD
  Letter,       // ASCII letters and every other code point not listed elsewhere
  Digit,        // ASCII 0-9 only (other scripts' digits count as letters)
  Underscore,   // '_': joins letters/digits into identifiers
  Apostrophe,   // '\'' and U+2019: join letters into one word
  NumberPunct,  // '.' and ',': join digits into one number
  Ideograph,    // CJK ideographs, kana, Hangul, Yi, Bopomofo: one token per character
};

/// The class of one code point. Letters are the complement of a compact table of separator and
/// ideograph ranges (Latin-1 punctuation, General Punctuation, symbols, arrows, CJK punctuation,
/// emoji, private use, specials...), so every alphabetic script counts without a Unicode database.
CharClass classify(char32_t cp) noexcept;

/// Finds the token starting at or after byte `pos`, stores it in `out` and moves `pos` past it.
/// Returns false (pos == text.size()) when no token remains.
///
/// Rules: a token is a maximal run of letters and digits in which these connect the parts:
/// a run of '_' between two letters/digits; one apostrophe between two letters; one '.' or ','
/// between two digits. Anything else separates, so hyphenated words split into their parts
/// ("state-of-the-art" -> 4 words), a trailing period is never part of a number ("420." ->
/// "420"), and leading/trailing apostrophes or underscores are dropped ("__init__" -> "init").
/// Invalid UTF-8 bytes are separators; the scan never reads past text.size().
bool next_token(std::string_view text, std::size_t& pos, Token& out) noexcept;

/// Calls fn(const Token&) for every token of `text` in order. Allocates nothing.
template <class Fn>
void for_each_token(std::string_view text, Fn&& fn) {
  std::size_t pos = 0;
  Token token{};
  while (next_token(text, pos, token)) fn(std::as_const(token));
}

/// All tokens of `text` in order.
std::vector<Token> tokenize(std::string_view text);

/// The number of tokens of `text` (what tokenize(text).size() would be, without the vector).
std::size_t count_tokens(std::string_view text) noexcept;

}  // namespace sc::text
