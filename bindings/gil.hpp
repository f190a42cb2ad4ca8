/// @brief Releasing the GIL around core calls in a way that survives interpreter exit.
#pragma once

#include <pybind11/pybind11.h>
#include <unistd.h>

namespace sc::bindings {

/// PyEval_RestoreThread(state), except in a thread CPython ends because the interpreter is
/// exiting: a daemon thread that asks for the GIL then is ended by pthread_exit (CPython 3.11 to
/// 3.13), whose unwinding reaches a noexcept frame (pybind11's gil_scoped_release destructor, the
/// batch loop) and aborts the whole process at exit. Such a thread sleeps here instead until the
/// process ends, as CPython 3.14 does; unwinding further would also drop Python references
/// without the GIL.
inline void restore_gil(PyThreadState* state) noexcept {
#if defined(__GLIBCXX__)
  try {
    PyEval_RestoreThread(state);
  } catch (...) {
    // Only the forced unwind can reach here (a C function throws nothing else). Not caught by
    // reference to abi::__forced_unwind: that binds a reference to no object (UBSan reports it).
    // The handler is never left, so the unwinding stops here and nothing is freed.
    for (;;) pause();
  }
#else
  PyEval_RestoreThread(state);
#endif
}

/// The GIL released for a scope, as pybind11::gil_scoped_release, taken back with restore_gil;
/// kept when `release` is false (a call too short for releasing to pay).
class ReleaseGil {
 public:
  explicit ReleaseGil(bool release = true) : state_(release ? PyEval_SaveThread() : nullptr) {}
  ~ReleaseGil() {
    if (state_ != nullptr) restore_gil(state_);
  }
  ReleaseGil(const ReleaseGil&) = delete;
  ReleaseGil& operator=(const ReleaseGil&) = delete;

 private:
  PyThreadState* state_;
};

}  // namespace sc::bindings
