#include "checker/reference_score.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "checker/embedding_relevance.hpp"
#include "checker/explain.hpp"
#include "checker/python_str.hpp"
#include "common/no_destructor.hpp"
#include "common/trim.hpp"

namespace sc::checker {

const std::vector<std::string_view>& reference_stop_words() {
  static const NoDestructor<std::vector<std::string_view>> words(std::vector<std::string_view>{
      "the", "and", "for", "are", "but",  "not", "you", "all",  "can",   "had",   "her", "was",
      "one", "our", "out", "has", "what", "how", "why", "when", "where", "which", "who"});
  return *words;
}

CheckResult reference_score(const CheckInput& input, const CheckerConfig& config) {
  CheckResult result;
  const std::size_t n = input.contents.size();
  const long long min_contexts = input.min_contexts.value_or(config.min_contexts);
  if (n == 0) {
    result.missing_aspects.emplace_back(explain::kNoContext);
    return result;
  }

  // coverage: each term is looked up in one chunk text after another, as `t in joined_text`
  // would find it (a term of letters never spans the joining spaces).
  const std::vector<std::string> terms =
      pystr::ascii_query_terms(input.query, reference_stop_words());
  std::vector<char> found(terms.size(), 0);
  std::size_t found_count = 0;
  thread_local std::string lowered;
  const auto search = [&](std::string_view text) {
    if (found_count == terms.size() || text.empty()) return;
    lowered.clear();
    pystr::append_ascii_lowered(text, lowered);
    for (std::size_t t = 0; t < terms.size(); ++t) {
      if (!found[t] && lowered.find(terms[t]) != std::string::npos) {
        found[t] = 1;
        ++found_count;
      }
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    search(input.contents[i]);
    if (i < input.summaries.size()) search(input.summaries[i]);
  }
  release_if_over(lowered);
  for (std::size_t t = 0; t < terms.size(); ++t) {
    (found[t] ? result.covered_terms : result.missing_terms).push_back(terms[t]);
  }
  const double coverage = terms.empty() ? 1.0
                                        : static_cast<double>(result.covered_terms.size()) /
                                              static_cast<double>(terms.size());

  // relevance
  double relevance = 0.5;
  result.relevance_source = RelevanceSource::kConstant;
  if (input.query_embedding != nullptr && input.chunk_embeddings != nullptr) {
    relevance = max_cosine_reference(input.query_embedding, input.chunk_embeddings, n, input.dim);
    result.relevance_source = RelevanceSource::kEmbedding;
  }

  // density: code points of the contents, mean temperature (37 for a chunk without one)
  std::size_t total_chars = 0;
  for (const std::string_view content : input.contents) {
    total_chars += pystr::code_point_count(content);
  }
  double temp_sum = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = input.temperatures != nullptr ? input.temperatures[i] : NAN;
    temp_sum += std::isnan(t) ? 37.0 : t;
  }
  const double density = (std::min(static_cast<double>(total_chars) / 1000.0, 1.0) +
                          std::min((temp_sum / static_cast<double>(n)) / 50.0, 1.0)) /
                         2.0;

  const double count = std::min(static_cast<double>(n) / static_cast<double>(min_contexts), 1.0);

  const Weights& w = config.weights;
  result.score =
      w.coverage * coverage + w.relevance * relevance + w.density * density + w.count * count;
  result.level = level_of(result.score, config.sufficient, config.partial);
  result.signals.coverage = coverage;
  result.signals.relevance = relevance;
  result.signals.density = density;
  result.signals.count = count;

  const std::size_t shown = std::min<std::size_t>(3, result.missing_terms.size());
  for (std::size_t i = 0; i < shown; ++i) {
    result.missing_aspects.push_back(
        explain::quoted("Query term '", result.missing_terms[i], "' not found in context"));
  }
  if (density < 0.5) result.missing_aspects.emplace_back(explain::kThinContext);
  if (count < 1.0) result.missing_aspects.push_back(explain::too_few_contexts(n, min_contexts));
  if (coverage > 0.7) {
    result.confidence_factors.push_back("Good keyword coverage (" + explain::percent(coverage) +
                                        ")");
  }
  if (relevance > 0.7) {
    result.confidence_factors.push_back("High semantic relevance (" + explain::percent(relevance) +
                                        ")");
  }
  return result;
}

}  // namespace sc::checker
