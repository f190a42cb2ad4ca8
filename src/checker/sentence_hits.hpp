/// @brief sentence_query_hits: how many of a query's terms each sentence of some texts holds (the
/// extractive answerer's choice of sentences, in one call).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "text/sentences.hpp"

namespace sc::checker {

/// One sentence of texts[text] (a split_sentences span, in bytes) and the number of distinct query
/// terms it holds.
struct SentenceHits {
  std::uint32_t text;
  text::Span span;
  std::uint32_t hits;
};

/// Every sentence of `texts` (split_sentences) holding at least one term of `query`, in order,
/// with the number of distinct query terms it holds. Terms are the default text::Analyzer's
/// (folded, stop words dropped, words stemmed, numbers and identifiers as folded); a sentence is
/// read without its citation markers. Empty when the query has no term. The texts' words are
/// analysed by this thread's vocabulary (the checker's word memo), so words a check has already
/// read cost one lookup. It takes a VocabularyLease: not to be called while this thread holds one
/// (inside a check), as leases do not nest.
std::vector<SentenceHits> sentence_query_hits(std::string_view query,
                                              const std::vector<std::string_view>& texts);

}  // namespace sc::checker
