/// @brief Bindings of the sentence splitter and citation markers
/// (`sufficient_context._core.sentences`).
#include "text/sentences.hpp"

#include <pybind11/pybind11.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "text/citations.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace {

/// The UTF-8 of a str, cached by the str itself, so it lives as long as the argument. Taking
/// py::str (not std::string_view, which also accepts a mutable bytearray) keeps the buffer
/// immutable while the GIL is released. Lone surrogates raise UnicodeEncodeError.
std::string_view utf8(const py::str& text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (data == nullptr) throw py::error_already_set();
  return {data, static_cast<std::size_t>(size)};
}

/// Byte offset -> Python str index. ASCII text (the common case) needs no table.
class StrIndex {
 public:
  explicit StrIndex(std::string_view text) {
    for (const char c : text) {
      if (static_cast<unsigned char>(c) >= 0x80) {
        index_.emplace(text);
        break;
      }
    }
  }
  std::size_t operator()(std::size_t byte_offset) const {
    return index_ ? (*index_)(byte_offset) : byte_offset;
  }

 private:
  std::optional<sc::text::CodePointIndex> index_;
};

py::list split_sentences(const py::str& str) {
  const std::string_view text = utf8(str);
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  {
    py::gil_scoped_release release;
    const std::vector<sc::text::Span> bytes = sc::text::split_sentences(text);
    const StrIndex index(text);
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
  const std::string_view text = utf8(str);
  std::vector<sc::text::Citation> citations;
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  {
    py::gil_scoped_release release;
    citations = sc::text::extract_citations(text);
    const StrIndex index(text);
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
  const std::string_view text = utf8(str);
  std::string stripped;
  {
    py::gil_scoped_release release;
    stripped = sc::text::strip_citations(text);
  }
  return py::str(stripped);
}

}  // namespace

void sc::bindings::bind_sentences(py::module_& sentences) {
  sentences.def("split_sentences", &split_sentences, py::arg("text"),
                "Sentence spans of `text` as (start, end) str indices, in order.");
  sentences.def("extract_citations", &extract_citations, py::arg("text"),
                "Cited ids of `text` as (id, start, end), the span being the id's str indices.");
  sentences.def("strip_citations", &strip_citations, py::arg("text"),
                "`text` without its citation markers, with no double space where one was.");
}
