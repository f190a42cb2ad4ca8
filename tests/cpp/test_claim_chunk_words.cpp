// The shortcuts of the claim analysis (lazy sentence split, the chunk-word memo, the meta phrase
// read from the word memo, KeyTable's hash) against the plain computations they replace.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker/term_statistics.hpp"
#include "checker/word_relations.hpp"
#include "claims/answer_coverage.hpp"
#include "claims/chunk_words.hpp"
#include "claims/claim_analysis.hpp"
#include "claims/claim_config.hpp"
#include "claims/claim_tokens.hpp"
#include "claims/key_ids.hpp"
#include "claims/key_table.hpp"
#include "claims/phrases.hpp"
#include "text/sentences.hpp"
#include "text/tokenizer.hpp"

namespace {

using sc::claims::ChunkWord;
using sc::claims::ChunkWords;
using sc::claims::KeyIds;
using sc::claims::KeyTable;

// Texts for every shortcut: sentence ends of each kind, abbreviations, numbers, citations, line
// breaks, Unicode terminals and spaces, invalid UTF-8, long tokens.
const std::vector<std::string> kTexts = {
    "",
    " ",
    "one",
    "No terminal punctuation at all",
    "One sentence only.",
    "One sentence only. ",
    "Two sentences here. And the second one!",
    "Is it? Yes. Really... Sure!?",
    "The value is 10.5 and 3.14 here",
    "Dr. Smith met Mr. Jones in the U.S. The law was new.",
    "Whoever cheats [S1]. Shall be punished [S2] [S3].",
    "A marker after the end. [S1] Next sentence.",
    "Line one\nline two continues\n\nA new paragraph",
    "Ends with a line break.\nNext line.",
    "Windows\r\nline breaks.\r\nHere",
    "Caf\xc3\xa9 au lait costs \xe2\x82\xac"
    "5. The end",
    "CJK\xe3\x80\x82"
    "Next\xef\xbc\x81"
    "More",
    "Ellipsis\xe2\x80\xa6 Then more",
    "Devanagari \xe0\xa5\xa4 danda",
    "Line\xe2\x80\xa8separator and\xc2\x85"
    "NEL",
    "Invalid \xff\xfe bytes. Then \xc3 more.",
    "Woo-jin.Yeon is glued.Here too",
    "- item one\n- item two\n1. numbered",
    "# Heading\nBody text here.",
    "Supercalifragilisticexpialidocious-antidisestablishmentarianism words are long.",
    "Seven years; 1,000 people; the 1840s and 19th century; I think my claim isn't wrong.",
    "ALL CAPS NAMES LIKE NASA AND THE U.N. MEET.",
    "tab\tseparated\x0bvertical\x0c"
    "form feed. x",
};

std::size_t plain_first_break(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x80 || b == '.' || b == '!' || b == '?' || b == '\n' || b == '\r') return i;
  }
  return text.size();
}

TEST(ClaimChunkWords, FirstPossibleBreakAtEveryOffset) {
  for (const std::string& text : kTexts) {
    EXPECT_EQ(sc::claims::first_possible_break(text), plain_first_break(text)) << text;
  }
  // Each break byte at each offset of texts longer than one 8-byte word.
  for (const char mark : std::string(".!?\n\r\x80\xff")) {
    for (std::size_t size = 1; size <= 40; ++size) {
      for (std::size_t at = 0; at < size; ++at) {
        std::string text(size, 'a');
        text[at] = mark;
        ASSERT_EQ(sc::claims::first_possible_break(text), at) << size << " " << at;
      }
      EXPECT_EQ(sc::claims::first_possible_break(std::string(size, 'a')), size);
    }
  }
  // Bytes next to the marks ('-' = '.' - 1, '/' = '.' + 1...) are no marks.
  EXPECT_EQ(sc::claims::first_possible_break("-/ \" >@\x0b\x0c\x0e\x7f-/ \" >@\x0b\x0c\x0e\x7f"),
            std::size_t{22});
}

