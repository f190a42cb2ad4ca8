/// @brief MetaDetector: scores one deliberation contribution as meta-discussion (talk about missing
/// context) or substance, sentence by sentence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "deliberation/pattern_matcher.hpp"
#include "text/sentences.hpp"

namespace sc::deliberation {

inline constexpr std::size_t kNoClause = static_cast<std::size_t>(-1);
/// A sentence with this many numbers written in digits reports data: it counts as an answer cue.
inline constexpr std::size_t kNumbersForCue = 2;

/// What one sentence of a contribution is.
struct SentenceAnalysis {
  text::Span span;                       // bytes of the sentence in the contribution
  bool question = false;                 // ends with '?' (closing quotes and brackets aside)
  bool answer_cue = false;               // an answer pattern matched ("use", "I recommend", ...)
  bool meta = false;                     // counts as meta-discussion (see MetaDetector::analyze)
  std::vector<std::size_t> patterns;     // indices of the meta patterns that matched, ascending
  std::size_t clause_begin = kNoClause;  // byte where a "we need to know ..." clause starts
};

/// One contribution: its sentences and its score.
struct ContributionAnalysis {
  std::vector<SentenceAnalysis> sentences;
  std::size_t meta_sentences = 0;
  /// meta_sentences / sentences.size(); 0 for a text without a sentence.
  double score = 0.0;
};

/// Three phrase lists: meta patterns (talk about missing context: "need more information",
/// "without knowing"), answer cues (a sentence that still answers: "use", "I recommend", "go
/// with") and clause patterns (a request for information: "need to know"). Immutable once
/// built: safe to share between threads.
class MetaDetector {
 public:
  MetaDetector(const std::vector<std::string>& meta_patterns,
               const std::vector<std::string>& answer_cues,
               const std::vector<std::string>& clause_patterns);

  const PatternMatcher& meta_patterns() const noexcept { return meta_; }
  const PatternMatcher& answer_cues() const noexcept { return cues_; }
  const PatternMatcher& clause_patterns() const noexcept { return clauses_; }

  /// Splits `text` into sentences (text::split_sentences). A sentence is meta when it is a
  /// question, holds a clause pattern, or matches a meta pattern without an answer cue ("It
  /// depends on the load: at 10k rps use Kafka" answers; so does a sentence with kNumbersForCue
  /// numbers: "Hard to say in theory; Parquet read 3 GB in 2 s"). The score is the fraction of meta
  /// sentences: fraction-based, so one clarifying question after three sentences of substance
  /// does not make a contribution meta. Invalid UTF-8 bytes are separators; never read past.
  ContributionAnalysis analyze(std::string_view text) const;

 private:
  PatternMatcher meta_;
  PatternMatcher cues_;
  PatternMatcher clauses_;
};

/// Whether `sentence` ends with '?' (or a fullwidth '？' or Arabic '؟'), ignoring trailing
/// whitespace, closing quotes, brackets and Markdown emphasis.
bool is_question(std::string_view sentence) noexcept;

/// Where the clause containing byte `at` of `sentence` starts: after the last ',', ';', ':', '(',
/// or dash before `at`, skipping spaces; 0 when there is none.
std::size_t clause_start(std::string_view sentence, std::size_t at) noexcept;

}  // namespace sc::deliberation
