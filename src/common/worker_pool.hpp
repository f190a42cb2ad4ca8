/// @brief WorkerPool: the process's persistent threads for the batch forms of the checks.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace sc {

/// CPUs this process may run on (sched_getaffinity), at least 1: what `threads = 0` means. A
/// container or `taskset` limits it below std::thread::hardware_concurrency().
std::size_t usable_cores() noexcept;

/// Bytes of text a thread should get before a batch is spread over more than one: waking a pool
/// thread costs tens of microseconds, about what the checks take on 16 KiB of text.
inline constexpr std::size_t kMinBytesPerThread = std::size_t{16} << 10;

/// The threads a batch of `items` items holding `bytes` bytes of text runs on: `threads` (0: the
/// usable cores), at most one per item and one per kMinBytesPerThread bytes, at least 1. Small
/// batches stay on the calling thread, so a batch is never much slower than a loop.
std::size_t threads_for(std::size_t threads, std::size_t items, std::size_t bytes) noexcept;

/// Threads that stay alive between batch calls, so their per-thread state (vocabulary caches,
/// scratch buffers) stays warm and no call pays for starting threads. Grows to the most helpers
/// ever asked for (at most kMaxThreads); never shrinks. Many callers may run jobs at once: each
/// job takes the idle threads it can get, and its caller always works on it too, so a job finishes
/// even when every pool thread is busy elsewhere.
class WorkerPool {
 public:
  static constexpr std::size_t kMaxThreads = 256;

  /// The process's pool, created on first use. A forked child gets a new, empty one (the parent's
  /// threads do not exist there).
  static WorkerPool& shared();

  WorkerPool() = default;
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();

  /// Calls fn(ctx) on the calling thread and on up to `helpers` pool threads at once, and returns
  /// once every one of those calls has returned. fn must not throw and must tolerate finding no
  /// work left (a helper may join late).
  void run(std::size_t helpers, void (*fn)(void*), void* ctx);

  /// Threads started so far.
  std::size_t size() const;

 private:
  struct Job {
    void (*fn)(void*);
    void* ctx;
    std::size_t wanted;
    std::size_t joined = 0;
    std::size_t active = 0;
  };

  void work_loop();
  Job* open_job() noexcept;
  void grow_to(std::size_t count);

  mutable std::mutex mutex_;
  std::condition_variable wake_;  // pool threads: a job is open, or stop
  std::condition_variable done_;  // callers: a helper left a job
  std::vector<Job*> jobs_;        // open jobs, oldest first; each lives on its caller's stack
  std::vector<std::thread> threads_;
  bool stop_ = false;
};

}  // namespace sc