// for_each_unit_token as it was: the sentence split up front.
std::vector<std::pair<std::string, std::uint32_t>> eager_units(std::string_view text) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  const std::vector<sc::text::Span> runs = sc::claims::citation_runs_of(text);
  const std::vector<sc::text::Span> spans = sc::text::split_sentences(text);
  std::size_t span = 0;
  std::size_t prev_span = 0;
  std::uint32_t unit = 0;
  bool first = true;
  sc::text::Token prev{};
  std::size_t run = 0;
  sc::text::for_each_token(text, [&](const sc::text::Token& token) {
    while (run < runs.size() && runs[run].end <= token.offset) ++run;
    if (run < runs.size() && runs[run].begin <= token.offset) return;
    while (span + 1 < spans.size() && token.offset >= spans[span].end) ++span;
    if (!first && (span != prev_span || sc::claims::glued_sentence_end(text, prev, token))) ++unit;
    out.emplace_back(std::string(token.text), unit);
    first = false;
    prev = token;
    prev_span = span;
  });
  return out;
}

TEST(ClaimChunkWords, GluedAfterMatchesGluedSentenceEnd) {
  // Random words and gaps (spaces, marks, tabs, commas, quotes, non-ASCII): the inline pre-test
  // never changes the verdict.
  const std::vector<std::string> parts = {"Ab", "cd", "E",  "Woo", "jin", "X1", " ", ".",       "!",
                                          "?",  ",",  "\t", "\n",  "-",   "\"", ")", "\xc2\xa0"};
  std::mt19937 random(7);
  std::size_t glued = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const std::size_t n = 2 + random() % 12;
    for (std::size_t i = 0; i < n; ++i) text += parts[random() % parts.size()];
    bool first = true;
    sc::text::Token prev{};
    sc::text::for_each_token(text, [&](const sc::text::Token& token) {
      if (!first) {
        const bool expected = sc::claims::glued_sentence_end(text, prev, token);
        ASSERT_EQ(sc::claims::glued_after(text, prev, token), expected) << text;
        glued += expected ? 1 : 0;
      }
      first = false;
      prev = token;
    });
  }
  EXPECT_GT(glued, 0u);
}

TEST(ClaimChunkWords, LazySplitGivesTheSameUnits) {
  for (const std::string& text : kTexts) {
    std::vector<std::pair<std::string, std::uint32_t>> lazy;
    const std::uint32_t count =
        sc::claims::for_each_unit_token(text, sc::claims::citation_runs_of(text),
                                        [&](const sc::text::Token& t, std::uint32_t unit) {
                                          lazy.emplace_back(std::string(t.text), unit);
                                        });
    const auto eager = eager_units(text);
    EXPECT_EQ(lazy, eager) << text;
    EXPECT_EQ(count, eager.empty() ? 0u : eager.back().second + 1) << text;
  }
}

void expect_same(const ChunkWord& a, const ChunkWord& b, std::string_view token) {
  EXPECT_EQ(a.key, b.key) << token;  // stable ids of one KeyIds
  EXPECT_EQ(a.base_code, b.base_code) << token;
  EXPECT_EQ(a.always_matches, b.always_matches) << token;
  EXPECT_EQ(a.number, b.number) << token;
  EXPECT_EQ(a.number_word, b.number_word) << token;
  EXPECT_EQ(a.speaker, b.speaker) << token;
  EXPECT_EQ(a.negation, b.negation) << token;
}

TEST(ClaimChunkWords, MemoMatchesTheDirectComputation) {
  ChunkWords memo;
  KeyIds keys;
  std::string folded;
  std::string key;
  for (int pass = 0; pass < 2; ++pass) {  // first sight, then from the memo
    memo.start();
    for (const std::string& text : kTexts) {
      sc::text::for_each_token(text, [&](const sc::text::Token& token) {
        const ChunkWord direct = sc::claims::make_chunk_word(token, keys, folded, key);
        expect_same(memo.get(token, keys), direct, token.text);
      });
    }
  }
  // Spot checks of the parts.
  const auto word = [&](std::string_view text) {
    std::vector<sc::text::Token> tokens = sc::text::tokenize(text);
    EXPECT_EQ(tokens.size(), 1u) << text;
    return memo.get(tokens[0], keys);
  };
  EXPECT_EQ(keys.term(word("Punished").key), "punish");
  EXPECT_EQ(keys.term(word("10,000").key), "10000");
  EXPECT_TRUE(word("10,000").number);
  EXPECT_EQ(keys.term(word("Seven").key), "7");
  EXPECT_TRUE(word("Seven").number_word);
  EXPECT_TRUE(word("My").speaker);
  EXPECT_TRUE(word("isn't").negation);
  EXPECT_TRUE(word("dying").always_matches);
  const std::string long_word(ChunkWords::kInline + 5, 'z');  // computed, not kept
  EXPECT_EQ(keys.term(word(long_word).key), long_word);
  EXPECT_EQ(keys.term(word(long_word).key), long_word);
}

