#include "claims/frequency_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>

namespace sc::claims {
namespace {

bool is_blank(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

FrequencyTable FrequencyTable::parse(std::string_view tsv) {
  FrequencyTable table;
  std::size_t line_number = 0;
  std::size_t pos = 0;
  while (pos < tsv.size()) {
    std::size_t end = tsv.find('\n', pos);
    if (end == std::string_view::npos) end = tsv.size();
    std::string_view line = tsv.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty() || line.front() == '#') continue;
    const std::size_t tab = line.find('\t');
    if (tab == std::string_view::npos) {
      throw std::invalid_argument("frequency table line " + std::to_string(line_number) +
                                  " has no tab: '" + std::string(line.substr(0, 80)) + "'");
    }
    const std::string_view stem = line.substr(0, tab);
    std::string_view value = line.substr(tab + 1);
    value = trim(value.substr(0, value.find('\t')));
    double zipf = 0.0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), zipf);
    if (ec != std::errc() || ptr != value.data() + value.size() || !std::isfinite(zipf)) {
      throw std::invalid_argument("frequency table line " + std::to_string(line_number) +
                                  ": zipf must be a finite number; got '" + std::string(value) +
                                  "'");
    }
    const std::uint32_t id = table.stems_.intern(stem);
    if (id == table.zipf_.size()) {
      table.zipf_.push_back(zipf);
    } else {
      table.zipf_[id] = zipf;
    }
  }
  return table;
}

std::optional<double> FrequencyTable::zipf(std::string_view stem) const noexcept {
  if (const auto id = stems_.find(stem)) return zipf_[*id];
  return std::nullopt;
}

double FrequencyTable::weight(std::string_view key) const noexcept {
  const bool number = !key.empty() && key.front() >= '0' && key.front() <= '9';
  const double z = number ? kUnknownZipf : zipf(key).value_or(kUnknownZipf);
  return std::min(std::max(kZipfCeiling - z, kMinWeight), kZipfCeiling);
}

}  // namespace sc::claims
