/// @brief Bindings of the sufficiency checker (`sufficient_context._core.checker`).
#include "checker/checker.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "checker/edit_distance.hpp"
#include "checker/python_str.hpp"
#include "checker/reference_score.hpp"
#include "checker/sentence_split.hpp"
#include "checker/vocabulary.hpp"
#include "common/worker_pool.hpp"
#include "gil.hpp"
#include "overlapped_batch.hpp"

namespace py = pybind11;

namespace {

namespace ck = sc::checker;

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// UTF-8 views of Python str objects, valid while this object lives. The str objects are kept
// referenced (another thread may drop them while the GIL is released). A str holding lone
// surrogates has no UTF-8: it is re-encoded with each surrogate as U+FFFD (same length, and the
// same meaning for every rule of the checker: neither is a letter, a digit or whitespace).
class Utf8Texts {
 public:
  std::string_view add(py::handle obj, const char* argument, std::size_t index) {
    if (!PyUnicode_Check(obj.ptr())) {
      throw py::type_error(std::string(argument) + "[" + std::to_string(index) +
                           "] must be str; got " + std::string(Py_TYPE(obj.ptr())->tp_name));
    }
    return add_str(obj);
  }

  std::string_view add_str(py::handle obj) {
    refs_.push_back(py::reinterpret_borrow<py::object>(obj));
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
    if (data != nullptr) return std::string_view(data, static_cast<std::size_t>(size));
    PyErr_Clear();
    py::bytes raw = py::reinterpret_steal<py::bytes>(
        PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogatepass"));
    if (!raw) throw py::error_already_set();
    std::string& owned = owned_.emplace_back(std::string(raw));
    for (std::size_t i = 0; i + 2 < owned.size(); ++i) {
      const auto b0 = static_cast<unsigned char>(owned[i]);
      const auto b1 = static_cast<unsigned char>(owned[i + 1]);
      if (b0 == 0xED && b1 >= 0xA0) {  // a surrogate code point: U+FFFD is EF BF BD
        owned[i] = static_cast<char>(0xEF);
        owned[i + 1] = static_cast<char>(0xBF);
        owned[i + 2] = static_cast<char>(0xBD);
        i += 2;
      }
    }
    return owned;
  }

  std::vector<std::string_view> add_list(const py::handle& seq, const char* argument) {
    if (!PyList_Check(seq.ptr()) && !PyTuple_Check(seq.ptr())) {
      throw py::type_error(std::string(argument) + " must be a list of str");
    }
    const py::sequence items = py::reinterpret_borrow<py::sequence>(seq);
    std::vector<std::string_view> out;
    out.reserve(items.size());
    std::size_t i = 0;
    for (const py::handle item : items) out.push_back(add(item, argument, i++));
    return out;
  }

 private:
  std::vector<py::object> refs_;
  std::deque<std::string> owned_;
};

std::string shape_of(const py::array& array) {
  std::string shape = "(";
  for (py::ssize_t i = 0; i < array.ndim(); ++i) {
    if (i > 0) shape += ", ";
    shape += std::to_string(array.shape(i));
  }
  return shape + (array.ndim() == 1 ? ",)" : ")");
}

// Per-chunk values (timestamps, temperatures): a 1-D float64 array of n values or None.
const double* per_chunk(const std::optional<DoubleArray>& array, std::size_t n,
                        const char* argument) {
  if (!array) return nullptr;
  if (array->ndim() != 1 || static_cast<std::size_t>(array->shape(0)) != n) {
    throw std::invalid_argument(
        std::string(argument) + " must be a 1-D array of " + std::to_string(n) +
        " values (one per chunk, NaN for none); got shape " + shape_of(*array));
  }
  return n == 0 ? nullptr : array->data();
}

void set_embeddings(ck::CheckInput& input, const std::optional<DoubleArray>& query,
                    const std::optional<DoubleArray>& chunks) {
  if (!query && !chunks) return;
  if (!query || !chunks) {
    throw std::invalid_argument(
        "query_embedding and chunk_embeddings must be given together or not at all");
  }
  const std::size_t n = input.contents.size();
  if (query->ndim() != 1 || query->shape(0) == 0) {
    throw std::invalid_argument("query_embedding must be a non-empty 1-D array; got shape " +
                                shape_of(*query));
  }
  const auto d = static_cast<std::size_t>(query->shape(0));
  if (chunks->ndim() != 2 || static_cast<std::size_t>(chunks->shape(0)) != n ||
      static_cast<std::size_t>(chunks->shape(1)) != d) {
    throw std::invalid_argument(
        "chunk_embeddings must have shape (" + std::to_string(n) + ", " + std::to_string(d) +
        ") (one row per chunk, the query's dimension); got shape " + shape_of(*chunks));
  }
  if (n == 0) return;
  input.query_embedding = query->data();
  input.chunk_embeddings = chunks->data();
  input.dim = d;
}

py::dict signals_dict(const ck::CheckResult& r) {
  py::dict out;
  const ck::Signals& s = r.signals;
  const std::pair<const char*, double> items[] = {{"coverage", s.coverage},
                                                  {"relevance", s.relevance},
                                                  {"density", s.density},
                                                  {"count", s.count},
                                                  {"recency", s.recency}};
  for (const auto& [name, value] : items) {
    if (!std::isnan(value)) out[name] = value;
  }
  return out;
}

std::optional<double> nan_to_none(double value) {
  if (std::isnan(value)) return std::nullopt;
  return value;
}

/// Makes the package's SufficiencyResult objects in C++: each is created as object.__new__ and its
/// slots set here, so a check or a batch returns finished results without a Python call per result.
class ResultFactory {
 public:
  /// `levels`: the Level members for insufficient, partial and sufficient; `clock`: the
  /// time.perf_counter the caller's start time was read from.
  ResultFactory(const py::type& type, const py::tuple& levels, py::str scoring, py::object clock)
      : type_(type), scoring_(std::move(scoring)), clock_(std::move(clock)) {
    if (levels.size() != levels_.size()) {
      throw std::invalid_argument(
          "levels must hold the insufficient, partial and sufficient levels");
    }
    for (std::size_t i = 0; i < levels_.size(); ++i) levels_[i] = levels[i];
  }

