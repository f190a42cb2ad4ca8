#include "text/sentences.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <string>

#include "common/no_destructor.hpp"
#include "text/casefold.hpp"
#include "text/citations.hpp"
#include "text/python_space.hpp"
#include "text/tokenizer.hpp"
#include "text/utf8.hpp"

namespace sc::text {
namespace {

using Kind = AbbreviationKind;

/// Words that open sentences often enough to end one after an initial or acronym
/// ("in the U.S. The law" splits, "the U.S. Supreme Court" does not). Matched exactly.
constexpr std::string_view kOpeners[] = {
    "A",         "Accordingly", "After",     "All",          "Also",    "Although",
    "An",        "And",         "Any",       "As",           "At",      "Before",
    "Both",      "But",         "By",        "Consequently", "Each",    "Every",
    "Finally",   "For",         "From",      "Furthermore",  "He",      "Hence",
    "Her",       "Here",        "His",       "How",          "However", "I",
    "If",        "In",          "It",        "Its",          "Many",    "Moreover",
    "Most",      "My",          "Not",       "On",           "Only",    "Or",
    "Our",       "She",         "Similarly", "Since",        "So",      "Some",
    "Such",      "That",        "The",       "Their",        "Then",    "There",
    "Therefore", "These",       "They",      "This",         "Those",   "Though",
    "Thus",      "Under",       "We",        "What",         "When",    "Where",
    "Which",     "While",       "Who",       "Why",          "With",    "Yet",
    "You",
};

// The built-in abbreviations, without their final '.'. Lowercase entries match in any case,
// capitalised ones exactly (see Abbreviation).
// Titles, references, months and Latin that a name, number or phrase follows.
constexpr std::string_view kNeverEnds[] = {
    "Mr",  "Mrs",  "Ms",   "Mx",     "Dr",  "Prof", "St",    "Jr",   "Sr",   "Hon", "Gen", "Lt",
    "Col", "Capt", "Sgt",  "Rev",    "Gov", "Sen",  "Rep",   "Mt",   "No",   "Nos", "Art", "Arts",
    "Fig", "Figs", "Ch",   "Cl",     "Sch", "Ord",  "Reg",   "Regs", "Dept", "Co",  "Jan", "Feb",
    "Mar", "Apr",  "Jun",  "Jul",    "Aug", "Sep",  "Sept",  "Oct",  "Nov",  "Dec", "sec", "secs",
    "rs",  "vol",  "vols", "p",      "pp",  "para", "paras", "ref",  "refs", "e.g", "i.e", "cf",
    "vs",  "v",    "viz",  "approx", "ca",  "incl", "esp",   "govt",
};
// Often the last word of a sentence, but also before a name: end only before an opener word.
constexpr std::string_view kEndBeforeOpener[] = {"U.S",  "U.K",  "Inc",  "Ltd",
                                                 "Corp", "Bros", "Ph.D", "al"};
// End sentences like any word; listed so that the decision is written down.
constexpr std::string_view kEndLikeWords[] = {"etc"};

bool is_ascii_alpha(unsigned char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
bool is_ascii_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }

/// Terminal punctuation that needs whitespace after it to end a sentence.
bool is_western_terminal(char32_t cp) noexcept {
  switch (cp) {
    case '.':
    case '!':
    case '?':
    case 0x2026:  // … horizontal ellipsis
    case 0x203C:
    case 0x2047:
    case 0x2048:
    case 0x2049:  // ‼ ⁇ ⁈ ⁉
    case 0x0964:
    case 0x0965:  // । ॥ Devanagari danda, double danda
    case 0x061F:
    case 0x06D4:  // ؟ Arabic question mark, ۔ Arabic full stop
      return true;
    default:
      return false;
  }
}

/// CJK terminal punctuation: ends a sentence whatever follows (CJK puts no space after it).
bool is_cjk_terminal(char32_t cp) noexcept {
  return cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F || cp == 0xFF61;  // 。！？｡
}

/// Closing quotes and brackets that stay with the terminal punctuation before them.
bool is_closer(char32_t cp) noexcept {
  switch (cp) {
    case ')':
    case ']':
    case '}':
    case '"':
    case '\'':
    case 0x2019:
    case 0x201D:
    case 0x00BB:
    case 0x203A:  // ’ ” » ›
    case 0xFF09:
    case 0xFF3D:
    case 0x300D:
    case 0x300F:
    case 0x3011:  // ） ］ 」 』 】
      return true;
    default:
      return false;
  }
}

/// Punctuation that continues a sentence, so it cannot open the next one.
bool is_continuation(char32_t cp) noexcept {
  switch (cp) {
    case ',':
    case ';':
    case ':':
    case ')':
    case ']':
    case '}':
    case '%':
    case '.':
    case '!':
    case '?':
    case 0x2019:
    case 0x201D:
    case 0x00BB:
    case 0x203A:
    case 0x2026:  // ’ ” » › …
    case 0x3001:
    case 0xFF0C:
    case 0xFF09:
    case 0xFF1B:
    case 0xFF1A:  // 、 ， ） ； ：
      return true;
    default:
      return false;
  }
}

/// Lowercase letters of the scripts with case that casefold.hpp covers: a letter there that case
/// folding leaves unchanged is lowercase, and so are the lowercase letters folding changes anyway
/// (long s, final sigma, the Greek symbol variants, long s with dot), as Python's islower() says.
/// Letters of other scripts have no case.
bool is_lowercase(char32_t cp) noexcept {
  if (cp < 0x80) return cp >= 'a' && cp <= 'z';
  if (is_folding_lowercase(cp)) return true;
  const bool cased_block = (cp >= 0x00DF && cp <= 0x02AF) || (cp >= 0x0370 && cp <= 0x058F) ||
                           (cp >= 0x1E00 && cp <= 0x1EFF) || (cp >= 0xFF41 && cp <= 0xFF5A);
  return cased_block && classify(cp) == CharClass::Letter && fold_code_point(cp) == cp;
}

struct LineBreak {
  std::size_t length;  // 0: no line break here
  bool paragraph;      // U+2029 PARAGRAPH SEPARATOR
};

/// "\n", "\r\n", "\r", U+0085 NEL, U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR.
LineBreak line_break_at(std::string_view t, std::size_t pos) noexcept {
  const std::size_t n = t.size();
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(t[i]); };
  const unsigned char c = b(pos);
  if (c == '\n') return {1, false};
  if (c == '\r') return {pos + 1 < n && t[pos + 1] == '\n' ? 2u : 1u, false};
  if (c == 0xC2 && pos + 1 < n && b(pos + 1) == 0x85) return {2, false};
  if (c == 0xE2 && pos + 2 < n && b(pos + 1) == 0x80 &&
      (b(pos + 2) == 0xA8 || b(pos + 2) == 0xA9)) {
    return {3, b(pos + 2) == 0xA9};
  }
  return {0, false};
}

/// The code point that ends at byte `end` (decoded forward from its lead byte, so it agrees with
/// a forward scan), or U+FFFD with valid == false when the bytes there are not one code point.
CodePoint code_point_before(std::string_view t, std::size_t floor, std::size_t end) noexcept {
  for (std::size_t k = 1; k <= 4 && end >= floor + k; ++k) {
    const std::size_t s = end - k;
    if ((static_cast<unsigned char>(t[s]) & 0xC0) != 0x80) {
      const CodePoint cp = decode_utf8(t, s);
      if (cp.length == k) return cp;
      break;
    }
  }
  return {kReplacementChar, 1, false};
}

constexpr std::string_view kBullets[] = {"-",      "*",      "+",      "\u2022", "\u2023",
                                         "\u25E6", "\u25AA", "\u25B8", "\u2013", "\u2014"};

bool is_roman(std::string_view s) noexcept {
  if (s.empty() || s.size() > 4) return false;
  for (const char c : s) {
    if (c != 'i' && c != 'v' && c != 'x' && c != 'I' && c != 'V' && c != 'X') return false;
  }
  return true;
}

bool is_hspace_byte(char c) noexcept { return c == ' ' || c == '\t'; }

/// Whether a list item starts at `p`: a bullet ("- ", "* ", "+ ", "• ", "– "...), "1. ", "2) ",
/// "(a) ", "(iv) ", "(3) ", "a) ", "a. ", each followed by a space or tab.
bool list_item_at(std::string_view t, std::size_t p) noexcept {
  const std::string_view rest = t.substr(p);
  for (const std::string_view bullet : kBullets) {
    if (rest.size() > bullet.size() && rest.substr(0, bullet.size()) == bullet &&
        is_hspace_byte(rest[bullet.size()])) {
      return true;
    }
  }
  std::size_t i = 0;
  const bool paren = !rest.empty() && rest[0] == '(';
  if (paren) ++i;
  const std::size_t label = i;
  while (i < rest.size() && i - label <= 4 &&
         (is_ascii_digit(rest[i]) || is_ascii_alpha(rest[i]))) {
    ++i;
  }
  const std::string_view word = rest.substr(label, i - label);
  const bool digits = !word.empty() && word.size() <= 3 &&
                      word.find_first_not_of("0123456789") == std::string_view::npos;
  const bool letter = word.size() == 1 && is_ascii_alpha(word[0]);
  if (!(digits || letter || (paren && is_roman(word)))) return false;
  if (i >= rest.size()) return false;
  const char close = rest[i];
  if (paren ? close != ')' : (close != ')' && close != '.')) return false;
  return i + 1 < rest.size() && is_hspace_byte(rest[i + 1]);
}

/// "# Heading" to "###### Heading" at `p`.
bool heading_at(std::string_view t, std::size_t p) noexcept {
  std::size_t i = p;
  while (i < t.size() && i - p < 6 && t[i] == '#') ++i;
  return i > p && i < t.size() && is_hspace_byte(t[i]);
}

// Lead bytes of what run() acts on: "\n", "\r", '[', ". ! ?", and the first byte of every
// other line break (U+0085, U+2028, U+2029) and terminal mark (is_western_terminal,
// is_cjk_terminal). run() treats any other byte, ASCII or not, as one it steps over, so a scan
// may skip it unread; an acting code point never hides inside another one (its lead byte is no
// continuation byte). tests/cpp/test_text_fast_paths.cpp checks every code point.
// 0xC2: U+0085. 0xD8, 0xDB: U+061F, U+06D4. 0xE0: U+0964, U+0965. 0xE2: U+2026, U+2028, U+2029,
// U+203C, U+2047-U+2049. 0xE3: U+3002. 0xEF: U+FF01, U+FF1F, U+FF61.
constexpr unsigned char kActingBytes[] = {'\n', '\r', '[',  '.',  '!',  '?', 0xC2,
                                          0xD8, 0xDB, 0xE0, 0xE2, 0xE3, 0xEF};

constexpr std::array<bool, 256> make_inert_table() {
  std::array<bool, 256> table{};
  for (bool& inert : table) inert = true;
  for (const unsigned char b : kActingBytes) table[b] = false;
  return table;
}
constexpr std::array<bool, 256> kInert = make_inert_table();

/// The first byte at or after `p` that run() may act on (t.size() if none). SSE2 compares 16 bytes
/// at a time with every acting byte (prose has a '.' every ~100 bytes); the table decides the
/// rest, a byte at a time (on prose it beat an 8-byte SWAR test). Non-ASCII lead bytes are
/// compared too: stopping at every byte >= 0x80 made Cyrillic, Greek or CJK text a block per
/// byte, twice as slow as the table.
std::size_t skip_inert(std::string_view t, std::size_t p) noexcept {
#if defined(__SSE2__)
  // CJK text acts every few bytes (its terminal marks share their lead byte with the kana): the
  // table settles such a stop before any block is compared.
  for (const std::size_t end = std::min(t.size(), p + 4); p < end; ++p) {
    if (!kInert[static_cast<unsigned char>(t[p])]) return p;
  }
  constexpr std::size_t kActing = sizeof(kActingBytes);
  const auto* b = reinterpret_cast<const unsigned char*>(t.data());
  __m128i acting[kActing];
  for (std::size_t i = 0; i < kActing; ++i) {
    acting[i] = _mm_set1_epi8(static_cast<char>(kActingBytes[i]));
  }
  while (p + 16 <= t.size()) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + p));
    __m128i hit = _mm_cmpeq_epi8(v, acting[0]);
    for (std::size_t i = 1; i < kActing; ++i) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v, acting[i]));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return p + static_cast<std::size_t>(__builtin_ctz(mask));
    p += 16;
  }
