#include "claims/claim_analysis.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <limits>

#include "claims/phrases.hpp"
#include "claims/python_words.hpp"
#include "claims/rarity_weight.hpp"
#include "text/asking.hpp"
#include "text/citations.hpp"

namespace sc::claims {
namespace {

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

/// Whether the first '.', '!' or '?' of text[from, to) outside the citation runs (ascending) is
/// a '?'.
bool question_mark_after(std::string_view text, const std::vector<text::Span>& runs,
                         std::size_t from, std::size_t to) noexcept {
  auto run = std::lower_bound(runs.begin(), runs.end(), from,
                              [](const text::Span& r, std::size_t p) { return r.end <= p; });
  for (std::size_t p = from; p < to; ++p) {
    if (run != runs.end() && run->begin <= p) {
      p = run->end - 1;  // skip the marker
      ++run;
      continue;
    }
    const char c = text[p];
    if (c == '.' || c == '!' || c == '?') return c == '?';
  }
  return false;
}

}  // namespace

std::size_t first_possible_break(std::string_view text) noexcept {
  std::size_t i = 0;
#if defined(__SSE2__)
  // 16 bytes at a time, then byte by byte within the block that has one.
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const __m128i period = _mm_set1_epi8('.');
  const __m128i bang = _mm_set1_epi8('!');
  const __m128i question = _mm_set1_epi8('?');
  const __m128i newline = _mm_set1_epi8('\n');
  const __m128i ret = _mm_set1_epi8('\r');
  for (; i + 16 <= text.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, period), _mm_cmpeq_epi8(v, bang)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, question), _mm_cmpeq_epi8(v, newline))),
        _mm_or_si128(_mm_cmpeq_epi8(v, ret), v));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hit));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x80 || b == '.' || b == '!' || b == '?' || b == '\n' || b == '\r') return i;
  }
  return text.size();
}

std::vector<text::Span> sentence_spans(std::string_view text) {
  const auto closing = [](char c) {
    return c == '.' || c == '!' || c == '?' || c == ')' || c == ']' || c == '}' || c == '"' ||
           c == '\'';
  };
  // Python's str.isspace() on ASCII (the text is ASCII up to its first possible break).
  const auto space = [](char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
  };
  std::size_t i = first_possible_break(text);
  while (i < text.size() && closing(text[i])) ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  if (i != text.size()) return text::split_sentences(text);
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && space(text[begin])) ++begin;
  while (end > begin && space(text[end - 1])) --end;
  if (begin == end) return {};
  return {text::Span{begin, end}};
}

bool glued_sentence_end(std::string_view text, const text::Token& prev,
                        const text::Token& next) noexcept {
  const std::size_t begin = prev.offset + prev.text.size();
  if (next.offset <= begin) return false;
  bool end_mark = false;
  for (std::size_t i = begin; i < next.offset; ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    // ASCII only, no whitespace (Python's str.isspace() on ASCII: \t-\r, \x1c-\x1f, space).
    if (b >= 0x80 || b == ' ' || (b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x1F)) {
      return false;
    }
    end_mark = end_mark || b == '.' || b == '!' || b == '?';
  }
  if (!end_mark) return false;
  std::size_t code_points = 0;
  for (const char c : prev.text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++code_points;
  }
  if (code_points < 2) return false;
  const NameShape shape = name_shape(next.text);
  return shape.capitalised && !shape.all_caps;
}

void ClaimProfile::clear() noexcept {
  items.clear();
  weights.clear();
  kinds.clear();
  names.clear();
  surfaces.clear();
  related_begin.clear();
  related.clear();
  antonym_begin.clear();
  antonyms.clear();
  total = 0.0;
  checked = 0;
  token_count = 0;
  has_negation = false;
  meta = false;
  meta_phrase_end = 0;
  meta_rest.clear();
}

void ChunkProfile::clear() noexcept {
  present.clear();
  keys.clear();
  begin.clear();
  positions.clear();
  unit_begin.clear();
  key_units.clear();
  negations.clear();
  relation_keys.clear();
  relation_unit_begin.clear();
  relation_units.clear();
  relation_filter.fill(0);
  token_count = 0;
  unit_count = 0;
  question_units.clear();
}

ClaimAnalyzer::ClaimAnalyzer(const ClaimConfig& config)
    : config_(&config), memo_serial_(config.serial()) {}

