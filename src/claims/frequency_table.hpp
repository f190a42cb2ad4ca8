/// @brief FrequencyTable: Zipf frequency by Porter2 stem (data/english_freq.tsv), parsed once,
/// shared read-only.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "text/interner.hpp"

namespace sc::claims {

/// Default-mode rarity weights (python/sufficient_context/_reference_claims.py is the spec).
inline constexpr double kZipfCeiling =
    7.0;  // weight = clamp(kZipfCeiling - zipf, kMinWeight, kZipfCeiling)
inline constexpr double kMinWeight = 3.0;    // common words (zipf >= 4) all weigh 3
inline constexpr double kUnknownZipf = 1.0;  // zipf of a stem the table lacks, and of every number

/// Zipf frequency (log10 per billion words) of English stems. Immutable once parsed: one table
/// serves every ClaimCoverage and thread of a process.
class FrequencyTable {
 public:
  /// An empty table: every stem is unknown.
  FrequencyTable() = default;

  /// Parses `stem<TAB>zipf[<TAB>...]` lines. Blank lines and lines starting with '#' are skipped;
  /// a repeated stem keeps its last value. Throws std::invalid_argument naming the line number
  /// when a line has no tab or its zipf is not a finite number.
  static FrequencyTable parse(std::string_view tsv);

  /// The zipf of `stem`, if the table has it. Never allocates.
  std::optional<double> zipf(std::string_view stem) const noexcept;

  /// Rarity weight of a token key: clamp(kZipfCeiling - zipf, kMinWeight, kZipfCeiling), zipf being
  /// kUnknownZipf for a key the table lacks or that starts with an ASCII digit (a number).
  double weight(std::string_view key) const noexcept;

  std::size_t size() const noexcept { return zipf_.size(); }

 private:
  text::TermInterner stems_;
  std::vector<double> zipf_;  // by stem id
};

}  // namespace sc::claims
