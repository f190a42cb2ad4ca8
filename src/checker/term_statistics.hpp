/// @brief TermStatistics: Zipf frequency by term (stem), from the English table or a user's corpus.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/english_tables.hpp"
#include "text/interner.hpp"

namespace sc::checker {

/// Zipf frequency (log10 of occurrences per billion words) of terms as the checker makes them
/// (Porter2 stems of case-folded words). Rare terms weigh more in default coverage. Immutable once
/// built: one object serves every checker, claim coverage and thread of a process.
class TermStatistics {
  struct Compiled {};  // a pass key: only english() builds a table over compiled-in arrays

 public:
  /// No statistics: every term is unknown (zipf 1.0, the rarest weight).
  TermStatistics() = default;
  TermStatistics(Compiled /*key*/, const EnglishFrequencies& table) noexcept : static_(&table) {}

  /// Parses `stem<TAB>zipf` lines (the format of data/english_freq.tsv). Blank lines and lines
  /// starting with '#' are skipped; a repeated stem keeps its last value. Throws
  /// std::invalid_argument naming the line for a line without a tab or a zipf that is not a finite
  /// number.
  static TermStatistics from_tsv(std::string_view tsv);

  /// From (term, zipf) pairs, taken as given. Throws std::invalid_argument naming the term for a
  /// zipf that is not finite or an empty term.
  static TermStatistics from_pairs(const std::vector<std::pair<std::string, double>>& pairs);

  /// Corpus statistics: every text is tokenized as the checker tokenizes (case folding, stop
  /// words, Porter2); a stem's zipf is log10(occurrences x 1e9 / word tokens), word tokens counting
  /// stop words too (as word-frequency tables do). Numbers and identifiers are not counted (the
  /// checker weighs them as unknown terms anyway).
  static TermStatistics from_texts(const std::vector<std::string_view>& texts);

  /// The packaged English table (data/english_freq.tsv), compiled in at build time from that
  /// file by the same parser as from_tsv: equal to from_tsv(<the file>), built in no time and
  /// shared by the whole process.
  static const std::shared_ptr<const TermStatistics>& english();

  /// The zipf of `term`, if known. Never allocates.
  std::optional<double> zipf(std::string_view term) const noexcept {
    if (static_ != nullptr) return static_->find_zipf(term);
    const auto id = terms_.find(term);
    if (!id) return std::nullopt;
    return zipf_[*id];
  }

  std::size_t size() const noexcept {
    return static_ != nullptr ? static_->stems.count : zipf_.size();
  }

  /// Every (term, zipf) in insertion order.
  std::vector<std::pair<std::string, double>> items() const;

 private:
  void set(std::string_view term, double zipf);

  const EnglishFrequencies* static_ = nullptr;  // the compiled-in table; else the two below
  text::TermInterner terms_;
  std::vector<double> zipf_;  // by term id
};

}  // namespace sc::checker
