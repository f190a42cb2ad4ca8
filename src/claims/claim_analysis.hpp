/// @brief ClaimAnalyzer: one check's claims and chunks as interned keys, token positions and
/// presence sets.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "claims/chunk_words.hpp"
#include "claims/claim_config.hpp"
#include "claims/claim_tokens.hpp"
#include "claims/key_ids.hpp"
#include "claims/token_memo.hpp"
#include "text/sentences.hpp"

namespace sc::claims {

/// What a claim item is: its kind sets its weight and what may stand in for it.
enum class ItemKind : std::uint8_t {
  Function,  // a stop word or particle (FUNCTION_WEIGHT), only in claims with another kind
  Content,   // a content word (rarity weight; related words, antonyms)
  Number,    // a number or number word (rarity weight of an unknown stem; a contradiction when
             // absent)
  Speaker,   // the first-person singular (kSpeakerKey, MIN_WEIGHT)
};

/// One claim sentence, analyzed. Items are its distinct keys (default mode: stems, numbers, the
/// speaker; reference mode: lowercase whitespace words minus stop words) in first-seen order.
struct ClaimProfile {
  std::vector<std::uint32_t> items;          // key ids
  std::vector<double> weights;               // default mode, per item
  std::vector<ItemKind> kinds;               // default mode, per item
  std::vector<std::uint8_t> names;           // default mode, per item: a capitalised name
  std::vector<std::string_view> surfaces;    // default mode, per item: first surface (view)
  std::vector<std::uint32_t> related_begin;  // item j's related keys: related[begin[j], begin[j+1])
  std::vector<std::uint32_t> related;        // stable key ids (ChunkProfile's relation hits)
  std::vector<std::uint32_t> antonym_begin;  // item j's antonym keys, likewise
  std::vector<std::uint32_t> antonyms;       // stable key ids
  double total = 0.0;                        // sum of weights, in item order
  std::size_t checked = 0;                   // Content and Number items
  std::size_t token_count = 0;               // every token after a meta phrase
  bool has_negation = false;                 // a token is a negation ("not", "isn't", ...)
  bool meta = false;                         // opens with a meta phrase, no number/name after
  std::size_t meta_phrase_end = 0;           // byte offset just past the phrase
  std::vector<std::uint32_t> meta_rest;      // content keys after the phrase

  bool has_content() const noexcept { return !items.empty(); }
  /// Back to a default-constructed profile, keeping the vectors' capacity.
  void clear() noexcept;
  bool is_checked(std::size_t j) const noexcept {
    return kinds[j] == ItemKind::Content || kinds[j] == ItemKind::Number;
  }
};

/// One chunk, analyzed against the keys of every claim of the check (keys no claim has are not
/// kept). Positions are token indexes, units source-sentence indexes (default mode).
struct ChunkProfile {
  std::vector<std::uint64_t> present;    // bitset over key ids
  std::vector<std::uint32_t> keys;       // default mode: sorted distinct key ids found
  std::vector<std::uint32_t> begin;      // positions of keys[i]: positions[begin[i], begin[i+1])
  std::vector<std::uint32_t> positions;  // token indexes, ascending per key
  std::vector<std::uint32_t>
      unit_begin;  // distinct units of keys[i]: key_units[unit_begin[i], ...+1])
  std::vector<std::uint32_t> key_units;  // ascending per key
  std::vector<std::uint32_t> negations;  // ascending token indexes of negations
  // The check's related and antonym keys found, by stable id (they get no key id: most are never
  // found): sorted distinct ids, and the distinct units of relation_keys[i] ascending in
  // relation_units[relation_unit_begin[i], ...+1]).
  std::vector<std::uint32_t> relation_keys;
  std::vector<std::uint32_t> relation_unit_begin;
  std::vector<std::uint32_t> relation_units;
  std::array<std::uint64_t, 8> relation_filter{};  // relation_slot of every relation_keys entry
  std::size_t token_count = 0;
  std::uint32_t unit_count = 0;
  // Units that are questions, ascending (full analysis only): a question asserts nothing, so it
  // supports a claim only beside a unit that holds some of it (claim_support.cpp).
  std::vector<std::uint32_t> question_units;

