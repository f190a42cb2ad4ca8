#include "checker/cache_budget.hpp"

#include <algorithm>
#include <atomic>
#include <utility>
#include <vector>

#include "common/no_destructor.hpp"

namespace sc::checker {
namespace {

std::atomic<std::size_t> g_budget{kDefaultCacheBudget};
std::atomic<std::size_t> g_total{0};

}  // namespace

struct CacheRegistry {
  std::mutex mutex;
  std::vector<BudgetedCache*> caches;

  static CacheRegistry& get() {
    // Never destroyed (like every static the checks use): at exit, pool threads and daemon threads
    // may still be checking while static objects are torn down.
    static NoDestructor<CacheRegistry> r;
    return *r;
  }

  // The owner thread of each cache.
  std::vector<std::thread::id> owners() {
    const std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::thread::id> out;
    out.reserve(caches.size());
    for (const BudgetedCache* cache : caches) out.push_back(cache->owner_);
    return out;
  }

  // Empties the caches `pick` accepts that are not in use, until the total is within budget.
  // Called with `mutex` held: while it is, only this thread locks another's cache.
  template <class Pick>
  void empty_idle(Pick&& pick) {
    for (BudgetedCache* cache : caches) {
      if (g_total.load() <= g_budget.load()) return;
      if (!pick(*cache) || !cache->in_use_.try_lock()) continue;
      cache->empty_and_account();
      cache->in_use_.unlock();
    }
  }
};

BudgetedCache::BudgetedCache() : owner_(std::this_thread::get_id()) {}

void BudgetedCache::enlist() {
  CacheRegistry& r = CacheRegistry::get();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.caches.push_back(this);
  registered_ = true;
}

BudgetedCache::~BudgetedCache() { withdraw(); }

void BudgetedCache::withdraw() noexcept {
  CacheRegistry& r = CacheRegistry::get();
  const std::lock_guard<std::mutex> lock(r.mutex);
  if (!registered_) return;
  registered_ = false;
  r.caches.erase(std::find(r.caches.begin(), r.caches.end(), this));
  g_total.fetch_sub(std::exchange(accounted_, 0));
}

std::size_t BudgetedCache::account() noexcept {
  const std::size_t now = held_bytes();
  const std::size_t before = std::exchange(accounted_, now);
  if (now >= before) return g_total.fetch_add(now - before) + (now - before);
  return g_total.fetch_sub(before - now) - (before - now);
}

void set_cache_budget(std::size_t bytes) noexcept { g_budget.store(bytes); }
std::size_t cache_budget() noexcept { return g_budget.load(); }
std::size_t cache_bytes() noexcept { return g_total.load(); }

std::size_t cache_threads() noexcept {
  std::vector<std::thread::id> owners = CacheRegistry::get().owners();
  std::sort(owners.begin(), owners.end());
  return static_cast<std::size_t>(std::unique(owners.begin(), owners.end()) - owners.begin());
}

CacheLease::CacheLease(BudgetedCache& cache) : cache_(cache) {
  // Registered on first use, not in the constructor: another thread may empty it from then on,
  // which must not happen before the derived object is whole. Before the lock, so a failure to
  // register leaves nothing locked.
  if (!cache.registered_) cache.enlist();
  cache.in_use_.lock();
  cache.leased_ = true;
}

CacheLease::~CacheLease() {
  BudgetedCache& self = cache_;
  if (self.account() > g_budget.load()) {
    CacheRegistry& r = CacheRegistry::get();
    {
      const std::lock_guard<std::mutex> lock(r.mutex);
      const std::thread::id me = std::this_thread::get_id();
      // Idle threads first: their words are the least likely to come back on this thread. Then
      // this thread's other caches, unless a check of this thread is using them.
      r.empty_idle([&](const BudgetedCache& c) { return c.owner_ != me; });
      r.empty_idle(
          [&](const BudgetedCache& c) { return c.owner_ == me && &c != &self && !c.leased_; });
    }
    if (g_total.load() > g_budget.load()) self.empty_and_account();
  }
  self.leased_ = false;
  self.in_use_.unlock();
}

}  // namespace sc::checker