#endif
  while (p < t.size() && kInert[static_cast<unsigned char>(t[p])]) ++p;
  return p;
}

class Scanner {
 public:
  /// `skip` lets run() jump over inert bytes; without it run() reads every byte (the reference
  /// the tests compare the skipping scan with).
  Scanner(std::string_view text, const std::vector<SentenceSplitter::Entry>& entries,
          const std::vector<std::size_t>& by_size, bool skip)
      : t_(text), n_(text.size()), entries_(entries), by_size_(by_size), skip_(skip) {}

  std::vector<Span> run() {
    // About one sentence per 64 bytes, up to 1,024 at first: one allocation for most texts, where
    // growing from one span reallocated three or four times.
    out_.reserve(std::min<std::size_t>(n_ / 64 + 1, 1024));
    while (pos_ < n_) {
      if (skip_) {
        pos_ = skip_inert(t_, pos_);
        if (pos_ >= n_) break;
      }
      const LineBreak lb = line_break_at(t_, pos_);
      if (lb.length != 0) {
        on_line_break(lb);
        continue;
      }
      const auto c = static_cast<unsigned char>(t_[pos_]);
      if (c == '[') {
        const std::size_t end = citation_run_end(t_, pos_);
        if (end == 0) {
          ++pos_;
          continue;
        }
        last_run_end_ = end;
        pos_ = end;  // ids are not text: "[doc.3]" holds no sentence end
        continue;
      }
      if (c < 0x80 && c != '.' && c != '!' && c != '?') {  // the common case, one byte
        ++pos_;
        continue;
      }
      const CodePoint cp = decode_utf8(t_, pos_);
      if (cp.valid && (is_western_terminal(cp.value) || is_cjk_terminal(cp.value))) {
        on_terminal();
        continue;
      }
      pos_ += cp.length;
    }
    emit(n_);
    return std::move(out_);
  }