TEST(ClaimChunkWords, MemoStartsOverWhenFull) {
  ChunkWords memo;
  KeyIds keys;
  std::string folded;
  std::string key;
  const auto check = [&](std::size_t i) {
    const std::string text = "w" + std::to_string(i) + "ing";
    const sc::text::Token token{text, 0, sc::text::TokenKind::Identifier};
    const ChunkWord direct = sc::claims::make_chunk_word(token, keys, folded, key);
    expect_same(memo.get(token, keys), direct, text);
  };
  memo.start();
  const std::size_t total = ChunkWords::kMaxWords + 100;
  for (std::size_t i = 0; i < total; ++i) check(i);  // the last 100: computed, not kept
  EXPECT_EQ(memo.size(), ChunkWords::kMaxWords);
  memo.start();
  EXPECT_EQ(memo.size(), 0u);
  for (std::size_t i = 0; i < 1000; ++i) check(i);
  EXPECT_EQ(memo.size(), 1000u);
  // A text with two kinds is two words.
  const sc::text::Token as_word{"abc", 0, sc::text::TokenKind::Word};
  const sc::text::Token as_id{"abc", 0, sc::text::TokenKind::Identifier};
  memo.get(as_word, keys);
  memo.get(as_id, keys);
  EXPECT_EQ(memo.size(), 1002u);
}

TEST(ClaimChunkWords, KeyTableHashReadsEveryByte) {
  for (std::size_t size = 1; size <= 24; ++size) {
    const std::string base(size, 'k');
    const std::uint32_t h = KeyTable::hash(base);
    EXPECT_EQ(h, KeyTable::hash(std::string(size, 'k')));
    for (std::size_t at = 0; at < size; ++at) {
      std::string other = base;
      other[at] = 'q';
      EXPECT_NE(KeyTable::hash(other), h) << size << " " << at;
    }
  }
  EXPECT_NE(KeyTable::hash(""), KeyTable::hash(std::string(1, '\0')));
  KeyTable table;
  const std::uint32_t id = table.intern("stem");
  ASSERT_TRUE(table.find("stem", KeyTable::hash("stem")).has_value());
  EXPECT_EQ(*table.find("stem", KeyTable::hash("stem")), id);
  EXPECT_FALSE(table.find("stems", KeyTable::hash("stems")).has_value());
}

// The meta phrase a claim opens with, read from the word memo, is phrase_ids' longest match.
TEST(ClaimChunkWords, MetaPhraseFromTheMemoMatchesPhraseIds) {
  const sc::claims::ClaimConfig config;
  sc::claims::ClaimAnalyzer analyzer(config);
  const std::vector<std::string> claims = {
      "In summary, the law punishes cheating.",
      "Based on the evidence, it rains.",
      "Based on the evidence provided, seven people came.",
      "I hope this helps.",
      "Seven years in summary.",
      "The answer is here.",
      "According to the documents, Paris is mild.",
      "Here is the answer: cheating is punished.",
      "In conclusion [S1], the \xe2\x80\x9cquoted\xe2\x80\x9d result holds.",
      "Overall, caf\xc3\xa9 prices rose \xff.",
      "",
      "...",
  };
  std::size_t with_phrase = 0;
  for (int pass = 0; pass < 2; ++pass) {  // a cold memo, then a warm one
    for (const std::string& claim : claims) {
      analyzer.reset(config);
      const auto runs = sc::claims::citation_runs_of(claim);
      const sc::claims::ClaimProfile profile = analyzer.claim(claim, runs);
      const std::vector<std::int32_t> ids = sc::claims::phrase_ids(
          config.meta(), config.meta_filter(), claim, config.meta().max_span());
      const std::size_t phrase = config.meta().longest_match_at(ids, 0);
      std::size_t tokens = 0;
      sc::claims::for_each_claim_token(claim, runs,
                                       [&](const sc::claims::ClaimToken&) { ++tokens; });
      EXPECT_EQ(profile.token_count, tokens - phrase) << claim;
      with_phrase += phrase > 0 ? 1 : 0;
    }
  }
  EXPECT_GE(with_phrase, 8u);  // the test exercises the phrase
}

