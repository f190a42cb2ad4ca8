/// @brief Bindings of the sentence splitter and citation markers
/// (`sufficient_context._core.sentences`).
#include "text/sentences.hpp"

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "checker/sentence_hits.hpp"
#include "gil.hpp"
#include "str_utf8.hpp"
#include "text/citations.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace {

py::list split_sentences(const py::str& str) {
  const std::string_view text = sc::bindings::utf8_of(str.ptr(), "text");
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  {
    sc::bindings::ReleaseGil release;
    const std::vector<sc::text::Span> bytes = sc::text::split_sentences(text);
    const sc::text::CodePointIndex index(text);
    spans.reserve(bytes.size());
    for (const sc::text::Span& s : bytes) spans.emplace_back(index(s.begin), index(s.end));
  }
  py::list out(spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) {
    out[i] = py::make_tuple(spans[i].first, spans[i].second);
  }
  return out;
}

py::list extract_citations(const py::str& str) {
  const std::string_view text = sc::bindings::utf8_of(str.ptr(), "text");
  std::vector<sc::text::Citation> citations;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  {
    sc::bindings::ReleaseGil release;
    citations = sc::text::extract_citations(text);
    const sc::text::CodePointIndex index(text);
    spans.reserve(citations.size());
    for (const sc::text::Citation& c : citations) spans.emplace_back(index(c.begin), index(c.end));
  }
  py::list out(citations.size());
  for (std::size_t i = 0; i < citations.size(); ++i) {
    // Ids are ASCII by the grammar, so the str cannot fail to decode.
    out[i] = py::make_tuple(py::str(citations[i].id.data(), citations[i].id.size()), spans[i].first,
                            spans[i].second);
  }
  return out;
}

py::str strip_citations(const py::str& str) {
  const std::string_view text = sc::bindings::utf8_of(str.ptr(), "text");
  std::string stripped;
  {
    sc::bindings::ReleaseGil release;
    stripped = sc::text::strip_citations(text);
  }
  return py::str(stripped);
}

/// sentence_query_hits as (text index, start, end, hits), str indices of that text.
py::list query_hits(const py::str& query, const py::list& texts) {
  const std::string_view q = sc::bindings::utf8_of(query.ptr(), "query");
  std::vector<py::object> keep;
  const std::vector<std::string_view> views = sc::bindings::utf8_of_items(texts, "texts", keep);
  std::vector<sc::checker::SentenceHits> hits;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  {
    sc::bindings::ReleaseGil release;
    hits = sc::checker::sentence_query_hits(q, views);
    spans.reserve(hits.size());
    std::optional<sc::text::CodePointIndex> index;
    std::size_t indexed = SIZE_MAX;  // the text `index` maps
    for (const sc::checker::SentenceHits& h : hits) {
      if (h.text != indexed) {
        index.emplace(views[h.text]);
        indexed = h.text;
      }
      spans.emplace_back((*index)(h.span.begin), (*index)(h.span.end));
    }
  }
  py::list out(hits.size());
  for (std::size_t i = 0; i < hits.size(); ++i) {
    out[i] = py::make_tuple(hits[i].text, spans[i].first, spans[i].second, hits[i].hits);
  }
  return out;
}

}  // namespace

void sc::bindings::bind_sentences(py::module_& sentences) {
  sentences.def("split_sentences", &split_sentences, py::arg("text"),
                "Sentence spans of `text` as (start, end) str indices, in order.");
  sentences.def("extract_citations", &extract_citations, py::arg("text"),
                "Cited ids of `text` as (id, start, end), the span being the id's str indices.");
  sentences.def(
      "query_hits", &query_hits, py::arg("query"), py::arg("texts"),
      "(text index, start, end, hits) of every sentence of `texts` holding a term of `query`: "
      "hits is how many distinct query terms it holds (citation markers left out).");
  sentences.def("strip_citations", &strip_citations, py::arg("text"),
                "`text` without its citation markers, with no double space where one was.");
}