  /// Back to a default-constructed profile, keeping the vectors' capacity.
  void clear() noexcept;
  bool contains(std::uint32_t key) const noexcept {
    return key / 64 < present.size() && ((present[key / 64] >> (key % 64)) & 1u) != 0;
  }
  /// The bit of relation_filter for stable id `stable` (0-511): it rules out most relation keys
  /// without a search, as `present` does for key ids.
  static std::uint32_t relation_slot(std::uint32_t stable) noexcept {
    return (stable * 0x9E3779B1u) >> 23;
  }
  /// Appends relation key `stable` (above every key so far) and marks its relation_filter bit.
  void add_relation_key(std::uint32_t stable) {
    relation_keys.push_back(stable);
    const std::uint32_t slot = relation_slot(stable);
    relation_filter[slot / 64] |= std::uint64_t{1} << (slot % 64);
  }
  /// The index of relation key `stable` in relation_keys, or relation_keys.size() when absent.
  /// Inline: it runs for every related and antonym key of a claim scored against the chunk.
  std::size_t find_relation(std::uint32_t stable) const noexcept {
    const std::uint32_t slot = relation_slot(stable);
    if (((relation_filter[slot / 64] >> (slot % 64)) & 1u) == 0) return relation_keys.size();
    const auto it = std::lower_bound(relation_keys.begin(), relation_keys.end(), stable);
    if (it == relation_keys.end() || *it != stable) return relation_keys.size();
    return static_cast<std::size_t>(it - relation_keys.begin());
  }
};

/// Whether `next` starts a sentence glued to `prev` ("Woo-jin.Yeon"; see for_each_unit_token).
bool glued_sentence_end(std::string_view text, const text::Token& prev,
                        const text::Token& next) noexcept;

/// glued_sentence_end, without its call for an empty gap or one that opens or closes with a space
/// (most gaps): a glued gap holds no whitespace. Inline: it runs for every chunk token.
inline bool glued_after(std::string_view text, const text::Token& prev,
                        const text::Token& next) noexcept {
  const std::size_t begin = prev.offset + prev.text.size();
  return next.offset > begin && text[begin] != ' ' && text[next.offset - 1] != ' ' &&
         glued_sentence_end(text, prev, next);
}

/// The offset of the first '.', '!', '?', '\n', '\r' or non-ASCII byte of `text` (its size when
/// there is none): text::split_sentences ends no sentence before it (every other terminal mark and
/// line break is non-ASCII), so every token starting before it lies in the first sentence.
std::size_t first_possible_break(std::string_view text) noexcept;

/// text::split_sentences(text), without its scan when the text is plainly one sentence: from its
/// first_possible_break on it holds only '.', '!', '?', closing brackets and quotes, then spaces
/// and tabs (nothing there can end a sentence that another follows), as most short answers do.
std::vector<text::Span> sentence_spans(std::string_view text);

/// Calls fn(const text::Token&, std::uint32_t unit) for every token of a chunk outside the
/// citation runs `runs`, with its source unit: a new unit starts at a token in a later sentence of
/// text::split_sentences(text) than the token before it, or glued to it across a sentence end
/// ("Woo-jin.Yeon": the gap is non-empty ASCII without whitespace holding '.', '!' or '?', the
/// previous token has >= 2 code points, this one is capitalised but not all capitals). Returns the
/// number of units (0 without tokens).
template <class Fn>
std::uint32_t for_each_unit_token(std::string_view text, const std::vector<text::Span>& runs,
                                  Fn&& fn) {
  // Split only once a token may lie past the first sentence: a one-sentence chunk never is.
  // `boundary`: before the split, the first possible break; after, where the current span ends
  // (none for the last), so a token before it needs one test.
  std::size_t boundary = first_possible_break(text);
  std::vector<text::Span> spans;
  bool split = false;
  std::size_t span = 0;
  std::size_t prev_span = 0;
  std::uint32_t unit = 0;
  bool first = true;
  text::Token prev{};
  std::size_t run = 0;
  text::for_each_token(text, [&](const text::Token& token) {
    while (run < runs.size() && runs[run].end <= token.offset) ++run;
    if (run < runs.size() && runs[run].begin <= token.offset) return;
    if (token.offset >= boundary) {
      if (!split) {
        spans = text::split_sentences(text);
        split = true;
      }
      while (span + 1 < spans.size() && token.offset >= spans[span].end) ++span;
      boundary = span + 1 < spans.size() ? spans[span].end : std::string_view::npos;
    }
    if (!first && (span != prev_span || glued_after(text, prev, token))) ++unit;
    fn(token, unit);
    first = false;
    prev = token;
    prev_span = span;
  });
  return first ? 0 : unit + 1;
}

/// Analyzes the texts of one check. Claims first (their keys are interned), then chunks (their
/// tokens are looked up among the claims' keys only, and most are ruled out by a KeyFilter before
/// they are stemmed). One analyzer per check at a time: it is not thread-safe, the config it reads
/// is. reset() makes it ready for the next check and keeps its buffers (one analyzer per thread).
class ClaimAnalyzer {
 public:
  explicit ClaimAnalyzer(const ClaimConfig& config);

