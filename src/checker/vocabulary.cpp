#include "checker/vocabulary.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "common/renew.hpp"
#include "text/casefold.hpp"
#include "text/stemmer.hpp"
#include "text/stopwords.hpp"
#include "text/utf8.hpp"

namespace sc::checker {
namespace {

constexpr std::string_view kNegations[] = {"not",  "no",      "never",  "nor",
                                           "none", "neither", "cannot", "without"};

// Bit c - 'a' set for each first letter c of a cue (all a-z).
constexpr std::uint32_t first_letters() {
  std::uint32_t bits = 0;
  for (const std::string_view cue : kNegations) bits |= 1U << (cue[0] - 'a');
  return bits;
}

constexpr std::uint32_t kCueFirstLetters = first_letters();

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

// ASCII words (most) skip the general folding and the code point count: their folding is a
// byte-wise A-Z -> a-z, and their bytes are their code points.
struct AsciiShape {
  bool ascii = true;
  bool upper = false;  // holds A-Z
};

using text::load_bytes;

constexpr std::uint64_t kLowBytes = 0x0101010101010101ULL;
constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

// The high bit of each byte of `bytes` in A-Z; exact while every byte is ASCII (a higher one can
// carry into its neighbour, but such a word is not lowered here).
inline std::uint64_t upper_bytes(std::uint64_t bytes) noexcept {
  return (bytes + kLowBytes * (0x80 - 'A')) & ~(bytes + kLowBytes * (0x7F - 'Z')) & kHighBits;
}

// Eight bytes at a time (the last 1-7 by overlapping loads, which OR-ing tolerates): a byte loop
// cost more here than the rest of analyze() for an ASCII word.
AsciiShape ascii_shape(std::string_view s) noexcept {
  std::uint64_t any = 0;    // every byte OR-ed: the high bits tell non-ASCII
  std::uint64_t upper = 0;  // upper_bytes() OR-ed
  const auto add = [&](std::uint64_t bytes) {
    any |= bytes;
    upper |= upper_bytes(bytes);
  };
  const char* p = s.data();
  const std::size_t n = s.size();
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8) add(load_bytes<std::uint64_t>(p + i));
    add(load_bytes<std::uint64_t>(p + n - 8));
  } else if (n >= 4) {
    add(load_bytes<std::uint32_t>(p) | std::uint64_t{load_bytes<std::uint32_t>(p + n - 4)} << 32);
  } else {
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
      bytes |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    }
    add(bytes);
  }
  const bool ascii = (any & kHighBits) == 0;
  return {ascii, ascii && upper != 0};
}

// Writes ASCII `s` lowered to `out` (s.size() bytes), 8 (4) bytes at a time: A-Z gain 0x20.
void lower_ascii(std::string_view s, char* out) noexcept {
  const auto lower = [](std::uint64_t bytes) { return bytes | upper_bytes(bytes) >> 2; };
  const char* p = s.data();
  const std::size_t n = s.size();
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 <= n; i += 8) {
      const std::uint64_t bytes = lower(load_bytes<std::uint64_t>(p + i));
      std::memcpy(out + i, &bytes, 8);
    }
    const std::uint64_t last = lower(load_bytes<std::uint64_t>(p + n - 8));
    std::memcpy(out + n - 8, &last, 8);
  } else if (n >= 4) {
    const auto first = static_cast<std::uint32_t>(lower(load_bytes<std::uint32_t>(p)));
    const auto last = static_cast<std::uint32_t>(lower(load_bytes<std::uint32_t>(p + n - 4)));
    std::memcpy(out, &first, 4);
    std::memcpy(out + n - 4, &last, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const char c = p[i];
      out[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
  }
}

// is_negation(), inlined into analyze(): a call cost more than its test on most words.
[[gnu::always_inline]] inline bool negation_cue(std::string_view folded) noexcept {
  const std::size_t n = folded.size();
  if (n >= 3 && folded[n - 3] == 'n' && folded[n - 2] == '\'' && folded[n - 1] == 't') return true;
  // Most words start with a letter no cue starts with; the rest compare with the cues of their
  // length only.
  if (n == 0 || folded[0] < 'a' || folded[0] > 'z') return false;
  if (((kCueFirstLetters >> (folded[0] - 'a')) & 1U) == 0) return false;
  for (const std::string_view cue : kNegations) {
    if (cue.size() == n && cue[0] == folded[0] && folded == cue) return true;
  }
  return false;
}

}  // namespace

bool is_negation(std::string_view folded) noexcept { return negation_cue(folded); }

std::string_view term_prefix(std::string_view term) noexcept {
  return term.substr(0, measure(term, kPrefixLength).bytes);
}

Vocabulary::Vocabulary(const SeedVocabulary& seed)
    : seed_(&seed), stop_words_(&text::StopWords::english()) {}

const SeedWord* Vocabulary::find_seed(std::string_view spelling, std::uint32_t tag) const noexcept {
  const std::size_t mask = seed_->slot_count - 1;
  // The seed's slots are placed by the low bits of the whole hash.
  const std::uint64_t hash = text::hash_term(spelling);
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const std::uint64_t entry = seed_->slots[slot];
    if (entry == 0) return nullptr;
    if (static_cast<std::uint32_t>(entry >> 32) != tag) continue;
    const SeedWord& w = seed_->words[static_cast<std::uint32_t>(entry) - 1];
    if (text::same_bytes(std::string_view(seed_->bytes + w.spelling, w.spelling_length),
                         spelling)) {
      return &w;
    }
  }
}

