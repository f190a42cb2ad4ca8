/// @brief WildcardMatcher: leftmost-shortest matching of key patterns with wildcards, memoized.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sc {

/// Matches one compiled pattern (key ids, and `wildcard` for 1..max_skip tokens; it starts and ends
/// with a key) at token positions of one text. The result is the depth-first search's: wildcards
/// shortest first, the first complete match wins (the leftmost-shortest match). The search from a
/// state (token position, pattern index after a wildcard) depends on that state only, so each
/// state is searched once and remembered: matching at every position of n tokens, in ascending
/// order, takes O(n * (pattern length + w * max_skip)) steps for w wildcards, where the plain
/// search took up to max_skip^w per position. The recursion is w deep, as the plain search's.
///
/// The memo holds, per wildcard, the states of a window of positions (the pattern's span): it is
/// small, reused between reset() calls and needs no clearing. One per thread (or per call).
class WildcardMatcher {
 public:
  WildcardMatcher(std::int32_t wildcard, std::size_t max_skip) noexcept
      : wildcard_(wildcard), max_skip_(max_skip) {}

  /// Starts matching `pattern` (referenced until the next reset) on a text of `n` tokens; forgets
  /// the states of the previous text in O(1) (the buffers are kept).
  void reset(const std::vector<std::int32_t>& pattern, std::size_t n);

  /// End (exclusive token index) of the match starting at token `pos`, 0 when none. `id_at(i)` is
  /// the key id of token i < n, the same function of i for every call since reset().
  template <class IdAt>
  std::size_t match_at(const IdAt& id_at, std::size_t pos) {
    return search(id_at, pos, 0, 0);
  }

 private:
  struct State {
    std::size_t text = 0;  // the reset() it belongs to; 0: none
    std::size_t pos = 0;
    std::size_t end = 0;
  };

  // The search from pattern index p at token pos; `wildcard` wildcards come before p.
  template <class IdAt>
  std::size_t search(const IdAt& id_at, std::size_t pos, std::size_t p, std::size_t wildcard);
  // search() from just after the wildcard numbered `wildcard` (p - 1), remembered.
  template <class IdAt>
  std::size_t remembered(const IdAt& id_at, std::size_t pos, std::size_t p, std::size_t wildcard);

  std::int32_t wildcard_;
  std::size_t max_skip_;
  const std::vector<std::int32_t>* pattern_ = nullptr;
  std::size_t n_ = 0;
  std::size_t text_ = 0;
  std::size_t window_ = 1;
  std::vector<State> memo_;  // wildcard * window_ + pos % window_
};

inline void WildcardMatcher::reset(const std::vector<std::int32_t>& pattern, std::size_t n) {
  pattern_ = &pattern;
  n_ = n;
  ++text_;
  std::size_t wildcards = 0;
  for (const std::int32_t element : pattern) wildcards += element == wildcard_ ? 1 : 0;
  const std::size_t span = pattern.size() - wildcards + wildcards * max_skip_;
  // The states searched from a start s have positions in [s, min(n, s + span)], distinct modulo
  // the window; a slot names its position, so any order of starts is right, and in ascending
  // order a slot is only taken over from a position no later start reaches.
  window_ = std::min(span, n) + 1;
  if (memo_.size() < wildcards * window_) memo_.resize(wildcards * window_);
}

template <class IdAt>
std::size_t WildcardMatcher::search(const IdAt& id_at, std::size_t pos, std::size_t p,
                                    std::size_t wildcard) {
  const std::vector<std::int32_t>& pattern = *pattern_;
  while (p < pattern.size()) {
    if (pattern[p] == wildcard_) {
      for (std::size_t skip = 1; skip <= max_skip_ && pos + skip <= n_; ++skip) {
        const std::size_t end = remembered(id_at, pos + skip, p + 1, wildcard);
        if (end != 0) return end;
      }
      return 0;
    }
    if (pos >= n_ || id_at(pos) != pattern[p]) return 0;
    ++pos;
    ++p;
  }
  return pos;
}

template <class IdAt>
std::size_t WildcardMatcher::remembered(const IdAt& id_at, std::size_t pos, std::size_t p,
                                        std::size_t wildcard) {
  const std::size_t slot = wildcard * window_ + pos % window_;
  if (memo_[slot].text == text_ && memo_[slot].pos == pos) return memo_[slot].end;
  const std::size_t end = search(id_at, pos, p, wildcard + 1);
  memo_[slot] = {text_, pos, end};
  return end;
}

}  // namespace sc
