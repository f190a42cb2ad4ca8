/// @brief Shared pieces of the libFuzzer targets: splitting the fuzzer's bytes into fields, the
/// packaged word tables, and a check that aborts (so libFuzzer records the input) when an
/// invariant fails.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"

namespace sc::fuzz {

/// Aborts with `what` when `ok` is false: an invariant of the API broke on this input.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
  }
}

/// Fields of the input separated by 0x1E (record separator): the first is the query or answer,
/// the rest are chunks. Arbitrary bytes otherwise, invalid UTF-8 included.
inline std::vector<std::string_view> fields(const std::uint8_t* data, std::size_t size) {
  const std::string_view all(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= all.size(); ++i) {
    if (i == all.size() || all[i] == '\x1e') {
      out.push_back(all.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

inline std::string read_data_file(const char* name) {
  std::ifstream in(std::string(SC_DATA_DIR) + "/" + name, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The packaged English tables, parsed once per process.
inline std::shared_ptr<const checker::TermStatistics> english_statistics() {
  static const auto stats = std::make_shared<const checker::TermStatistics>(
      checker::TermStatistics::from_tsv(read_data_file("english_freq.tsv")));
  return stats;
}

inline std::shared_ptr<const checker::WordRelations> english_relations() {
  static const auto relations = std::make_shared<const checker::WordRelations>(
      checker::WordRelations::from_tsv(read_data_file("english_relations.tsv")));
  return relations;
}

inline bool in_unit(double x) { return std::isfinite(x) && x >= 0.0 && x <= 1.0; }

}  // namespace sc::fuzz