  /// Milliseconds since `start` (seconds of the clock).
  double elapsed_ms(double start) const { return (clock_().cast<double>() - start) * 1e3; }

  py::object make(ck::CheckResult&& r, double elapsed_ms) const {
    const double score = r.score;
    const py::object& level = levels_[static_cast<std::size_t>(r.level)];
    py::object core = py::cast(std::move(r), py::return_value_policy::move);
    const py::object empty = steal(PyTuple_New(0));
    py::object out = steal(PyBaseObject_Type.tp_new(reinterpret_cast<PyTypeObject*>(type_.ptr()),
                                                    empty.ptr(), nullptr));
    set(out, kCore, core);
    set(out, kData, py::none());
    set(out, kScore, steal(PyFloat_FromDouble(score)));
    set(out, kLevel, level);
    set(out, kCheckerLevel, level);
    set(out, kDecidedBy, name(kChecker));
    set(out, kElapsed, steal(PyFloat_FromDouble(elapsed_ms)));
    set(out, kScoring, scoring_);
    return out;
  }

  void set_elapsed(const py::handle& result, double elapsed_ms) const {
    set(result, kElapsed, steal(PyFloat_FromDouble(elapsed_ms)));
  }

 private:
  enum Name : std::size_t {
    kCore,
    kData,
    kScore,
    kLevel,
    kCheckerLevel,
    kDecidedBy,
    kElapsed,
    kScoring,
    kChecker,
    kNames
  };

