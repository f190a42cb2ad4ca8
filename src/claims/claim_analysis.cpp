#include "claims/claim_analysis.hpp"

#include <algorithm>

#include "claims/phrases.hpp"
#include "claims/python_words.hpp"
#include "claims/rarity_weight.hpp"
#include "text/citations.hpp"

namespace sc::claims {
namespace {

/// Calls fn(const text::Token&) for every token of `text` outside the sorted spans `runs`
/// (no sentence-start bookkeeping: chunks do not need it).
template <class Fn>
void for_each_chunk_token(std::string_view text, const std::vector<text::Span>& runs, Fn&& fn) {
  std::size_t run = 0;
  text::for_each_token(text, [&](const text::Token& token) {
    while (run < runs.size() && runs[run].end <= token.offset) ++run;
    if (run < runs.size() && runs[run].begin <= token.offset) return;
    fn(token);
  });
}

char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

/// A 16-bit code of an ASCII-lowercased word from its length, first two and last bytes.
std::uint16_t word_code(std::string_view word) noexcept {
  const auto lower = [](char c) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(ascii_lower(c)));
  };
  const std::uint32_t b0 = lower(word[0]);
  const std::uint32_t b1 = word.size() > 1 ? lower(word[1]) : 0;
  const std::uint32_t last = lower(word.back());
  const std::uint32_t h = (b0 * 0x9E37u) ^ (b1 * 0x85EBu) ^ (last * 0xC2B2u) ^
                          (static_cast<std::uint32_t>(word.size()) * 0x27D4u);
  return static_cast<std::uint16_t>(h ^ (h >> 16));
}

void set_bit(std::vector<std::uint64_t>& bits, std::uint32_t i) {
  bits[i / 64] |= std::uint64_t{1} << (i % 64);
}

}  // namespace

ClaimAnalyzer::ClaimAnalyzer(const ClaimConfig& config) : config_(config) {}

std::uint32_t ClaimAnalyzer::intern(std::string_view key) {
  const std::size_t before = keys_.size();
  const std::uint32_t id = keys_.intern(key);
  if (keys_.size() != before) {
    filter_.add(key);
    item_of_key_.push_back(-1);
    if (config_.mode() == Mode::Default)
      key_weight_.push_back(rarity_weight(config_.statistics(), key));
  }
  return id;
}

ClaimProfile ClaimAnalyzer::claim(std::string_view claim, const std::vector<text::Span>& runs) {
  ClaimProfile out;
  // An opening meta phrase ("In summary,") is no part of what the default score checks.
  std::size_t phrase = 0;
  const PhraseSet& meta = config_.meta();
  if (!meta.empty()) {
    phrase =
        meta.longest_match_at(phrase_ids(meta, config_.meta_filter(), claim, meta.max_span()), 0);
  }
  if (config_.mode() == Mode::Default) {
    claim_default(claim, runs, phrase, out);
  } else {
    claim_reference(claim, runs, out);
  }
  any_negation_ = any_negation_ || out.has_negation;
  if (phrase > 0) detect_meta(claim, runs, phrase, out);
  return out;
}

void ClaimAnalyzer::claim_default(std::string_view claim, const std::vector<text::Span>& runs,
                                  std::size_t skip, ClaimProfile& out) {
  const text::StopWords& stop = config_.stopwords();
  std::size_t index = 0;
  for_each_claim_token(claim, runs, [&](const ClaimToken& t) {
    if (index++ < skip) return;
    ++out.token_count;
    fold_token(t.token.text, folded_);
    if (is_negation(folded_)) out.has_negation = true;
    const bool number = token_key(t.token.text, t.token.kind, folded_, key_);
    if (!is_content(number, folded_, stop)) return;
    const std::uint32_t id = intern(key_);
    std::int32_t item = item_of_key_[id];
    if (item < 0) {
      item = static_cast<std::int32_t>(out.items.size());
      item_of_key_[id] = item;
      out.items.push_back(id);
      out.weights.push_back(key_weight_[id]);
    }
    const auto index = static_cast<std::uint32_t>(item);
    if (number) {
      if (std::find(out.numbers.begin(), out.numbers.end(), index) == out.numbers.end()) {
        out.numbers.push_back(index);
        out.number_text.push_back(number_part(t.token.text, t.token.kind));
      }
    } else if (is_name(name_shape(t.token.text), t.sentence_start) &&
               std::find(out.names.begin(), out.names.end(), index) == out.names.end()) {
      out.names.push_back(index);
      out.name_text.push_back(t.token.text);
    }
  });
  for (const double w : out.weights) out.total += w;  // item order: the oracle's sum, bit for bit
  for (const std::uint32_t id : out.items) item_of_key_[id] = -1;
}

