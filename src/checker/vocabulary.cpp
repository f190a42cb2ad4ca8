#include "checker/vocabulary.hpp"

#include "text/casefold.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/utf8.hpp"

namespace sc::checker {
namespace {

constexpr std::string_view kNegations[] = {"not",  "no",      "never",  "nor",
                                           "none", "neither", "cannot", "without"};

// Byte length of the first `count` code points of `s` (all of it when shorter), and how many
// code points `s` holds.
struct Prefix {
  std::size_t bytes = 0;
  std::size_t code_points = 0;
};

Prefix measure(std::string_view s, std::size_t count) noexcept {
  Prefix p;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const auto byte = static_cast<unsigned char>(s[pos]);
    pos += byte < 0x80 ? 1 : text::decode_utf8(s, pos).length;
    ++p.code_points;
    if (p.code_points == count) p.bytes = pos;
  }
  if (p.code_points < count) p.bytes = s.size();
  return p;
}

}  // namespace

bool is_negation(std::string_view folded) noexcept {
  for (const std::string_view cue : kNegations) {
    if (folded == cue) return true;
  }
  constexpr std::string_view kNt = "n't";
  return folded.size() >= kNt.size() && folded.substr(folded.size() - kNt.size()) == kNt;
}

const WordInfo& Vocabulary::insert(const text::Token& token, std::uint64_t hash) {
  WordInfo info = analyze(token);
  const std::uint32_t raw_id = raw_.intern(token.text);
  info.id = static_cast<std::uint32_t>(entries_.size());
  entries_.push_back(Entry{raw_.term(raw_id), info});
  hashes_.push_back(hash);
  if (entries_.size() * 2 > slots_.size()) {
    rehash(slots_.empty() ? 1024 : slots_.size() * 2);
  } else {
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = hash & mask;
    while (slots_[slot].index != 0) slot = (slot + 1) & mask;
    slots_[slot] = Slot{static_cast<std::uint32_t>(hash >> 32), info.id + 1};
  }
  return entries_.back().info;
}

void Vocabulary::rehash(std::size_t slot_count) {
  slots_.assign(slot_count, Slot{});
  const std::size_t mask = slot_count - 1;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    std::size_t slot = hashes_[i] & mask;
    while (slots_[slot].index != 0) slot = (slot + 1) & mask;
    slots_[slot] =
        Slot{static_cast<std::uint32_t>(hashes_[i] >> 32), static_cast<std::uint32_t>(i + 1)};
  }
}

WordInfo Vocabulary::analyze(const text::Token& token) {
  WordInfo info;
  info.kind = token.kind;
  fold_buffer_.clear();
  text::append_folded(token.text, fold_buffer_);
  info.folded = folded_.term(folded_.intern(fold_buffer_));
  std::string_view term = info.folded;
  if (token.kind == text::TokenKind::Word) {
    info.negation = is_negation(info.folded);
    if (text::StopWords::english().contains_folded(info.folded)) return info;
    text::stem_into(info.folded, stem_buffer_);
    term = stem_buffer_;
  } else if (token.kind == text::TokenKind::Number) {
    stem_buffer_.clear();
    for (const char c : info.folded) {
      if (c != ',') stem_buffer_.push_back(c);
    }
    term = stem_buffer_;
  }
  info.term = terms_.intern(term);
  const Prefix prefix = measure(term, kPrefixLength);
  info.term_length = static_cast<std::uint32_t>(prefix.code_points);
  if (prefix.code_points >= kPrefixLength) {
    info.prefix = prefixes_.intern(term.substr(0, prefix.bytes));
  }
  return info;
}

void Vocabulary::clear() noexcept {
  slots_.clear();
  hashes_.clear();
  entries_.clear();
  raw_.clear();
  folded_.clear();
  terms_.clear();
  prefixes_.clear();
}

Vocabulary& thread_vocabulary(std::size_t max_tokens) {
  thread_local Vocabulary vocabulary;
  if (vocabulary.size() > max_tokens) vocabulary.clear();
  return vocabulary;
}

}  // namespace sc::checker
