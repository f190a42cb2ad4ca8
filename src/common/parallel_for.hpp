/// @brief parallel_for over indices on the process's worker pool (the batch forms of the checks);
/// worker errors rethrown by the caller.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "common/worker_pool.hpp"

namespace sc {

/// Calls fn(i) for every i in [0, n) on min(threads, n) threads (threads == 0: the usable cores),
/// the calling thread being one of them and the others from WorkerPool::shared(). Items are handed
/// out one at a time, so uneven items balance. Workers never throw: the error of the lowest failing
/// index is kept, the remaining items are skipped, and it is rethrown here once every thread has
/// joined. When more than one thread runs, on_caller() is called on the calling thread after each
/// of its own items (the batch bindings build finished results there while the others score); it
/// must not throw.
template <class Fn, class OnCaller>
void parallel_for(std::size_t n, std::size_t threads, Fn&& fn, OnCaller&& on_caller) {
  if (n == 0) return;
  if (threads == 0) threads = usable_cores();
  threads = std::min(threads, n);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::size_t error_index = n;
  const std::thread::id caller = std::this_thread::get_id();
  auto work = [&]() noexcept {
    const bool is_caller = threads > 1 && std::this_thread::get_id() == caller;
    while (!failed.load(std::memory_order_relaxed)) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= n) return;
      try {
        fn(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(error_mutex);
        if (i < error_index) {
          error_index = i;
          error = std::current_exception();
        }
        failed.store(true, std::memory_order_relaxed);
      }
      if (is_caller) on_caller();
    }
  };
  using Work = decltype(work);
  if (threads == 1) {
    work();
  } else {
    WorkerPool::shared().run(
        threads - 1, [](void* ctx) { (*static_cast<Work*>(ctx))(); }, &work);
  }
  if (error) std::rethrow_exception(error);
}

/// parallel_for without an on_caller hook.
template <class Fn>
void parallel_for(std::size_t n, std::size_t threads, Fn&& fn) {
  parallel_for(n, threads, std::forward<Fn>(fn), [] {});
}

}  // namespace sc