void ClaimAnalyzer::reset(const ClaimConfig& config) {
  config_ = &config;
  // Before clear_stable() may reuse the ids.
  if (relation_marked_.size() * 8 > relation_bits_.size()) {
    std::fill(relation_bits_.begin(), relation_bits_.end(), 0);
  } else {
    for (const std::uint32_t stable : relation_marked_) {
      relation_bits_[stable / 64] &= ~(std::uint64_t{1} << (stable % 64));
    }
  }
  relation_marked_.clear();
  keys_.start_check();
  // A memo for another config is cleared by word_info, when this config first needs it (so
  // reference-mode checks in between leave it alone).
  if (memo_info_.size() > kMemoWords) clear_memo(memo_serial_);
  if (keys_.stable_count() > kStableKeys) {
    clear_memo(memo_serial_);
    chunk_words_.clear();
    keys_.clear_stable();
  }
  item_of_key_.clear();
  for (const std::uint16_t code : filter_codes_) filter_.remove_code(code);
  filter_codes_.clear();
  for (const std::uint16_t code : word_codes_) words_filter_.remove_code(code);
  word_codes_.clear();
  any_negation_ = false;
  any_number_ = false;
  any_speaker_ = false;
}

std::size_t ClaimAnalyzer::memory_bytes() const noexcept {
  return keys_.memory_bytes() + memo_words_.memory_bytes() + chunk_words_.memory_bytes() +
         memo_info_.capacity() * sizeof(WordInfo) + memo_links_.capacity() * sizeof(Link) +
         (item_info_.capacity() + token_info_.capacity() + relation_marked_.capacity()) *
             sizeof(std::uint32_t) +
         (relation_bits_.capacity() + relation_found_.capacity()) * sizeof(std::uint64_t) +
         candidates_.capacity() * sizeof(Candidate) +
         claim_tokens_.capacity() * sizeof(ClaimToken) +
         meta_ids_.capacity() * sizeof(std::int32_t) +
         item_of_key_.capacity() * sizeof(std::int32_t) +
         (filter_codes_.capacity() + word_codes_.capacity()) * sizeof(std::uint16_t) +
         folded_.capacity() + key_.capacity() + found_.capacity() * sizeof(std::uint64_t) +
         KeyFilter::memory_bytes() * 2;
}

void ClaimAnalyzer::add_word_code(std::uint16_t code) {
  if (!words_filter_.has(code)) {
    words_filter_.add_code(code);
    word_codes_.push_back(code);
  }
}

ClaimProfile ClaimAnalyzer::claim(std::string_view claim, const std::vector<text::Span>& runs) {
  ClaimProfile out;
  this->claim(claim, runs, out);
  return out;
}

void ClaimAnalyzer::claim(std::string_view claim, const std::vector<text::Span>& runs,
                          ClaimProfile& out) {
  out.clear();
  const ClaimConfig& config = *config_;
  // An opening meta phrase ("In summary,") is no part of what the default score checks.
  std::size_t phrase = 0;
  const PhraseSet& meta = config.meta();
  if (config.mode() == Mode::Default) {
    std::size_t label = 0;
    phrase = read_claim_tokens(claim, runs, label);
    // A numbered list's label ("1. ") is no part of the claim either (kept in reference mode).
    claim_default(std::max(phrase, label), out);
  } else {
    if (!meta.empty()) {
      phrase =
          meta.longest_match_at(phrase_ids(meta, config.meta_filter(), claim, meta.max_span()), 0);
    }
    claim_reference(claim, runs, out);
  }
  any_negation_ = any_negation_ || out.has_negation;
  if (phrase > 0) detect_meta(claim, runs, phrase, out);
}

void ClaimAnalyzer::clear_memo(std::uint64_t serial) noexcept {
  memo_serial_ = serial;
  memo_words_.clear();
  memo_info_.clear();
  memo_links_.clear();
}

std::uint32_t ClaimAnalyzer::word_info(const text::Token& token, std::uint32_t hash) {
  // Nothing of this check refers to the memo before its first word_info: clearing is safe here.
  if (memo_serial_ != config_->serial()) clear_memo(config_->serial());
  // Keyed by the token's text and kind: everything new_word_info derives depends on nothing else
  // (and on the config, whose serial the memo is cleared for).
  return memo_words_.get(token, hash, [&] { return new_word_info(token); });
}

