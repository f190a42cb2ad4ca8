#include "checker/query_terms.hpp"

#include <algorithm>

namespace sc::checker {

void analyze_query(std::string_view query, Vocabulary& vocabulary, const TermStatistics& statistics,
                   QueryAnalysis& out) {
  out.terms.clear();
  out.ngram_words.clear();
  out.total_weight = 0.0;
  out.negated = false;
  out.truncated = false;
  text::for_each_token(query, [&](const text::Token& token) {
    const WordInfo info = vocabulary.lookup(token);
    if (info.kind == text::TokenKind::Word && info.negation) out.negated = true;
    if (info.term == kNoTerm) return;
    out.ngram_words.push_back(info.folded);
    const bool seen = std::any_of(out.terms.begin(), out.terms.end(),
                                  [&](const QueryTerm& t) { return t.term == info.term; });
    if (seen) return;
    if (out.terms.size() == kMaxQueryTerms) {
      out.truncated = true;
      return;
    }
    QueryTerm term;
    term.term = info.term;
    term.prefix = info.prefix;
    term.length = info.term_length;
    term.kind = info.kind;
    if (info.kind == text::TokenKind::Word) {
      term.zipf = statistics.zipf(vocabulary.term(info.term)).value_or(kUnknownZipf);
    }
    term.weight = std::max(kZipfCeiling - term.zipf, kMinTermWeight);
    term.surface = info.folded;
    out.terms.push_back(term);
  });
  // Summed after collecting, in term order, as Python's sum(seen.values()).
  for (const QueryTerm& term : out.terms) out.total_weight += term.weight;
}

}  // namespace sc::checker