 private:
  CodePoint at(std::size_t p) const noexcept { return decode_utf8(t_, p); }

  /// Whitespace other than line breaks.
  std::size_t skip_hspace(std::size_t p) const noexcept {
    while (p < n_ && line_break_at(t_, p).length == 0) {
      const CodePoint cp = at(p);
      if (!is_python_space(cp.value) || !cp.valid) break;
      p += cp.length;
    }
    return p;
  }

  /// Any whitespace; `crossed_line` tells whether a line break was among it.
  std::size_t skip_space(std::size_t p, bool& crossed_line) const noexcept {
    crossed_line = false;
    while (p < n_) {
      const CodePoint cp = at(p);
      if (!is_python_space(cp.value) || !cp.valid) break;
      crossed_line = crossed_line || line_break_at(t_, p).length != 0;
      p += cp.length;
    }
    return p;
  }

  /// Emits [begin_, end) trimmed of whitespace, if anything remains, and starts the next sentence.
  void emit(std::size_t end) {
    std::size_t b = begin_;
    while (b < end) {
      const CodePoint cp = at(b);
      if (!cp.valid || !is_python_space(cp.value)) break;
      b += cp.length;
    }
    std::size_t e = end;
    while (e > b) {
      const CodePoint cp = code_point_before(t_, b, e);
      if (!cp.valid || !is_python_space(cp.value)) break;
      e -= cp.length;
    }
    if (b < e) out_.push_back({b, e});
    begin_ = end;
    first_ = kUnknown;
  }

