/// @brief The retrieval gate's one-call path from the caller's objects to a finished decision.
#pragma once

#include <pybind11/pybind11.h>

namespace sc::bindings {

/// Adds `retrieval_decision(cls, scores, min_score, min_chunks, weak_score)` to `gate`: a raw
/// METH_FASTCALL function, since pybind11's dispatch alone would cost as much as a tiny gate call.
void add_retrieval_decision(pybind11::module_& gate);

}  // namespace sc::bindings
