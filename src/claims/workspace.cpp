#include "claims/workspace.hpp"

namespace sc::claims {

std::size_t Workspace::memory_bytes() const noexcept {
  std::size_t bytes = sizeof(Workspace) + analyzer.memory_bytes() + ids.memory_bytes() +
                      ready.capacity() + scratch.events.capacity() * sizeof(std::uint64_t) +
                      scratch.flags.capacity() + scratch.best_flags.capacity() +
                      profiles.capacity() * sizeof(ChunkProfile) +
                      pending.capacity() * sizeof(Pending);  // grams: fixed arrays, in sizeof
  for (const ChunkProfile& p : profiles) {
    bytes +=
        p.present.capacity() * sizeof(std::uint64_t) +
        (p.keys.capacity() + p.begin.capacity() + p.positions.capacity() + p.unit_begin.capacity() +
         p.key_units.capacity() + p.negations.capacity() + p.relation_keys.capacity() +
         p.relation_unit_begin.capacity() + p.relation_units.capacity()) *
            sizeof(std::uint32_t);
  }
  for (const Pending& p : pending) {
    bytes += (p.citations.capacity() + p.unknown.capacity() + p.profile.surfaces.capacity()) *
                 sizeof(std::string_view) +
             p.evidence.capacity() * sizeof(std::size_t) + p.runs.capacity() * sizeof(text::Span) +
             p.absence.capacity() * sizeof(std::uint32_t) +
             p.profile.weights.capacity() * sizeof(double) +
             (p.profile.items.capacity() + p.profile.related.capacity() +
              p.profile.antonyms.capacity() + p.profile.related_begin.capacity() +
              p.profile.antonym_begin.capacity() + p.profile.meta_rest.capacity()) *
                 sizeof(std::uint32_t) +
             p.profile.kinds.capacity() * sizeof(ItemKind) + p.profile.names.capacity();
  }
  return bytes;
}

/// This thread's workspace, counted in the cache budget; emptying it frees the whole workspace.
class ThreadWorkspace final : public checker::BudgetedCache {
 public:
  ThreadWorkspace() = default;
  ~ThreadWorkspace() override { withdraw(); }
  ThreadWorkspace(const ThreadWorkspace&) = delete;
  ThreadWorkspace& operator=(const ThreadWorkspace&) = delete;

  std::unique_ptr<Workspace> workspace;
  std::size_t bytes = 0;  // workspace->memory_bytes() as its last lease ended

 private:
  // Accounted only as a lease ends (just after ~Lease measured it) or once emptied.
  std::size_t held_bytes() const noexcept override { return workspace ? bytes : 0; }
  void empty() noexcept override { workspace.reset(); }
};

namespace {

ThreadWorkspace& this_thread_workspace() {
  thread_local ThreadWorkspace cache;
  return cache;
}

}  // namespace

Lease::Lease(const ClaimConfig& config) {
  ThreadWorkspace& cache = this_thread_workspace();
  if (cache.leased()) {
    nested_ = std::make_unique<Workspace>(config);
    workspace_ = nested_.get();
  } else {
    cache_ = &cache;
    lease_.emplace(cache);
    if (!cache.workspace) cache.workspace = std::make_unique<Workspace>(config);
    workspace_ = cache.workspace.get();
  }
  workspace_->analyzer.reset(config);
  workspace_->ids.clear();
  workspace_->grams_chunk = Workspace::kNoChunk;
}

Lease::~Lease() {
  // Before lease_ accounts it: a workspace grown past kKeepBytes by one large check is given back
  // whatever the budget.
  if (cache_ == nullptr) return;
  // One long answer (or many chunks) must not make every later check walk its sentences: a
  // 1,000-sentence answer made each later small check of the thread ~7x slower.
  const auto trim = [](auto& entries) {
    if (entries.size() > kKeepEntries) {
      entries.resize(kKeepEntries);
      entries.shrink_to_fit();
    }
  };
  trim(workspace_->pending);
  trim(workspace_->profiles);
  cache_->bytes = workspace_->memory_bytes();
  if (cache_->bytes > kKeepBytes) cache_->workspace.reset();
}

}  // namespace sc::claims