// Random texts over the characters the splitter and tokenizer treat specially.
std::vector<std::string> random_texts(std::size_t count, unsigned seed) {
  static const std::vector<std::string> kPieces = {
      "a",
      "Word",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      ".",
      "!",
      "?",
      ")",
      "]",
      "}",
      "\"",
      "'",
      "[S1]",
      "[",
      "1",
      "10.5",
      "Dr",
      "U.S",
      "e.g",
      ",",
      "\x0b",
      "\x1c",
      "\xc3\xa9",
      "\xe2\x80\x9d",
      "\xe3\x80\x82",
      "\xe2\x80\xa6",
      "\xff",
      "The",
      "i",
      "-",
      "(",
  };
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (std::size_t n = 0; n < count; ++n) {
    std::string text;
    const std::size_t parts = rng() % 12;
    for (std::size_t p = 0; p < parts; ++p) text += kPieces[rng() % kPieces.size()];
    out.push_back(std::move(text));
  }
  return out;
}

TEST(ClaimChunkWords, SentenceSpansMatchTheSplitter) {
  std::vector<std::string> texts = kTexts;
  for (const std::string extra :
       {"An answer [S1].", "An answer [S1]. ", "An answer.\" ", "Answer!?)\t", "Dr.", " x ",
        "\x0b"
        "a\x1c",
        "Mr. Smith.", "Yes. (S1)", "Yes. \"Quoted\"", "Yes.[S1]", "A. B"}) {
    texts.push_back(extra);
  }
  for (const std::string& t : random_texts(200000, 7)) texts.push_back(t);
  std::size_t fast = 0;
  for (const std::string& text : texts) {
    ASSERT_EQ(sc::claims::sentence_spans(text), sc::text::split_sentences(text)) << text;
    fast += sc::claims::first_possible_break(text) == text.size() ? 1 : 0;
  }
  EXPECT_GT(fast, 1000u);
}

TEST(ClaimChunkWords, LazySplitGivesTheSameUnitsOnRandomTexts) {
  for (const std::string& text : random_texts(100000, 11)) {
    std::vector<std::pair<std::string, std::uint32_t>> lazy;
    sc::claims::for_each_unit_token(text, sc::claims::citation_runs_of(text),
                                    [&](const sc::text::Token& t, std::uint32_t unit) {
                                      lazy.emplace_back(std::string(t.text), unit);
                                    });
    ASSERT_EQ(lazy, eager_units(text)) << text;
  }
}

// A thread keeps its workspace only under 8 MiB (answer_coverage.cpp's kKeepBytes): its memos
// must stay well below that however many distinct words go by in checks of ordinary size.
TEST(ClaimChunkWords, MemosStayBoundedOnHugeVocabularies) {
  const sc::claims::ClaimConfig config;
  sc::claims::ClaimAnalyzer analyzer(config);
  std::size_t most = 0;
  for (int round = 0; round < 80; ++round) {
    std::string claim;
    std::string chunk;
    for (int i = 0; i < 1050; ++i) {
      const std::string word = "w" + std::to_string(round * 10000 + i) + "x ";
      (i < 50 ? claim : chunk) += word;
    }
    analyzer.reset(config);
    const sc::claims::ClaimProfile profile = analyzer.claim(claim, {});
    const sc::claims::ChunkProfile analyzed = analyzer.chunk(chunk);
    EXPECT_EQ(profile.items.size(), 50u);
    EXPECT_EQ(analyzed.token_count, 1000u);
    most = std::max(most, analyzer.memory_bytes());
  }
  EXPECT_LT(most, std::size_t{5} << 20);
}

