/// @brief Bindings of the deliberation meta-discussion detector
/// (`sufficient_context._core.deliberation`).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bindings.hpp"
#include "deliberation/meta_detector.hpp"
#include "gil.hpp"
#include "str_utf8.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace {

using sc::deliberation::ContributionAnalysis;
using sc::deliberation::MetaDetector;

/// (score, meta_sentences, [(start, end, question, answer_cue, meta, patterns, clause_start)]),
/// offsets in code points; clause_start is -1 without a clause.
py::tuple analyze(const MetaDetector& detector, const py::str& str) {
  const std::string_view text = sc::bindings::utf8_of(str.ptr(), "text");
  ContributionAnalysis result;
  std::vector<std::size_t> offsets;  // start, end, clause per sentence
  {
    sc::bindings::ReleaseGil release;
    result = detector.analyze(text);
    const sc::text::CodePointIndex index(text);
    offsets.reserve(result.sentences.size() * 3);
    for (const auto& s : result.sentences) {
      offsets.push_back(index(s.span.begin));
      offsets.push_back(index(s.span.end));
      offsets.push_back(s.clause_begin == sc::deliberation::kNoClause ? SIZE_MAX
                                                                      : index(s.clause_begin));
    }
  }
  py::list sentences(result.sentences.size());
  for (std::size_t i = 0; i < result.sentences.size(); ++i) {
    const auto& s = result.sentences[i];
    const py::object clause = offsets[3 * i + 2] == SIZE_MAX
                                  ? py::object(py::int_(-1))
                                  : py::object(py::int_(offsets[3 * i + 2]));
    sentences[i] = py::make_tuple(offsets[3 * i], offsets[3 * i + 1], s.question, s.answer_cue,
                                  s.meta, py::cast(s.patterns), clause);
  }
  return py::make_tuple(result.score, result.meta_sentences, sentences);
}

}  // namespace

namespace sc::bindings {

void bind_deliberation(py::module_& m) {
  py::class_<MetaDetector, std::shared_ptr<MetaDetector>>(m, "MetaDetector")
      .def(py::init<const std::vector<std::string>&, const std::vector<std::string>&,
                    const std::vector<std::string>&>(),
           py::arg("meta_patterns"), py::arg("answer_cues"), py::arg("clause_patterns"))
      .def_property_readonly("meta_patterns",
                             [](const MetaDetector& d) { return d.meta_patterns().patterns(); })
      .def_property_readonly("answer_cues",
                             [](const MetaDetector& d) { return d.answer_cues().patterns(); })
      .def_property_readonly("clause_patterns",
                             [](const MetaDetector& d) { return d.clause_patterns().patterns(); })
      .def("analyze", &analyze, py::arg("text"),
           "(score, meta_sentences, sentences) of one contribution; each sentence is (start, end, "
           "question, answer_cue, meta, patterns, clause_start), offsets in code points.");
}

}  // namespace sc::bindings
