/// @brief GoogleTest suites for the worker pool behind parallel_for (src/common/worker_pool.hpp).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/parallel_for.hpp"
#include "common/worker_pool.hpp"

namespace {

std::set<std::thread::id> threads_used(std::size_t n, std::size_t threads) {
  std::mutex m;
  std::set<std::thread::id> ids;
  sc::parallel_for(n, threads, [&](std::size_t) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));  // let every helper join
    const std::lock_guard<std::mutex> lock(m);
    ids.insert(std::this_thread::get_id());
  });
  return ids;
}

// Holds each item until both the calling thread and some other thread have started one, so that
// both take part does not depend on how fast a loaded host starts threads. One deadline (60 s after
// construction) for all items: a pool that never helps fails the test instead of hanging it.
class BothTakePart {
 public:
  void operator()() {
    (std::this_thread::get_id() == caller_ ? by_caller_ : by_helper_).store(true);
    while (!both() && std::chrono::steady_clock::now() < deadline_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  bool both() const { return by_caller_.load() && by_helper_.load(); }

 private:
  std::thread::id caller_ = std::this_thread::get_id();
  std::chrono::steady_clock::time_point deadline_ =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::atomic<bool> by_caller_{false};
  std::atomic<bool> by_helper_{false};
};

}  // namespace

TEST(ParallelForPool, EveryIndexExactlyOnce) {
  for (const std::size_t threads : {1U, 2U, 3U, 8U}) {
    std::vector<std::atomic<int>> seen(1000);
    sc::parallel_for(seen.size(), threads, [&](std::size_t i) { seen[i].fetch_add(1); });
    for (const auto& s : seen) EXPECT_EQ(s.load(), 1) << "threads=" << threads;
  }
}

TEST(ParallelForPool, ThreadsPersistAcrossCalls) {
  const auto first = threads_used(64, 3);
  const std::size_t pool_size = sc::WorkerPool::shared().size();
  ASSERT_GE(pool_size, 2U);
  std::set<std::thread::id> all = first;
  for (int call = 0; call < 5; ++call) {
    const auto ids = threads_used(64, 3);
    all.insert(ids.begin(), ids.end());
  }
  // Same pool threads every time: no thread is started per call.
  EXPECT_EQ(sc::WorkerPool::shared().size(), pool_size);
  EXPECT_LE(all.size(), pool_size + 1);  // the pool's threads and this one
}

TEST(ParallelForPool, ConcurrentCallersEachGetTheirOwnResults) {
  std::vector<std::thread> callers;
  std::vector<long long> sums(6, 0);
  for (std::size_t c = 0; c < sums.size(); ++c) {
    callers.emplace_back([&, c] {
      for (int round = 0; round < 20; ++round) {
        std::vector<long long> values(500);
        sc::parallel_for(values.size(), 3,
                         [&](std::size_t i) { values[i] = static_cast<long long>(i * (c + 1)); });
        sums[c] = std::accumulate(values.begin(), values.end(), 0LL);
      }
    });
  }
  for (std::thread& t : callers) t.join();
  for (std::size_t c = 0; c < sums.size(); ++c) {
    EXPECT_EQ(sums[c], static_cast<long long>(499 * 500 / 2 * (c + 1)));
  }
}

TEST(ParallelForPool, LowestFailingIndexIsRethrownAndThePoolStillWorks) {
  try {
    sc::parallel_for(200, 3, [](std::size_t i) {
      if (i == 7 || i == 150) throw std::runtime_error("item " + std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    // Items are handed out in order, so 7 fails first unless 150 failed and stopped the rest first.
    EXPECT_TRUE(std::string(e.what()) == "item 7" || std::string(e.what()) == "item 150")
        << e.what();
  }
  std::atomic<int> count{0};
  sc::parallel_for(100, 3, [&](std::size_t) { count.fetch_add(1); });
  EXPECT_EQ(count.load(), 100);
}

TEST(ParallelForPool, NestedCallsFinish) {
  std::atomic<int> count{0};
  sc::parallel_for(
      8, 3, [&](std::size_t) { sc::parallel_for(8, 3, [&](std::size_t) { count.fetch_add(1); }); });
  EXPECT_EQ(count.load(), 64);
}

TEST(ParallelForPool, AnOwnPoolJoinsItsThreadsWhenDestroyed) {
  std::atomic<int> calls{0};
  {
    sc::WorkerPool pool;
    struct Ctx {
      std::atomic<int>* calls;
    } ctx{&calls};
    pool.run(
        2, [](void* c) { static_cast<Ctx*>(c)->calls->fetch_add(1); }, &ctx);
    EXPECT_GE(calls.load(), 1);  // the caller always runs it; helpers that joined in time too
    EXPECT_LE(calls.load(), 3);
    EXPECT_EQ(pool.size(), 2U);
  }
}

TEST(ParallelForPool, OnCallerRunsOnTheCallingThreadAfterEachOfItsItems) {
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<std::size_t> on_caller{0};
  std::atomic<std::size_t> by_caller{0};
  std::atomic<bool> elsewhere{false};
  BothTakePart wait;
  sc::parallel_for(
      400, 3,
      [&](std::size_t) {
        wait();
        if (std::this_thread::get_id() == caller) by_caller.fetch_add(1);
      },
      [&]() noexcept {
        if (std::this_thread::get_id() != caller) elsewhere.store(true);
        on_caller.fetch_add(1);
      });
  EXPECT_FALSE(elsewhere.load());
  EXPECT_EQ(on_caller.load(), by_caller.load());
  EXPECT_GT(on_caller.load(), 0U);
  EXPECT_TRUE(wait.both());
  EXPECT_LT(on_caller.load(), 400U);  // the helpers took some items
}

TEST(ParallelForPool, OnCallerIsNotCalledWhenTheCallerWorksAlone) {
  std::size_t items = 0;
  std::size_t hooks = 0;
  sc::parallel_for(
      50, 1, [&](std::size_t) { ++items; }, [&]() noexcept { ++hooks; });
  EXPECT_EQ(items, 50U);
  EXPECT_EQ(hooks, 0U);
}

TEST(ParallelForPool, SmallBatchesStayOnTheCallingThread) {
  const std::size_t per = sc::kMinBytesPerThread;
  EXPECT_EQ(sc::threads_for(8, 100, per - 1), 1U);    // under one thread's share
  EXPECT_EQ(sc::threads_for(8, 100, 3 * per), 3U);    // one thread per share
  EXPECT_EQ(sc::threads_for(8, 2, 100 * per), 2U);    // at most one per item
  EXPECT_EQ(sc::threads_for(3, 100, 100 * per), 3U);  // at most what was asked
  EXPECT_EQ(sc::threads_for(0, 100, 1000 * per), std::min<std::size_t>(sc::usable_cores(), 100));
  EXPECT_EQ(sc::threads_for(4, 0, 0), 1U);
}

TEST(ParallelForPool, UsableCoresIsPositive) {
  const std::size_t cores = sc::usable_cores();
  EXPECT_GE(cores, 1U);
  if (std::thread::hardware_concurrency() > 0) {
    EXPECT_LE(cores, std::thread::hardware_concurrency());
  }
}

// Not in the ThreadSanitizer filter (*Batch*:ParallelFor*): TSan does not support threads started
// in the child of a multi-threaded fork.
TEST(WorkerPoolFork, AChildStartsAPoolOfItsOwn) {
  static_cast<void>(threads_used(16, 3));  // the parent's pool exists
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::atomic<int> count{0};
    BothTakePart wait;
    sc::parallel_for(100, 3, [&](std::size_t) {
      wait();
      count.fetch_add(1);
    });
    // Helpers took part: the child started threads of its own (the parent's do not exist here).
    _exit(count.load() == 100 && wait.both() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}