std::uint32_t ClaimAnalyzer::new_word_info(const text::Token& token) {
  const ClaimConfig& config = *config_;
  WordInfo info{};
  fold_token(token.text, folded_);
  info.negation = is_negation(folded_);
  const bool number = token_key(token.text, token.kind, folded_, key_);
  if (key_ == kSpeakerKey) {
    info.kind = ItemKind::Speaker;
  } else if (is_content(number, folded_, config.stopwords())) {
    info.kind = number ? ItemKind::Number : ItemKind::Content;
  } else {
    info.kind = ItemKind::Function;
    info.skip = info.negation;
  }
  info.key = keys_.intern(key_);
  info.weight = rarity_weight(config.statistics(), key_);
  info.number_length = static_cast<std::uint32_t>(number_part(token.text, token.kind).size());
  info.shape = name_shape(token.text);
  // The id phrase_ids gives this token, its filter tests included (they decide for number words
  // and the speaker, whose keys are not their words' prefixes).
  const KeyFilter& meta_filter = config.meta_filter();
  info.meta_id = kNoKey;
  if (!config.meta().empty() &&
      (info.number_length > 0 || info.kind == ItemKind::Speaker ||
       meta_filter.might_match_word(folded_)) &&
      meta_filter.has(prefix_code(key_))) {
    info.meta_id = config.meta().id(key_);
  }
  // Related words and antonyms by key: the same for every token of a key.
  const checker::WordRelations& relations = config.relations();
  info.links_begin = static_cast<std::uint32_t>(memo_links_.size());
  if (relations.size() > 0 && info.kind == ItemKind::Content) {
    const auto link = [&](std::uint32_t r) {
      const std::uint32_t stable = keys_.intern(relations.word(r));
      memo_links_.push_back({stable, keys_.code(stable)});
    };
    for (const std::uint32_t r : relations.related(key_)) link(r);
    info.related_end = static_cast<std::uint32_t>(memo_links_.size());
    for (const std::uint32_t r : relations.antonyms(key_)) link(r);
  } else {
    info.related_end = info.links_begin;
  }
  info.links_end = static_cast<std::uint32_t>(memo_links_.size());
  memo_info_.push_back(info);
  return static_cast<std::uint32_t>(memo_info_.size() - 1);
}

std::size_t ClaimAnalyzer::read_claim_tokens(std::string_view claim,
                                             const std::vector<text::Span>& runs,
                                             std::size_t& label) {
  claim_tokens_.clear();
  token_info_.clear();
  // The tokens first, their memo slots prefetched (token_info_ holds their hashes meanwhile), so
  // the lookups' cache misses overlap.
  for_each_claim_token(claim, runs, [&](const ClaimToken& t) {
    claim_tokens_.push_back(t);
    const std::uint32_t hash = TokenMemo<std::uint32_t>::hash_of(t.token);
    memo_words_.prefetch(hash);
    token_info_.push_back(hash);
  });
  for (std::size_t i = 0; i < claim_tokens_.size(); ++i) {
    token_info_[i] = word_info(claim_tokens_[i].token, token_info_[i]);
  }
  // claim_default registers their keys: their slots' misses overlap here too.
  for (const std::uint32_t info : token_info_) keys_.prefetch(memo_info_[info].key);
  label = !claim_tokens_.empty() && is_list_label(claim, claim_tokens_[0].token) ? 1 : 0;
  const PhraseSet& meta = config_->meta();
  if (meta.empty() || token_info_.empty()) return 0;
  // phrase_ids(meta, ..., claim, meta.max_span()), from the memo; after a list label ("1. In
  // summary, ...") the phrase starts at the second token.
  const std::size_t n = std::min(token_info_.size(), label + meta.max_span());
  meta_ids_.clear();
  for (std::size_t i = 0; i < n; ++i) meta_ids_.push_back(memo_info_[token_info_[i]].meta_id);
  return meta.longest_match_at(meta_ids_, label);
}

