#include "text/citations.hpp"

#include <algorithm>
#include <initializer_list>
#include <unordered_set>

namespace sc::text {
namespace {

bool is_alnum(unsigned char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool is_id_char(unsigned char c) noexcept {
  return is_alnum(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '#';
}

bool is_hspace(char c) noexcept { return c == ' ' || c == '\t'; }

std::size_t skip_hspace(std::string_view text, std::size_t pos) noexcept {
  while (pos < text.size() && is_hspace(text[pos])) ++pos;
  return pos;
}

/// Scans the group opening at `pos`, calling on_id(begin, end) for each id as it goes (callers
/// that report ids validate first, so a rejected bracket reports nothing). Returns the end or 0.
template <class OnId>
std::size_t scan_group(std::string_view text, std::size_t pos, OnId&& on_id) {
  const std::size_t n = text.size();
  if (pos >= n || text[pos] != '[') return 0;
  std::size_t p = pos + 1;
  for (;;) {
    p = skip_hspace(text, p);
    const std::size_t id_begin = p;
    bool has_alnum = false;
    while (p < n && is_id_char(static_cast<unsigned char>(text[p]))) {
      has_alnum = has_alnum || is_alnum(static_cast<unsigned char>(text[p]));
      ++p;
    }
    if (!has_alnum) return 0;  // empty, or only punctuation such as "[...]"
    on_id(id_begin, p);
    p = skip_hspace(text, p);
    if (p >= n) return 0;  // unclosed
    if (text[p] == ',' || text[p] == ';') {
      ++p;
      continue;
    }
    if (text[p] != ']') return 0;
    ++p;
    break;
  }
  if (p < n && text[p] == '(') return 0;  // Markdown link "[text](url)"
  return p;
}

/// Whether `text` ends with one of the UTF-8 `suffixes`.
bool ends_with_any(std::string_view text, std::initializer_list<std::string_view> suffixes) {
  for (const std::string_view s : suffixes) {
    if (text.size() >= s.size() && text.substr(text.size() - s.size()) == s) return true;
  }
  return false;
}

bool starts_with_any(std::string_view text, std::initializer_list<std::string_view> prefixes) {
  for (const std::string_view s : prefixes) {
    if (text.substr(0, s.size()) == s) return true;
  }
  return false;
}

bool is_line_break_byte(char c) noexcept { return c == '\n' || c == '\r'; }

/// Whether one space goes where a run was removed. `out` is the text kept so far (trailing
/// spaces already dropped), `rest` what follows the run after its spaces, `touched` whether
/// the run touched `rest` directly (no space between).
bool needs_space(std::string_view out, std::string_view rest, bool touched) {
  if (out.empty() || is_line_break_byte(out.back())) return false;
  if (rest.empty() || is_line_break_byte(rest.front())) return false;
  // Closing punctuation, ASCII then typographic and CJK forms (UTF-8 bytes).
  if (starts_with_any(
          rest, {".",      ",",      ";",      ":",      "!",      "?",      ")",      "]",
                 "}",      "\u201D", "\u2019", "\u00BB", "\u2026", "\u3002", "\uFF0C", "\u3001",
                 "\uFF01", "\uFF1F", "\uFF09", "\uFF1B", "\uFF1A", "\u300D", "\u300F"})) {
    return false;
  }
  if (touched && (rest.front() == '"' || rest.front() == '\'')) return false;  // closing quote
  return !ends_with_any(
      out, {"(", "[", "{", "\u201C", "\u2018", "\u00AB", "\uFF08", "\u300C", "\u300E"});
}

}  // namespace

std::size_t citation_group_end(std::string_view text, std::size_t pos) noexcept {
  return scan_group(text, pos, [](std::size_t, std::size_t) noexcept {});
}

std::size_t citation_run_end(std::string_view text, std::size_t pos) noexcept {
  std::size_t end = citation_group_end(text, pos);
  if (end == 0) return 0;
  for (;;) {
    std::size_t p = skip_hspace(text, end);
    if (p < text.size() && (text[p] == ',' || text[p] == ';')) p = skip_hspace(text, p + 1);
    const std::size_t next = citation_group_end(text, p);
    if (next == 0) return end;
    end = next;
  }
}

namespace {

// Calls on_id(begin, end, group_begin, group_end) for every id of every citation group of `text`,
// in order.
template <class OnId>
void for_each_citation(std::string_view text, OnId&& on_id) {
  std::size_t pos = text.find('[');
  while (pos != std::string_view::npos) {
    const std::size_t end = citation_group_end(text, pos);
    if (end == 0) {
      pos = text.find('[', pos + 1);
      continue;
    }
    scan_group(text, pos, [&](std::size_t b, std::size_t e) { on_id(b, e, pos, end); });
    pos = text.find('[', end);
  }
}

}  // namespace

std::vector<Citation> extract_citations(std::string_view text) {
  std::vector<Citation> out;
  for_each_citation(text, [&](std::size_t b, std::size_t e, std::size_t group, std::size_t end) {
    out.push_back({text.substr(b, e - b), b, e, group, end});
  });
  return out;
}

void citation_ids(std::string_view text, std::vector<std::string_view>& out) {
  // A linear scan over the few distinct ids an answer sentence cites (no hashing, no node
  // allocations); a set past kLinear of them, so a text citing thousands stays linear.
  constexpr std::size_t kLinear = 16;
  out.clear();
  std::unordered_set<std::string_view> seen;
  const auto add = [&out, &seen](std::string_view id) {
    if (out.size() < kLinear) {
      if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
      return;
    }
    if (seen.empty()) seen.insert(out.begin(), out.end());
    if (seen.insert(id).second) out.push_back(id);
  };
  for_each_citation(text, [&add, text](std::size_t b, std::size_t e, std::size_t, std::size_t) {
    add(text.substr(b, e - b));
  });
}

std::vector<std::string_view> citation_ids(std::string_view text) {
  std::vector<std::string_view> out;
  citation_ids(text, out);
  return out;
}

std::vector<Span> citation_runs(std::string_view text) {
  std::vector<Span> out;
  citation_runs(text, out);
  return out;
}

void citation_runs(std::string_view text, std::vector<Span>& out) {
  out.clear();
  std::size_t pos = text.find('[');
  while (pos != std::string_view::npos) {
    const std::size_t end = citation_run_end(text, pos);
    if (end == 0) {
      pos = text.find('[', pos + 1);
      continue;
    }
    out.push_back({pos, end});
    pos = text.find('[', end);
  }
}

std::string strip_citations(std::string_view text) {
  const std::vector<Span> runs = citation_runs(text);
  if (runs.empty()) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t cursor = 0;
  for (const Span& run : runs) {
    // Runs are maximal, so the spaces skipped after one run end before the next run starts.
    out.append(text.substr(cursor, run.begin - cursor));
    while (!out.empty() && is_hspace(out.back())) out.pop_back();
    const std::size_t after = skip_hspace(text, run.end);
    if (needs_space(out, text.substr(after), after == run.end)) out.push_back(' ');
    cursor = after;
  }
  out.append(text.substr(cursor));
  return out;
}

}  // namespace sc::text