  /// Byte offset of the current sentence's first non-whitespace character.
  std::size_t first_of_sentence() {
    if (first_ == kUnknown) {
      bool crossed = false;
      first_ = skip_space(begin_, crossed);
    }
    return first_;
  }

  /// How the '.' at `dot` behaves, judged by the ASCII word before it.
  Kind kind_before_dot(std::size_t dot) {
    constexpr std::size_t kMaxWord = 32;  // longer words are no abbreviations; bounds the scan
    std::size_t b = dot;
    while (b > begin_ && dot - b <= kMaxWord) {
      const auto c = static_cast<unsigned char>(t_[b - 1]);
      if (!is_ascii_alpha(c) && !is_ascii_digit(c) && c != '.') break;
      --b;
    }
    while (b < dot && t_[b] == '.') ++b;  // "...Mr." -> "Mr"
    if (b == dot || dot - b > kMaxWord) return Kind::Word;
    if (b > begin_) {  // a word that started with a non-ASCII letter ("Dé.") is no abbreviation
      const CodePoint prev = code_point_before(t_, begin_, b);
      if (prev.valid && prev.value >= 0x80 && classify(prev.value) == CharClass::Letter) {
        return Kind::Word;
      }
    }
    const std::string_view word = t_.substr(b, dot - b);
    const bool opens_sentence = b == first_of_sentence();
    bool has_digit = false;
    bool has_dot = false;
    for (const char c : word) {
      has_digit = has_digit || is_ascii_digit(static_cast<unsigned char>(c));
      has_dot = has_dot || c == '.';
    }
    if (has_digit) {
      // "12." opening a sentence is a list label, and so is "1." after a colon ("Steps: 1. File.":
      // later items open sentences); "Total: 420." ends one.
      std::size_t before = b;
      while (before > begin_ && is_hspace_byte(t_[before - 1])) --before;
      const bool after_colon = before < b && before > begin_ && t_[before - 1] == ':';
      const bool label = (opens_sentence && word.size() <= 3 &&
                          word.find_first_not_of("0123456789") == std::string_view::npos) ||
                         (after_colon && word == "1");
      return label ? Kind::Never : Kind::Word;
    }
    if (opens_sentence && (word.size() == 1 || is_roman(word))) return Kind::Never;  // "a.", "iv."
    // Only the entries of the word's size can match, in list order.
    const std::size_t last = word.size() + 1 < by_size_.size() ? by_size_[word.size() + 1] : 0;
    for (std::size_t i = word.size() < by_size_.size() ? by_size_[word.size()] : 0; i < last; ++i) {
      const SentenceSplitter::Entry& entry = entries_[i];
      if (entry.any_case ? equals_ignoring_case(entry.word, word) : entry.word == word) {
        return entry.kind;
      }
    }
    if (word.size() == 1 && word[0] >= 'A' && word[0] <= 'Z') return Kind::BeforeOpener;
    if (has_dot && is_dotted_acronym(word)) return Kind::BeforeOpener;
    return Kind::Word;
  }

