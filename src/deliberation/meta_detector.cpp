#include "deliberation/meta_detector.hpp"

#include <algorithm>
#include <utility>

namespace sc::deliberation {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

bool is_question(std::string_view s) noexcept {
  // Strip what may follow the '?': spaces, ASCII closers, and the typographic closing quotes.
  static constexpr std::string_view kClosers[] = {"\xE2\x80\x9D", "\xE2\x80\x99", "\xC2\xBB"};
  bool stripped = true;
  while (stripped && !s.empty()) {
    stripped = false;
    const char c = s.back();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == ')' ||
        c == ']' || c == '}' || c == '*' || c == '_') {
      s.remove_suffix(1);
      stripped = true;
      continue;
    }
    for (const std::string_view closer : kClosers) {
      if (ends_with(s, closer)) {
        s.remove_suffix(closer.size());
        stripped = true;
        break;
      }
    }
  }
  return ends_with(s, "?") || ends_with(s, "\xEF\xBC\x9F") || ends_with(s, "\xD8\x9F");
}

std::size_t clause_start(std::string_view sentence, std::size_t at) noexcept {
  if (at > sentence.size()) at = sentence.size();
  std::size_t start = 0;
  for (std::size_t i = 0; i < at; ++i) {
    const char c = sentence[i];
    if (c == ',' || c == ';' || c == ':' || c == '(') {
      start = i + 1;
    } else if (sentence.substr(i, 3) == "\xE2\x80\x94" || sentence.substr(i, 3) == "\xE2\x80\x93") {
      start = i + 3;  // em or en dash
    }
  }
  while (start < at && (sentence[start] == ' ' || sentence[start] == '\t')) ++start;
  return start;
}

MetaDetector::MetaDetector(const std::vector<std::string>& meta_patterns,
                           const std::vector<std::string>& answer_cues,
                           const std::vector<std::string>& clause_patterns)
    : meta_(meta_patterns), cues_(answer_cues), clauses_(clause_patterns) {}

ContributionAnalysis MetaDetector::analyze(std::string_view text) const {
  ContributionAnalysis out;
  for (const text::Span& span : text::split_sentences(text)) {
    const std::string_view sentence = text.substr(span.begin, span.end - span.begin);
    const std::vector<TextKey> keys = text_keys(sentence);
    SentenceAnalysis s;
    s.span = span;
    s.question = is_question(sentence);
    const auto numbers =
        std::count_if(keys.begin(), keys.end(), [](const TextKey& k) { return k.number; });
    s.answer_cue =
        static_cast<std::size_t>(numbers) >= kNumbersForCue || cues_.any(cues_.keys(keys));
    for (const Match& m : meta_.find(meta_.keys(keys))) s.patterns.push_back(m.pattern);
    const std::vector<Match> clauses = clauses_.find(clauses_.keys(keys));
    if (!clauses.empty()) {
      std::size_t first = clauses.front().begin;
      for (const Match& m : clauses) first = std::min(first, m.begin);
      s.clause_begin = span.begin + clause_start(sentence, first);
    }
    s.meta = s.question || s.clause_begin != kNoClause || (!s.patterns.empty() && !s.answer_cue);
    if (s.meta) ++out.meta_sentences;
    out.sentences.push_back(std::move(s));
  }
  if (!out.sentences.empty()) {
    out.score = static_cast<double>(out.meta_sentences) / static_cast<double>(out.sentences.size());
  }
  return out;
}

}  // namespace sc::deliberation
