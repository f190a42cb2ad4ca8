#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "text/citations.hpp"

namespace {

using sc::text::Citation;
using sc::text::Span;
using V = std::vector<std::string>;
// id, begin, end, group_begin, group_end
using C = std::tuple<std::string, std::size_t, std::size_t, std::size_t, std::size_t>;

std::vector<C> cites(std::string_view text) {
  std::vector<C> out;
  for (const Citation& c : sc::text::extract_citations(text)) {
    EXPECT_EQ(text.substr(c.begin, c.end - c.begin), c.id);
    EXPECT_LE(c.group_begin, c.begin);
    EXPECT_LE(c.end, c.group_end);
    EXPECT_EQ(text[c.group_begin], '[');
    EXPECT_EQ(text[c.group_end - 1], ']');
    out.emplace_back(std::string(c.id), c.begin, c.end, c.group_begin, c.group_end);
  }
  return out;
}

V ids(std::string_view text) {
  V out;
  for (const Citation& c : sc::text::extract_citations(text)) out.emplace_back(c.id);
  return out;
}

V unique(std::string_view text) {
  V out;
  for (const std::string_view id : sc::text::citation_ids(text)) out.emplace_back(id);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Extraction

TEST(CitationsExtract, EmptyAndNone) {
  EXPECT_TRUE(sc::text::extract_citations("").empty());
  EXPECT_TRUE(sc::text::extract_citations("no markers here").empty());
  EXPECT_TRUE(sc::text::citation_ids("").empty());
}

TEST(CitationsExtract, SingleMarkerExactSpans) {
  const std::string text = "seven years [IPC_420_0].";
  EXPECT_EQ(cites(text), (std::vector<C>{{"IPC_420_0", 13, 22, 12, 23}}));
}

TEST(CitationsExtract, AdjacentGroups) {
  EXPECT_EQ(cites("See also [S1][S3]."),
            (std::vector<C>{{"S1", 10, 12, 9, 13}, {"S3", 14, 16, 13, 17}}));
}

TEST(CitationsExtract, ListsWithCommaOrSemicolonShareTheGroup) {
  EXPECT_EQ(cites("x [S1, S3]"), (std::vector<C>{{"S1", 3, 5, 2, 10}, {"S3", 7, 9, 2, 10}}));
  EXPECT_EQ(ids("[A; B;C ,D]"), (V{"A", "B", "C", "D"}));
  EXPECT_EQ(ids("[ S1 ]\t[\tS2\t]"), (V{"S1", "S2"}));
}

TEST(CitationsExtract, IdAlphabet) {
  EXPECT_EQ(ids("[doc-3#p2] [Normans#p14] [a.b:c] [__x__] [1] [0042]"),
            (V{"doc-3#p2", "Normans#p14", "a.b:c", "__x__", "1", "0042"}));
}

TEST(CitationsExtract, CaseKeptAndDuplicatesKeptInOrder) {
  EXPECT_EQ(ids("[s1] [S1] [S1] [s1]"), (V{"s1", "S1", "S1", "s1"}));
  EXPECT_EQ(unique("[s1] [S1] [S1] [s1] [S2, S1]"), (V{"s1", "S1", "S2"}));
}

TEST(CitationsExtract, BracketsThatAreNotCitations) {
  EXPECT_TRUE(ids("[citation needed] [...] [] [ ] [-] [S1,] [,S1] [S1 S2] [a/b] [x=1]").empty());
  EXPECT_TRUE(ids("[S1\n]").empty());           // no newline inside a marker
  EXPECT_TRUE(ids("[\u00E9t\u00E9]").empty());  // non-ASCII letters are not id characters
  EXPECT_TRUE(ids("click [here](http://x.org) now").empty());  // Markdown link
  EXPECT_EQ(ids("[here] (not a link)"), V{"here"});
}

TEST(CitationsExtract, NestedAndUnclosed) {
  EXPECT_EQ(cites("[[S1]]"), (std::vector<C>{{"S1", 2, 4, 1, 5}}));
  EXPECT_EQ(ids("[S1 [S2] [S3"), V{"S2"});
  EXPECT_EQ(ids("[S1][S3"), V{"S1"});
  EXPECT_TRUE(ids("[").empty());
  EXPECT_TRUE(ids("[S1").empty());
  EXPECT_TRUE(ids("]S1[").empty());
}

TEST(CitationsExtract, UnicodeAroundMarkers) {
  const std::string text = "\u0427\u0435\u0441\u0442\u044C [S1]\u3002\U0001F600[S2]";
  // 5 Cyrillic letters (10 bytes) + space: "[S1]" at 11..15; "。" 3 bytes; emoji 4 bytes.
  EXPECT_EQ(cites(text), (std::vector<C>{{"S1", 12, 14, 11, 15}, {"S2", 23, 25, 22, 26}}));
}

TEST(CitationsExtract, InvalidUtf8) {
  const std::string text = "\xFF[S1]\xC3[\xE2\x82S2]\x80[S3]\xE2";
  const std::vector<char> heap(text.begin(), text.end());
  const std::string_view view(heap.data(), heap.size());
  EXPECT_EQ(ids(view), (V{"S1", "S3"}));
}

TEST(CitationsExtract, GroupAndRunEnds) {
  const std::string text = "[S1] , [S2]; [S3] - [S4]";
  EXPECT_EQ(sc::text::citation_group_end(text, 0), 4u);
  EXPECT_EQ(sc::text::citation_run_end(text, 0), 17u);
  EXPECT_EQ(sc::text::citation_group_end(text, 1), 0u);
  EXPECT_EQ(sc::text::citation_group_end(text, text.size()), 0u);
  EXPECT_EQ(sc::text::citation_runs(text), (std::vector<Span>{{0, 17}, {20, 24}}));
}

TEST(CitationsExtract, LargeInput) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "claim [S" + std::to_string(i % 7) + "]. ";
  EXPECT_EQ(sc::text::extract_citations(text).size(), 100000u);
  EXPECT_EQ(sc::text::citation_ids(text).size(), 7u);
  EXPECT_EQ(sc::text::citation_ids(text).front(), "S0");
}

// The distinct ids of extract_citations in first-seen order, the plain way.
V first_seen(std::string_view text) {
  V out;
  for (const std::string& id : ids(text)) {
    bool known = false;
    for (const std::string& o : out) known = known || o == id;
    if (!known) out.push_back(id);
  }
  return out;
}

TEST(CitationsExtract, DistinctIdsPastTheLinearScan) {
  // 1 to 60 distinct ids (the scan switches to a set past 16), repeats anywhere, groups of
  // several ids; the reused output vectors give the same as fresh ones.
  std::mt19937 rng(7);
  std::vector<std::string_view> reused = {"stale"};
  std::vector<Span> runs = {{1, 2}};
  for (int round = 0; round < 400; ++round) {
    const int distinct = 1 + static_cast<int>(rng() % 60);
    std::string text;
    const int groups = static_cast<int>(rng() % 80);
    for (int g = 0; g < groups; ++g) {
      text += "word [S" + std::to_string(rng() % static_cast<unsigned>(distinct));
      if (rng() % 3 == 0)
        text += ", doc-" + std::to_string(rng() % static_cast<unsigned>(distinct));
      text += "] ";
    }
    EXPECT_EQ(unique(text), first_seen(text)) << text;
    sc::text::citation_ids(text, reused);
    EXPECT_EQ(V(reused.begin(), reused.end()), first_seen(text)) << text;
    sc::text::citation_runs(text, runs);
    EXPECT_EQ(runs, sc::text::citation_runs(text)) << text;
  }
}

// ---------------------------------------------------------------------------------------------
// Stripping

TEST(CitationsStrip, TheProductExample) {
  EXPECT_EQ(sc::text::strip_citations("Cheating is punishable with imprisonment of up to seven "
                                      "years [IPC_420_0]. See also [S1][S3]."),
            "Cheating is punishable with imprisonment of up to seven years. See also.");
}

TEST(CitationsStrip, NoDoubleSpacesAndNoGluedWords) {
  EXPECT_EQ(sc::text::strip_citations("see [S1] next"), "see next");
  EXPECT_EQ(sc::text::strip_citations("see  [S1]  next"), "see next");
  EXPECT_EQ(sc::text::strip_citations("word[S1]next"), "word next");
  EXPECT_EQ(sc::text::strip_citations("a [S1] [S2], [S3] b"), "a b");
  EXPECT_EQ(sc::text::strip_citations("a [S1] - [S2] b"), "a - b");
}

TEST(CitationsStrip, AtTextAndLineEdges) {
  EXPECT_EQ(sc::text::strip_citations("[S1] Start"), "Start");
  EXPECT_EQ(sc::text::strip_citations("  [S1] Start"), "Start");
  EXPECT_EQ(sc::text::strip_citations("End [S1]"), "End");
  EXPECT_EQ(sc::text::strip_citations("End [S1]  "), "End");
  EXPECT_EQ(sc::text::strip_citations("One [S1]\n[S2] two\r\nthree [S3]\r\n"),
            "One\ntwo\r\nthree\r\n");
  EXPECT_EQ(sc::text::strip_citations("[S1]"), "");
  EXPECT_EQ(sc::text::strip_citations(" [S1] "), "");
}

TEST(CitationsStrip, PunctuationAndQuotes) {
  EXPECT_EQ(sc::text::strip_citations("years [S1], then [S2]; and [S3]: so [S4]!"),
            "years, then; and: so!");
  EXPECT_EQ(sc::text::strip_citations("(see [S1]) and ([S2]) and [x [S3]]"),
            "(see) and () and [x]");
  EXPECT_EQ(sc::text::strip_citations("\"quoted [S1]\" and \u201Cmore [S2]\u201D"),
            "\"quoted\" and \u201Cmore\u201D");
  EXPECT_EQ(sc::text::strip_citations("as said [S1] \"this\" and [S2]'that'"),
            "as said \"this\" and'that'");
  EXPECT_EQ(sc::text::strip_citations("\u53E5\u5B50[S1]\u3002"), "\u53E5\u5B50\u3002");
}

TEST(CitationsStrip, NothingToStripReturnsTheText) {
  const std::string text = "no [markers here] at all [...]  ";
  EXPECT_EQ(sc::text::strip_citations(text), text);
  EXPECT_EQ(sc::text::strip_citations(""), "");
}

TEST(CitationsStrip, RandomInputsKeepEveryNonMarkerCharacter) {
  // Stripping removes exactly the runs and some spaces/tabs: the other characters stay, in order,
  // and an input without two adjacent spaces/tabs gets none from the removal either.
  std::mt19937 rng(7);
  const std::vector<std::string> pieces = {"a", "b", " ", "\t", "\n", "[S1]", "[S2, S3]", "[x y]",
                                           ",", ";", ".", "\"", "(",  ")",    "[",        "]"};
  const auto is_h = [](char c) { return c == ' ' || c == '\t'; };
  const auto has_double_hspace = [&](const std::string& s) {
    for (std::size_t i = 1; i < s.size(); ++i) {
      if (is_h(s[i - 1]) && is_h(s[i])) return true;
    }
    return false;
  };
  const auto without_hspace = [&](const std::string& s) {
    std::string out;
    for (const char c : s) {
      if (!is_h(c)) out += c;
    }
    return out;
  };
  int with_runs = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    for (std::size_t i = rng() % 16; i > 0; --i) text += pieces[rng() % pieces.size()];
    std::string expected;
    std::size_t cursor = 0;
    const std::vector<Span> runs = sc::text::citation_runs(text);
    for (const Span& run : runs) {
      expected += text.substr(cursor, run.begin - cursor);
      cursor = run.end;
    }
    expected += text.substr(cursor);
    const std::string stripped = sc::text::strip_citations(text);
    ASSERT_EQ(without_hspace(stripped), without_hspace(expected)) << "input: " << text;
    if (!has_double_hspace(text)) {
      ASSERT_FALSE(has_double_hspace(stripped)) << "input: " << text << " -> " << stripped;
    }
    ASSERT_TRUE(runs.empty() || stripped.size() < text.size());
    with_runs += runs.empty() ? 0 : 1;
  }
  EXPECT_GT(with_runs, 1000);  // the generator does exercise stripping
}

}  // namespace
