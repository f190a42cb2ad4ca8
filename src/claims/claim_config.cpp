#include "claims/claim_config.hpp"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "common/no_destructor.hpp"
#include "common/quoted.hpp"

namespace sc::claims {
namespace {

std::uint64_t next_serial() noexcept {
  static std::atomic<std::uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

void check_unit(double value, const char* name) {
  if (std::isnan(value) || value < 0.0 || value > 1.0) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", value);
    throw std::invalid_argument(std::string(name) + " must be in [0, 1]; got " + shown);
  }
}

const std::shared_ptr<const checker::TermStatistics>& empty_statistics() {
  static const NoDestructor<std::shared_ptr<const checker::TermStatistics>> statistics(
      std::make_shared<const checker::TermStatistics>());
  return *statistics;
}

const std::shared_ptr<const checker::WordRelations>& empty_relations() {
  static const NoDestructor<std::shared_ptr<const checker::WordRelations>> relations(
      std::make_shared<const checker::WordRelations>());
  return *relations;
}

}  // namespace

Mode parse_mode(std::string_view name) {
  if (name == "default") return Mode::Default;
  if (name == "reference") return Mode::Reference;
  throw std::invalid_argument("mode must be 'default' or 'reference'; got " + quoted(name));
}

std::string_view mode_name(Mode mode) noexcept {
  return mode == Mode::Reference ? "reference" : "default";
}

const std::vector<std::string>& default_meta_patterns() {
  // Phrases that frame an answer rather than claim anything. A sentence opening with one is meta
  // only when the rest has no number, no capitalised name and no content word found in a chunk.
  static const NoDestructor<std::vector<std::string>> patterns(std::vector<std::string>{
      "based on the evidence",
      "based on the provided evidence",
      "based on the available evidence",
      "based on the context",
      "based on the provided context",
      "based on the given context",
      "based on the information",
      "based on the provided information",
      "based on the available information",
      "based on the sources",
      "based on the provided sources",
      "based on the documents",
      "based on the provided documents",
      "based on the above",
      "based on the retrieved",
      "based on the passages",
      "based on the text",
      "according to the evidence",
      "according to the context",
      "according to the sources",
      "according to the documents",
      "according to the provided",
      "according to the information",
      "according to the passages",
      "in summary",
      "to summarize",
      "to summarise",
      "summary",
      "to sum up",
      "in conclusion",
      "to conclude",
      "in short",
      "in brief",
      "overall",
      "here is",
      "here are",
      "the following",
      "as follows",
      "following",
      "as mentioned",
      "as noted",
      "as stated",
      "as shown",
      "note that",
      "please note",
      "i hope this helps",
      "hope this helps",
      "let me know",
      "in other words",
      "the answer is as follows",
      "the evidence shows",
      "the sources show",
      // The pipeline's own caveat ("*Note: This response is based on limited available
      // information.*").
      "note this response is based on limited available information",
  });
  return *patterns;
}

ClaimConfig::ClaimConfig(ClaimOptions options,
                         std::shared_ptr<const checker::TermStatistics> statistics,
                         std::shared_ptr<const checker::WordRelations> relations)
    : options_(std::move(options)),
      statistics_(statistics ? std::move(statistics) : empty_statistics()),
      relations_(relations ? std::move(relations) : empty_relations()),
      serial_(next_serial()) {
  check_unit(options_.min_overlap, "min_overlap");
  check_unit(options_.multi_citation_factor, "multi_citation_factor");
  if (options_.stopwords) own_stopwords_.emplace(*options_.stopwords);
  meta_ = PhraseSet(options_.meta_patterns ? *options_.meta_patterns : default_meta_patterns());
  meta_.add_to(meta_filter_);
}

}  // namespace sc::claims
