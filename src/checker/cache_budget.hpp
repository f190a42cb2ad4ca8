/// @brief The byte budget shared by every thread's caches: the checker's word vocabularies and the
/// claim checks' workspaces (sc.set_cache_budget, sc.cache_usage).
#pragma once

#include <cstddef>
#include <mutex>
#include <thread>

namespace sc::checker {

/// Each thread that checks keeps caches between checks (a Vocabulary for default scoring and
/// sentence_query_hits, a claim workspace with its word memos for claim coverage). Together they
/// share one byte budget (cache_budget(); 256 MiB unless set). A check that ends with the total
/// over budget empties the caches of other threads that are not checking, then this thread's other
/// idle caches, then the one it used. Emptying only costs speed (the next check rebuilds what it
/// needs), never a different result.
inline constexpr std::size_t kDefaultCacheBudget = std::size_t{256} << 20;

void set_cache_budget(std::size_t bytes) noexcept;
std::size_t cache_budget() noexcept;
/// Bytes the threads' caches hold now (as of each cache's last check).
std::size_t cache_bytes() noexcept;
/// Threads holding a cache (of either kind, emptied or not): those alive that have run a check.
std::size_t cache_threads() noexcept;

/// One thread's cache of one kind, counted in the budget from its first lease until it is
/// destroyed. Made as a thread_local of its thread; a derived class must be final and call
/// withdraw() first in its destructor (so no other thread empties it while its members are being
/// destroyed).
class BudgetedCache {
 public:
  BudgetedCache();
  virtual ~BudgetedCache();
  BudgetedCache(const BudgetedCache&) = delete;
  BudgetedCache& operator=(const BudgetedCache&) = delete;

  /// Whether this thread is using it now (a CacheLease lives). Only its own thread may ask.
  bool leased() const noexcept { return leased_; }

 protected:
  /// Unregisters it and gives its bytes back to the total; idempotent.
  void withdraw() noexcept;

 private:
  friend class CacheLease;
  friend struct CacheRegistry;
  /// Heap bytes held now (capacity: what the process keeps).
  virtual std::size_t held_bytes() const noexcept = 0;
  /// Gives back all the memory it holds.
  virtual void empty() noexcept = 0;

  // Registers it (at its first lease).
  void enlist();
  // Re-accounts this cache (in_use_ held by the caller) and returns the new total.
  std::size_t account() noexcept;
  void empty_and_account() noexcept {
    empty();
    account();
  }

  std::mutex in_use_;          // held while a check uses it or another thread empties it
  std::size_t accounted_ = 0;  // guarded by in_use_
  bool leased_ = false;        // read and written by the owner thread only
  bool registered_ = false;    // owner thread only (withdraw runs on it, at its exit)
  std::thread::id owner_;
};

/// This thread's `cache` for the length of one check: other threads cannot empty it while the
/// lease lives. On release it accounts the cache's bytes and enforces the budget. Not nestable
/// on one cache (check leased() first).
class CacheLease {
 public:
  explicit CacheLease(BudgetedCache& cache);
  ~CacheLease();
  CacheLease(const CacheLease&) = delete;
  CacheLease& operator=(const CacheLease&) = delete;

 private:
  BudgetedCache& cache_;
};

}  // namespace sc::checker
