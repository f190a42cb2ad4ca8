/// @brief libFuzzer target: the text engine on arbitrary bytes. Tokenizer, sentence splitter,
/// citation extractor and stripper, case folding, stemming; every span must lie inside the input
/// and in order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_input.hpp"
#include "text/casefold.hpp"
#include "text/citations.hpp"
#include "text/sentences.hpp"
#include "text/stemmer.hpp"
#include "text/tokenizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using sc::fuzz::require;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  std::size_t previous_end = 0;
  std::size_t count = 0;
  std::string folded;
  std::string stem;
  sc::text::for_each_token(text, [&](const sc::text::Token& token) {
    require(token.offset >= previous_end, "tokens in order, not overlapping");
    require(token.offset + token.text.size() <= text.size(), "token inside the text");
    require(!token.text.empty(), "no empty token");
    require(text.data() + token.offset == token.text.data(), "token views the text at its offset");
    previous_end = token.offset + token.text.size();
    ++count;
    folded.clear();
    sc::text::append_folded(token.text, folded);
    if (token.kind == sc::text::TokenKind::Word) sc::text::stem_into(folded, stem);
  });
  require(count == sc::text::count_tokens(text), "count_tokens agrees with the scan");

  std::size_t sentence_end = 0;
  for (const sc::text::Span& span : sc::text::split_sentences(text)) {
    require(span.begin >= sentence_end && span.begin < span.end && span.end <= text.size(),
            "sentences non-empty, in order, inside the text");
    sentence_end = span.end;
  }

  for (const sc::text::Citation& c : sc::text::extract_citations(text)) {
    require(c.group_begin <= c.begin && c.begin < c.end && c.end <= c.group_end &&
                c.group_end <= text.size(),
            "citation inside its group inside the text");
    require(text[c.group_begin] == '[' && text[c.group_end - 1] == ']', "group is bracketed");
  }
  const std::string stripped = sc::text::strip_citations(text);
  require(stripped.size() <= text.size(), "stripping never adds bytes");
  return 0;
}