std::string_view Vocabulary::keep_folded(std::string_view folded, std::string_view spelling) {
  return text::same_bytes(folded, spelling) ? spelling : strings_.store(folded);
}

const WordInfo& Vocabulary::insert(const text::Token& token, std::uint32_t tag) {
  const auto index = static_cast<std::uint32_t>(entry_count_);
  const std::string_view spelling = strings_.store(token.text);
  WordInfo info;
  // No call at all without a seed (the default build).
  const SeedWord* w = seed_->slot_count == 0 ? nullptr : find_seed(token.text, tag);
  if (w != nullptr) {
    // The seed's analysis, its strings copied next to this memo's others: every later hit reads
    // them, and the memo's arenas are small and hot where the seed's bytes are spread out.
    info.term = w->term;
    info.prefix = w->prefix;
    info.term_length = w->term_length;
    info.id = static_cast<std::uint32_t>(w - seed_->words);
    info.kind = static_cast<text::TokenKind>(w->flags & 3u);
    info.negation = (w->flags & 4u) != 0;
    info.folded =
        keep_folded(std::string_view(seed_->bytes + w->folded, w->folded_length), spelling);
  } else {
    info = analyze(token, spelling);
    info.id = seed_->word_count + static_cast<std::uint32_t>(analysed_++);
  }
  if ((entry_count_ + 1) * 2 > slots_.size()) rehash(slots_.empty() ? 1024 : slots_.size() * 2);
  // `>=`, not `==`: a moved-from vocabulary keeps its count but not its blocks, and stays usable.
  while (index / kEntriesPerBlock >= entry_blocks_.size()) {
    entry_blocks_.push_back(std::make_unique<Entry[]>(kEntriesPerBlock));
  }
  Entry& e = entry_blocks_[index / kEntriesPerBlock][index % kEntriesPerBlock];
  e = Entry{spelling, info};
  ++entry_count_;
  const std::size_t mask = slots_.size() - 1;
  std::size_t slot = tag & mask;
  while (slots_[slot].index != 0) slot = (slot + 1) & mask;
  slots_[slot] = Slot{tag, index + 1};
  return e.info;
}

void Vocabulary::rehash(std::size_t slot_count) {
  std::vector<Slot> old(slot_count);
  old.swap(slots_);
  const std::size_t mask = slot_count - 1;
  for (const Slot& s : old) {
    if (s.index == 0) continue;
    std::size_t slot = s.tag & mask;
    while (slots_[slot].index != 0) slot = (slot + 1) & mask;
    slots_[slot] = s;
  }
}

WordInfo Vocabulary::analyze(const text::Token& token, std::string_view spelling) {
  WordInfo info;
  info.kind = token.kind;
  const AsciiShape shape = ascii_shape(token.text);
  if (!shape.ascii) {
    fold_buffer_.clear();
    text::append_folded(token.text, fold_buffer_);
    info.folded = keep_folded(fold_buffer_, spelling);
  } else if (shape.upper) {
    // Lowered straight into the arena: it differs from the spelling (it had a capital).
    char* folded = strings_.allocate(token.text.size());
    lower_ascii(token.text, folded);
    info.folded = std::string_view(folded, token.text.size());
  } else {
    info.folded = spelling;  // already folded
  }
  std::string_view term = info.folded;
  if (token.kind == text::TokenKind::Word) {
    info.negation = negation_cue(info.folded);
    if (stop_words_->contains_folded(info.folded)) return info;
    term = text::stem_view(info.folded, stem_buffer_);
  } else if (token.kind == text::TokenKind::Number &&
             info.folded.find(',') != std::string_view::npos) {
    number_buffer_.clear();
    for (const char c : info.folded) {
      if (c != ',') number_buffer_.push_back(c);
    }
    term = number_buffer_;
  }
  info.term = intern_term(term);
  // Folding, stemming and dropping commas keep ASCII ASCII: bytes are code points.
  const Prefix prefix = shape.ascii ? Prefix{std::min(term.size(), kPrefixLength), term.size()}
                                    : measure(term, kPrefixLength);
  info.term_length = static_cast<std::uint32_t>(prefix.code_points);
  if (prefix.code_points >= kPrefixLength) info.prefix = prefix_hash(term.substr(0, prefix.bytes));
  return info;
}

void Vocabulary::clear() noexcept {
  analysed_ = 0;
  slots_.clear();
  entry_blocks_.clear();
  entry_count_ = 0;
  strings_.clear();
  terms_.clear();
}

// One thread's vocabulary, counted in the cache budget.
class ThreadVocabulary final : public BudgetedCache {
 public:
  ThreadVocabulary() = default;
  ~ThreadVocabulary() override { withdraw(); }
  ThreadVocabulary(const ThreadVocabulary&) = delete;
  ThreadVocabulary& operator=(const ThreadVocabulary&) = delete;

  Vocabulary vocabulary;

 private:
  std::size_t held_bytes() const noexcept override { return vocabulary.memory_bytes(); }
  void empty() noexcept override {
    common::renew(vocabulary);  // clear() would keep the capacity
  }
};

namespace {

ThreadVocabulary& this_thread_vocabulary() {
  thread_local ThreadVocabulary cache;
  return cache;
}

}  // namespace

VocabularyLease::VocabularyLease()
    : cache_(this_thread_vocabulary()), lease_(cache_), vocabulary_(cache_.vocabulary) {}

VocabularyLease::~VocabularyLease() {
  // Before lease_ accounts it.
  if (vocabulary_.size() > kMaxSpellings) common::renew(vocabulary_);
}

}  // namespace sc::checker
