/// @brief The batch forms' loop when they return Python objects: scoring on the worker pool, and
/// the GIL-bound building of the objects overlapping it on the calling thread.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include "common/parallel_for.hpp"
#include "gil.hpp"

namespace sc::bindings {

/// Python's cyclic garbage collector held off while the GIL-holding caller builds a run of result
/// objects: they hold no cycles, yet their allocations would trigger collections, whose older
/// generations walk every object of the process (a tenth of a batch's time in a process holding its
/// dataset). No Python code runs meanwhile, so no other thread sees the collector paused; the
/// objects are collected as usual afterwards.
class GcPause {
 public:
  GcPause() : was_enabled_(PyGC_Disable() != 0) {}
  GcPause(const GcPause&) = delete;
  GcPause& operator=(const GcPause&) = delete;
  ~GcPause() {
    if (was_enabled_) PyGC_Enable();
  }

 private:
  bool was_enabled_;
};

/// [build(i, score(i)) for i in range(n)] as a Python list. score runs on `threads` threads (the
/// caller one of them) with the GIL released; build runs on the caller with the GIL held, in index
/// order. Building all objects after the scoring would leave one core idle for that serial part
/// (a tenth of a two-thread batch): instead, whenever `step` more items have finished, the caller
/// takes the GIL and builds them, so only the last few are built after the scoring. At most about
/// 16 GIL acquisitions a batch, since another Python thread may hold the GIL a while. Errors as
/// sc::parallel_for: the lowest failing item's score error, once every thread has stopped; a build
/// error stops the building and is raised after the scoring.
template <class Result, class Score, class Build>
pybind11::list overlapped_batch(std::size_t n, std::size_t threads, const Score& score,
                                const Build& build) {
  pybind11::list out(n);
  if (n == 0) return out;
  std::vector<std::optional<Result>> results(n);
  const auto done = std::make_unique<std::atomic<bool>[]>(n);
  std::size_t built = 0;  // out[0, built) are set; only the caller, holding the GIL, touches it
  const auto build_done = [&] {
    const GcPause pause;
    while (built < n && done[built].load(std::memory_order_acquire)) {
      pybind11::object item = build(built, std::move(*results[built]));
      results[built].reset();
      PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(built), item.release().ptr());
      ++built;
    }
  };
  std::exception_ptr build_error;
  const std::size_t step = std::max<std::size_t>(32, n / 16);
  const auto score_one = [&](std::size_t i) {
    results[i].emplace(score(i));
    done[i].store(true, std::memory_order_release);
  };
  PyThreadState* state = nullptr;  // the caller's, while it runs without the GIL
  // On the caller, between its own items: build once `step` more have finished. restore_gil, not
  // gil_scoped_acquire: a daemon thread ended here at interpreter exit must not unwind this loop
  // while pool threads still work on it.
  const auto build_some = [&]() noexcept {
    if (build_error || built + step > n ||
        !done[built + step - 1].load(std::memory_order_acquire)) {
      return;
    }
    restore_gil(state);
    try {
      build_done();
    } catch (...) {
      build_error = std::current_exception();
    }
    state = PyEval_SaveThread();
  };
  std::exception_ptr error;
  state = PyEval_SaveThread();
  try {
    sc::parallel_for(n, threads, score_one, build_some);
  } catch (...) {
    error = std::current_exception();
  }
  restore_gil(state);
  if (error) std::rethrow_exception(error);
  if (build_error) std::rethrow_exception(build_error);
  build_done();
  return out;
}

}  // namespace sc::bindings
