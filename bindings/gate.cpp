/// @brief Bindings of the evidence gates (`sufficient_context._core.gate`).
#include "gate.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bindings.hpp"
#include "gate_retrieval.hpp"
#include "gil.hpp"

namespace py = pybind11;

namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// Below this many elements a core call takes well under a microsecond: releasing the GIL would
// cost more than it frees.
constexpr py::ssize_t kReleaseGilFrom = 512;

void require_1d(const DoubleArray& array, std::string_view argument) {
  if (array.ndim() == 1) return;
  std::string shape = "(";
  for (py::ssize_t i = 0; i < array.ndim(); ++i) {
    if (i > 0) shape += ", ";
    shape += std::to_string(array.shape(i));
  }
  shape += ")";
  throw std::invalid_argument(std::string(argument) +
                              " must be a 1-D array of numbers; got shape " + shape);
}

template <typename Call>
auto maybe_without_gil(py::ssize_t n, Call&& call) {
  const sc::bindings::ReleaseGil release(n >= kReleaseGilFrom);
  return call();
}

}  // namespace

void sc::bindings::bind_gate(py::module_& gate) {
  namespace g = sc::gate;

  gate.def("check_threshold", &g::check_threshold, py::arg("value"), py::arg("name") = "threshold",
           "Raise ValueError naming `name` unless 0 <= value <= 1.");

  py::class_<g::AttentionConfig>(gate, "AttentionConfig",
                                 "Validated configuration of the attention gate.")
      .def(py::init([](double threshold, bool strict, std::string_view mode, std::size_t top_k) {
             g::AttentionConfig config{threshold, strict, g::parse_mode(mode), top_k};
             g::validate(config);
             return config;
           }),
           py::arg("threshold") = 0.5, py::arg("strict") = false, py::arg("mode") = "max",
           py::arg("top_k") = 2)
      .def_readonly("threshold", &g::AttentionConfig::threshold)
      .def_readonly("strict", &g::AttentionConfig::strict)
      .def_property_readonly(
          "mode", [](const g::AttentionConfig& c) { return std::string(g::mode_name(c.mode)); })
      .def_readonly("top_k", &g::AttentionConfig::top_k);

  py::class_<g::AttentionResult>(gate, "AttentionResult", "One attention-gate decision.")
      .def_readonly("passes", &g::AttentionResult::passes)
      .def_readonly("empty", &g::AttentionResult::empty)
      .def_readonly("max_attention", &g::AttentionResult::max_attention)
      .def_readonly("argmax", &g::AttentionResult::argmax)
      .def_readonly("sufficiency", &g::AttentionResult::sufficiency)
      .def_readonly("margin", &g::AttentionResult::margin);

  gate.def(
      "evaluate_attention",
      [](const DoubleArray& weights, const g::AttentionConfig& config, std::string_view argument) {
        require_1d(weights, argument);
        const double* data = weights.data();
        const auto n = weights.shape(0);
        return maybe_without_gil(n, [&] {
          return g::evaluate_attention(data, static_cast<std::size_t>(n), config, argument);
        });
      },
      py::arg("weights"), py::arg("config"), py::arg("argument") = "attention_distribution",
      "Normalise the weights to sum 1 and apply the attention gate in one call.");

  py::class_<g::RetrievalResult>(gate, "RetrievalResult", "One retrieval-gate decision.")
      .def_property_readonly(
          "outcome",
          [](const g::RetrievalResult& r) { return std::string(g::outcome_name(r.outcome)); })
      .def_readonly("max_score", &g::RetrievalResult::max_score)
      .def_property_readonly("passing", [](const g::RetrievalResult& r) {
        py::array_t<std::int64_t> out(static_cast<py::ssize_t>(r.passing.size()));
        auto view = out.mutable_unchecked<1>();
        for (std::size_t i = 0; i < r.passing.size(); ++i) {
          view(static_cast<py::ssize_t>(i)) = static_cast<std::int64_t>(r.passing[i]);
        }
        return out;
      });

  gate.def(
      "evaluate_retrieval",
      [](const DoubleArray& scores, double min_score, std::size_t min_chunks,
         std::optional<double> weak_score, std::string_view argument) {
        require_1d(scores, argument);
        const g::RetrievalConfig config{min_score, min_chunks, weak_score};
        const double* data = scores.data();
        const auto n = scores.shape(0);
        return maybe_without_gil(n, [&] {
          return g::evaluate_retrieval(data, static_cast<std::size_t>(n), config, argument);
        });
      },
      py::arg("scores"), py::arg("min_score") = 0.20, py::arg("min_chunks") = 2,
      py::arg("weak_score") = py::none(), py::arg("argument") = "chunks_or_scores",
      "Apply the retrieval gate to one score per chunk in one call.");

  sc::bindings::add_retrieval_decision(gate);
}
