#include "claims/claim_tokens.hpp"

#include <iterator>

#include "text/casefold.hpp"
#include "text/citations.hpp"
#include "text/stemmer.hpp"
#include "text/utf8.hpp"

namespace sc::claims {
namespace {

/// Whether `word` is one of `list`: length and first byte before memcmp (these run per token).
template <std::size_t N>
bool one_of(std::string_view word, const std::string_view (&list)[N]) noexcept {
  if (word.empty()) return false;
  for (const std::string_view w : list) {
    if (w.size() == word.size() && w[0] == word[0] && w == word) return true;
  }
  return false;
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Porter2 changes the second letter of a word only when everything after the first letter is a
// removable ending: possessives, then an optional plural 's', then "ed", "edly", "ing", "ingly"
// or "ying" ("aed" -> "a", "oings" -> "o", "dying" -> "die"). Checked against snowballstemmer on
// every a-z' word up to 5 letters and 246M generated words (tests/cpp/test_claim_tokens.cpp).
bool stem_may_change_second_letter(std::string_view base) noexcept {
  std::string_view rest = base.substr(1);
  while (true) {
    if (ends_with(rest, "'s")) {
      rest.remove_suffix(2);
    } else if (!rest.empty() && rest.back() == '\'') {
      rest.remove_suffix(1);
    } else {
      break;
    }
  }
  if (rest.empty()) return true;
  if (rest.back() == 's') rest.remove_suffix(1);
  return rest == "ed" || rest == "edly" || rest == "ing" || rest == "ingly" || rest == "ying";
}

bool stemmable(std::string_view word) noexcept {
  if (word.size() < 3) return false;
  for (const char c : word) {
    if (!((c >= 'a' && c <= 'z') || c == '\'')) return false;
  }
  return true;
}

// Letters of a token for the name rule: not a digit, '_', '\'', U+2019, '.' or ','.
bool is_name_letter(char32_t cp) noexcept {
  return !((cp >= '0' && cp <= '9') || cp == '_' || cp == '\'' || cp == 0x2019 || cp == '.' ||
           cp == ',');
}

}  // namespace

void fold_token(std::string_view token, std::string& out) {
  out.clear();
  for (const char c : token) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      out.clear();
      text::append_folded(token, out);
      return;
    }
    out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c);
  }
}

std::string_view word_base(std::string_view folded) noexcept {
  if (ends_with(folded, "'s")) return folded.substr(0, folded.size() - 2);
  while (!folded.empty() && folded.back() == '\'') folded.remove_suffix(1);
  return folded;
}

std::string_view number_part(std::string_view token, text::TokenKind kind) noexcept {
  if (kind == text::TokenKind::Number) return token;
  if (kind != text::TokenKind::Identifier || token.empty() || !is_digit(token[0])) return {};
  std::size_t i = 0;
  while (i < token.size() && is_digit(token[i])) ++i;
  while (i + 1 < token.size() && (token[i] == '.' || token[i] == ',') && is_digit(token[i + 1])) {
    i += 1;
    while (i < token.size() && is_digit(token[i])) ++i;
  }
  if (i == token.size()) return {};
  // The rest must be letters only (no '_', digits, apostrophes or number punctuation).
  for (std::size_t j = i; j < token.size();) {
    const text::CodePoint cp = text::decode_utf8(token, j);
    if (!is_name_letter(cp.value)) return {};
    j += cp.length;
  }
  return token.substr(0, i);
}

std::string_view number_word(std::string_view folded) noexcept {
  // "zero" and "one" are left out: "one of the", "the one who" are rarely a count.
  static constexpr std::string_view kWords[] = {
      "two",     "three",     "four",     "five",     "six",      "seven",    "eight",
      "nine",    "ten",       "eleven",   "twelve",   "thirteen", "fourteen", "fifteen",
      "sixteen", "seventeen", "eighteen", "nineteen", "twenty",   "thirty",   "forty",
      "fifty",   "sixty",     "seventy",  "eighty",   "ninety"};
  static constexpr std::string_view kDigits[] = {
      "2",  "3",  "4",  "5",  "6",  "7",  "8",  "9",  "10", "11", "12", "13", "14",
      "15", "16", "17", "18", "19", "20", "30", "40", "50", "60", "70", "80", "90"};
  if (folded.size() < 3 || folded.size() > 9) return {};
  const char c = folded[0];
  if (c != 't' && c != 'f' && c != 's' && c != 'e' && c != 'n') return {};
  for (std::size_t i = 0; i < std::size(kWords); ++i) {
    if (kWords[i].size() == folded.size() && kWords[i][0] == c && kWords[i] == folded) {
      return kDigits[i];
    }
  }
  return {};
}

bool is_speaker(std::string_view folded) noexcept {
  static constexpr std::string_view kWords[] = {
      "i",   "me",   "my",       "mine",      "myself",   "i'm",      "i've",
      "i'd", "i'll", "i\u2019m", "i\u2019ve", "i\u2019d", "i\u2019ll"};
  if (folded.empty() || (folded[0] != 'i' && folded[0] != 'm')) return false;
  return one_of(folded, kWords);
}

