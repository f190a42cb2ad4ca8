#include "deliberation/pattern_matcher.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "claims/claim_tokens.hpp"
#include "claims/python_words.hpp"
#include "common/wildcard_match.hpp"
#include "text/tokenizer.hpp"

namespace sc::deliberation {

namespace {

constexpr std::string_view kNot = "not";

/// `text` with U+2018 and U+FF07 turned into U+2019 (same byte length, so spans stay valid): the
/// tokenizer joins words only on '\'' and U+2019. Returns an empty string when nothing changes.
std::string with_apostrophes(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    const auto b1 = static_cast<unsigned char>(text[i + 1]);
    const auto b2 = static_cast<unsigned char>(text[i + 2]);
    const bool left_quote = b0 == 0xE2 && b1 == 0x80 && b2 == 0x98;
    const bool fullwidth = b0 == 0xEF && b1 == 0xBC && b2 == 0x87;
    if (!left_quote && !fullwidth) continue;
    if (out.empty()) out.assign(text);
    out[i] = '\xE2';
    out[i + 1] = '\x80';
    out[i + 2] = '\x99';
  }
  return out;
}

/// Replaces U+02BC (modifier letter apostrophe, a letter to the tokenizer) with '\''.
void ascii_apostrophes(std::string& folded) {
  for (std::size_t at = folded.find("\xCA\xBC"); at != std::string::npos;
       at = folded.find("\xCA\xBC", at)) {
    folded.replace(at, 2, "'");
  }
}

bool ends_with(std::string_view s, std::string_view suffix) noexcept {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// Splits a folded word into the words it contracts (at most two); returns how many.
std::size_t expand(std::string_view w, std::array<std::string_view, 2>& parts) {
  if (w == "cannot") {
    parts = {"can", kNot};
    return 2;
  }
  if (ends_with(w, "n't") && w.size() > 3) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kIrregular = {
        {{"can't", "can"}, {"won't", "will"}, {"shan't", "shall"}, {"ain't", "is"}}};
    parts = {w.substr(0, w.size() - 3), kNot};
    for (const auto& [word, base] : kIrregular) {
      if (w == word) parts[0] = base;
    }
    return 2;
  }
  const std::size_t apostrophe = w.rfind('\'');
  if (apostrophe == std::string_view::npos || apostrophe == 0) {
    parts[0] = w;
    return 1;
  }
  const std::string_view base = w.substr(0, apostrophe);
  const std::string_view suffix = w.substr(apostrophe + 1);
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kSuffixes = {
      {{"d", "would"}, {"re", "are"}, {"ll", "will"}, {"ve", "have"}, {"m", "am"}}};
  for (const auto& [ending, word] : kSuffixes) {
    if (suffix == ending) {
      parts = {base, word};
      return 2;
    }
  }
  if (w == "let's") {
    parts = {"let", "us"};
    return 2;
  }
  static constexpr std::array<std::string_view, 10> kIsBases = {
      "it", "that", "there", "what", "here", "who", "he", "she", "where", "how"};
  if (suffix == "s" && std::find(kIsBases.begin(), kIsBases.end(), base) != kIsBases.end()) {
    parts = {base, "is"};
    return 2;
  }
  parts[0] = w;  // a possessive: token_key drops the "'s"
  return 1;
}

}  // namespace

std::vector<TextKey> text_keys(std::string_view text) {
  const std::string fixed = with_apostrophes(text);
  const std::string_view source = fixed.empty() ? text : std::string_view(fixed);
  std::vector<TextKey> out;
  std::string folded;
  std::string key;
  text::for_each_token(source, [&](const text::Token& token) {
    claims::fold_token(token.text, folded);
    ascii_apostrophes(folded);
    const std::size_t begin = token.offset;
    const std::size_t end = token.offset + token.text.size();
    if (token.kind != text::TokenKind::Word) {
      claims::token_key(token.text, token.kind, folded, key);
      out.push_back({key, begin, end, !claims::number_part(token.text, token.kind).empty()});
      return;
    }
    std::array<std::string_view, 2> parts{};
    const std::size_t n = expand(folded, parts);
    for (std::size_t i = 0; i < n; ++i) {
      claims::token_key(parts[i], text::TokenKind::Word, parts[i], key);
      out.push_back({key, begin, end, false});
    }
  });
  return out;
}

PatternMatcher::PatternMatcher(const std::vector<std::string>& patterns) : phrases_(patterns) {
  compiled_.reserve(phrases_.size());
  for (const std::string& phrase : phrases_) {
    std::vector<std::int32_t> pattern;
    claims::for_each_python_word(phrase, [&](std::string_view part, bool) {
      if (part == "*") {
        pattern.push_back(kWildcard);
        return;
      }
      for (const TextKey& k : text_keys(part)) {
        pattern.push_back(static_cast<std::int32_t>(vocabulary_.intern(k.key)));
      }
    });
    while (!pattern.empty() && pattern.front() == kWildcard) pattern.erase(pattern.begin());
    while (!pattern.empty() && pattern.back() == kWildcard) pattern.pop_back();
    compiled_.push_back(std::move(pattern));
  }
}

std::vector<Key> PatternMatcher::keys(std::string_view text) const { return keys(text_keys(text)); }

std::vector<Key> PatternMatcher::keys(const std::vector<TextKey>& text_keys) const {
  std::vector<Key> out;
  out.reserve(text_keys.size());
  for (const TextKey& k : text_keys) {
    const auto id = vocabulary_.find(k.key);
    out.push_back({id ? static_cast<std::int32_t>(*id) : -1, k.begin, k.end});
  }
  return out;
}

std::vector<Match> PatternMatcher::find(const std::vector<Key>& keys) const {
  std::vector<Match> out;
  WildcardMatcher matcher(kWildcard, kMaxWildcard);
  const auto id_at = [&keys](std::size_t i) { return keys[i].id; };
  for (std::size_t i = 0; i < compiled_.size(); ++i) {
    const std::vector<std::int32_t>& pattern = compiled_[i];
    if (pattern.empty()) continue;
    matcher.reset(pattern, keys.size());
    for (std::size_t pos = 0; pos < keys.size(); ++pos) {
      if (keys[pos].id != pattern.front()) continue;
      // Depth-first, shortest wildcard first. The end (exclusive key index), 0 for none.
      const std::size_t end = matcher.match_at(id_at, pos);
      if (end == 0) continue;
      out.push_back({i, keys[pos].begin, keys[end - 1].end});
      break;
    }
  }
  return out;
}

bool PatternMatcher::any(const std::vector<Key>& keys) const {
  WildcardMatcher matcher(kWildcard, kMaxWildcard);
  const auto id_at = [&keys](std::size_t i) { return keys[i].id; };
  for (const std::vector<std::int32_t>& pattern : compiled_) {
    if (pattern.empty()) continue;
    matcher.reset(pattern, keys.size());
    for (std::size_t pos = 0; pos < keys.size(); ++pos) {
      if (keys[pos].id == pattern.front() && matcher.match_at(id_at, pos) != 0) return true;
    }
  }
  return false;
}

}  // namespace sc::deliberation
