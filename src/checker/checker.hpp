/// @brief SufficiencyChecker: one validated configuration that scores checks, one or a batch.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "checker/check_types.hpp"
#include "checker/config.hpp"
#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"

namespace sc::checker {

/// Scores whether retrieved context suffices to answer a query. Immutable after construction:
/// check() and check_batch() may run concurrently from many threads.
class SufficiencyChecker {
 public:
  /// Validates `config` (std::invalid_argument naming the field). `statistics` weighs terms by
  /// rarity in default scoring; nullptr means no statistics (every term weighs as unknown).
  /// `relations` gives related words and antonyms to default scoring; nullptr means none.
  SufficiencyChecker(CheckerConfig config, std::shared_ptr<const TermStatistics> statistics,
                     std::shared_ptr<const WordRelations> relations = nullptr);

  const CheckerConfig& config() const noexcept { return config_; }
  const std::shared_ptr<const TermStatistics>& statistics() const noexcept { return statistics_; }
  const std::shared_ptr<const WordRelations>& relations() const noexcept { return relations_; }

  /// Scores one check. Throws std::invalid_argument for bad per-check values (min_contexts < 1,
  /// recency_days <= 0, non-finite embeddings, mismatched array sizes).
  CheckResult check(const CheckInput& input) const;

  /// Scores every input on sc::threads_for(threads, inputs.size(), bytes of text) threads
  /// (threads == 0: the usable cores; a small batch stays on the calling thread), the calling
  /// thread included, the others from the persistent WorkerPool. Results are in input order and
  /// equal to check() on each input. Workers never throw: the error of the lowest failing index is
  /// rethrown here after all threads have joined.
  std::vector<CheckResult> check_batch(const std::vector<CheckInput>& inputs,
                                       std::size_t threads = 0) const;

 private:
  CheckerConfig config_;
  std::shared_ptr<const TermStatistics> statistics_;
  std::shared_ptr<const WordRelations> relations_;
};

}  // namespace sc::checker