bool token_key(std::string_view token, text::TokenKind kind, std::string_view folded,
               std::string& key) {
  const std::string_view number = number_part(token, kind);
  if (!number.empty()) {
    key.clear();
    for (const char c : number) {
      if (c != ',') key.push_back(c);
    }
    return true;
  }
  if (kind == text::TokenKind::Word) {
    if (const std::string_view digits = number_word(folded); !digits.empty()) {
      key.assign(digits);
      return true;
    }
    if (is_speaker(folded)) {
      key.assign(kSpeakerKey);
      return false;
    }
  }
  text::stem_into(word_base(folded), key);
  return false;
}

bool is_negation(std::string_view folded) noexcept {
  static constexpr std::string_view kNegations[] = {"not",     "no",     "never",  "nor",
                                                    "neither", "none",   "nobody", "nothing",
                                                    "nowhere", "cannot", "without"};
  return one_of(folded, kNegations) || ends_with(folded, "n't");
}

bool is_particle(std::string_view folded) noexcept {
  static constexpr std::string_view kParticles[] = {
      "yes",    "yeah", "yep",  "well", "oh",  "also", "really", "actually",
      "indeed", "just", "okay", "ok",   "hmm", "wow",  "uh",     "um"};
  return one_of(folded, kParticles);
}

bool is_content(bool is_number, std::string_view folded,
                const text::StopWords& stopwords) noexcept {
  if (is_number) return true;
  if (is_speaker(folded)) return false;
  const std::string_view base = word_base(folded);
  return !(stopwords.contains_folded(folded) || stopwords.contains_folded(base) ||
           is_particle(folded) || is_particle(base));
}

bool is_capital(char32_t cp) noexcept {
  // The typographic apostrophe folds to '\'' and is no capital either.
  if (cp == 0x2019 || text::is_folding_lowercase(cp)) return false;
  return text::fold_code_point(cp) != cp;
}

NameShape name_shape(std::string_view token) noexcept {
  NameShape shape{false, true};
  std::size_t letters = 0;
  bool first = true;
  for (std::size_t i = 0; i < token.size();) {
    const text::CodePoint cp = text::decode_utf8(token, i);
    i += cp.length;
    const bool capital = is_capital(cp.value);
    if (first) {
      shape.capitalised = capital;
      first = false;
    }
    if (is_name_letter(cp.value)) {
      ++letters;
      shape.all_caps = shape.all_caps && capital;
    }
  }
  shape.capitalised = shape.capitalised && letters >= 2;
  return shape;
}

bool KeyFilter::always_matches(std::string_view folded) noexcept {
  const std::string_view base = word_base(folded);
  return stemmable(base) && stem_may_change_second_letter(base);
}

bool gap_ends_sentence(std::string_view text, std::size_t begin, std::size_t end,
                       const std::vector<text::Span>& runs, std::size_t& run) noexcept {
  bool found = false;
  std::size_t pos = begin;
  while (pos < end) {
    while (run < runs.size() && runs[run].end <= pos) ++run;
    if (run < runs.size() && runs[run].begin <= pos) {
      pos = runs[run].end;
      continue;
    }
    const char c = text[pos];
    switch (c) {
      case '.':
      case '!':
      case '?':
      case ':':
      case ';':
      case '"':
      case '(':
      case ')':
      case '[':
      case ']':
        found = true;
        break;
      default:
        // U+201C and U+201D, the typographic double quotes: E2 80 9C / E2 80 9D.
        if (static_cast<unsigned char>(c) == 0xE2 && pos + 2 < end &&
            static_cast<unsigned char>(text[pos + 1]) == 0x80 &&
            (static_cast<unsigned char>(text[pos + 2]) == 0x9C ||
             static_cast<unsigned char>(text[pos + 2]) == 0x9D)) {
          found = true;
        }
    }
    if (found) break;
    ++pos;
  }
  // Leave `run` at the first run that may hold or follow `end`.
  while (run < runs.size() && runs[run].end <= end) ++run;
  return found;
}

bool is_list_label(std::string_view text, const text::Token& first) noexcept {
  const auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const std::string_view digits = first.text;
  if (first.kind != text::TokenKind::Number || digits.empty() || digits.size() > 3 ||
      digits.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  std::size_t before = 0;
  while (before < first.offset && space(text[before])) ++before;
  if (before < first.offset && text[before] == '(') ++before;
  const std::size_t after = first.offset + digits.size();
  if (before != first.offset || after >= text.size()) return false;
  if (text[after] != '.' && text[after] != ')') return false;
  return after + 1 == text.size() || space(text[after + 1]);
}

std::vector<text::Span> citation_runs_of(std::string_view text) {
  if (text.find('[') == std::string_view::npos) return {};
  return text::citation_runs(text);
}

}  // namespace sc::claims
