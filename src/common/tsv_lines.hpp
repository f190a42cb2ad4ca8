/// @brief for_each_tsv_line: the data lines of a packaged table (blank and '#' lines skipped).
#pragma once

#include <cstddef>
#include <string_view>

namespace sc {

/// Calls fn(line_number, line) for each line of `text` that is neither blank nor a '#' comment;
/// line numbers count from 1 over every line, and a trailing '\r' is dropped (CRLF files).
template <typename Fn>
void for_each_tsv_line(std::string_view text, Fn&& fn) {
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    fn(line_no, line);
  }
}

}  // namespace sc