  static bool equals_ignoring_case(std::string_view lower, std::string_view word) noexcept {
    for (std::size_t i = 0; i < word.size(); ++i) {
      char c = word[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != lower[i]) return false;
    }
    return true;
  }

  /// Single letters joined by dots: "U.S", "I.P.C", "a.m".
  static bool is_dotted_acronym(std::string_view word) noexcept {
    for (std::size_t i = 0; i < word.size(); ++i) {
      const bool letter_slot = i % 2 == 0;
      if (letter_slot != is_ascii_alpha(static_cast<unsigned char>(word[i]))) return false;
    }
    return word.size() % 2 == 1;
  }

  bool opener_word_at(std::size_t p) const noexcept {
    std::size_t e = p;
    while (e < n_ && is_ascii_alpha(static_cast<unsigned char>(t_[e]))) ++e;
    if (e < n_ && static_cast<unsigned char>(t_[e]) >= 0x80) return false;  // "Théo" is not "Th"
    const std::string_view word = t_.substr(p, e - p);
    for (const std::string_view opener : kOpeners) {
      if (word == opener) return true;
    }
    return false;
  }

  bool can_open_sentence(std::size_t p) const noexcept {
    const CodePoint cp = at(p);
    if (!cp.valid) return true;  // U+FFFD is an ordinary character
    return !is_lowercase(cp.value) && !is_continuation(cp.value);
  }

  void on_terminal() {
    const std::size_t dot = pos_;
    std::size_t j = pos_;
    bool cjk = false;
    while (j < n_) {
      const CodePoint cp = at(j);
      if (!cp.valid) break;
      const bool cjk_terminal = is_cjk_terminal(cp.value);
      if (!cjk_terminal && !is_western_terminal(cp.value)) break;
      cjk = cjk || cjk_terminal;
      j += cp.length;
    }
    const bool single_dot = j == dot + 1 && t_[dot] == '.';
    while (j < n_) {
      const CodePoint cp = at(j);
      if (!cp.valid || !is_closer(cp.value)) break;
      j += cp.length;
    }
    std::size_t end = j;
    const Kind kind = single_dot ? kind_before_dot(dot) : Kind::Word;
    if (kind == Kind::Never) {
      pos_ = j;
      return;
    }
    // A marker right after the punctuation, on the same line, closes this sentence.
    const std::size_t k = skip_hspace(j);
    if (k < n_ && t_[k] == '[') {
      const std::size_t run_end = citation_run_end(t_, k);
      if (run_end != 0) {
        last_run_end_ = run_end;
        emit(run_end);
        pos_ = run_end;
        return;
      }
    }
    if (!cjk) {
      if (j < n_) {
        const CodePoint next = at(j);
        if (!next.valid || !is_python_space(next.value)) {  // "10.5", "e.g.,", "a.b"
          pos_ = j;
          return;
        }
      }
      bool crossed_line = false;
      const std::size_t next = skip_space(j, crossed_line);
      if (next < n_ && !crossed_line) {
        const bool opens =
            kind == Kind::BeforeOpener ? opener_word_at(next) : can_open_sentence(next);
        if (!opens) {
          pos_ = j;
          return;
        }
      }
    }
    emit(end);
    pos_ = end;
  }

