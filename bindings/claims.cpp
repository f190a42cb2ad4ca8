/// @brief Bindings of claim coverage and query types (`sufficient_context._core.claims`).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "claims/query_type.hpp"
#include "str_utf8.hpp"
#include "text/utf8.hpp"

namespace py = pybind11;

namespace {

namespace c = sc::claims;
using sc::bindings::utf8_of;

py::object steal(PyObject* object) {
  if (object == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(object);
}

/// Chunk ids and texts of one check: str objects kept alive (and immutable) while the GIL is
/// released, and their UTF-8 views.
struct ChunkArgs {
  std::vector<py::object> ids;  // the caller's id str objects, reused in the results
  std::vector<py::object> keep;
  std::vector<c::ChunkInput> inputs;
};

ChunkArgs chunk_args(const py::list& ids, const py::list& texts) {
  if (ids.size() != texts.size()) {
    throw std::invalid_argument(
        "chunk ids and texts differ in length: " + std::to_string(ids.size()) + " ids, " +
        std::to_string(texts.size()) + " texts");
  }
  ChunkArgs out;
  out.ids.reserve(ids.size());
  out.keep.reserve(texts.size());
  out.inputs.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    py::object id = ids[i];
    py::object text = texts[i];
    out.inputs.push_back({utf8_of(id.ptr(), "chunk ids", i), utf8_of(text.ptr(), "chunks", i)});
    out.ids.push_back(std::move(id));
    out.keep.push_back(std::move(text));
  }
  return out;
}

py::object str_of(std::string_view utf8) {
  return steal(PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace"));
}

py::object bool_of(bool value) {
  return py::reinterpret_borrow<py::object>(value ? Py_True : Py_False);
}

/// A tuple of `type` (tuple or a tuple subclass such as a NamedTuple) from its items.
py::object make_record(PyTypeObject* type, std::vector<py::object> items) {
  const auto n = static_cast<Py_ssize_t>(items.size());
  py::object record = steal(type == &PyTuple_Type ? PyTuple_New(n) : type->tp_alloc(type, n));
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyTuple_SET_ITEM(record.ptr(), i, items[static_cast<std::size_t>(i)].release().ptr());
  }
  return record;
}

PyTypeObject* record_type(const py::object& type) {
  if (type.is_none()) return &PyTuple_Type;
  if (!PyType_Check(type.ptr()) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(type.ptr()), &PyTuple_Type)) {
    throw py::type_error("claim_type must be tuple or a subclass of tuple");
  }
  return reinterpret_cast<PyTypeObject*>(type.ptr());
}

py::object id_tuple(const ChunkArgs& chunks, const std::vector<std::size_t>& indexes) {
  py::object out = steal(PyTuple_New(static_cast<Py_ssize_t>(indexes.size())));
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i),
                     py::object(chunks.ids[indexes[i]]).release().ptr());
  }
  return out;
}

py::object view_tuple(const std::vector<std::string_view>& views) {
  py::object out = steal(PyTuple_New(static_cast<Py_ssize_t>(views.size())));
  for (std::size_t i = 0; i < views.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), str_of(views[i]).release().ptr());
  }
  return out;
}

/// (sentence, score, is_covered, is_meta, citations, covering_chunks, overlaps, threshold,
///  reason, start, end) as `type`.
py::object claim_record(PyTypeObject* type, const c::ClaimResult& r, PyObject* text,
                        const sc::text::CodePointIndex& index, const ChunkArgs& chunks) {
  const std::size_t start = index(r.span.begin);
  const std::size_t end = index(r.span.end);
  py::object overlaps = steal(PyDict_New());
  for (const auto& [chunk, score] : r.overlaps) {
    py::object value = steal(PyFloat_FromDouble(score));
    if (PyDict_SetItem(overlaps.ptr(), chunks.ids[chunk].ptr(), value.ptr()) != 0) {
      throw py::error_already_set();
    }
  }
  std::vector<py::object> items;
  items.reserve(11);
  items.push_back(steal(
      PyUnicode_Substring(text, static_cast<Py_ssize_t>(start), static_cast<Py_ssize_t>(end))));
  items.push_back(steal(PyFloat_FromDouble(r.score)));
  items.push_back(bool_of(r.is_covered));
  items.push_back(bool_of(r.is_meta));
  items.push_back(view_tuple(r.citations));
  items.push_back(id_tuple(chunks, r.covering));
  items.push_back(std::move(overlaps));
  items.push_back(steal(PyFloat_FromDouble(r.threshold)));
  items.push_back(str_of(r.reason));
  items.push_back(steal(PyLong_FromSize_t(start)));
  items.push_back(steal(PyLong_FromSize_t(end)));
  return make_record(type, std::move(items));
}

