/// @brief Python bindings of the text engine: sufficient_context._core.text.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.hpp"
#include "gil.hpp"
#include "str_utf8.hpp"
#include "text/analyzer.hpp"
#include "text/casefold.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/tokenizer.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace sc::bindings {
namespace {

py::str str_of(std::string_view utf8) {
  return py::reinterpret_steal<py::str>(
      PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace"));
}

// A list of str from one buffer of concatenated strings and their end offsets.
py::list list_of(const std::string& buffer, const std::vector<std::size_t>& ends) {
  py::list out(ends.size());
  std::size_t begin = 0;
  for (std::size_t i = 0; i < ends.size(); ++i) {
    PyObject* item = PyUnicode_DecodeUTF8(buffer.data() + begin,
                                          static_cast<Py_ssize_t>(ends[i] - begin), "replace");
    if (item == nullptr) throw py::error_already_set();
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), item);
    begin = ends[i];
  }
  return out;
}

struct SpannedToken {
  text::Token token;  // views the UTF-8
  std::size_t start;  // code point offsets
  std::size_t end;
};

// The tuple type of the items: plain tuple, or a tuple subclass such as a NamedTuple, built
// directly (tuple.__new__ per item from Python would allocate each token twice).
PyTypeObject* item_type(const py::object& token_type) {
  if (token_type.is_none()) return &PyTuple_Type;
  if (!PyType_Check(token_type.ptr()) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(token_type.ptr()), &PyTuple_Type)) {
    throw py::type_error("token_type must be tuple or a subclass of tuple");
  }
  return reinterpret_cast<PyTypeObject*>(token_type.ptr());
}

py::list tokenize(const py::str& text, const py::object& token_type) {
  const std::string_view utf8 = utf8_of(text.ptr(), "text");
  PyTypeObject* const type = item_type(token_type);
  const bool ascii = static_cast<std::size_t>(PyUnicode_GetLength(text.ptr())) == utf8.size();
  std::vector<SpannedToken> tokens;
  {
    sc::bindings::ReleaseGil release;
    tokens.reserve(utf8.size() / 6 + 1);
    text::for_each_token(utf8, [&tokens](const text::Token& token) {
      tokens.push_back({token, token.offset, token.offset + token.text.size()});
    });
    if (!ascii) {  // byte offsets differ from str indices only when some character is not ASCII
      const text::CodePointIndex index(utf8);
      for (SpannedToken& t : tokens) {
        t.start = index(t.start);
        t.end = index(t.end);
      }
    }
  }
  // Raw C API from here: this loop runs once per token and pybind11's generic casts triple its
  // cost.
  const py::str kinds[] = {py::str("word"), py::str("number"), py::str("identifier")};
  py::list out(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const SpannedToken& t = tokens[i];
    // The token's text is the slice of the original str: no UTF-8 decoding.
    py::object item = py::reinterpret_steal<py::object>(
        type == &PyTuple_Type ? PyTuple_New(4) : type->tp_alloc(type, 4));
    PyObject* token_text = PyUnicode_Substring(text.ptr(), static_cast<Py_ssize_t>(t.start),
                                               static_cast<Py_ssize_t>(t.end));
    PyObject* start = PyLong_FromSize_t(t.start);
    PyObject* end = PyLong_FromSize_t(t.end);
    if (!item || token_text == nullptr || start == nullptr || end == nullptr) {
      Py_XDECREF(token_text);
      Py_XDECREF(start);
      Py_XDECREF(end);
      throw py::error_already_set();
    }
    PyTuple_SET_ITEM(item.ptr(), 0, token_text);
    PyTuple_SET_ITEM(item.ptr(), 1, start);
    PyTuple_SET_ITEM(item.ptr(), 2, end);
    PyTuple_SET_ITEM(item.ptr(), 3, kinds[static_cast<int>(t.token.kind)].inc_ref().ptr());
    // A token holds only a str and ints, so it can never be part of a cycle: untracked (as CPython
    // untracks such plain tuples), millions of tokens cost the garbage collector nothing.
    PyObject_GC_UnTrack(item.ptr());
    PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), item.release().ptr());
  }
  return out;
}

