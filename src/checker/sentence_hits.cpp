#include "checker/sentence_hits.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checker/vocabulary.hpp"
#include "text/analyzer.hpp"
#include "text/citations.hpp"
#include "text/interner.hpp"
#include "text/stopwords.hpp"

namespace sc::checker {

std::vector<SentenceHits> sentence_query_hits(std::string_view query,
                                              const std::vector<std::string_view>& texts) {
  // The query's distinct terms, numbered in first-seen order.
  text::TermInterner wanted;
  text::Analyzer().for_each_term(
      query, [&](std::string_view term, const text::Token&) { wanted.intern(term); });
  std::vector<SentenceHits> out;
  if (wanted.empty()) return out;
  // A term starts with its folded word's first character (stemming never changes it), so a token
  // whose first byte is an ASCII letter or digit, followed by an ASCII byte or nothing (no mark
  // to compose with), can be a query term only if some term starts with that byte lowered: most
  // tokens are ruled out before they are looked up.
  std::array<bool, 128> first{};
  for (const std::string_view term : wanted.terms()) {
    const auto b = static_cast<unsigned char>(term[0]);
    if (b < 0x80) first[b] = true;
  }
  const auto skip = [&first](const text::Token& token) {
    const std::string_view t = token.text;
    if (t.empty()) return false;
    const auto b = static_cast<unsigned char>(t[0]);
    if (t.size() > 1 && static_cast<unsigned char>(t[1]) >= 0x80) return false;
    const bool upper = b >= 'A' && b <= 'Z';
    const bool alnum = upper || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
    return alnum && !first[upper ? b + ('a' - 'A') : b];
  };
  VocabularyLease lease;
  Vocabulary& vocabulary = lease.get();
  const text::StopWords& stop_words = text::StopWords::english();
  // stamp[i] == sentence number + 1: query term i already counted in this sentence.
  std::vector<std::uint32_t> stamp(wanted.size(), 0);
  std::uint32_t sentence = 0;
  std::string stripped;
  for (std::size_t t = 0; t < texts.size(); ++t) {
    const std::string_view text = texts[t];
    for (const text::Span& span : text::split_sentences(text)) {
      ++sentence;
      std::string_view body = text.substr(span.begin, span.end - span.begin);
      if (body.find('[') != std::string_view::npos) {
        stripped = text::strip_citations(body);
        body = stripped;
      }
      std::uint32_t hits = 0;
      text::for_each_token(body, [&](const text::Token& token) {
        if (skip(token)) return;
        const WordInfo& info = vocabulary.lookup(token);
        if (info.term == kNoTerm) return;  // a stop word
        // The Analyzer's term: a word's stem; a number or identifier as folded (the vocabulary
        // drops a number's commas from its term, the Analyzer does not), unless a stop word.
        std::string_view term;
        if (token.kind == text::TokenKind::Word) {
          term = vocabulary.term(info.term);
        } else {
          if (stop_words.contains_folded(info.folded)) return;
          term = info.folded;
        }
        if (term.empty()) return;
        const std::optional<std::uint32_t> found = wanted.find(term);
        if (found && stamp[*found] != sentence) {
          stamp[*found] = sentence;
          ++hits;
        }
      });
      if (hits > 0) out.push_back({static_cast<std::uint32_t>(t), span, hits});
    }
  }
  return out;
}

}  // namespace sc::checker
