/// @brief Simple (one-to-one) Unicode case folding of code points and UTF-8 text.
#pragma once

#include <string>
#include <string_view>

namespace sc::text {

/// Simple case folding of one code point (Unicode CaseFolding.txt, statuses C and S) for the
/// blocks a search engine for European-language text meets: ASCII, Latin-1 Supplement, Latin
/// Extended-A and -B, Greek and Coptic, Cyrillic and Cyrillic Supplement, Armenian, Latin Extended
/// Additional (Vietnamese) and fullwidth Latin capitals. Every other code point is returned as is.
///
/// Decisions (simple folding maps one code point to one code point):
/// - U+00DF 'ß' stays 'ß' (full folding would give "ss"); U+1E9E 'ẞ' folds to 'ß'.
/// - U+0130 'İ' folds to 'i' (Unicode's simple folding has no mapping; full folding gives "i̇"),
///   so "İstanbul" matches "istanbul". U+0131 'ı' is already lowercase and stays 'ı'.
/// - Final sigma 'ς' folds to 'σ', 'ſ' to 's', 'µ' (micro sign) to 'μ', as Unicode specifies.
/// - Characters whose only folding is one-to-many ('ŉ', 'ΐ', 'և', ...) stay unchanged.
/// - U+2019 (right single quotation mark, the typographic apostrophe) folds to ASCII '\'' so
///   "don’t" and "don't" are the same term.
char32_t fold_code_point(char32_t cp) noexcept;

/// A lowercase letter that simple case folding changes anyway: micro sign, long s, final sigma,
/// the Greek symbol variants of beta, theta, phi, pi, kappa, rho, epsilon, and long s with dot.
/// "Folding changes it" alone would take these for capitals.
constexpr bool is_folding_lowercase(char32_t cp) noexcept {
  switch (cp) {
    case 0x00B5:
    case 0x017F:
    case 0x03C2:
    case 0x03D0:
    case 0x03D1:
    case 0x03D5:
    case 0x03D6:
    case 0x03F0:
    case 0x03F1:
    case 0x03F5:
    case 0x1E9B:
      return true;
    default:
      return false;
  }
}

/// Appends the case-folded UTF-8 of `text` to `out`: Unicode compatibility normalization (NFKC,
/// utf8proc) and then simple case folding, so NFC and NFD, fullwidth forms and ligatures fold
/// alike. Invalid UTF-8 (truncated, overlong, surrogate, stray continuation bytes) becomes U+FFFD,
/// one per invalid byte. ASCII text is folded byte by byte.
void append_folded(std::string_view text, std::string& out);

/// The case-folded UTF-8 of `text` (see append_folded).
std::string fold(std::string_view text);

}  // namespace sc::text