void ClaimAnalyzer::claim_default(std::size_t skip, ClaimProfile& out) {
  bool any_checked = false;  // a Content, Number or Speaker item: function words count too
  item_info_.clear();
  for (std::size_t index = skip; index < claim_tokens_.size(); ++index) {
    const ClaimToken& t = claim_tokens_[index];
    ++out.token_count;
    const std::uint32_t info_index = token_info_[index];
    const WordInfo& info = memo_info_[info_index];
    if (info.negation) out.has_negation = true;
    if (info.skip) continue;
    const ItemKind kind = info.kind;
    any_checked = any_checked || kind != ItemKind::Function;
    any_number_ = any_number_ || kind == ItemKind::Number;
    any_speaker_ = any_speaker_ || kind == ItemKind::Speaker;
    const std::uint32_t id = add_key(info.key);
    const double weight = kind == ItemKind::Function  ? kFunctionWeight
                          : kind == ItemKind::Speaker ? kMinWeight
                                                      : info.weight;
    const std::string_view surface =
        kind == ItemKind::Number ? t.token.text.substr(0, info.number_length) : t.token.text;
    std::int32_t item = item_of_key_[id];
    if (item < 0) {
      item = static_cast<std::int32_t>(out.items.size());
      item_of_key_[id] = item;
      out.items.push_back(id);
      out.weights.push_back(weight);
      out.kinds.push_back(kind);
      out.names.push_back(0);
      out.surfaces.push_back(surface.empty() ? t.token.text : surface);
      item_info_.push_back(info_index);
    } else if (out.kinds[static_cast<std::size_t>(item)] == ItemKind::Function &&
               kind == ItemKind::Content) {
      const auto j = static_cast<std::size_t>(item);
      out.kinds[j] = kind;
      out.weights[j] = weight;
      out.surfaces[j] = t.token.text;
      item_info_[j] = info_index;
    }
    const auto j = static_cast<std::size_t>(item);
    if (kind == ItemKind::Content && out.kinds[j] == ItemKind::Content &&
        is_name(info.shape, t.sentence_start)) {
      out.names[j] = 1;
    }
  }
  for (const std::uint32_t id : out.items) item_of_key_[id] = -1;
  if (!any_checked) {
    const bool negation = out.has_negation;
    const std::size_t tokens = out.token_count;
    out.clear();
    out.has_negation = negation;
    out.token_count = tokens;
    return;
  }
  for (const double w : out.weights) out.total += w;  // item order: the oracle's sum, bit for bit
  for (std::size_t j = 0; j < out.items.size(); ++j) {
    if (out.is_checked(j)) ++out.checked;
  }
  add_relations(out);
}

void ClaimAnalyzer::add_relations(ClaimProfile& out) {
  // Related and antonym stems of content items are marked, so chunks record where they occur
  // (the config's relations, looked up once per word in word_info). They get no key id: most occur
  // in no chunk. The lists are sized first and written by index.
  const std::size_t k = out.items.size();
  std::size_t related = 0;
  std::size_t antonyms = 0;
  for (std::size_t j = 0; j < k; ++j) {
    if (out.kinds[j] == ItemKind::Content) {
      const WordInfo& info = memo_info_[item_info_[j]];
      related += info.related_end - info.links_begin;
      antonyms += info.links_end - info.related_end;
      if (info.links_end > info.links_begin) __builtin_prefetch(&memo_links_[info.links_begin]);
    }
  }
  out.related.resize(related);
  out.antonyms.resize(antonyms);
  out.related_begin.resize(k + 1);
  out.antonym_begin.resize(k + 1);
  if (related + antonyms > 0 && relation_bits_.size() * 64 < keys_.stable_count()) {
    relation_bits_.resize((keys_.stable_count() + 63) / 64, 0);
  }
  const auto mark = [this](const Link& link) {
    std::uint64_t& word = relation_bits_[link.key / 64];
    const std::uint64_t bit = std::uint64_t{1} << (link.key % 64);
    if ((word & bit) != 0) return link.key;
    word |= bit;
    relation_marked_.push_back(link.key);
    if (!filter_.has(link.code)) {
      filter_.add_code(link.code);
      filter_codes_.push_back(link.code);
    }
    return link.key;
  };
  std::uint32_t r_at = 0;
  std::uint32_t a_at = 0;
  out.related_begin[0] = 0;
  out.antonym_begin[0] = 0;
  for (std::size_t j = 0; j < k; ++j) {
    if (out.kinds[j] == ItemKind::Content) {
      const WordInfo& info = memo_info_[item_info_[j]];
      for (std::uint32_t r = info.links_begin; r < info.related_end; ++r) {
        out.related[r_at++] = mark(memo_links_[r]);
      }
      for (std::uint32_t a = info.related_end; a < info.links_end; ++a) {
        out.antonyms[a_at++] = mark(memo_links_[a]);
      }
    }
    out.related_begin[j + 1] = r_at;
    out.antonym_begin[j + 1] = a_at;
  }
}

