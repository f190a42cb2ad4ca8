#include "common/worker_pool.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <system_error>

namespace sc {

std::size_t usable_cores() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return static_cast<std::size_t>(count);
  }
  return std::max<std::size_t>(1, std::thread::hardware_concurrency());
}

std::size_t threads_for(std::size_t threads, std::size_t items, std::size_t bytes) noexcept {
  if (threads == 0) threads = usable_cores();
  threads = std::min({threads, items, bytes / kMinBytesPerThread});
  return std::max<std::size_t>(threads, 1);
}

namespace {

// wait_for in a loop rather than wait: GCC 12's condition_variable::wait(unique_lock&) is a
// GLIBCXX_3.4.30 symbol, which would raise the wheel's manylinux tag from 2_34 to 2_35; wait_for
// is inline (pthread_cond_clockwait). An idle thread wakes once a minute.
template <class Predicate>
void wait_until_true(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                     Predicate ready) {
  while (!ready()) cv.wait_for(lock, std::chrono::minutes(1));
}

std::atomic<WorkerPool*> g_pool{nullptr};
std::mutex g_pool_create;

void forget_pool_in_child() noexcept {
  // The parent's threads were not copied into the child and its mutex may be held by one of them:
  // the child starts a pool of its own and never touches the old one.
  g_pool.store(nullptr);
}

}  // namespace

WorkerPool& WorkerPool::shared() {
  WorkerPool* pool = g_pool.load(std::memory_order_acquire);
  if (pool != nullptr) return *pool;
  const std::lock_guard<std::mutex> lock(g_pool_create);
  pool = g_pool.load(std::memory_order_acquire);
  if (pool == nullptr) {
    static const bool registered = pthread_atfork(nullptr, nullptr, &forget_pool_in_child) == 0;
    static_cast<void>(registered);
    // Never destroyed: at exit, pool threads may still hold thread_local caches whose registry is
    // itself a static, and joining them while statics are torn down would race. The threads sleep
    // until the process ends; the pool stays reachable, so leak checkers do not count it.
    pool = std::make_unique<WorkerPool>().release();
    g_pool.store(pool, std::memory_order_release);
  }
  return *pool;
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

std::size_t WorkerPool::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return threads_.size();
}

WorkerPool::Job* WorkerPool::open_job() noexcept {
  for (Job* job : jobs_) {
    if (job->joined < job->wanted) return job;
  }
  return nullptr;
}

void WorkerPool::grow_to(std::size_t count) {
  count = std::min(count, kMaxThreads);
  while (threads_.size() < count) {
    try {
      threads_.emplace_back([this] { work_loop(); });
    } catch (const std::system_error&) {
      return;  // no more threads: the running ones and the callers do the work
    }
  }
}

void WorkerPool::work_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    Job* job = nullptr;
    wait_until_true(wake_, lock, [&] { return stop_ || (job = open_job()) != nullptr; });
    if (stop_) return;
    ++job->joined;
    ++job->active;
    lock.unlock();
    job->fn(job->ctx);
    lock.lock();
    if (--job->active == 0) done_.notify_all();
  }
}

void WorkerPool::run(std::size_t helpers, void (*fn)(void*), void* ctx) {
  if (helpers == 0) {
    fn(ctx);
    return;
  }
  Job job{fn, ctx, helpers};
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    grow_to(helpers);
    jobs_.push_back(&job);
  }
  for (std::size_t i = 0; i < helpers; ++i) wake_.notify_one();
  fn(ctx);
  std::unique_lock<std::mutex> lock(mutex_);
  jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));  // no helper joins from here on
  wait_until_true(done_, lock, [&] { return job.active == 0; });
}

}  // namespace sc