  /// Forgets the previous check (keeping capacity) and reads `config` from now on.
  void reset(const ClaimConfig& config);

  /// Analyzes one claim; `runs` are its citation runs (citation_runs_of(claim)). In the default
  /// mode an opening meta phrase is left out of the items ("In summary, X" is scored as "X").
  ClaimProfile claim(std::string_view claim, const std::vector<text::Span>& runs);
  /// The same into `out` (cleared first, its capacity reused).
  void claim(std::string_view claim, const std::vector<text::Span>& runs, ClaimProfile& out);

  /// Analyzes one chunk (after every claim: keys first seen here are ignored).
  ChunkProfile chunk(std::string_view text);
  /// The same into `out` (cleared first, its capacity reused).
  void chunk(std::string_view text, ChunkProfile& out);
  /// Only what may_reach() reads of a chunk, into `out` (cleared first): its `present` bits and
  /// relation keys and filter, equal to chunk()'s, without positions, units or negations (the
  /// default mode's per-token unit tracking and sentence split are most of a chunk's cost). The
  /// reference mode's profile is all presence: the same as chunk().
  void chunk_presence(std::string_view text, ChunkProfile& out);

  /// Heap bytes held (its word memos included): what the cache budget counts.
  std::size_t memory_bytes() const noexcept;

  /// The key text of a key id.
  std::string_view key(std::uint32_t id) const { return keys_.local_term(id); }
  /// The key text of a stable id (ClaimProfile's related and antonym keys).
  std::string_view stable_key(std::uint32_t stable) const { return keys_.term(stable); }
  /// gram_slot of key(id) / stable_key(stable).
  std::uint16_t key_gram(std::uint32_t id) const noexcept { return keys_.local_gram(id); }
  std::uint16_t stable_gram(std::uint32_t stable) const noexcept { return keys_.gram(stable); }

  /// Number of distinct claim keys so far.
  std::size_t key_count() const noexcept { return keys_.local_count(); }

  /// The key id of a chunk token's key in this check (KeyIds::kNone when no claim has it), read
  /// through the chunk word memo the chunk pass filled (token_key, stemmed at most once).
  std::uint32_t chunk_key(const text::Token& token) {
    return keys_.local(chunk_words_.get(token, keys_).key);
  }

 private:
  std::uint32_t intern(std::string_view key) { return add_key(keys_.intern(key)); }
  /// The key id of stable id `stable`, registered when new in this check: filter bit, item
  /// scratch. Inline: it runs for every claim key.
  std::uint32_t add_key(std::uint32_t stable) {
    bool added = false;
    const std::uint32_t id = keys_.add_local(stable, added);
    if (added) {
      const std::uint16_t code = keys_.code(stable);
      if (!filter_.has(code)) {
        filter_.add_code(code);
        filter_codes_.push_back(code);
      }
      item_of_key_.push_back(-1);
    }
    return id;
  }

  /// What the default mode derives from one claim token's text and kind under the config: its
  /// key, kind, rarity weight, name shape and related / antonym keys. Memoized per analyzer (so
  /// per thread), for the config of memo_serial_.
  struct WordInfo {
    std::uint32_t key;            // stable id in keys_
    double weight;                // rarity_weight of the key
    std::uint32_t number_length;  // bytes of number_part (0: none)
    std::uint32_t links_begin;    // related keys: memo_links_[links_begin, related_end)
    std::uint32_t related_end;    // antonym keys: memo_links_[related_end, links_end)
    std::uint32_t links_end;
    std::int32_t meta_id;  // phrase_ids' id of the token in the config's meta phrases
    ItemKind kind;         // as an item (Function for a stop word)
    bool negation;
    bool skip;  // a negation that is not content: no item
    NameShape shape;
  };
  /// The memo_info_ index of `token`'s WordInfo; `hash` is TokenMemo::hash_of(token).
  std::uint32_t word_info(const text::Token& token, std::uint32_t hash);
  std::uint32_t new_word_info(const text::Token& token);  // appends to memo_info_, its index