  static py::object steal(PyObject* object) {
    if (object == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(object);
  }

  /// Interned once and never freed, like the interpreter's own identifiers.
  static py::handle name(Name n) {
    static PyObject* const* const names = [] {
      static const char* const text[kNames] = {"_core",      "_data",         "score",
                                               "level",      "checker_level", "decided_by",
                                               "elapsed_ms", "scoring",       "checker"};
      static PyObject* made[kNames];
      for (std::size_t i = 0; i < kNames; ++i) {
        made[i] = PyUnicode_InternFromString(text[i]);
        if (made[i] == nullptr) throw py::error_already_set();
      }
      return made;
    }();
    return names[n];
  }

  static void set(const py::handle& object, Name n, const py::handle& value) {
    if (PyObject_SetAttr(object.ptr(), name(n).ptr(), value.ptr()) != 0) {
      throw py::error_already_set();
    }
  }

  py::type type_;
  std::array<py::object, 3> levels_;
  py::str scoring_;
  py::object clock_;
};

/// check_batch returning result objects, built while the pool is still scoring (overlapped_batch).
py::list scored_batch(const ck::SufficiencyChecker& checker,
                      const std::vector<ck::CheckInput>& inputs, std::size_t threads,
                      const ResultFactory& factory, double start) {
  const std::size_t n = inputs.size();
  std::size_t bytes = 0;
  for (const ck::CheckInput& input : inputs) {
    bytes += input.query.size();
    for (const std::string_view text : input.contents) bytes += text.size();
  }
  std::vector<double> own_ms(n);
  py::list out = sc::bindings::overlapped_batch<ck::CheckResult>(
      n, sc::threads_for(threads, n, bytes),
      [&](std::size_t i) { return checker.check(inputs[i]); },
      [&](std::size_t i, ck::CheckResult&& r) {
        own_ms[i] = r.elapsed_ms;
        return factory.make(std::move(r), 0.0);
      });
  // Each result's time: its own check plus an equal share of the whole call.
  const double share = n == 0 ? 0.0 : factory.elapsed_ms(start) / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    factory.set_elapsed(PyList_GET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i)), own_ms[i] + share);
  }
  return out;
}

ck::CheckerConfig make_config(
    std::string_view scoring,
    const std::optional<std::vector<std::pair<std::string, double>>>& weights, double sufficient,
    double partial, long long min_contexts, double recency_days) {
  ck::CheckerConfig config;
  config.scoring = ck::parse_scoring(scoring);
  config.weights = ck::default_weights(config.scoring);
  if (weights) ck::apply_weights(config.weights, *weights);
  config.sufficient = sufficient;
  config.partial = partial;
  config.min_contexts = min_contexts;
  config.recency_days = recency_days;
  return config;
}

std::vector<std::string> words_of(const ck::WordRelations& relations,
                                  ck::WordRelations::Links links) {
  std::vector<std::string> out;
  out.reserve(links.size());
  for (const std::uint32_t id : links) out.emplace_back(relations.word(id));
  return out;
}

}  // namespace

