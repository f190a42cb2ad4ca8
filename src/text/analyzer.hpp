/// @brief Analyzer: tokenize -> case-fold -> drop stop words -> stem -> intern, in one pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "text/casefold.hpp"
#include "text/interner.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/tokenizer.hpp"

namespace sc::text {

/// One analyzed term: its interned id, and the byte span and kind of the token it came from.
struct Term {
  std::uint32_t id;
  std::size_t offset;
  std::size_t length;
  TokenKind kind;
};

struct AnalyzerOptions {
  bool remove_stopwords = true;
  bool stem = true;
  /// The stop words to drop; nullptr means StopWords::english(). Not owned: it must outlive the
  /// Analyzer.
  const StopWords* stopwords = nullptr;
};

/// Turns text into normalized terms. Every token is case-folded; a token whose folded text is a
/// stop word is dropped (when remove_stopwords); words are then stemmed (when stem) with the
/// English Porter2 stemmer, while numbers and identifiers are kept as folded ("IPC_420" ->
/// "ipc_420", "10,000" stays). Holds only its options: const and safe to share across threads.
class Analyzer {
 public:
  explicit Analyzer(AnalyzerOptions options = {}) noexcept
      : options_(options),
        stopwords_(options.stopwords != nullptr ? options.stopwords : &StopWords::english()) {}

  const AnalyzerOptions& options() const noexcept { return options_; }

  /// Calls fn(std::string_view term, const Token& token) for every kept term in text order.
  /// `term` views a buffer reused for the next term: copy it if it must outlive the call.
  template <class Fn>
  void for_each_term(std::string_view text, Fn&& fn) const {
    for_each_term_unless(
        text, [](const Token&) { return false; }, fn);
  }

  /// for_each_term, leaving out every token for which skip(const Token&) is true before it is
  /// folded or stemmed (a caller that wants a few terms only rules most tokens out from their
  /// bytes).
  template <class Skip, class Fn>
  void for_each_term_unless(std::string_view text, Skip&& skip, Fn&& fn) const {
    std::string folded;
    std::string stemmed;
    // Long texts repeat their words (Zipf): remembering each distinct word's stem makes a repeat
    // cost one hash lookup instead of a Porter2 run. Short texts skip the memo's setup cost.
    const bool memoize = options_.stem && text.size() >= kMemoMinBytes;
    TermInterner memo_words;               // folded words seen so far
    std::vector<std::uint32_t> memo_stem;  // word id -> stem id in memo_stems
    TermInterner memo_stems;
    for_each_token(text, [&](const Token& token) {
      if (skip(token)) return;
      folded.clear();
      append_folded(token.text, folded);
      if (options_.remove_stopwords && stopwords_->contains_folded(folded)) return;
      std::string_view term = folded;
      if (options_.stem && token.kind == TokenKind::Word) {
        if (!memoize) {
          stem_into(folded, stemmed);
          term = stemmed;
        } else if (const auto id = memo_words.find(folded)) {
          term = memo_stems.term(memo_stem[*id]);
        } else {
          stem_into(folded, stemmed);
          memo_words.intern(folded);
          memo_stem.push_back(memo_stems.intern(stemmed));
          term = stemmed;
        }
      }
      if (!term.empty()) fn(term, token);
    });
  }

  /// Appends the terms of `text` to `out`, interning each normalized term into `interner`.
  void analyze(std::string_view text, TermInterner& interner, std::vector<Term>& out) const;

  /// The terms of `text`, interned into `interner`.
  std::vector<Term> analyze(std::string_view text, TermInterner& interner) const;

  /// The normalized term strings of `text`, in order.
  std::vector<std::string> terms(std::string_view text) const;

 private:
  static constexpr std::size_t kMemoMinBytes = 4096;

  AnalyzerOptions options_;
  const StopWords* stopwords_;
};

}  // namespace sc::text
