#include "text/sentence_hits.hpp"

#include <array>
#include <string>
#include <unordered_map>

#include "text/analyzer.hpp"
#include "text/citations.hpp"

namespace sc::text {

std::vector<SentenceHits> sentence_query_hits(std::string_view query,
                                              const std::vector<std::string_view>& texts) {
  const Analyzer analyzer;
  // Query term -> its index; the terms are kept in `owned` (the analyzer's views do not outlive
  // their callback).
  std::vector<std::string> owned;
  std::unordered_map<std::string_view, std::uint32_t> index;
  analyzer.for_each_term(query,
                         [&](std::string_view term, const Token&) { owned.emplace_back(term); });
  index.reserve(owned.size());
  for (const std::string& term : owned) {
    index.emplace(term, static_cast<std::uint32_t>(index.size()));
  }
  std::vector<SentenceHits> out;
  if (index.empty()) return out;
  // A term starts with its folded word's first character (stemming never changes it), so a token
  // whose first byte is an ASCII letter or digit, followed by an ASCII byte or nothing (no mark
  // to compose with), can be a query term only if some term starts with that byte lowered: most
  // tokens are ruled out before they are folded and stemmed.
  std::array<bool, 128> first{};
  for (const std::string& term : owned) {
    const auto b = static_cast<unsigned char>(term[0]);
    if (b < 0x80) first[b] = true;
  }
  const auto skip = [&first](const Token& token) {
    const std::string_view t = token.text;
    if (t.empty()) return false;
    const auto b = static_cast<unsigned char>(t[0]);
    if (t.size() > 1 && static_cast<unsigned char>(t[1]) >= 0x80) return false;
    const bool upper = b >= 'A' && b <= 'Z';
    const bool alnum = upper || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9');
    return alnum && !first[upper ? b + ('a' - 'A') : b];
  };
  // stamp[i] == sentence number + 1: query term i already counted in this sentence.
  std::vector<std::uint32_t> stamp(index.size(), 0);
  std::uint32_t sentence = 0;
  std::string stripped;
  for (std::size_t t = 0; t < texts.size(); ++t) {
    const std::string_view text = texts[t];
    for (const Span& span : split_sentences(text)) {
      ++sentence;
      std::string_view body = text.substr(span.begin, span.end - span.begin);
      if (body.find('[') != std::string_view::npos) {
        stripped = strip_citations(body);
        body = stripped;
      }
      std::uint32_t hits = 0;
      analyzer.for_each_term_unless(body, skip, [&](std::string_view term, const Token&) {
        const auto found = index.find(term);
        if (found != index.end() && stamp[found->second] != sentence) {
          stamp[found->second] = sentence;
          ++hits;
        }
      });
      if (hits > 0) out.push_back({static_cast<std::uint32_t>(t), span, hits});
    }
  }
  return out;
}

}  // namespace sc::text