// The numbers a reason cites as what the chunk says instead (keys computed only for numbers and
// their neighbours): expected strings from the implementation that keyed every token.
TEST(ClaimChunkWords, ReasonsNameTheChunksOtherNumbers) {
  const sc::claims::ClaimConfig config({}, sc::checker::TermStatistics::english(),
                                       sc::checker::WordRelations::english());
  const std::vector<sc::claims::ChunkInput> chunks = {
      {"S1",
       "Section 420 of the code: whoever cheats gets seven years and a fine of 1,000 rupees in "
       "the 1840s."}};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Cheats get ten years [S1].",
       "not covered: best support 0.06 (S1) < 0.30; 'ten' not in S1, which says 'seven'"},
      {"Cheats pay 500 rupees [S1].",
       "not covered: best support 0.04 (S1) < 0.30; '500' not in S1, which says 'seven', "
       "'1,000', '1840'; missing from S1: 'pay'"},
      {"It happened in the 1850s [S1].",
       "not covered: best support 0.01 (S1) < 0.30; '1850' not in S1, which says '420', 'seven', "
       "'1,000', ...; missing from S1: 'happened'"},
      {"Twelve cats sleep [S1].",
       "not covered: best support 0.00 (S1) < 0.30; 'Twelve' not in S1, which says '420', "
       "'seven', '1,000', ...; missing from S1: 'cats', 'sleep'"},
      {"The 2nd code has 421 sections [S1].",
       "not covered: best support 0.01 (S1) < 0.30; '2', '421' not in S1, which says '420'"},
  };
  for (const auto& [answer, reason] : cases) {
    const sc::claims::AnswerResult result = sc::claims::check_answer(config, answer, chunks);
    ASSERT_EQ(result.claims.size(), 1u) << answer;
    EXPECT_EQ(sc::claims::reason_text(result.claims[0], chunks), reason) << answer;
  }
}

}  // namespace

namespace {

// Words for the plain-skip test: every a-z and apostrophe word up to 3 bytes, mixed case, the
// special words, the Porter2 prefix changers, and random ASCII, Unicode and invalid UTF-8 texts.
std::vector<std::string> plain_skip_texts() {
  std::vector<std::string> texts(kTexts.begin(), kTexts.end());
  texts.emplace_back(
      "not No NEVER nor neither none nobody nothing nowhere cannot without isn't WASN'T can't "
      "two Seven TWENTY ninety eleven I me My mine myself i'm I've i'd i'll aed oing dying Dies "
      "students' arthur's a's's 's '' x' ab'S boiling BOILS ingly edly ying "
      "Ünïcödé straße İstanbul ΣΊΣΥΦΟΣ i’m isn’t ab\u0301c a\u0301bc abc\u0301 ab\u0307 "
      "\u212Aelvin ab\u017F xy\u017F \uFB01nal x\uFB01 ｆｕｌｌ ab\u2019s ab\u2019 isn\u2019t "
      "arthur\u2019s Ab\u0301");
  std::string letters = "abcdefghijklmnopqrstuvwxyz'";
  std::string all;
  for (const char a : letters) {
    all += std::string(1, a) + " ";
    for (const char b : letters) {
      all += std::string{a, b} + " ";
      for (const char c : {'a', 'e', 'g', 's', 'y', '\''}) all += std::string{a, b, c} + " ";
    }
  }
  texts.push_back(all);
  // The always_matches shapes (one letter, then ed/edly/ing/ingly/ying, an optional s, "'s" or
  // "'"), in lower and capitalised forms, beside the same with another second letter.
  std::string shapes;
  for (const char a : std::string("abdkrwyBDKRWY")) {
    for (const std::string middle : {"ed", "edly", "ing", "ingly", "ying", "ad", "ong", "ly"}) {
      for (const std::string s : {"", "s"}) {
        for (const std::string tail : {"", "'s", "'"}) shapes += a + middle + s + tail + " ";
      }
    }
  }
  texts.push_back(shapes);
  std::mt19937 rng(1234);
  const std::string pool = "abcdeginostyABDEGINSTY'''-_0123";
  for (int t = 0; t < 200; ++t) {
    std::string text;
    for (int w = 0; w < 50; ++w) {
      const std::size_t length = 1 + rng() % 40;
      for (std::size_t i = 0; i < length; ++i) text += pool[rng() % pool.size()];
      if (rng() % 10 == 0) text += "\xc3\xa9";
      if (rng() % 10 == 0) text += "\xcc\x81";      // a combining acute accent
      if (rng() % 20 == 0) text += "\xc5\xbf";      // long s, folds to 's'
      if (rng() % 20 == 0) text += "\xe2\x80\x99";  // the typographic apostrophe
      if (rng() % 25 == 0) text += "\xff";
      text += rng() % 7 == 0 ? "ing " : " ";
    }
    texts.push_back(text);
  }
  return texts;
}

}  // namespace

