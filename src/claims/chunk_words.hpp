/// @brief ChunkWords: a per-thread memo of what chunk analysis derives from one token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "claims/key_table.hpp"
#include "claims/token_memo.hpp"
#include "text/tokenizer.hpp"

namespace sc::claims {

/// What ClaimAnalyzer's chunk pass needs of one token, whatever the check: its key (token_key)
/// and the parts of the KeyFilter and special-token tests that do not depend on the claims.
struct ChunkWord {
  std::string_view key;     // token_key (valid until the memo is cleared)
  std::uint32_t key_hash;   // KeyTable::hash(key)
  std::uint16_t key_code;   // prefix_code(key)
  std::uint16_t base_code;  // prefix_code(word_base(folded))
  bool always_matches;      // KeyFilter::always_matches(folded)
  bool number;              // number_part is not empty
  bool number_word;         // a Word whose folded form is a number word
  bool speaker;             // a Word whose folded form is a first-person word
  bool negation;            // is_negation(folded)
};

/// Computes a ChunkWord (its key in `keys`, `folded` and `key` are scratch).
ChunkWord make_chunk_word(const text::Token& token, KeyTable& keys, std::string& folded,
                          std::string& key);

/// Token -> ChunkWord, computed on first sight (stemming and folding every chunk token was most
/// of a chunk's cost). Entries stay valid until start() clears a full memo. Not thread-safe: one
/// per analyzer.
class ChunkWords {
 public:
  /// Call before a chunk's tokens: clears the memo when full, so get() never invalidates the
  /// entries (and keys) of the same chunk.
  void start();
  const ChunkWord& get(const text::Token& token) {
    return memo_.get(token, [&] { return make_chunk_word(token, keys_, folded_, key_); });
  }
  std::size_t size() const noexcept { return memo_.size(); }
  std::size_t memory_bytes() const noexcept;

  static constexpr std::size_t kMaxWords = TokenMemo<ChunkWord>::kMaxWords;
  static constexpr std::size_t kInline = TokenMemo<ChunkWord>::kInline;

 private:
  TokenMemo<ChunkWord> memo_;
  KeyTable keys_;  // the entries' key strings
  std::string folded_;
  std::string key_;
};

}  // namespace sc::claims
