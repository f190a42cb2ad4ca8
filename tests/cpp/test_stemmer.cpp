// Tests for the Porter2 stemmer: a table of stems computed with the Snowball reference
// (snowballstemmer 3.1.1, "english"), then the input edge cases.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/stemmer.hpp"

namespace {

using sc::text::stem;
using sc::text::stem_into;
using sc::text::stem_view;
using sc::text::StemBuffer;

// word -> stem, as snowballstemmer.stemmer("english").stemWord(word) gives it.
// clang-format off
const std::vector<std::pair<std::string_view, std::string_view>> kSnowballStems = {
    // exceptional forms
    {"skis", "ski"}, {"skies", "sky"}, {"dying", "die"}, {"lying", "lie"}, {"tying", "tie"},
    {"idly", "idl"}, {"gently", "gentl"}, {"ugly", "ugli"}, {"early", "earli"}, {"only", "onli"},
    {"singly", "singl"}, {"sky", "sky"}, {"news", "news"}, {"howe", "howe"}, {"atlas", "atlas"},
    {"cosmos", "cosmos"}, {"bias", "bias"}, {"andes", "andes"},
    // invariant -ing and -eed words
    {"inning", "inning"}, {"innings", "inning"}, {"outing", "outing"}, {"outings", "outing"},
    {"canning", "canning"}, {"cannings", "canning"}, {"herring", "herring"},
    {"herrings", "herring"}, {"earring", "earring"}, {"earrings", "earring"},
    {"evening", "evening"}, {"evenings", "evening"}, {"proceed", "proceed"},
    {"proceeds", "proceed"}, {"exceed", "exceed"}, {"exceeds", "exceed"}, {"succeed", "succeed"},
    {"succeeds", "succeed"}, {"exceedly", "exceed"},
    // R1 prefixes
    {"generate", "generat"}, {"generates", "generat"}, {"generated", "generat"},
    {"generating", "generat"}, {"general", "general"}, {"generally", "general"},
    {"generic", "generic"}, {"generically", "generic"}, {"generous", "generous"},
    {"generously", "generous"}, {"communication", "communic"}, {"communications", "communic"},
    {"community", "communiti"}, {"communism", "communism"}, {"commune", "commune"},
    {"arsenic", "arsenic"}, {"arsenal", "arsenal"}, {"past", "past"}, {"pasted", "paste"},
    {"pasting", "paste"}, {"universe", "univers"}, {"universal", "universal"},
    {"university", "universiti"}, {"lateral", "lateral"}, {"laterally", "lateral"},
    {"emergence", "emergenc"}, {"emergency", "emergenc"}, {"interval", "interval"},
    {"international", "internat"}, {"organic", "organic"}, {"organization", "organiz"},
    {"organism", "organism"},
    // y handling
    {"yes", "yes"}, {"yelling", "yell"}, {"youth", "youth"}, {"enjoy", "enjoy"},
    {"enjoying", "enjoy"}, {"toys", "toy"}, {"boys", "boy"}, {"cry", "cri"}, {"crying", "cri"},
    {"happy", "happi"}, {"happily", "happili"}, {"happiness", "happi"}, {"played", "play"},
    {"playing", "play"}, {"annoyance", "annoy"}, {"yyyy", "yyyi"}, {"vying", "vie"},
    // apostrophes
    {"dog's", "dog"}, {"dogs'", "dog"}, {"children's", "children"}, {"'tis", "tis"},
    {"o'clock", "o'clock"}, {"james'", "jame"}, {"'yes", "yes"}, {"''s", ""},
    // step 1a
    {"caresses", "caress"}, {"ponies", "poni"}, {"ties", "tie"}, {"tied", "tie"}, {"cries", "cri"},
    {"gas", "gas"}, {"gaps", "gap"}, {"kiwis", "kiwi"}, {"this", "this"}, {"bus", "bus"},
    {"class", "class"}, {"dresses", "dress"}, {"abyss", "abyss"},
    // step 1b
    {"feed", "feed"}, {"agreed", "agre"}, {"bleed", "bleed"}, {"consign", "consign"},
    {"consigned", "consign"}, {"consigning", "consign"}, {"hopping", "hop"}, {"hoped", "hope"},
    {"hoping", "hope"}, {"luxuriating", "luxuri"}, {"conflated", "conflat"},
    {"troubled", "troubl"}, {"sized", "size"}, {"falling", "fall"}, {"filing", "file"},
    {"hissing", "hiss"}, {"added", "add"}, {"egged", "egg"}, {"offing", "off"},
    {"failing", "fail"}, {"tanned", "tan"}, {"seeing", "see"}, {"fling", "fling"},
    {"exceedingly", "exceed"},
    // step 1c
    {"by", "by"}, {"say", "say"},
    // step 2
    {"relational", "relat"}, {"conditional", "condit"}, {"rational", "ration"},
    {"valency", "valenc"}, {"hesitancy", "hesit"}, {"digitizer", "digit"}, {"operator", "oper"},
    {"radically", "radic"}, {"differently", "differ"}, {"analogously", "analog"},
    {"decisiveness", "decis"}, {"hopefulness", "hope"}, {"callousness", "callous"},
    {"formality", "formal"}, {"sensitivity", "sensit"}, {"sensibility", "sensibl"},
    {"geologist", "geolog"}, {"geology", "geolog"}, {"biology", "biolog"}, {"fruitfully", "fruit"},
    {"heartlessly", "heartless"}, {"nationalism", "nation"}, {"normalization", "normal"},
    {"creation", "creation"}, {"lovely", "love"}, {"quickly", "quick"}, {"briefly", "briefli"},
    {"abundantly", "abund"},
    // step 3
    {"triplicate", "triplic"}, {"formative", "format"}, {"formalize", "formal"},
    {"electricity", "electr"}, {"electrical", "electr"}, {"hopeful", "hope"}, {"goodness", "good"},
    {"sensational", "sensat"},
    // step 4
    {"revival", "reviv"}, {"allowance", "allow"}, {"inference", "infer"}, {"airliner", "airlin"},
    {"gyroscopic", "gyroscop"}, {"adjustable", "adjust"}, {"defensible", "defens"},
    {"irritant", "irrit"}, {"replacement", "replac"}, {"adjustment", "adjust"},
    {"dependent", "depend"}, {"adoption", "adopt"}, {"communion", "communion"},
    {"activate", "activ"}, {"angularity", "angular"}, {"homologous", "homolog"},
    {"effective", "effect"}, {"bowdlerize", "bowdler"}, {"national", "nation"},
    {"punishment", "punish"}, {"punished", "punish"}, {"running", "run"},
    // step 5
    {"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"}, {"controll", "control"},
    {"roll", "roll"}, {"fulfill", "fulfil"}
};
// clang-format on

TEST(StemmerTable, MatchesSnowballReference) {
  for (const auto& [word, expected] : kSnowballStems) {
    EXPECT_EQ(stem(word), expected) << "word: " << word;
  }
}

TEST(StemmerTable, StemIntoMatchesStem) {
  std::string out = "stale content";
  for (const auto& [word, expected] : kSnowballStems) {
    stem_into(word, out);
    EXPECT_EQ(out, expected) << "word: " << word;
  }
}

TEST(StemmerTable, StemViewMatchesStem) {
  StemBuffer buffer;
  for (const auto& [word, expected] : kSnowballStems) {
    EXPECT_EQ(stem_view(word, buffer), expected) << "word: " << word;
  }
}

// Random words over letters, apostrophes and a few other bytes, of every length around the
// buffer's inline size: stem_view() gives stem()'s result, with one buffer reused throughout.
TEST(StemmerProperty, StemViewMatchesStemOnRandomWords) {
  const std::string_view alphabet = "abcdefghijklmnopqrstuvwxyz'yyeeiissA1_\xc3";
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<std::size_t> length(0, StemBuffer::kInline + 12);
  StemBuffer buffer;
  for (int i = 0; i < 200000; ++i) {
    std::string word;
    for (std::size_t n = length(rng); n > 0; --n) word.push_back(alphabet[pick(rng)]);
    ASSERT_EQ(stem_view(word, buffer), stem(word)) << word;
  }
}

std::string stem_exact_buffer(std::string_view word);

// Around the 16-byte scan blocks and the 64-byte inline room: every length 1-80 of one word,
// with the suffixes the steps test, gives stem()'s result from a reused buffer and from one
// sized to the word (no read past it), and a y or apostrophe at a block edge is handled.
TEST(StemmerEdge, BlockEdges) {
  StemBuffer buffer;
  const std::string_view tails[] = {"ational", "ing", "ies", "ness", "'s", "y", "ment"};
  for (std::size_t length = 1; length <= 80; ++length) {
    for (const std::string_view tail : tails) {
      std::string word;
      for (std::size_t i = 0; i < length; ++i) word.push_back("bay"[i % 3]);
      word += tail;
      EXPECT_EQ(stem_view(word, buffer), stem_exact_buffer(word)) << word;
    }
  }
  EXPECT_EQ(stem(std::string(15, 'b') + "y"), std::string(15, 'b') + "i");
  EXPECT_EQ(stem(std::string(16, 'a') + "ying"), std::string(16, 'a') + "y");
  // No vowel before the s: kept (the leading apostrophe goes).
  EXPECT_EQ(stem("'" + std::string(63, 'b') + "s"), std::string(63, 'b') + "s");
  EXPECT_EQ(stem(std::string(64, 'b') + "s"), std::string(64, 'b') + "s");
  EXPECT_EQ(stem("'" + std::string(63, 'a') + "s"), std::string(63, 'a'));
}

TEST(StemmerEdge, StemViewViewsTheWordWhenUnchanged) {
  StemBuffer buffer;
  const std::string short_word = "an";
  EXPECT_EQ(stem_view(short_word, buffer).data(), short_word.data());
  const std::string other = "Walking";  // a capital: not stemmed
  EXPECT_EQ(stem_view(other, buffer).data(), other.data());
  const std::string exception = "skies";
  EXPECT_EQ(stem_view(exception, buffer), "sky");
  std::string long_word;
  for (int i = 0; i < 100; ++i) long_word += "ba";
  long_word += "tional";  // past the inline room: stemmed on the heap
  EXPECT_EQ(stem_view(long_word, buffer), stem(long_word));
  EXPECT_NE(stem(long_word), long_word);
  EXPECT_EQ(stem_view("'running", buffer), "run");
}

TEST(StemmerEdge, EmptyString) {
  EXPECT_EQ(stem(""), "");
  std::string out = "previous";
  stem_into(std::string_view{}, out);
  EXPECT_EQ(out, "");
}

TEST(StemmerEdge, OneAndTwoLetterWordsUnchanged) {
  for (const std::string_view word : {"a", "s", "y", "'", "is", "as", "us", "'s", "ys", "ed"}) {
    EXPECT_EQ(stem(word), word);
  }
}

TEST(StemmerEdge, ThreeLetterWordsAreStemmed) {
  EXPECT_EQ(stem("ies"), "ie");
  EXPECT_EQ(stem("its"), "it");
  EXPECT_EQ(stem("sss"), "sss");
  EXPECT_EQ(stem("ing"), "ing");
}

TEST(StemmerEdge, WordsWithOtherCharactersUnchanged) {
  const std::vector<std::string_view> words = {"running2",
                                               "1990s",
                                               "mp3s",
                                               "hop_ping",
                                               "running_",
                                               "Running",
                                               "HAPPILY",
                                               "cats-",
                                               "dogs ",
                                               "caf\xc3\xa9s",
                                               "na\xc3\xafvely",
                                               "\xd0\xbd\xd0\xb0\xd1\x83\xd0\xba\xd0\xb0\xd0\xbc",
                                               "\xe8\xb5\xb0\xe3\x82\x8b"};
  for (const std::string_view word : words) {
    EXPECT_EQ(stem(word), word) << "word: " << word;
  }
}

TEST(StemmerEdge, InvalidUtf8Unchanged) {
  const std::vector<std::string_view> words = {"runn\xff", "\xc3hopping", "caresses\xc3",
                                               "walk\xe2\x82", "\x80\x80\x80"};
  for (const std::string_view word : words) {
    EXPECT_EQ(stem(word), word);
  }
}

// The word ends exactly where its heap block ends (no terminator), so reading one byte past it
// is a heap overflow under the sanitizer build.
std::string stem_exact_buffer(std::string_view word) {
  const auto buffer = std::make_unique<char[]>(word.size());
  std::memcpy(buffer.get(), word.data(), word.size());
  return stem(std::string_view(buffer.get(), word.size()));
}

TEST(StemmerEdge, NeverReadsPastTheWord) {
  EXPECT_EQ(stem_exact_buffer("caresses"), "caress");
  EXPECT_EQ(stem_exact_buffer("walk\xe2\x82"), "walk\xe2\x82");
  EXPECT_EQ(stem_exact_buffer("'s"), "'s");
  // A view onto the start of a longer word stems only what it views: "gasses" would give "gass".
  const std::string text = "gasses";
  EXPECT_EQ(stem(std::string_view(text.data(), 3)), "gas");
}

TEST(StemmerEdge, VeryLongWords) {
  std::string abab;
  for (int i = 0; i < 5000; ++i) abab += "ab";
  EXPECT_EQ(stem(abab + "ness"), abab);  // step 3 removes -ness from a 10,004-letter word
  EXPECT_EQ(stem(std::string(9997, 'a') + "ing"), std::string(9997, 'a'));
  // Alternating consonant/vowel y all the way: the last y follows a consonant Y -> i.
  EXPECT_EQ(stem(std::string(10000, 'y')), std::string(9999, 'y') + "i");
}

TEST(StemmerEdge, StemIntoReusesItsBuffer) {
  std::string out;
  out.reserve(64);
  const char* const storage = out.data();
  const std::size_t capacity = out.capacity();
  stem_into("generously", out);
  EXPECT_EQ(out, "generous");
  stem_into("running", out);
  EXPECT_EQ(out, "run");
  stem_into("cafe\xcc\x81", out);
  EXPECT_EQ(out, "cafe\xcc\x81");
  stem_into("skies", out);
  EXPECT_EQ(out, "sky");
  EXPECT_EQ(out.data(), storage);
  EXPECT_EQ(out.capacity(), capacity);
}

TEST(StemmerEdge, StemsInPlace) {
  std::string word = "caresses";
  stem_into(word, word);
  EXPECT_EQ(word, "caress");
  word = "'tis";
  stem_into(word, word);
  EXPECT_EQ(word, "tis");
  word = "news";
  stem_into(word, word);
  EXPECT_EQ(word, "news");
}

// Every word of up to 5 letters over an alphabet rich in y, vowels and suffix letters: the stem is
// never longer than the word and never leaks the internal consonant-y marker 'Y'.
TEST(StemmerProperty, StemIsLowercaseAndNoLonger) {
  const std::string_view alphabet = "aeylsdi'";
  std::string word;
  std::string out;
  std::size_t checked = 0;
  const auto visit = [&](const auto& self, std::size_t length) -> void {
    if (length > 0) {
      stem_into(word, out);
      ++checked;
      ASSERT_LE(out.size(), word.size()) << word;
      ASSERT_EQ(out.find('Y'), std::string::npos) << word << " -> " << out;
    }
    if (length == 5) return;
    for (const char c : alphabet) {
      word.push_back(c);
      self(self, length + 1);
      word.pop_back();
    }
  };
  visit(visit, 0);
  EXPECT_EQ(checked, 8u + 64u + 512u + 4096u + 32768u);
}

}  // namespace