void ClaimAnalyzer::claim_reference(std::string_view claim, const std::vector<text::Span>& runs,
                                    ClaimProfile& out) {
  const text::StopWords& stop = config_.stopwords();
  const std::string stripped = runs.empty() ? std::string() : text::strip_citations(claim);
  const std::string_view words = runs.empty() ? claim : std::string_view(stripped);
  for_each_python_word(words, [&](std::string_view word, bool) {
    python_lower(word, folded_);
    if (stop.contains_folded(folded_)) return;
    const std::uint32_t id = intern(folded_);
    words_filter_.add_code(word_code(folded_));
    if (item_of_key_[id] >= 0) return;
    item_of_key_[id] = static_cast<std::int32_t>(out.items.size());
    out.items.push_back(id);
  });
  for (const std::uint32_t id : out.items) item_of_key_[id] = -1;
  out.total = static_cast<double>(out.items.size());
  // Numbers, names and negations are not part of the reference score; token_count is unused.
}

void ClaimAnalyzer::detect_meta(std::string_view claim, const std::vector<text::Span>& runs,
                                std::size_t end, ClaimProfile& out) {
  // After the phrase: no number, no capitalised name; remember the content keys (default mode).
  const text::StopWords& stop = config_.stopwords();
  const bool keep_keys = config_.mode() == Mode::Default;
  std::size_t index = 0;
  std::size_t phrase_end = 0;
  bool blocked = false;
  std::vector<std::uint32_t> rest;
  for_each_claim_token(claim, runs, [&](const ClaimToken& t) {
    if (index++ < end) {
      phrase_end = t.token.offset + t.token.text.size();
      return true;
    }
    fold_token(t.token.text, folded_);
    const std::string_view number = number_part(t.token.text, t.token.kind);
    if (!number.empty()) {
      blocked = true;
      return false;
    }
    if (!is_content(false, folded_, stop)) return true;
    if (is_name(name_shape(t.token.text), t.sentence_start)) {
      blocked = true;
      return false;
    }
    if (keep_keys) {
      token_key(t.token.text, t.token.kind, folded_, key_);
      rest.push_back(intern(key_));
    }
    return true;
  });
  if (blocked) return;
  if (!keep_keys) {
    const std::string_view after = claim.substr(phrase_end);
    const std::string stripped = text::strip_citations(after);
    for_each_python_word(stripped, [&](std::string_view word, bool) {
      python_lower(word, folded_);
      if (stop.contains_folded(folded_)) return;
      rest.push_back(intern(folded_));
      words_filter_.add_code(word_code(folded_));
    });
  }
  std::sort(rest.begin(), rest.end());
  rest.erase(std::unique(rest.begin(), rest.end()), rest.end());
  out.meta = true;
  out.meta_phrase_end = phrase_end;
  out.meta_rest = std::move(rest);
}

ChunkProfile ClaimAnalyzer::chunk(std::string_view text) {
  ChunkProfile out;
  out.present.assign((keys_.size() + 63) / 64, 0);
  if (keys_.empty()) return out;
  if (config_.mode() == Mode::Default) {
    chunk_default(text, out);
  } else {
    chunk_reference(text, out);
  }
  return out;
}

void ClaimAnalyzer::chunk_default(std::string_view text, ChunkProfile& out) {
  // (key id << 32 | position) of every token whose key is a claim key, sorted afterwards.
  std::vector<std::uint64_t> found;
  std::uint32_t position = 0;
  for_each_chunk_token(text, citation_runs_of(text), [&](const text::Token& token) {
    const std::uint32_t pos = position++;
    fold_token(token.text, folded_);
    if (any_negation_ && is_negation(folded_)) out.negations.push_back(pos);
    // Numbers are keyed without stemming; words are stemmed only when the filter lets them by.
    const bool number = !number_part(token.text, token.kind).empty();
    if (!number && !filter_.might_match_word(folded_)) return;
    token_key(token.text, token.kind, folded_, key_);
    if (!filter_.has(prefix_code(key_))) return;
    if (const auto id = keys_.find(key_)) {
      found.push_back((std::uint64_t{*id} << 32) | pos);
    }
  });
  out.token_count = position;
  std::sort(found.begin(), found.end());
  for (const std::uint64_t entry : found) {
    const auto id = static_cast<std::uint32_t>(entry >> 32);
    if (out.keys.empty() || out.keys.back() != id) {
      out.keys.push_back(id);
      out.begin.push_back(static_cast<std::uint32_t>(out.positions.size()));
      set_bit(out.present, id);
    }
    out.positions.push_back(static_cast<std::uint32_t>(entry));
  }
  out.begin.push_back(static_cast<std::uint32_t>(out.positions.size()));
}

void ClaimAnalyzer::chunk_reference(std::string_view text, ChunkProfile& out) {
  const std::vector<text::Span> runs = citation_runs_of(text);
  const std::string stripped = runs.empty() ? std::string() : text::strip_citations(text);
  const std::string_view words = runs.empty() ? text : std::string_view(stripped);
  for_each_python_word(words, [&](std::string_view word, bool ascii) {
    // Rule most words out by length, first two and last byte before lowering and hashing them
    // (ASCII words only: lowering keeps their length).
    if (ascii && !words_filter_.has(word_code(word))) return;
    python_lower(word, folded_);
    if (const auto id = keys_.find(folded_)) set_bit(out.present, *id);
  });
}

}  // namespace sc::claims
