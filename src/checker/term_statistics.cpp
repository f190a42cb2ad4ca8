#include "checker/term_statistics.hpp"

#include <charconv>
#include <cmath>
#include <stdexcept>

#include "checker/vocabulary.hpp"
#include "common/no_destructor.hpp"
#include "common/quoted.hpp"
#include "common/tsv_lines.hpp"
#include "text/tokenizer.hpp"

namespace sc::checker {

void TermStatistics::set(std::string_view term, double zipf) {
  const std::uint32_t id = terms_.intern(term);
  if (id == zipf_.size()) {
    zipf_.push_back(zipf);
  } else {
    zipf_[id] = zipf;
  }
}

TermStatistics TermStatistics::from_tsv(std::string_view tsv) {
  TermStatistics stats;
  for_each_tsv_line(tsv, [&](std::size_t line_no, std::string_view line) {
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos || tab == 0) {
      throw std::invalid_argument("term statistics line " + std::to_string(line_no) +
                                  ": expected 'term<TAB>zipf'; got " + quoted(line));
    }
    std::string_view value = line.substr(tab + 1);
    const std::size_t next_tab = value.find('\t');
    if (next_tab != std::string_view::npos) value = value.substr(0, next_tab);
    double zipf = 0.0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), zipf);
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(zipf)) {
      throw std::invalid_argument("term statistics line " + std::to_string(line_no) +
                                  ": zipf must be a finite number; got " + quoted(value));
    }
    stats.set(line.substr(0, tab), zipf);
  });
  return stats;
}

TermStatistics TermStatistics::from_pairs(
    const std::vector<std::pair<std::string, double>>& pairs) {
  TermStatistics stats;
  for (const auto& [term, zipf] : pairs) {
    if (term.empty()) throw std::invalid_argument("term statistics: empty term");
    if (!std::isfinite(zipf)) {
      throw std::invalid_argument("term statistics: zipf of '" + term + "' must be finite; got " +
                                  std::to_string(zipf));
    }
    stats.set(term, zipf);
  }
  return stats;
}

TermStatistics TermStatistics::from_texts(const std::vector<std::string_view>& texts) {
  Vocabulary vocabulary;
  std::vector<double> counts;  // by vocabulary term id
  std::vector<std::uint32_t> order;
  double words = 0.0;
  for (const std::string_view text : texts) {
    text::for_each_token(text, [&](const text::Token& token) {
      const WordInfo info = vocabulary.lookup(token);
      if (info.kind != text::TokenKind::Word) return;
      words += 1.0;
      if (info.term == kNoTerm) return;
      if (info.term >= counts.size()) counts.resize(info.term + 1, 0.0);
      if (counts[info.term] == 0.0) order.push_back(info.term);
      counts[info.term] += 1.0;
    });
  }
  TermStatistics stats;
  for (const std::uint32_t id : order) {
    stats.set(vocabulary.term(id), std::log10(counts[id] * 1e9 / words));
  }
  return stats;
}

const std::shared_ptr<const TermStatistics>& TermStatistics::english() {
  static const NoDestructor<std::shared_ptr<const TermStatistics>> table(
      std::make_shared<const TermStatistics>(Compiled{}, english_frequencies()));
  return *table;
}

std::vector<std::pair<std::string, double>> TermStatistics::items() const {
  std::vector<std::pair<std::string, double>> out;
  out.reserve(size());
  if (static_ != nullptr) {
    for (std::uint32_t id = 0; id < static_->stems.count; ++id) {
      out.emplace_back(std::string(static_->stems.at(id)), static_->zipf[id]);
    }
    return out;
  }
  for (std::uint32_t id = 0; id < zipf_.size(); ++id) {
    out.emplace_back(std::string(terms_.terms()[id]), zipf_[id]);
  }
  return out;
}

}  // namespace sc::checker