void ClaimAnalyzer::claim_reference(std::string_view claim, const std::vector<text::Span>& runs,
                                    ClaimProfile& out) {
  const text::StopWords& stop = config_->stopwords();
  const std::string stripped = runs.empty() ? std::string() : text::strip_citations(claim);
  const std::string_view words = runs.empty() ? claim : std::string_view(stripped);
  for_each_python_word(words, [&](std::string_view word, bool) {
    python_lower(word, folded_);
    if (stop.contains_folded(folded_)) return;
    const std::uint32_t id = intern(folded_);
    add_word_code(word_code(folded_));
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
  const text::StopWords& stop = config_->stopwords();
  const bool keep_keys = config_->mode() == Mode::Default;
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
    const bool number = keep_keys ? token_key(t.token.text, t.token.kind, folded_, key_)
                                  : !number_part(t.token.text, t.token.kind).empty();
    if (number) {
      blocked = true;
      return false;
    }
    if (!is_content(false, folded_, stop)) return true;
    if (is_name(name_shape(t.token.text), t.sentence_start)) {
      blocked = true;
      return false;
    }
    if (keep_keys) rest.push_back(intern(key_));
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
      add_word_code(word_code(folded_));
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
  chunk(text, out);
  return out;
}

void ClaimAnalyzer::chunk(std::string_view text, ChunkProfile& out) {
  analyze_chunk(text, out, /*presence_only=*/false);
}

void ClaimAnalyzer::chunk_presence(std::string_view text, ChunkProfile& out) {
  analyze_chunk(text, out, /*presence_only=*/true);
}

void ClaimAnalyzer::analyze_chunk(std::string_view text, ChunkProfile& out, bool presence_only) {
  out.clear();
  out.present.assign((keys_.local_count() + 63) / 64, 0);
  if (keys_.local_count() == 0) return;
  if (config_->mode() == Mode::Reference) {
    chunk_reference(text, out);
  } else if (presence_only) {
    chunk_default_presence(text, out);
  } else {
    chunk_default(text, out);
  }
}

void ClaimAnalyzer::chunk_default_presence(std::string_view text, ChunkProfile& out) {
  chunk_words_.start();
  std::vector<std::uint64_t>& relation_found = relation_found_;
  relation_found.clear();
  const bool any_relation = !relation_marked_.empty();
  // Negations are not recorded here: fewer tokens need the memo (plainly_skipped never skips a
  // token chunk_word_skipped keeps, whatever the needs: test_claim_chunk_words.cpp).
  const ChunkNeeds needs{false, any_number_, any_speaker_};
  candidates_.clear();
  // The tokens chunk_default visits: every token outside the citation runs (for_each_unit_token's
  // walk without its units; a shared helper taking a callback cost ~400 instructions per pass).
  const std::vector<text::Span> runs = citation_runs_of(text);
  std::size_t run = 0;
  text::for_each_token(text, [&](const text::Token& token) {
    while (run < runs.size() && runs[run].end <= token.offset) ++run;
    if (run < runs.size() && runs[run].begin <= token.offset) return;
    if (plainly_skipped(token, filter_, needs)) return;
    candidates_.push_back({token, 0, chunk_words_.prefetch(token), 0});
  });
  for (const Candidate& candidate : candidates_) {
    const ChunkWord& word = chunk_words_.get(candidate.token, candidate.hash, keys_);
    if (chunk_word_skipped(word, filter_, needs)) continue;
    const std::uint32_t id = keys_.local(word.key);
    if (id != KeyIds::kNone) set_bit(out.present, id);
    if (any_relation && is_relation(word.key)) relation_found.push_back(word.key);
  }
  std::sort(relation_found.begin(), relation_found.end());
  relation_found.erase(std::unique(relation_found.begin(), relation_found.end()),
                       relation_found.end());
  for (const std::uint64_t stable : relation_found) {
    out.add_relation_key(static_cast<std::uint32_t>(stable));
  }
}

void ClaimAnalyzer::chunk_default(std::string_view text, ChunkProfile& out) {
  chunk_words_.start();
  // (key id << 32 | candidate index) of every token whose key is a claim key, sorted afterwards
  // (candidates are in token order, so this is token order per key).
  std::vector<std::uint64_t>& found = found_;
  std::vector<std::uint64_t>& relation_found = relation_found_;
  found.clear();
  relation_found.clear();
  const bool any_relation = !relation_marked_.empty();
  std::uint32_t position = 0;
  const ChunkNeeds needs{any_negation_, any_number_, any_speaker_};
  // Most tokens are ruled out from their text alone, without a (cache-missing) memo probe; the
  // others are probed after the walk, their slots prefetched during it so the misses overlap.
  candidates_.clear();
  const std::vector<text::Span> runs = citation_runs_of(text);
  // Questions: only in a chunk holding a "?"; a unit whose first token asks is one when the first
  // '.', '!' or '?' after its last token (citation markers skipped) is a '?'.
  const bool may_ask = text.find('?') != std::string_view::npos;
  std::uint32_t asking_unit = std::numeric_limits<std::uint32_t>::max();  // the unit seen last
  bool asking = false;  // that unit's first token asks
  std::size_t last_end = 0;
  const auto close_question = [&](std::size_t end) {
    if (asking && question_mark_after(text, runs, last_end, end)) {
      out.question_units.push_back(asking_unit);
    }
  };
  const auto visit = [&](const text::Token& token, std::uint32_t unit) {
    const std::uint32_t pos = position++;
    if (may_ask) {
      if (unit != asking_unit) {
        close_question(token.offset);
        asking_unit = unit;
        fold_token(token.text, folded_);
        asking = text::asks(folded_);
      }
      last_end = token.offset + token.text.size();
    }
    if (plainly_skipped(token, filter_, needs)) return;
    candidates_.push_back({token, pos, chunk_words_.prefetch(token), unit});
  };
  out.unit_count = for_each_unit_token(text, runs, visit);
  if (may_ask) close_question(text.size());
  out.token_count = position;
  for (std::size_t c = 0; c < candidates_.size(); ++c) {
    const Candidate& candidate = candidates_[c];
    const ChunkWord& word = chunk_words_.get(candidate.token, candidate.hash, keys_);
    if (any_negation_ && word.negation) out.negations.push_back(candidate.position);
    // Numbers, number words and the speaker are keyed exactly; other words are keyed only when
    // the filter lets them by.
    if (chunk_word_skipped(word, filter_, needs)) continue;
    const std::uint32_t id = keys_.local(word.key);
    if (id != KeyIds::kNone) found.push_back((std::uint64_t{id} << 32) | c);
    if (any_relation && is_relation(word.key)) {
      relation_found.push_back((std::uint64_t{word.key} << 32) | candidate.unit);
    }
  }
  std::sort(found.begin(), found.end());
  out.positions.reserve(found.size());
  for (const std::uint64_t entry : found) {
    const auto id = static_cast<std::uint32_t>(entry >> 32);
    const Candidate& candidate = candidates_[static_cast<std::uint32_t>(entry)];
    const std::uint32_t unit = candidate.unit;
    if (out.keys.empty() || out.keys.back() != id) {
      out.keys.push_back(id);
      out.begin.push_back(static_cast<std::uint32_t>(out.positions.size()));
      out.unit_begin.push_back(static_cast<std::uint32_t>(out.key_units.size()));
      set_bit(out.present, id);
      out.key_units.push_back(unit);
    } else if (out.key_units.back() != unit) {
      out.key_units.push_back(unit);  // positions ascend, so units do
    }
    out.positions.push_back(candidate.position);
  }
  out.begin.push_back(static_cast<std::uint32_t>(out.positions.size()));
  out.unit_begin.push_back(static_cast<std::uint32_t>(out.key_units.size()));
  if (relation_found.empty()) return;
  std::sort(relation_found.begin(), relation_found.end());
  for (const std::uint64_t entry : relation_found) {
    const auto stable = static_cast<std::uint32_t>(entry >> 32);
    const auto unit = static_cast<std::uint32_t>(entry);
    if (out.relation_keys.empty() || out.relation_keys.back() != stable) {
      out.add_relation_key(stable);
      out.relation_unit_begin.push_back(static_cast<std::uint32_t>(out.relation_units.size()));
      out.relation_units.push_back(unit);
    } else if (out.relation_units.back() != unit) {
      out.relation_units.push_back(unit);
    }
  }
  out.relation_unit_begin.push_back(static_cast<std::uint32_t>(out.relation_units.size()));
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
    const std::uint32_t id = keys_.local(keys_.find(folded_));
    if (id != KeyIds::kNone) set_bit(out.present, id);
  });
}

}  // namespace sc::claims
