#include "checker/checker.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <utility>

#include "checker/default_score.hpp"
#include "checker/reference_score.hpp"
#include "common/no_destructor.hpp"
#include "common/parallel_for.hpp"

namespace sc::checker {
namespace {

const TermStatistics& empty_statistics() {
  static const NoDestructor<TermStatistics> empty;
  return *empty;
}

const WordRelations& empty_relations() {
  static const NoDestructor<WordRelations> empty;
  return *empty;
}

void check_input(const CheckInput& input) {
  const std::size_t n = input.contents.size();
  if (!input.summaries.empty() && input.summaries.size() != n) {
    throw std::invalid_argument("summaries must be empty or hold one entry per chunk (" +
                                std::to_string(n) + "); got " +
                                std::to_string(input.summaries.size()));
  }
  if ((input.query_embedding == nullptr) != (input.chunk_embeddings == nullptr)) {
    throw std::invalid_argument(
        "query_embedding and chunk_embeddings must be given together or not at all");
  }
  if (input.min_contexts) check_min_contexts(*input.min_contexts);
  if (input.recency_days) check_recency_days(*input.recency_days);
}

}  // namespace

SufficiencyChecker::SufficiencyChecker(CheckerConfig config,
                                       std::shared_ptr<const TermStatistics> statistics,
                                       std::shared_ptr<const WordRelations> relations)
    : config_(config), statistics_(std::move(statistics)), relations_(std::move(relations)) {
  validate(config_);
}

CheckResult SufficiencyChecker::check(const CheckInput& input) const {
  const auto start = std::chrono::steady_clock::now();
  check_input(input);
  CheckResult result =
      config_.scoring == Scoring::kReference
          ? reference_score(input, config_)
          : default_score(input, config_, statistics_ ? *statistics_ : empty_statistics(),
                          relations_ ? *relations_ : empty_relations());
  result.elapsed_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<CheckResult> SufficiencyChecker::check_batch(const std::vector<CheckInput>& inputs,
                                                         std::size_t threads) const {
  std::size_t bytes = 0;
  for (const CheckInput& input : inputs) {
    bytes += input.query.size();
    for (const std::string_view text : input.contents) bytes += text.size();
  }
  std::vector<CheckResult> results(inputs.size());
  sc::parallel_for(inputs.size(), sc::threads_for(threads, inputs.size(), bytes),
                   [&](std::size_t i) { results[i] = check(inputs[i]); });
  return results;
}

}  // namespace sc::checker
