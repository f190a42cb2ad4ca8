#include "text/analyzer.hpp"

namespace sc::text {

void Analyzer::analyze(std::string_view text, TermInterner& interner,
                       std::vector<Term>& out) const {
  for_each_term(text, [&](std::string_view term, const Token& token) {
    out.push_back(Term{interner.intern(term), token.offset, token.text.size(), token.kind});
  });
}

std::vector<Term> Analyzer::analyze(std::string_view text, TermInterner& interner) const {
  std::vector<Term> out;
  analyze(text, interner, out);
  return out;
}

std::vector<std::string> Analyzer::terms(std::string_view text) const {
  std::vector<std::string> out;
  for_each_term(text, [&out](std::string_view term, const Token&) { out.emplace_back(term); });
  return out;
}

}  // namespace sc::text
