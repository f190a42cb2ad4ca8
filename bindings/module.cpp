/// @brief The extension module `sufficient_context._core`: one submodule per core module.
#include <stdexcept>

#include "bindings.hpp"

namespace py = pybind11;

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of sufficient-context (private; use the sufficient_context package).";
  // std::invalid_argument -> ValueError and std::out_of_range -> IndexError are pybind11's
  // defaults.
  auto text = m.def_submodule("text", "UTF-8 text engine");
  sc::bindings::bind_text(text);
  auto sentences = m.def_submodule("sentences", "sentence splitter and citation markers");
  sc::bindings::bind_sentences(sentences);
  auto sim = m.def_submodule("similarity", "cosine kernels");
  sc::bindings::bind_similarity(sim);
  auto gate = m.def_submodule("gate", "evidence gates");
  sc::bindings::bind_gate(gate);
  auto checker = m.def_submodule("checker", "sufficiency checker");
  sc::bindings::bind_checker(checker);
  auto claims = m.def_submodule("claims", "claim coverage and query types");
  sc::bindings::bind_claims(claims);
  auto deliberation = m.def_submodule("deliberation", "deliberation meta-discussion detector");
  sc::bindings::bind_deliberation(deliberation);
}