/// (claims, unknown_citations, missing_citations, covered_count, claim_count,
///  attribution_coverage, supported_ratio, is_grounded)
py::object answer_record(PyTypeObject* type, const c::AnswerResult& r, PyObject* text,
                         std::string_view utf8, const ChunkArgs& chunks) {
  const sc::text::CodePointIndex index(utf8);
  py::object claims = steal(PyList_New(static_cast<Py_ssize_t>(r.claims.size())));
  for (std::size_t i = 0; i < r.claims.size(); ++i) {
    PyList_SET_ITEM(claims.ptr(), static_cast<Py_ssize_t>(i),
                    claim_record(type, r.claims[i], text, index, chunks).release().ptr());
  }
  return py::make_tuple(claims, view_tuple(r.unknown_citations),
                        id_tuple(chunks, r.missing_citations), r.covered_count, r.claim_count,
                        r.attribution_coverage, r.supported_ratio, r.is_grounded);
}

std::shared_ptr<c::ClaimConfig> make_config(double min_overlap, double multi_citation_factor,
                                            std::string_view mode,
                                            std::optional<std::vector<std::string>> stopwords,
                                            std::optional<std::vector<std::string>> meta_patterns,
                                            std::shared_ptr<sc::checker::TermStatistics> statistics,
                                            std::shared_ptr<sc::checker::WordRelations> relations,
                                            std::size_t max_sentences) {
  c::ClaimOptions options;
  options.max_sentences = max_sentences;
  options.min_overlap = min_overlap;
  options.multi_citation_factor = multi_citation_factor;
  options.mode = c::parse_mode(mode);
  options.stopwords = std::move(stopwords);
  options.meta_patterns = std::move(meta_patterns);
  return std::make_shared<c::ClaimConfig>(std::move(options), std::move(statistics),
                                          std::move(relations));
}

py::object check_claim(const c::ClaimConfig& config, const py::str& claim, const py::list& ids,
                       const py::list& texts, const py::object& claim_type) {
  PyTypeObject* type = record_type(claim_type);
  const std::string_view utf8 = utf8_of(claim.ptr(), "sentence");
  const ChunkArgs chunks = chunk_args(ids, texts);
  c::ClaimResult result;
  {
    py::gil_scoped_release release;
    result = c::check_claim(config, utf8, chunks.inputs);
  }
  return claim_record(type, result, claim.ptr(), sc::text::CodePointIndex(utf8), chunks);
}

py::object check_answer(const c::ClaimConfig& config, const py::str& answer, const py::list& ids,
                        const py::list& texts, const py::object& claim_type) {
  PyTypeObject* type = record_type(claim_type);
  const std::string_view utf8 = utf8_of(answer.ptr(), "answer");
  const ChunkArgs chunks = chunk_args(ids, texts);
  c::AnswerResult result;
  {
    py::gil_scoped_release release;
    result = c::check_answer(config, utf8, chunks.inputs);
  }
  return answer_record(type, result, answer.ptr(), utf8, chunks);
}

py::list check_answers(const c::ClaimConfig& config, const py::list& answers,
                       const py::list& ids_per_answer, const py::list& texts_per_answer,
                       const py::object& claim_type, std::size_t threads) {
  PyTypeObject* type = record_type(claim_type);
  if (ids_per_answer.size() != answers.size() || texts_per_answer.size() != answers.size()) {
    throw std::invalid_argument("chunks_per_answer must have one entry per answer: got " +
                                std::to_string(ids_per_answer.size()) + " for " +
                                std::to_string(answers.size()) + " answers");
  }
  std::vector<py::object> keep;
  std::vector<std::string_view> texts;
  std::vector<ChunkArgs> chunk_lists;
  std::vector<std::vector<c::ChunkInput>> inputs;
  keep.reserve(answers.size());
  for (std::size_t i = 0; i < answers.size(); ++i) {
    py::object answer = answers[i];
    texts.push_back(utf8_of(answer.ptr(), "answers", i));
    keep.push_back(std::move(answer));
    chunk_lists.push_back(
        chunk_args(ids_per_answer[i].cast<py::list>(), texts_per_answer[i].cast<py::list>()));
    inputs.push_back(chunk_lists.back().inputs);
  }
  std::vector<c::AnswerResult> results;
  {
    py::gil_scoped_release release;
    results = c::check_answers(config, texts, inputs, threads);
  }
  py::list out(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    out[i] = answer_record(type, results[i], keep[i].ptr(), texts[i], chunk_lists[i]);
  }
  return out;
}

std::vector<double> support_scores(const c::ClaimConfig& config, const py::str& claim,
                                   const py::list& texts) {
  const std::string_view utf8 = utf8_of(claim.ptr(), "sentence");
  std::vector<py::object> keep;
  std::vector<std::string_view> views;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    py::object text = texts[i];
    views.push_back(utf8_of(text.ptr(), "chunks", i));
    keep.push_back(std::move(text));
  }
  py::gil_scoped_release release;
  return c::support_scores(config, utf8, views);
}

using TypeTuple = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>;

std::vector<TypeTuple> type_tuples(const std::vector<c::QueryTypeSpec>& specs) {
  std::vector<TypeTuple> out;
  for (const c::QueryTypeSpec& s : specs) {
    out.emplace_back(s.name, s.query_patterns, s.evidence_patterns);
  }
  return out;
}

}  // namespace

