/// @brief Workspace: what a claim check allocates, kept per thread between checks inside the
/// shared cache budget (checker/cache_budget.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "checker/cache_budget.hpp"
#include "claims/chunk_grams.hpp"
#include "claims/claim_analysis.hpp"
#include "claims/claim_config.hpp"
#include "claims/claim_support.hpp"
#include "claims/key_table.hpp"
#include "text/sentences.hpp"

namespace sc::claims {

/// One sentence before its decision: where it is, what it cites, its analysis.
struct Pending {
  text::Span span;
  std::string_view text;
  std::vector<std::string_view> citations;  // distinct, first-seen
  std::vector<std::size_t> evidence;        // known cited chunks, or every chunk
  std::vector<std::string_view> unknown;    // cited ids naming no chunk
  std::vector<text::Span> runs;             // citation runs of text
  bool cited = false;                       // has citation markers
  ClaimProfile profile;
  // Check::ruled_out's items, made on first use: content items whose key has a kept_prefix,
  // heaviest first, and the sum of their weights.
  std::vector<std::uint32_t> absence;
  double absence_weight = 0.0;
  bool absence_ready = false;
};

/// The analyzer (with its word memos), the chunk id table, chunk profiles, sentences and scoring
/// scratch of a check, cleared before reuse.
struct Workspace {
  explicit Workspace(const ClaimConfig& config) : analyzer(config) {}

  ClaimAnalyzer analyzer;
  KeyTable ids;                        // chunk id -> input index
  std::vector<ChunkProfile> profiles;  // by chunk index; the first chunks.size() are in use
  std::vector<std::uint8_t> ready;     // how far profiles[i] is analyzed in this check (Check)
  std::vector<Pending> pending;        // by sentence
  SupportScratch scratch;
  ChunkGrams grams;  // of chunk grams_chunk (Check::ruled_out), kNoChunk before any read
  static constexpr std::size_t kNoChunk = static_cast<std::size_t>(-1);
  std::size_t grams_chunk = kNoChunk;

  /// Heap bytes held, this object included (capacities: what the process keeps).
  std::size_t memory_bytes() const noexcept;
};

class ThreadWorkspace;

/// This thread's Workspace for one check, reset for `config`. A thread keeps one workspace between
/// checks (warm buffers and word memos, no allocation for small checks): it counts in the cache
/// budget, other threads may empty it when it is idle and the process is over budget, and it is
/// dropped when a check grew it past kKeepBytes. A nested lease (none today) gets a fresh
/// workspace of its own, outside the budget and freed with the lease. Each thread has its own:
/// check_answers' threads share nothing but the (immutable) config.
class Lease {
 public:
  explicit Lease(const ClaimConfig& config);
  ~Lease();
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Workspace& operator*() const noexcept { return *workspace_; }

  static constexpr std::size_t kKeepBytes = std::size_t{8} << 20;
  /// Sentences and chunk profiles kept warm past a check; a check with more gives the rest back
  /// (memory_bytes() walks every one kept, at the end of every later check on the thread).
  static constexpr std::size_t kKeepEntries = 64;

 private:
  std::unique_ptr<Workspace> nested_;         // a nested lease's own workspace
  ThreadWorkspace* cache_ = nullptr;          // this thread's, when not nested
  std::optional<checker::CacheLease> lease_;  // when not nested
  Workspace* workspace_ = nullptr;
};

}  // namespace sc::claims
