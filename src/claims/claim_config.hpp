/// @brief ClaimConfig: the validated, immutable configuration of a ClaimCoverage (thresholds, mode,
/// word lists).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"
#include "claims/phrases.hpp"
#include "text/stopwords.hpp"

namespace sc::claims {

/// How a claim's support by a chunk is scored.
enum class Mode : std::uint8_t {
  /// Rarity-weighted stemmed overlap in the best source sentence or pair of adjacent sentences,
  /// with related-word credit and contradictions (missing numbers / names, negation, antonyms),
  /// calibrated to the shipped threshold (python/.../_reference_claims.py is the spec).
  Default,
  /// The original design: |S & C| / |S| over set(text.lower().split()) minus stop words.
  Reference,
};

/// "default" -> Default, "reference" -> Reference; anything else throws std::invalid_argument.
Mode parse_mode(std::string_view name);
std::string_view mode_name(Mode mode) noexcept;

/// The built-in meta phrases ("based on the evidence", "in summary", ...).
const std::vector<std::string>& default_meta_patterns();

struct ClaimOptions {
  double min_overlap = 0.3;
  double multi_citation_factor = 0.7;
  Mode mode = Mode::Default;
  std::optional<std::vector<std::string>> stopwords;      // nullopt: the English list
  std::optional<std::vector<std::string>> meta_patterns;  // nullopt: default_meta_patterns()
  std::size_t max_sentences = 0;  // an answer with more sentences is refused; 0: no limit
};

/// Everything a claim check needs besides its inputs. Validated on construction (min_overlap and
/// multi_citation_factor in [0, 1], not NaN: std::invalid_argument naming the argument); never
/// changes afterwards, so one config serves any number of threads.
class ClaimConfig {
 public:
  /// `statistics` weighs default-mode words (claims/rarity_weight.hpp); nullptr weighs every word
  /// as unknown. `relations` credits related words and flags antonyms (default mode); nullptr: no
  /// relations. Held, not copied: the checker and every config share one English table each.
  explicit ClaimConfig(ClaimOptions options = {},
                       std::shared_ptr<const checker::TermStatistics> statistics = nullptr,
                       std::shared_ptr<const checker::WordRelations> relations = nullptr);

  double min_overlap() const noexcept { return options_.min_overlap; }
  double multi_citation_factor() const noexcept { return options_.multi_citation_factor; }
  Mode mode() const noexcept { return options_.mode; }
  const ClaimOptions& options() const noexcept { return options_; }

  const text::StopWords& stopwords() const noexcept {
    return own_stopwords_ ? *own_stopwords_ : text::StopWords::english();
  }
  const PhraseSet& meta() const noexcept { return meta_; }
  /// meta()'s key prefixes, to skip stemming tokens that cannot start a meta phrase.
  const KeyFilter& meta_filter() const noexcept { return meta_filter_; }
  const checker::TermStatistics& statistics() const noexcept { return *statistics_; }
  const std::shared_ptr<const checker::TermStatistics>& shared_statistics() const noexcept {
    return statistics_;
  }
  const checker::WordRelations& relations() const noexcept { return *relations_; }
  const std::shared_ptr<const checker::WordRelations>& shared_relations() const noexcept {
    return relations_;
  }

  /// The threshold for a claim citing `cited` known chunks: min_overlap, times
  /// multi_citation_factor when it cites several.
  /// A number no other config of the process has (a moved-to config keeps it): per-thread memos
  /// of what depends on the word lists and tables are keyed by it.
  std::uint64_t serial() const noexcept { return serial_; }

  double threshold(std::size_t cited) const noexcept {
    return cited > 1 ? options_.min_overlap * options_.multi_citation_factor : options_.min_overlap;
  }

 private:
  ClaimOptions options_;
  std::optional<text::StopWords> own_stopwords_;
  PhraseSet meta_;
  KeyFilter meta_filter_;
  std::shared_ptr<const checker::TermStatistics> statistics_;
  std::shared_ptr<const checker::WordRelations> relations_;
  std::uint64_t serial_;
};

}  // namespace sc::claims