  void on_line_break(const LineBreak& lb) {
    const std::size_t next = pos_ + lb.length;
    const std::size_t p = skip_hspace(next);
    const bool split = lb.paragraph || p >= n_ || line_break_at(t_, p).length != 0 ||
                       list_item_at(t_, p) || heading_at(t_, p) || line_is_title(pos_) ||
                       line_ends_with_marker(pos_);
    if (split) emit(pos_);
    pos_ = next;
    line_start_ = next;
  }

  /// The line [line_start_, end) is a Markdown heading or a bold line ("**Punishment**").
  bool line_is_title(std::size_t end) const noexcept {
    const std::size_t b = skip_hspace(line_start_);
    if (heading_at(t_, b)) return true;
    std::size_t e = end;
    while (e > b && is_hspace_byte(t_[e - 1])) --e;
    const std::string_view line = t_.substr(b, e > b ? e - b : 0);
    return line.size() >= 5 && line.substr(0, 2) == "**" && line.substr(line.size() - 2) == "**";
  }

  bool line_ends_with_marker(std::size_t end) const noexcept {
    std::size_t e = end;
    while (e > line_start_ && is_hspace_byte(t_[e - 1])) --e;
    return e > line_start_ && e == last_run_end_;
  }

  static constexpr std::size_t kUnknown = static_cast<std::size_t>(-1);

  std::string_view t_;
  std::size_t n_;
  const std::vector<SentenceSplitter::Entry>& entries_;
  const std::vector<std::size_t>& by_size_;
  bool skip_;
  std::vector<Span> out_;
  std::size_t pos_ = 0;
  std::size_t begin_ = 0;         // start of the current sentence (untrimmed)
  std::size_t first_ = kUnknown;  // its first non-whitespace byte, computed on demand
  std::size_t line_start_ = 0;
  std::size_t last_run_end_ = 0;  // end of the last citation run seen (0: none)
};

}  // namespace

const std::vector<Abbreviation>& default_abbreviations() {
  static const NoDestructor<std::vector<Abbreviation>> kList([] {
    std::vector<Abbreviation> list;
    for (const std::string_view word : kNeverEnds) list.push_back({word, Kind::Never});
    for (const std::string_view word : kEndBeforeOpener) list.push_back({word, Kind::BeforeOpener});
    for (const std::string_view word : kEndLikeWords) list.push_back({word, Kind::Word});
    return list;
  }());
  return *kList;
}

SentenceSplitter::SentenceSplitter(const std::vector<Abbreviation>& abbreviations) {
  entries_.reserve(abbreviations.size());
  for (const Abbreviation& a : abbreviations) {
    bool any_case = true;
    for (const char c : a.word) any_case = any_case && !(c >= 'A' && c <= 'Z');
    entries_.push_back({std::string(a.word), a.kind, any_case});
  }
  // Stable: within one size the list order stays, so the first matching entry still decides.
  std::stable_sort(entries_.begin(), entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.word.size() < b.word.size(); });
  const std::size_t longest = entries_.empty() ? 0 : entries_.back().word.size();
  by_size_.assign(longest + 2, 0);
  for (std::size_t k = 0, i = 0; k < by_size_.size(); ++k) {
    while (i < entries_.size() && entries_[i].word.size() < k) ++i;
    by_size_[k] = i;
  }
}

std::vector<Span> SentenceSplitter::split(std::string_view text) const {
  return Scanner(text, entries_, by_size_, true).run();
}

std::vector<Span> SentenceSplitter::split_bytewise(std::string_view text) const {
  return Scanner(text, entries_, by_size_, false).run();
}

std::vector<Span> split_sentences(std::string_view text) {
  static const NoDestructor<SentenceSplitter> kDefault(default_abbreviations());
  return kDefault->split(text);
}

std::vector<Span> split_sentences_bytewise(std::string_view text) {
  static const NoDestructor<SentenceSplitter> kDefault(default_abbreviations());
  return kDefault->split_bytewise(text);
}

}  // namespace sc::text
