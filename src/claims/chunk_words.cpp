#include "claims/chunk_words.hpp"

#include "claims/claim_tokens.hpp"

namespace sc::claims {

ChunkWord make_chunk_word(const text::Token& token, KeyIds& keys, std::string& folded,
                          std::string& key) {
  ChunkWord word{};
  fold_token(token.text, folded);
  const bool is_word = token.kind == text::TokenKind::Word;
  word.number = !number_part(token.text, token.kind).empty();
  word.number_word = is_word && !number_word(folded).empty();
  word.speaker = is_word && is_speaker(folded);
  word.negation = is_negation(folded);
  word.always_matches = KeyFilter::always_matches(folded);
  word.base_code = prefix_code(word_base(folded));
  token_key(token.text, token.kind, folded, key);
  word.key = keys.intern(key);
  return word;
}

void ChunkWords::start() {
  if (memo_.size() >= kMaxWords) memo_.clear();
}

std::size_t ChunkWords::memory_bytes() const noexcept {
  return memo_.memory_bytes() + folded_.capacity() + key_.capacity();
}

}  // namespace sc::claims
