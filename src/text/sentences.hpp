/// @brief Sentence splitting into byte spans, aware of abbreviations, numbers, lists and citations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sc::text {

/// A half-open byte range [begin, end) into a text.
struct Span {
  std::size_t begin;
  std::size_t end;
  friend bool operator==(const Span& a, const Span& b) noexcept {
    return a.begin == b.begin && a.end == b.end;
  }
  friend bool operator!=(const Span& a, const Span& b) noexcept { return !(a == b); }
};

/// How a '.' after an abbreviation behaves.
enum class AbbreviationKind : std::uint8_t {
  /// Never ends a sentence on its line: titles and references that a name or number follows
  /// ("Dr.", "Sec. 420", "Rs. 500", "e.g."). A blank line still splits.
  Never,
  /// Ends a sentence only before a common sentence opener ("The", "It", "However", ...):
  /// "the U.S. Supreme Court" stays whole, "in the U.S. The law" splits. Initials and dotted
  /// acronyms not in the list ("J. K. Rowling", "I.P.C.") behave the same way.
  BeforeOpener,
  /// Ends a sentence like any word: the next word decides ("etc. The" splits, "etc. and" not).
  Word,
};

/// One abbreviation, written without its final '.' ("e.g", "Dr", "U.S"): ASCII letters and dots
/// (the word before a '.' is read back over ASCII letters, digits and dots only). Entries written
/// all in lowercase match in any case ("etc" matches "Etc."); any other entry matches exactly, so
/// "No." is an abbreviation and "no." (the word) is not.
struct Abbreviation {
  std::string_view word;
  AbbreviationKind kind;
};

/// The built-in list (English and Indian legal usage: titles, "Sec", "Art", "Rs", "No", months,
/// "p"/"pp", Latin "e.g", "i.e", "cf", "vs", "v"...), as static data.
const std::vector<Abbreviation>& default_abbreviations();

/// Splits text into sentences. Spans index the original bytes, are trimmed of whitespace (the
/// characters of Python's str.isspace()), are never empty, never overlap and come in order; every
/// non-whitespace character lies in one of them.
///
/// Rules (the full list, with examples, is tests/cpp/test_sentences.cpp):
/// - A sentence ends after a run of terminal punctuation (". ! ? …" and runs like "?!", "...")
///   plus closing quotes and brackets, when whitespace or the end of the text follows and the next
///   character can open a sentence: anything but a lowercase letter or continuing punctuation
///   (", ; : ) ] } %" and closing quotes). Uppercase, digits, quotes, bullets, '(' and letters of
///   scripts without case (CJK, Devanagari, Arabic...) open sentences.
/// - CJK full stops "。！？" end a sentence whatever follows; "।" (danda), "؟" and "۔" behave
///   like '.'.
/// - Numbers keep their '.': "10.5", "1,000.50", "v2.0" (no whitespace after the '.').
/// - Abbreviations, initials and dotted acronyms: see AbbreviationKind. A lone number, letter or
///   roman numeral ("1.", "a.", "iv.") opening a sentence is a list label, not a sentence.
/// - Citation markers: "years [S1]. Next" ends after "]."; a marker on the same line right after
///   the terminal punctuation belongs to the sentence it closes ("years. [S1] Next" ends after
///   "[S1]"), and such a marker always ends the sentence. Markers are never split internally.
/// - Line breaks: a blank line (paragraph) always ends a sentence. A single line break ends one
///   when the line ends with terminal punctuation (unless after a Never abbreviation) or with a
///   citation marker, when the line is a Markdown heading ("# ...") or a bold line ("**...**"),
///   or when the next line starts with a heading or a list item ("- ", "* ", "+ ", "• ", "1. ",
///   "2) ", "(a) ", "a) "). Any other line break is a wrapped line and joins its sentence.
/// - Text without terminal punctuation is one sentence.
/// - Invalid UTF-8 is read one byte at a time as U+FFFD (an ordinary character); nothing is read
///   past the end.
std::vector<Span> split_sentences(std::string_view text);

/// split_sentences() through SentenceSplitter::split_bytewise (for tests).
std::vector<Span> split_sentences_bytewise(std::string_view text);

/// A splitter with its own abbreviation list (e.g. the defaults plus a domain's own); it copies
/// the words, so the list need not outlive it. split() is const and safe from many threads.
class SentenceSplitter {
 public:
  explicit SentenceSplitter(const std::vector<Abbreviation>& abbreviations);
  std::vector<Span> split(std::string_view text) const;
  /// split() reading every byte instead of skipping runs that hold no line break, terminal mark
  /// or '[': the same spans, slower; the reference the tests compare split() with.
  std::vector<Span> split_bytewise(std::string_view text) const;

  /// One abbreviation as the splitter keeps it (an implementation detail, public for the scanner).
  struct Entry {
    std::string word;
    AbbreviationKind kind;
    bool any_case;  // written all in lowercase
  };

 private:
  std::vector<Entry> entries_;  // by word size, in list order within one size (first match wins)
  // Entries of word size k: entries_[by_size_[k], by_size_[k + 1]) (k < by_size_.size() - 1).
  std::vector<std::size_t> by_size_;
};

}  // namespace sc::text
