/// @brief Claim tokens: matching keys (stems, numbers), content / negation / name tests,
/// citation-free walk.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "text/sentences.hpp"
#include "text/stopwords.hpp"
#include "text/tokenizer.hpp"

namespace sc::claims {

/// Case-folds one token into `out` (cleared first): ASCII by a byte loop, anything else with the
/// package's simple case folding (text/casefold.hpp).
void fold_token(std::string_view token, std::string& out);

/// A folded word without its possessive ending: "arthur's" -> "arthur", "students'" -> "students".
std::string_view word_base(std::string_view folded) noexcept;

/// The digits of a number: a Number token, or an Identifier made of a number and a letter suffix
/// ("19th" -> "19", "1840s" -> "1840", "3.5mm" -> "3.5"). Empty for anything else.
std::string_view number_part(std::string_view token, text::TokenKind kind) noexcept;

/// The key of every first-person singular word: the speaker is one claim item.
inline constexpr std::string_view kSpeakerKey = "#i";

/// The digits of a cardinal number word ("seven" -> "7"; two..twenty and the tens), else empty.
std::string_view number_word(std::string_view folded) noexcept;

/// A first-person singular word: "i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll".
bool is_speaker(std::string_view folded) noexcept;

/// Writes the matching key of a token into `key`: a number's digits without commas ("10,000" ->
/// "10000"), a number word's digits, kSpeakerKey for a first-person word, else the Porter2 stem of
/// the folded word's base. Returns whether it is a number (number words included).
bool token_key(std::string_view token, text::TokenKind kind, std::string_view folded,
               std::string& key);

/// A negation: "not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "nowhere",
/// "cannot", "without", or any word ending in "n't" (folded form).
bool is_negation(std::string_view folded) noexcept;

/// Answer particles and discourse markers with no checkable content ("yes", "well", "also"...).
bool is_particle(std::string_view folded) noexcept;

/// A content token: a number, or a word that is no first-person word and whose folded form and
/// base are neither stop words nor particles.
bool is_content(bool is_number, std::string_view folded, const text::StopWords& stopwords) noexcept;

/// A capital letter: simple case folding changes it and it is not one of the lowercase letters
/// that fold anyway ('µ', 'ſ', 'ς', 'ϐ', ...). Capitals of scripts outside the folding blocks
/// (Greek Extended, Georgian, Cherokee, Deseret...) do not count.
bool is_capital(char32_t cp) noexcept;

/// The shape of a token for the capitalised-name rule: it starts with a capital and has at least
/// two letters (`capitalised`), and all its letters are capitals (`all_caps`). Letters are every
/// character but digits, '_', apostrophes, '.' and ','.
struct NameShape {
  bool capitalised;
  bool all_caps;
};
NameShape name_shape(std::string_view token) noexcept;

/// A capitalised name: capitalised, and all caps or not the first token of a sentence.
inline bool is_name(NameShape shape, bool sentence_start) noexcept {
  return shape.capitalised && (shape.all_caps || !sentence_start);
}

/// The first (up to) two bytes of a key, as a 16-bit code: what KeyFilter compares.
inline std::uint16_t prefix_code(std::string_view key) noexcept {
  if (key.empty()) return 0;
  const auto b0 = static_cast<unsigned char>(key[0]);
  const auto b1 = key.size() > 1 ? static_cast<unsigned char>(key[1]) : 0u;
  return static_cast<std::uint16_t>(b0 | (b1 << 8));
}

/// The keys a text may match, reduced to their prefix codes, so most tokens of a long text are
/// ruled out before they are stemmed or hashed. Exact: Porter2 keeps the first two letters of a
/// word except when all but the first letter is a removable ending ("aed", "oing", "dying", see
/// might_match), which are always let through.
class KeyFilter {
 public:
  KeyFilter() : bits_(std::make_unique<std::bitset<65536>>()) {}
  void add(std::string_view key) noexcept { bits_->set(prefix_code(key)); }
  void add_code(std::uint16_t code) noexcept { bits_->set(code); }
  void remove_code(std::uint16_t code) noexcept { bits_->reset(code); }
  bool has(std::uint16_t code) const noexcept { return bits_->test(code); }
  /// Heap bytes held.
  static constexpr std::size_t memory_bytes() noexcept { return sizeof(std::bitset<65536>); }

  /// Whether the key of a word token whose folded form is `folded` may be one that was added.
  /// Numbers are keyed exactly (see token_key) and tested with has(prefix_code(key)).
  bool might_match_word(std::string_view folded) const noexcept {
    return always_matches(folded) || has(prefix_code(word_base(folded)));
  }
  /// The part of might_match_word that holds whatever was added: the words whose stem may not
  /// keep their base's prefix.
  static bool always_matches(std::string_view folded) noexcept;

 private:
  std::unique_ptr<std::bitset<65536>> bits_;
};

/// One token of a claim or chunk, as for_each_claim_token reports it.
struct ClaimToken {
  text::Token token;    // view into the walked text
  bool sentence_start;  // first token, or a gap with one of . ! ? : ; " “ ” ( ) [ ] before it
};

/// Whether the gap text[begin, end) holds a sentence-ending character, skipping the citation runs
/// `runs` (sorted byte spans of `text`) from index `run` on; advances `run` past the gap.
bool gap_ends_sentence(std::string_view text, std::size_t begin, std::size_t end,
                       const std::vector<text::Span>& runs, std::size_t& run) noexcept;

/// Calls fn(const ClaimToken&) for every token of `text` outside the citation runs `runs` (sorted
/// byte spans of `text`, e.g. citation_runs_of(text)), in order. When fn returns bool, false stops
/// the walk.
template <class Fn>
void for_each_claim_token(std::string_view text, const std::vector<text::Span>& runs, Fn&& fn) {
  std::size_t token_run = 0;  // first run that may hold the next token
  std::size_t gap_run = 0;    // first run that may intersect the next gap
  std::size_t last_end = 0;
  bool first = true;
  std::size_t pos = 0;
  text::Token token{};
  while (text::next_token(text, pos, token)) {
    while (token_run < runs.size() && runs[token_run].end <= token.offset) ++token_run;
    if (token_run < runs.size() && runs[token_run].begin <= token.offset) continue;
    // A gap of one space (most) ends nothing and holds no citation run, which has no token
    // before and after it inside one byte: no call (gap_run catches up at the next one).
    const bool one_space = token.offset == last_end + 1 && text[last_end] == ' ';
    const bool start =
        first || (!one_space && gap_ends_sentence(text, last_end, token.offset, runs, gap_run));
    first = false;
    last_end = token.offset + token.text.size();
    if constexpr (std::is_same_v<std::invoke_result_t<Fn&, const ClaimToken&>, bool>) {
      if (!fn(ClaimToken{token, start})) return;
    } else {
      fn(ClaimToken{token, start});
    }
  }
}

/// Whether `first` (the first token of the claim `text`) is a list label: 1-3 ASCII digits with
/// nothing before them but spaces and an optional '(', then '.' or ')' and a space or the end
/// ("1. ", "2) ", "(3) "). A numbered list's label is formatting, not a number the claim states.
bool is_list_label(std::string_view text, const text::Token& first) noexcept;

/// The citation runs of `text`, or none without a '[' (skips the scan for most chunks).
std::vector<text::Span> citation_runs_of(std::string_view text);

}  // namespace sc::claims