void sc::bindings::bind_claims(py::module_& m) {
  py::class_<c::ClaimConfig, std::shared_ptr<c::ClaimConfig>>(
      m, "ClaimConfig", "Validated, immutable configuration of a ClaimCoverage.")
      .def(py::init(&make_config), py::arg("min_overlap") = 0.3,
           py::arg("multi_citation_factor") = 0.7, py::arg("mode") = "default",
           py::arg("stopwords") = py::none(), py::arg("meta_patterns") = py::none(),
           py::arg("statistics") = py::none(), py::arg("relations") = py::none(),
           py::arg("max_sentences") = 0)
      .def_property_readonly("min_overlap", &c::ClaimConfig::min_overlap)
      .def_property_readonly("multi_citation_factor", &c::ClaimConfig::multi_citation_factor)
      // The held object itself (the checker binding's TermStatistics, read-only there), so Python
      // sees which table a config shares.
      .def_property_readonly(
          "statistics",
          [](const c::ClaimConfig& cfg) {
            return std::const_pointer_cast<sc::checker::TermStatistics>(cfg.shared_statistics());
          })
      .def_property_readonly(
          "mode", [](const c::ClaimConfig& cfg) { return std::string(c::mode_name(cfg.mode())); })
      .def_property_readonly("meta_patterns",
                             [](const c::ClaimConfig& cfg) { return cfg.meta().phrases(); })
      .def_property_readonly("stopwords", [](const c::ClaimConfig& cfg) {
        std::vector<std::string> out;
        for (const std::string_view w : cfg.stopwords().words()) out.emplace_back(w);
        return out;
      });

  m.def("default_meta_patterns", &c::default_meta_patterns, "The built-in meta phrases.");
  m.def("check_claim", &check_claim, py::arg("config"), py::arg("sentence"), py::arg("ids"),
        py::arg("texts"), py::arg("claim_type") = py::none(),
        "One claim against chunks (ids, texts): a claim_type record (sentence, score, is_covered, "
        "is_meta, citations, covering_chunks, overlaps, threshold, reason, start, end).");
  m.def("check_answer", &check_answer, py::arg("config"), py::arg("answer"), py::arg("ids"),
        py::arg("texts"), py::arg("claim_type") = py::none(),
        "(claims, unknown_citations, missing_citations, covered_count, claim_count, "
        "attribution_coverage, supported_ratio, is_grounded) of one answer.");
  m.def("check_answers", &check_answers, py::arg("config"), py::arg("answers"),
        py::arg("ids_per_answer"), py::arg("texts_per_answer"), py::arg("claim_type") = py::none(),
        py::arg("threads") = 0, "check_answer for each answer, in parallel, GIL released.");
  m.def("support_scores", &support_scores, py::arg("config"), py::arg("sentence"), py::arg("texts"),
        "The support score of `sentence` by each text (no citation logic).");

  py::class_<c::QueryTypeRules, std::shared_ptr<c::QueryTypeRules>>(
      m, "QueryTypeRules", "Query types as phrase data (immutable).")
      .def(py::init([](const std::vector<TypeTuple>& types, double min_term_fraction) {
             std::vector<c::QueryTypeSpec> specs;
             for (const auto& [name, query, evidence] : types)
               specs.push_back({name, query, evidence});
             return std::make_shared<c::QueryTypeRules>(std::move(specs), min_term_fraction);
           }),
           py::arg("types"), py::arg("min_term_fraction") = 0.5)
      .def_property_readonly("types",
                             [](const c::QueryTypeRules& r) { return type_tuples(r.types()); })
      .def_property_readonly("min_term_fraction", &c::QueryTypeRules::min_term_fraction)
      .def_static("default_types", []() { return type_tuples(c::QueryTypeRules::default_types()); })
      .def(
          "classify",
          [](const c::QueryTypeRules& rules, const py::str& query) {
            const std::string_view utf8 = utf8_of(query.ptr(), "query");
            py::gil_scoped_release release;
            return std::string(rules.classify(utf8));
          },
          py::arg("query"))
      .def(
          "evidence",
          [](const c::QueryTypeRules& rules, const py::str& query, const py::list& texts) {
            const std::string_view utf8 = utf8_of(query.ptr(), "query");
            std::vector<py::object> keep;
            std::vector<std::string_view> views;
            for (std::size_t i = 0; i < texts.size(); ++i) {
              py::object text = texts[i];
              views.push_back(utf8_of(text.ptr(), "chunks", i));
              keep.push_back(std::move(text));
            }
            c::EvidenceCheck r;
            {
              py::gil_scoped_release release;
              r = rules.evidence(utf8, views);
            }
            return py::make_tuple(r.query_type, r.is_sufficient, r.supporting, r.relevant,
                                  r.key_terms, r.reason);
          },
          py::arg("query"), py::arg("texts"),
          "(query_type, is_sufficient, supporting, relevant, key_terms, reason); chunk indexes.");
}