void sc::bindings::bind_checker(py::module_& m) {
  py::class_<ck::TermStatistics, std::shared_ptr<ck::TermStatistics>>(
      m, "TermStatistics", "Zipf frequency by term (stem); immutable.")
      .def(py::init<>())
      .def_static(
          "english",
          []() {
            return std::const_pointer_cast<ck::TermStatistics>(ck::TermStatistics::english());
          })
      .def_static("from_tsv", &ck::TermStatistics::from_tsv, py::arg("tsv"),
                  py::call_guard<sc::bindings::ReleaseGil>())
      .def_static("from_pairs", &ck::TermStatistics::from_pairs, py::arg("pairs"))
      .def_static(
          "from_texts",
          [](const py::list& texts) {
            Utf8Texts holder;
            const std::vector<std::string_view> views = holder.add_list(texts, "texts");
            sc::bindings::ReleaseGil release;
            return ck::TermStatistics::from_texts(views);
          },
          py::arg("texts"))
      .def("zipf", &ck::TermStatistics::zipf, py::arg("term"))
      .def("items", &ck::TermStatistics::items)
      .def("__len__", &ck::TermStatistics::size);

  py::class_<ck::WordRelations, std::shared_ptr<ck::WordRelations>>(
      m, "WordRelations", "Related words and antonyms by term (stem); immutable.")
      .def(py::init<>())
      .def_static(
          "english",
          []() { return std::const_pointer_cast<ck::WordRelations>(ck::WordRelations::english()); })
      .def_static("from_tsv", &ck::WordRelations::from_tsv, py::arg("tsv"),
                  py::call_guard<sc::bindings::ReleaseGil>())
      .def(
          "related",
          [](const ck::WordRelations& r, std::string_view term) {
            return words_of(r, r.related(term));
          },
          py::arg("term"))
      .def(
          "antonyms",
          [](const ck::WordRelations& r, std::string_view term) {
            return words_of(r, r.antonyms(term));
          },
          py::arg("term"))
      .def("__len__", &ck::WordRelations::size);

  py::class_<ck::CheckResult>(m, "CheckResult", "One sufficiency check, as the core scored it.")
      .def_readonly("score", &ck::CheckResult::score)
      .def_property_readonly(
          "level", [](const ck::CheckResult& r) { return std::string(ck::level_name(r.level)); })
      .def_property_readonly("signals", &signals_dict)
      .def_property_readonly("relevance_source",
                             [](const ck::CheckResult& r) {
                               return std::string(ck::relevance_source_name(r.relevance_source));
                             })
      .def_readonly("missing_aspects", &ck::CheckResult::missing_aspects)
      .def_readonly("confidence_factors", &ck::CheckResult::confidence_factors)
      .def_readonly("covered_terms", &ck::CheckResult::covered_terms)
      .def_readonly("missing_terms", &ck::CheckResult::missing_terms)
      .def_property_readonly("doc_coverage",
                             [](const ck::CheckResult& r) { return nan_to_none(r.doc_coverage); })
      .def_property_readonly("relation",
                             [](const ck::CheckResult& r) { return nan_to_none(r.relation); })
      .def_readonly("polarity_ok", &ck::CheckResult::polarity_ok)
      .def_readonly("elapsed_ms", &ck::CheckResult::elapsed_ms);

  py::class_<ResultFactory>(m, "ResultFactory",
                            "Builds the package's result objects for check and check_batch.")
      .def(py::init<const py::type&, const py::tuple&, py::str, py::object>(),
           py::arg("result_type"), py::arg("levels"), py::arg("scoring"), py::arg("clock"));

  py::class_<ck::SufficiencyChecker>(m, "Checker", "A validated checker configuration.")
      .def(py::init([](std::string_view scoring,
                       const std::optional<std::vector<std::pair<std::string, double>>>& weights,
                       double sufficient, double partial, long long min_contexts,
                       double recency_days, std::shared_ptr<ck::TermStatistics> statistics,
                       std::shared_ptr<ck::WordRelations> relations) {
             return ck::SufficiencyChecker(
                 make_config(scoring, weights, sufficient, partial, min_contexts, recency_days),
                 std::move(statistics), std::move(relations));
           }),
           py::arg("scoring") = "default", py::arg("weights") = py::none(),
           py::arg("sufficient") = 0.8, py::arg("partial") = 0.5, py::arg("min_contexts") = 1,
           py::arg("recency_days") = 365.0, py::arg("statistics") = py::none(),
           py::arg("relations") = py::none())
      .def_property_readonly("scoring",
                             [](const ck::SufficiencyChecker& c) {
                               return std::string(ck::scoring_name(c.config().scoring));
                             })
      .def_property_readonly("weights",
                             [](const ck::SufficiencyChecker& c) {
                               const ck::Weights& w = c.config().weights;
                               py::dict out;
                               out["coverage"] = w.coverage;
                               out["relevance"] = w.relevance;
                               out["density"] = w.density;
                               out["count"] = w.count;
                               out["recency"] = w.recency;
                               return out;
                             })
      .def_property_readonly("sufficient",
                             [](const ck::SufficiencyChecker& c) { return c.config().sufficient; })
      .def_property_readonly("partial",
                             [](const ck::SufficiencyChecker& c) { return c.config().partial; })
      .def_property_readonly(
          "min_contexts", [](const ck::SufficiencyChecker& c) { return c.config().min_contexts; })
      .def_property_readonly(
          "recency_days", [](const ck::SufficiencyChecker& c) { return c.config().recency_days; })
      .def(
          "check",
          [](const ck::SufficiencyChecker& checker, const py::str& query, const py::list& contents,
             const std::optional<py::list>& summaries, const std::optional<DoubleArray>& timestamps,
             const std::optional<DoubleArray>& temperatures,
             const std::optional<DoubleArray>& query_embedding,
             const std::optional<DoubleArray>& chunk_embeddings, std::optional<double> now,
             std::optional<long long> min_contexts, std::optional<double> recency_days,
             const ResultFactory* results, double start) -> py::object {
            Utf8Texts texts;
            ck::CheckInput input;
            input.query = texts.add_str(query);
            input.contents = texts.add_list(contents, "contents");
            if (summaries) input.summaries = texts.add_list(*summaries, "summaries");
            const std::size_t n = input.contents.size();
            input.timestamps = per_chunk(timestamps, n, "timestamps");
            input.temperatures = per_chunk(temperatures, n, "temperatures");
            set_embeddings(input, query_embedding, chunk_embeddings);
            input.now = now;
            input.min_contexts = min_contexts;
            input.recency_days = recency_days;
            ck::CheckResult result;
            {
              sc::bindings::ReleaseGil release;
              result = checker.check(input);
            }
            if (results == nullptr) return py::cast(std::move(result));
            return results->make(std::move(result), results->elapsed_ms(start));
          },
          py::arg("query"), py::arg("contents"), py::arg("summaries") = py::none(),
          py::arg("timestamps") = py::none(), py::arg("temperatures") = py::none(),
          py::arg("query_embedding") = py::none(), py::arg("chunk_embeddings") = py::none(),
          py::arg("now") = py::none(), py::arg("min_contexts") = py::none(),
          py::arg("recency_days") = py::none(), py::arg("results") = py::none(),
          py::arg("start") = 0.0)
      .def(
          "check_batch",
          [](const ck::SufficiencyChecker& checker, const py::list& queries,
             const py::list& contents, const std::optional<py::list>& summaries,
             const std::optional<std::vector<std::optional<DoubleArray>>>& timestamps,
             const std::optional<std::vector<std::optional<DoubleArray>>>& temperatures,
             const std::optional<std::vector<std::optional<DoubleArray>>>& query_embeddings,
             const std::optional<std::vector<std::optional<DoubleArray>>>& chunk_embeddings,
             std::optional<double> now, std::optional<long long> min_contexts,
             std::optional<double> recency_days, std::size_t threads, const ResultFactory* factory,
             double start) {
            const std::size_t n = queries.size();
            const auto require_size = [n](std::size_t size, const char* argument) {
              if (size != n) {
                throw std::invalid_argument(std::string(argument) +
                                            " must hold one entry per query (" + std::to_string(n) +
                                            "); got " + std::to_string(size));
              }
            };
            require_size(contents.size(), "contents");
            if (summaries) require_size(summaries->size(), "summaries");
            if (timestamps) require_size(timestamps->size(), "timestamps");
            if (temperatures) require_size(temperatures->size(), "temperatures");
            if (query_embeddings) require_size(query_embeddings->size(), "query_embeddings");
            if (chunk_embeddings) require_size(chunk_embeddings->size(), "chunk_embeddings");
            Utf8Texts texts;
            std::vector<ck::CheckInput> inputs(n);
            for (std::size_t i = 0; i < n; ++i) {
              ck::CheckInput& input = inputs[i];
              input.query = texts.add(queries[i], "queries", i);
              input.contents = texts.add_list(contents[i], "contents");
              if (summaries && !(*summaries)[i].is_none()) {
                input.summaries = texts.add_list((*summaries)[i], "summaries");
              }
              const std::size_t chunks = input.contents.size();
              if (timestamps) input.timestamps = per_chunk((*timestamps)[i], chunks, "timestamps");
              if (temperatures) {
                input.temperatures = per_chunk((*temperatures)[i], chunks, "temperatures");
              }
              if (query_embeddings && chunk_embeddings) {
                set_embeddings(input, (*query_embeddings)[i], (*chunk_embeddings)[i]);
              } else if (query_embeddings || chunk_embeddings) {
                throw std::invalid_argument(
                    "query_embeddings and chunk_embeddings must be given together or not at all");
              }
              input.now = now;
              input.min_contexts = min_contexts;
              input.recency_days = recency_days;
            }
            if (factory != nullptr) return scored_batch(checker, inputs, threads, *factory, start);
            std::vector<ck::CheckResult> results;
            {
              sc::bindings::ReleaseGil release;
              results = checker.check_batch(inputs, threads);
            }
            py::list out(n);
            for (std::size_t i = 0; i < n; ++i) {
              out[i] = py::cast(std::move(results[i]), py::return_value_policy::move);
            }
            return out;
          },
          py::arg("queries"), py::arg("contents"), py::arg("summaries") = py::none(),
          py::arg("timestamps") = py::none(), py::arg("temperatures") = py::none(),
          py::arg("query_embeddings") = py::none(), py::arg("chunk_embeddings") = py::none(),
          py::arg("now") = py::none(), py::arg("min_contexts") = py::none(),
          py::arg("recency_days") = py::none(), py::arg("threads") = 0,
          py::arg("results") = py::none(), py::arg("start") = 0.0);

  m.def(
      "not_str_lists",
      [](const py::list& lists) {
        py::list out;
        for (std::size_t i = 0; i < lists.size(); ++i) {
          PyObject* item = PyList_GET_ITEM(lists.ptr(), static_cast<Py_ssize_t>(i));
          bool plain = PyList_CheckExact(item);
          for (Py_ssize_t j = 0; plain && j < PyList_GET_SIZE(item); ++j) {
            plain = PyUnicode_CheckExact(PyList_GET_ITEM(item, j));
          }
          if (!plain) out.append(i);
        }
        return out;
      },
      py::arg("lists"),
      "Indexes of the entries that are not a list of str (exact types): the batch entries that "
      "need adapting.");
  m.def(
      "set_cache_budget", [](std::size_t bytes) { ck::set_cache_budget(bytes); }, py::arg("bytes"),
      "Bytes that all threads' caches (word vocabularies, claim workspaces) may hold together.");
  m.def(
      "cache_usage",
      [] {
        py::dict out;
        out["budget_bytes"] = ck::cache_budget();
        out["held_bytes"] = ck::cache_bytes();
        out["threads"] = ck::cache_threads();
        return out;
      },
      "The cache budget, the bytes held now and the threads holding a cache.");

  // Test hooks: the pieces the oracle tests compare one by one.
  m.def("_python_word_ranges", [] {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (std::size_t i = 0; i < ck::pystr::kWordRangeCount; ++i) {
      out.emplace_back(ck::pystr::kWordRanges[i].first, ck::pystr::kWordRanges[i].last);
    }
    return out;
  });
  m.def("_reference_query_terms", [](std::string_view query) {
    return ck::pystr::ascii_query_terms(query, ck::reference_stop_words());
  });
  m.def("_sentences", [](std::string_view text) {
    std::vector<ck::Span> spans;
    ck::split_sentences(text, spans);
    std::vector<std::string> out;
    for (const ck::Span& span : spans)
      out.emplace_back(text.substr(span.begin, span.end - span.begin));
    return out;
  });
  m.def("_one_edit_apart", &ck::one_edit_apart, py::arg("a"), py::arg("b"));
}