  void clear_memo(std::uint64_t serial) noexcept;
  static constexpr std::size_t kMemoWords = TokenMemo<std::uint32_t>::kMaxWords;  // cleared past
  /// Stable keys kept between checks: past this, reset() clears them with both word memos (the
  /// memos' keys, their relation links and stale keys of cleared memos).
  static constexpr std::size_t kStableKeys = 2 * kMemoWords;
  void add_word_code(std::uint16_t code);
  /// Default mode: fills claim_tokens_ / token_info_ with the claim's tokens and memo entries
  /// (one walk serves the meta phrase and the items), sets `label` to the tokens of an opening
  /// list label (0 or 1) and returns the meta phrase's end (a token index: the label before the
  /// phrase counts), 0 without one.
  std::size_t read_claim_tokens(std::string_view claim, const std::vector<text::Span>& runs,
                                std::size_t& label);
  void claim_default(std::size_t skip, ClaimProfile& out);
  void claim_reference(std::string_view claim, const std::vector<text::Span>& runs,
                       ClaimProfile& out);
  /// Meta check of a claim whose first `end` tokens are a meta phrase (both modes): fills
  /// out.meta, meta_phrase_end and meta_rest.
  void detect_meta(std::string_view claim, const std::vector<text::Span>& runs, std::size_t end,
                   ClaimProfile& out);
  /// Copies the content items' related / antonym keys (stable ids) into `out` and marks them as
  /// this check's relation keys (filter codes, relation_bits_).
  void add_relations(ClaimProfile& out);
  bool is_relation(std::uint32_t stable) const noexcept {
    return stable / 64 < relation_bits_.size() &&
           ((relation_bits_[stable / 64] >> (stable % 64)) & 1u) != 0;
  }
  void analyze_chunk(std::string_view text, ChunkProfile& out, bool presence_only);
  void chunk_default(std::string_view text, ChunkProfile& out);
  void chunk_default_presence(std::string_view text, ChunkProfile& out);
  void chunk_reference(std::string_view text, ChunkProfile& out);

  const ClaimConfig* config_;
  KeyIds keys_;             // stable ids (memo keys, relation links) and this check's key ids
  KeyFilter filter_;        // prefixes of keys_ (default mode)
  KeyFilter words_filter_;  // word codes of keys_ (reference mode)
  std::vector<std::uint16_t> filter_codes_;  // codes set in filter_ (reset() clears just these)
  std::vector<std::uint16_t> word_codes_;    // codes set in words_filter_
  std::vector<std::int32_t> item_of_key_;    // scratch: key id -> item index in the claim, or -1
  bool any_negation_ = false;                // some claim has a negation: chunks record theirs
  bool any_number_ = false;                  // some claim has a number: chunks key number words
  bool any_speaker_ = false;                 // some claim has the speaker: chunks key "i", "my"...
  std::string folded_;
  std::string key_;
  std::uint64_t memo_serial_;            // config serial the memo holds
  TokenMemo<std::uint32_t> memo_words_;  // token -> memo_info_ index
  std::vector<WordInfo> memo_info_;
  /// A related / antonym key of a memo word: its stable id and prefix code (read together, without
  /// a KeyIds lookup).
  struct Link {
    std::uint32_t key;
    std::uint16_t code;
  };
  std::vector<Link> memo_links_;
  // This check's relation keys: a bitset over stable ids, and the ids set (reset() clears them).
  std::vector<std::uint64_t> relation_bits_;
  std::vector<std::uint32_t> relation_marked_;
  std::vector<std::uint32_t> item_info_;   // claim_default: memo_info_ index per item
  std::vector<ClaimToken> claim_tokens_;   // read_claim_tokens: the claim's tokens
  std::vector<std::uint32_t> token_info_;  // read_claim_tokens: memo_info_ index per token
  std::vector<std::int32_t> meta_ids_;     // read_claim_tokens: meta phrase ids of the first tokens
  ChunkWords chunk_words_;                 // chunk token -> key and test parts
  std::vector<std::uint64_t> found_;       // chunk_default scratch
  // chunk_default scratch: stable id << 32 | unit; chunk_default_presence's: stable id.
  std::vector<std::uint64_t> relation_found_;
  /// A chunk token the memo decides on (chunk_default scratch), its memo slot prefetched, with its
  /// unit (chunk_default_presence: 0).
  struct Candidate {
    text::Token token;
    std::uint32_t position;
    std::uint32_t hash;
    std::uint32_t unit;
  };
  std::vector<Candidate> candidates_;
};

}  // namespace sc::claims