// The chunk pass's decision without the memo is the memo's, for every need and many filters (ones
// that hold some of the tokens' own base codes, and ones that hold none).
TEST(ClaimChunkWords, PlainSkipMatchesTheMemo) {
  KeyIds keys;
  std::string folded;
  std::string key;
  std::vector<sc::text::Token> tokens;
  std::vector<std::string> texts = plain_skip_texts();
  for (const std::string& text : texts) {
    for (const sc::text::Token& t : sc::text::tokenize(text)) tokens.push_back(t);
  }
  std::mt19937 rng(99);
  std::size_t plain = 0;
  std::size_t skipped = 0;
  for (int round = 0; round < 12; ++round) {
    sc::claims::KeyFilter filter;
    for (const sc::text::Token& t : tokens) {
      if (rng() % 4 < static_cast<unsigned>(round % 4)) {
        filter.add(sc::claims::word_base(t.text));  // some tokens' (unfolded) bases
      }
    }
    for (int needs_bits = 0; needs_bits < 8; ++needs_bits) {
      const sc::claims::ChunkNeeds needs{(needs_bits & 1) != 0, (needs_bits & 2) != 0,
                                         (needs_bits & 4) != 0};
      for (const sc::text::Token& t : tokens) {
        const ChunkWord word = sc::claims::make_chunk_word(t, keys, folded, key);
        const bool memo_skips = !(needs.negation && word.negation) &&
                                sc::claims::chunk_word_skipped(word, filter, needs);
        const bool fast = sc::claims::plainly_skipped(t, filter, needs);
        // Never a token the memo keeps; and it decides most it leaves out.
        EXPECT_TRUE(!fast || memo_skips) << t.text << " " << needs_bits;
        skipped += memo_skips ? 1 : 0;
        plain += fast ? 1 : 0;
      }
    }
  }
  EXPECT_GT(plain, skipped / 10);  // random words end in "s", "d", "g" or "y" often
}

