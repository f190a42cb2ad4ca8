/// @brief Declarations of the per-module binding functions that module.cpp calls.
#pragma once

#include <pybind11/pybind11.h>

namespace sc::bindings {

void bind_text(pybind11::module_& text);  // tokenizer, folding, stop words, stemmer, terms
void bind_sentences(pybind11::module_& sentences);  // sentence splitter, citation markers
void bind_similarity(pybind11::module_& sim);       // cosine kernels
void bind_gate(pybind11::module_& gate);            // attention and retrieval gates
void bind_checker(pybind11::module_& checker);      // sufficiency checker, term statistics
void bind_claims(pybind11::module_& claims);        // claim coverage, query types
void bind_deliberation(pybind11::module_& delib);   // meta-discussion detector

}  // namespace sc::bindings
