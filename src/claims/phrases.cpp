#include "claims/phrases.hpp"

#include <algorithm>

#include "claims/python_words.hpp"
#include "common/wildcard_match.hpp"

namespace sc::claims {

PhraseSet::PhraseSet(const std::vector<std::string>& phrases) : phrases_(phrases) {
  std::string folded;
  std::string key;
  for (const std::string& phrase : phrases_) {
    std::vector<std::int32_t> pattern;
    for_each_python_word(phrase, [&](std::string_view part, bool) {
      if (part == "*") {
        pattern.push_back(kWildcard);
        return;
      }
      for_each_claim_token(part, citation_runs_of(part), [&](const ClaimToken& t) {
        fold_token(t.token.text, folded);
        token_key(t.token.text, t.token.kind, folded, key);
        pattern.push_back(static_cast<std::int32_t>(keys_.intern(key)));
      });
    });
    while (!pattern.empty() && pattern.front() == kWildcard) pattern.erase(pattern.begin());
    while (!pattern.empty() && pattern.back() == kWildcard) pattern.pop_back();
    if (pattern.empty()) continue;
    std::size_t span = 0;
    for (const std::int32_t element : pattern) span += element == kWildcard ? kMaxWildcard : 1;
    max_span_ = std::max(max_span_, span);
    patterns_.push_back(std::move(pattern));
  }
}

std::int32_t PhraseSet::id(std::string_view key) const noexcept {
  if (const auto found = keys_.find(key)) return static_cast<std::int32_t>(*found);
  return kNoKey;
}

void PhraseSet::add_to(KeyFilter& filter) const {
  for (const std::string_view key : keys_.terms()) filter.add(key);
}

// Each phrase is matched depth-first, shortest wildcard first (the leftmost-shortest match, as the
// oracle's), with its search states remembered (WildcardMatcher).

std::size_t PhraseSet::longest_match_at(const std::vector<std::int32_t>& ids,
                                        std::size_t pos) const {
  std::size_t best = 0;
  if (pos >= ids.size() || ids[pos] == kNoKey) return 0;  // every pattern starts with a key
  WildcardMatcher matcher(kWildcard, kMaxWildcard);
  const auto id_at = [&ids](std::size_t i) { return ids[i]; };
  for (const auto& pattern : patterns_) {
    if (pattern.front() != ids[pos]) continue;
    matcher.reset(pattern, ids.size());
    best = std::max(best, matcher.match_at(id_at, pos));
  }
  return best;
}

bool PhraseSet::matches_anywhere(const std::vector<std::int32_t>& ids) const {
  WildcardMatcher matcher(kWildcard, kMaxWildcard);
  const auto id_at = [&ids](std::size_t i) { return ids[i]; };
  for (const auto& pattern : patterns_) {
    matcher.reset(pattern, ids.size());
    for (std::size_t pos = 0; pos < ids.size(); ++pos) {
      if (ids[pos] == pattern.front() && matcher.match_at(id_at, pos) != 0) return true;
    }
  }
  return false;
}

bool PhraseSet::mark_matches(const std::vector<std::int32_t>& ids,
                             std::vector<bool>& covered) const {
  covered.assign(ids.size(), false);
  bool any = false;
  WildcardMatcher matcher(kWildcard, kMaxWildcard);
  const auto id_at = [&ids](std::size_t i) { return ids[i]; };
  // Phrase by phrase (the marks are a union), each over the positions in ascending order, so the
  // phrase's search states are shared between positions.
  for (const auto& pattern : patterns_) {
    matcher.reset(pattern, ids.size());
    for (std::size_t pos = 0; pos < ids.size(); ++pos) {
      if (ids[pos] != pattern.front()) continue;
      const std::size_t end = matcher.match_at(id_at, pos);
      if (end == 0) continue;
      any = true;
      std::fill(covered.begin() + static_cast<std::ptrdiff_t>(pos),
                covered.begin() + static_cast<std::ptrdiff_t>(end), true);
    }
  }
  return any;
}

std::vector<std::int32_t> phrase_ids(const PhraseSet& phrases, const KeyFilter& filter,
                                     std::string_view text, std::size_t limit) {
  std::vector<std::int32_t> ids;
  if (limit == 0) return ids;
  std::string folded;
  std::string key;
  for_each_claim_token(text, citation_runs_of(text), [&](const ClaimToken& t) {
    fold_token(t.token.text, folded);
    std::int32_t id = kNoKey;
    const std::string_view number = number_part(t.token.text, t.token.kind);
    // A number's or the speaker's key is not its word's prefix: the filter decides on the key.
    const bool speaker = t.token.kind == text::TokenKind::Word && is_speaker(folded);
    if (!number.empty() || speaker || filter.might_match_word(folded)) {
      token_key(t.token.text, t.token.kind, folded, key);
      if (filter.has(prefix_code(key))) id = phrases.id(key);
    }
    ids.push_back(id);
    return ids.size() < limit;
  });
  return ids;
}

}  // namespace sc::claims