// plainly_skipped's byte tables decide as the letter tests they replaced (written out here) for
// every first and second byte, with last and third bytes of each kind, every need and filters
// holding some of the codes.
TEST(ClaimChunkWords, PlainSkipTablesMatchTheLetterTests) {
  const auto lower = [](unsigned b) { return b + (b - 'A' < 26u ? 'a' - 'A' : 0u); };
  const auto in = [](unsigned c, std::uint32_t set) {
    return (c - 'a' < 26u) && (((set >> ((c - 'a') & 31u)) & 1u) != 0);
  };
  const auto reference = [&](std::string_view text, const sc::claims::KeyFilter& filter,
                             sc::claims::ChunkNeeds needs) {
    const std::size_t n = text.size();
    const auto at = [&](std::size_t i) { return lower(static_cast<unsigned char>(text[i])); };
    const unsigned first = at(0);
    const unsigned second = n > 1 ? at(1) : 0u;
    const unsigned third = n > 2 ? at(2) : 0u;
    const unsigned last = at(n - 1);
    const bool unsure = ((first | second | third | last) & 0x80u) != 0 || first == '\'' ||
                        second == '\'' ||
                        filter.has(static_cast<std::uint16_t>(first | (second << 8)));
    const bool may_always = (in(last, sc::claims::kAlwaysLast) || last == '\'') &&
                            in(second, sc::claims::kAlwaysSecond);
    const bool negation = needs.negation && (in(first, sc::claims::kNegationFirst) || last == 't');
    const bool number = needs.number && in(first, sc::claims::kNumberFirst);
    const bool speaker = needs.speaker && in(first, sc::claims::kSpeakerFirst);
    return !(unsure || may_always || negation || number || speaker);
  };
  std::mt19937 rng(7);
  sc::claims::KeyFilter filter;
  for (int i = 0; i < 20000; ++i) filter.add_code(static_cast<std::uint16_t>(rng()));
  filter.add_code('a' | ('b' << 8));
  const std::string lasts = std::string("adgsty'TDYZ09\x80\xff") + '\0';
  std::size_t checked = 0;
  for (unsigned b0 = 0; b0 < 256; ++b0) {
    for (unsigned b1 = 0; b1 < 256; ++b1) {
      for (const char l : lasts) {
        for (const std::size_t n :
             {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}}) {
          std::string text(n, 'x');
          text[0] = static_cast<char>(b0);
          if (n > 1) text[1] = static_cast<char>(b1);
          if (n > 2) text[2] = (b0 + b1) % 3 == 0 ? '\xc3' : 'q';
          if (n > 1) text[n - 1] = l;
          const sc::text::Token token{text, 0, sc::text::TokenKind::Word};
          for (int bits = 0; bits < 8; ++bits) {
            const sc::claims::ChunkNeeds needs{(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
            ASSERT_EQ(sc::claims::plainly_skipped(token, filter, needs),
                      reference(text, filter, needs))
                << b0 << " " << b1 << " " << static_cast<int>(l) << " " << n << " " << bits;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 30'000'000u);
}

// What may_reach() reads of a chunk is the same whether the chunk is analyzed in full or for
// presence only (uncited chunks get the latter first), in both modes, whatever the claims need.
TEST(ClaimChunkWords, PresenceProfileEqualsTheFullOne) {
  const std::vector<std::string> claims = {
      "Whoever cheats shall be punished with seven years.",
      "I think the law was not new in the U.S. in the 1840s.",
      "The quick brown fox jumps over the lazy dog.",
      "Smith met Jones; the value is 10.5 and 3.14.",
      "Caf\xc3\xa9 prices rose, the students' union said: no one agreed.",
  };
  std::vector<std::string> chunks(kTexts.begin(), kTexts.end());
  for (const std::string& text : plain_skip_texts()) chunks.push_back(text);
  chunks.emplace_back("A fast brown fox leaps over an idle hound; the crook was penalized.");
  for (const std::string mode : {"default", "reference"}) {
    sc::claims::ClaimOptions options;
    options.mode = sc::claims::parse_mode(mode);
    const sc::claims::ClaimConfig config(options, sc::checker::TermStatistics::english(),
                                         sc::checker::WordRelations::english());
    sc::claims::ClaimAnalyzer analyzer(config);
    std::size_t found = 0;
    std::size_t related = 0;
    for (const std::string& claim : claims) {
      analyzer.reset(config);
      (void)analyzer.claim(claim, {});
      for (const std::string& text : chunks) {
        sc::claims::ChunkProfile presence;
        analyzer.chunk_presence(text, presence);
        const sc::claims::ChunkProfile full = analyzer.chunk(text);
        EXPECT_EQ(presence.present, full.present) << mode << " | " << claim << " | " << text;
        EXPECT_EQ(presence.relation_keys, full.relation_keys) << mode << " | " << text;
        EXPECT_EQ(presence.relation_filter, full.relation_filter) << mode << " | " << text;
        for (const std::uint64_t bits : full.present) found += bits != 0 ? 1 : 0;
        related += full.relation_keys.size();
      }
    }
    EXPECT_GT(found, 0u) << mode;  // the claims' words do occur in the texts
    if (mode == "default") {
      EXPECT_GT(related, 0u);  // and related words of theirs
    }
  }
}