// Token spans as three preallocated arrays (start, end: str indices; kind: 0 word, 1 number, 2
// identifier): no Python object per token, so a 100 MB text costs arrays, not the garbage
// collector.
py::tuple token_spans(const py::str& text) {
  const std::string_view utf8 = utf8_of(text.ptr(), "text");
  const bool ascii = static_cast<std::size_t>(PyUnicode_GetLength(text.ptr())) == utf8.size();
  std::size_t n = 0;
  {
    sc::bindings::ReleaseGil release;
    n = text::count_tokens(utf8);
  }
  py::array_t<std::int64_t> starts(static_cast<py::ssize_t>(n));
  py::array_t<std::int64_t> ends(static_cast<py::ssize_t>(n));
  py::array_t<std::uint8_t> kinds(static_cast<py::ssize_t>(n));
  std::int64_t* const start_data = starts.mutable_data();
  std::int64_t* const end_data = ends.mutable_data();
  std::uint8_t* const kind_data = kinds.mutable_data();
  {
    sc::bindings::ReleaseGil release;
    std::size_t i = 0;
    text::for_each_token(utf8, [&](const text::Token& token) {
      if (i >= n) return;  // count_tokens and for_each_token walk the same tokens
      start_data[i] = static_cast<std::int64_t>(token.offset);
      end_data[i] = static_cast<std::int64_t>(token.offset + token.text.size());
      kind_data[i] = static_cast<std::uint8_t>(token.kind);
      ++i;
    });
    if (!ascii) {
      const text::CodePointIndex index(utf8);
      for (std::size_t k = 0; k < n; ++k) {
        start_data[k] = static_cast<std::int64_t>(index(static_cast<std::size_t>(start_data[k])));
        end_data[k] = static_cast<std::int64_t>(index(static_cast<std::size_t>(end_data[k])));
      }
    }
  }
  return py::make_tuple(starts, ends, kinds);
}

std::size_t count_tokens(const py::str& text) {
  const std::string_view utf8 = utf8_of(text.ptr(), "text");
  sc::bindings::ReleaseGil release;
  return text::count_tokens(utf8);
}

py::str fold(const py::str& text) {
  const std::string_view utf8 = utf8_of(text.ptr(), "text");
  std::string folded;
  {
    sc::bindings::ReleaseGil release;
    text::append_folded(utf8, folded);
  }
  return str_of(folded);
}

py::str stem(const py::str& word) {
  const std::string_view utf8 = utf8_of(word.ptr(), "word");
  std::string stemmed;
  {
    sc::bindings::ReleaseGil release;
    text::stem_into(utf8, stemmed);
  }
  return str_of(stemmed);
}

py::list terms(const py::str& text, bool stem, bool remove_stopwords,
               const std::optional<std::vector<std::string>>& stopwords) {
  const std::string_view utf8 = utf8_of(text.ptr(), "text");
  std::string buffer;
  std::vector<std::size_t> ends;
  {
    sc::bindings::ReleaseGil release;
    const std::optional<text::StopWords> custom =
        stopwords ? std::optional<text::StopWords>(std::in_place, *stopwords) : std::nullopt;
    text::AnalyzerOptions options;
    options.stem = stem;
    options.remove_stopwords = remove_stopwords;
    options.stopwords = custom ? &*custom : nullptr;
    const text::Analyzer analyzer(options);
    analyzer.for_each_term(utf8, [&](std::string_view term, const text::Token&) {
      buffer.append(term);
      ends.push_back(buffer.size());
    });
  }
  return list_of(buffer, ends);
}

py::list english_stopwords() {
  std::string buffer;
  std::vector<std::size_t> ends;
  for (const std::string_view word : text::StopWords::english().words()) {
    buffer.append(word);
    ends.push_back(buffer.size());
  }
  return list_of(buffer, ends);
}

}  // namespace

void bind_text(py::module_& m) {
  m.def("tokenize", &tokenize, py::arg("text"), py::arg("token_type") = py::none(),
        "Tokens of text as (text, start, end, kind) with str indices; kind is 'word', 'number' "
        "or 'identifier'. token_type: a tuple subclass to build instead of tuple.");
  m.def("count_tokens", &count_tokens, py::arg("text"), "Number of tokens of text.");
  m.def("token_spans", &token_spans, py::arg("text"),
        "(starts, ends, kinds) of the tokens of text as int64 / int64 / uint8 arrays; kinds: 0 "
        "word, 1 number, 2 identifier.");
  m.def("fold", &fold, py::arg("text"), "Simple Unicode case folding of text.");
  m.def("stem", &stem, py::arg("word"), "Porter2 (Snowball english) stem of a folded word.");
  m.def("terms", &terms, py::arg("text"), py::arg("stem") = true,
        py::arg("remove_stopwords") = true, py::arg("stopwords") = py::none(),
        "Normalized terms of text: tokenized, folded, stop words removed, words stemmed.");
  m.def("english_stopwords", &english_stopwords, "The English stop words, folded and sorted.");
}

}  // namespace sc::bindings
