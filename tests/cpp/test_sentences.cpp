#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "text/sentences.hpp"
#include "text/utf8.hpp"

namespace {

using sc::text::Span;
using V = std::vector<std::string>;

bool is_space_byte(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// The contract of every split: in order, non-overlapping, non-empty, inside the text, no
/// ASCII whitespace at either end, and every non-whitespace ASCII byte inside some span.
void check_invariants(std::string_view text, const std::vector<Span>& spans) {
  std::size_t prev_end = 0;
  std::size_t covered_to = 0;  // every byte before this is checked
  for (const Span& s : spans) {
    ASSERT_LT(s.begin, s.end) << "empty span at " << s.begin;
    ASSERT_LE(s.end, text.size());
    ASSERT_GE(s.begin, prev_end) << "overlap or disorder at " << s.begin;
    EXPECT_FALSE(is_space_byte(text[s.begin])) << "untrimmed start at " << s.begin;
    EXPECT_FALSE(is_space_byte(text[s.end - 1])) << "untrimmed end at " << s.end;
    for (std::size_t i = covered_to; i < s.begin; ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      EXPECT_TRUE(c >= 0x80 || is_space_byte(c)) << "byte " << i << " lost: '" << text[i] << "'";
    }
    prev_end = s.end;
    covered_to = s.end;
  }
  for (std::size_t i = covered_to; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    EXPECT_TRUE(c >= 0x80 || is_space_byte(c)) << "byte " << i << " lost after the last span";
  }
}

V split(std::string_view text) {
  const std::vector<Span> spans = sc::text::split_sentences(text);
  check_invariants(text, spans);
  V out;
  for (const Span& s : spans) out.emplace_back(text.substr(s.begin, s.end - s.begin));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Basics

TEST(SentencesBasic, EmptyAndWhitespaceOnly) {
  EXPECT_TRUE(sc::text::split_sentences("").empty());
  EXPECT_TRUE(sc::text::split_sentences("   \t\n\r\n  ").empty());
  EXPECT_TRUE(sc::text::split_sentences("\xC2\xA0\xE3\x80\x80").empty());  // NBSP, ideographic
}

TEST(SentencesBasic, OneSentenceWithoutPunctuation) {
  EXPECT_EQ(split("cheating is punishable"), V{"cheating is punishable"});
  EXPECT_EQ(sc::text::split_sentences("  no period here  "), (std::vector<Span>{{2, 16}}));
  EXPECT_EQ(split("x"), V{"x"});
  EXPECT_EQ(split("."), V{"."});
}

TEST(SentencesBasic, ExactSpansTrimmed) {
  const std::string text = "  First one.  Second one!\tThird?  ";
  EXPECT_EQ(sc::text::split_sentences(text), (std::vector<Span>{{2, 12}, {14, 25}, {26, 32}}));
}

TEST(SentencesBasic, TerminalRuns) {
  EXPECT_EQ(split("Really?! Yes. Wait... Then go!!! Done"),
            (V{"Really?!", "Yes.", "Wait...", "Then go!!!", "Done"}));
  EXPECT_EQ(split("Hmm\u2026 Fine."), (V{"Hmm\u2026", "Fine."}));
}

TEST(SentencesBasic, LowercaseAfterTerminalContinues) {
  EXPECT_EQ(split("Is it? no, it is not. And so... on it goes."),
            (V{"Is it? no, it is not.", "And so... on it goes."}));
}

TEST(SentencesBasic, ClosingQuotesAndBracketsStayWithTheSentence) {
  EXPECT_EQ(split("He said \"Stop.\" Then he left."), (V{"He said \"Stop.\"", "Then he left."}));
  EXPECT_EQ(split("(See above.) Next one."), (V{"(See above.)", "Next one."}));
  EXPECT_EQ(split("\u201CDone.\u201D Next."), (V{"\u201CDone.\u201D", "Next."}));
  EXPECT_EQ(split("\"Stop!\" he said. Then"), (V{"\"Stop!\" he said.", "Then"}));
}

TEST(SentencesBasic, SentenceStarts) {
  EXPECT_EQ(split("One. 2 more. \"Quoted\" too. (Aside) here. \u00C9t\u00E9 came."),
            (V{"One.", "2 more.", "\"Quoted\" too.", "(Aside) here.", "\u00C9t\u00E9 came."}));
  EXPECT_EQ(split("Ends here. - a dash item. [citation needed] here."),
            (V{"Ends here.", "- a dash item.", "[citation needed] here."}));
  // Continuing punctuation and lowercase letters (also non-ASCII) do not open sentences.
  EXPECT_EQ(split("Rate 5. % of it. \u00E9t\u00E9 too."), V{"Rate 5. % of it. \u00E9t\u00E9 too."});
}

TEST(SentencesBasic, NeedsWhitespaceAfterPunctuation) {
  EXPECT_EQ(split("See example.com/A.B for it.Next"), V{"See example.com/A.B for it.Next"});
}

// ---------------------------------------------------------------------------------------------
// Numbers

TEST(SentencesNumbers, DecimalsThousandsAndVersionsKeepTheirDot) {
  EXPECT_EQ(split("It costs 10.5 dollars. Pay 1,000.50 now. Use v2.0 please."),
            (V{"It costs 10.5 dollars.", "Pay 1,000.50 now.", "Use v2.0 please."}));
}

TEST(SentencesNumbers, NumberAtSentenceEnd) {
  EXPECT_EQ(split("The fine is 500. The term is 7 years."),
            (V{"The fine is 500.", "The term is 7 years."}));
  EXPECT_EQ(split("It was 2019. 2020 came next."), (V{"It was 2019.", "2020 came next."}));
}

// ---------------------------------------------------------------------------------------------
// Abbreviations

TEST(SentencesAbbreviations, TitlesAndReferencesNeverEnd) {
  EXPECT_EQ(split("Mr. Smith met Dr. Jones and Prof. Rao. They talked."),
            (V{"Mr. Smith met Dr. Jones and Prof. Rao.", "They talked."}));
  EXPECT_EQ(split("See Sec. 420 and Art. 21 and No. 5 and Fig. 3 here. Next."),
            (V{"See Sec. 420 and Art. 21 and No. 5 and Fig. 3 here.", "Next."}));
  EXPECT_EQ(split("Mrs. A, Ms. B, St. Paul, Nos. 4, Secs. 3, Rs. 500, Jr. Sr. Co. Ltd are here."),
            V{"Mrs. A, Ms. B, St. Paul, Nos. 4, Secs. 3, Rs. 500, Jr. Sr. Co. Ltd are here."});
}

TEST(SentencesAbbreviations, LatinAbbreviations) {
  EXPECT_EQ(split("Use a tool, e.g. Python, i.e. a language. Also cf. Ruby vs. Perl. End."),
            (V{"Use a tool, e.g. Python, i.e. a language.", "Also cf. Ruby vs. Perl.", "End."}));
  EXPECT_EQ(split("It is approx. 5 km, E.g. Here. Smith v. Jones held so."),
            (V{"It is approx. 5 km, E.g. Here.", "Smith v. Jones held so."}));
}

TEST(SentencesAbbreviations, PagesVolumesMonths) {
  EXPECT_EQ(
      split("The rate (p. 12) is 5%. See pp. 4-5 and Vol. 2, ref. 7. Approved on Jan. 5, 2020. "
            "Due Sept. 30 incl. VAT. Done."),
      (V{"The rate (p. 12) is 5%.", "See pp. 4-5 and Vol. 2, ref. 7.", "Approved on Jan. 5, 2020.",
         "Due Sept. 30 incl. VAT.", "Done."}));
}

TEST(SentencesAbbreviations, LowercaseEntriesMatchAnyCaseCapitalisedOnlyExactly) {
  // "etc" is written lowercase, so "ETC." matches it; "No" is capitalised, so "no." is a word.
  EXPECT_EQ(split("I said no. Then I left."), (V{"I said no.", "Then I left."}));
  EXPECT_EQ(split("See No. 5 here."), V{"See No. 5 here."});
  EXPECT_EQ(split("see sec. 5 and SEC. 6 now."), V{"see sec. 5 and SEC. 6 now."});
  EXPECT_EQ(split("See NO. 5 here."), (V{"See NO.", "5 here."}));
}

TEST(SentencesAbbreviations, EtcEndsLikeAWord) {
  EXPECT_EQ(split("Fines, costs, etc. are due. Theft, fraud, etc. Cheating is next."),
            (V{"Fines, costs, etc. are due.", "Theft, fraud, etc.", "Cheating is next."}));
}

TEST(SentencesAbbreviations, InitialsAndAcronymsEndOnlyBeforeAnOpener) {
  EXPECT_EQ(split("J. K. Rowling wrote it. George W. Bush spoke."),
            (V{"J. K. Rowling wrote it.", "George W. Bush spoke."}));
  EXPECT_EQ(split("The U.S. Supreme Court ruled. It lives in the U.S. The law applies."),
            (V{"The U.S. Supreme Court ruled.", "It lives in the U.S.", "The law applies."}));
  EXPECT_EQ(split("Under the I.P.C. Section 420 applies. Under the I.P.C. It applies."),
            (V{"Under the I.P.C. Section 420 applies.", "Under the I.P.C.", "It applies."}));
  EXPECT_EQ(split("Acme Inc. The firm. Acme Ltd. Director Rao. Smith et al. The study."),
            (V{"Acme Inc.", "The firm.", "Acme Ltd. Director Rao.", "Smith et al.", "The study."}));
  EXPECT_EQ(split("He met at 3 p.m. The talk began."), (V{"He met at 3 p.m.", "The talk began."}));
}

TEST(SentencesAbbreviations, LegalText) {
  const std::string text =
      "Sec. 420 of the I.P.C. says that cheating is punishable with a fine of Rs. 10,000.50 and "
      "imprisonment. Next.";
  EXPECT_EQ(split(text), (V{"Sec. 420 of the I.P.C. says that cheating is punishable with a fine "
                            "of Rs. 10,000.50 and imprisonment.",
                            "Next."}));
  EXPECT_EQ(sc::text::split_sentences(text),
            (std::vector<Span>{{0, text.size() - 6}, {text.size() - 5, text.size()}}));
}

TEST(SentencesAbbreviations, AbbreviationAtLineEnd) {
  // A Never abbreviation joins lines; others end the line's sentence.
  EXPECT_EQ(split("Ask Dr.\nSmith now."), V{"Ask Dr.\nSmith now."});
  EXPECT_EQ(split("Bought from Acme Inc.\nnext line."), (V{"Bought from Acme Inc.", "next line."}));
}

TEST(SentencesAbbreviations, AbbreviationAtTextEnd) {
  EXPECT_EQ(split("Ask Dr."), V{"Ask Dr."});
  EXPECT_EQ(split("Call Dr. \n\n New para."), (V{"Call Dr.", "New para."}));
}

TEST(SentencesAbbreviations, CustomList) {
  std::vector<sc::text::Abbreviation> list = sc::text::default_abbreviations();
  list.push_back({"Hon'ble", sc::text::AbbreviationKind::Never});  // not ASCII-word: ignored
  list.push_back({"Cr", sc::text::AbbreviationKind::Never});
  const sc::text::SentenceSplitter splitter(list);
  const std::string text = "See Cr. P.C. Section 5. Then go.";
  std::vector<Span> spans = splitter.split(text);
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(text.substr(spans[0].begin, spans[0].end - spans[0].begin), "See Cr. P.C. Section 5.");
  // The default splitter does not know "Cr".
  EXPECT_EQ(split(text), (V{"See Cr.", "P.C. Section 5.", "Then go."}));
}

// ---------------------------------------------------------------------------------------------
// Citations

TEST(SentencesCitations, MarkerBeforeThePeriodStays) {
  const std::string text =
      "Cheating is punishable with imprisonment of up to seven years [IPC_420_0]. See also "
      "[S1][S3].";
  EXPECT_EQ(split(text), (V{"Cheating is punishable with imprisonment of up to seven years "
                            "[IPC_420_0].",
                            "See also [S1][S3]."}));
  const std::size_t first_end = text.find("]. ") + 2;
  EXPECT_EQ(sc::text::split_sentences(text),
            (std::vector<Span>{{0, first_end}, {first_end + 1, text.size()}}));
}

TEST(SentencesCitations, MarkerAfterThePeriodBelongsToThePreviousSentence) {
  EXPECT_EQ(split("It is seven years. [S1] Next one. [S2][S3] Last. [S4, S5]"),
            (V{"It is seven years. [S1]", "Next one. [S2][S3]", "Last. [S4, S5]"}));
  EXPECT_EQ(split("Seven years.[S1] Next."), (V{"Seven years.[S1]", "Next."}));
  // Such a marker ends the sentence even before a lowercase word.
  EXPECT_EQ(split("Seven years. [S1] and more."), (V{"Seven years. [S1]", "and more."}));
  // A Never abbreviation is not closed by a marker.
  EXPECT_EQ(split("Ask Dr. [S1] Smith."), V{"Ask Dr. [S1] Smith."});
}

TEST(SentencesCitations, PunctuationInsideIdsIsNotASentenceEnd) {
  EXPECT_EQ(split("As stated [doc.3] in it [S1.] Then [a:b. C] ok."),
            (V{"As stated [doc.3] in it [S1.] Then [a:b.", "C] ok."}));
}

TEST(SentencesCitations, NonCitationBracketOpensASentence) {
  EXPECT_EQ(split("Seven years. [citation needed] It is."),
            (V{"Seven years.", "[citation needed] It is."}));
}

TEST(SentencesCitations, MarkerOnItsOwnAfterAParagraph) {
  EXPECT_EQ(split("Seven years.\n\n[S1]\n\nNext."), (V{"Seven years.", "[S1]", "Next."}));
}

// ---------------------------------------------------------------------------------------------
// Lists and line breaks

TEST(SentencesLines, BlankLineAlwaysSplits) {
  EXPECT_EQ(split("Heading without stop\n\nbody text\n \t\nmore"),
            (V{"Heading without stop", "body text", "more"}));
  EXPECT_EQ(split("a\r\n\r\nb"), (V{"a", "b"}));
  EXPECT_EQ(split("a\xE2\x80\xA9"
                  "b"),
            (V{"a", "b"}));  // U+2029 PARAGRAPH SEPARATOR
}

TEST(SentencesLines, WrappedLineJoins) {
  EXPECT_EQ(split("Cheating is punishable\nwith imprisonment. Next."),
            (V{"Cheating is punishable\nwith imprisonment.", "Next."}));
  EXPECT_EQ(split("Section 420\nCheating is punishable."),
            V{"Section 420\nCheating is punishable."});
}

TEST(SentencesLines, LineEndingWithPunctuationSplitsWhateverFollows) {
  EXPECT_EQ(split("First line.\nsecond line starts lowercase"),
            (V{"First line.", "second line starts lowercase"}));
  EXPECT_EQ(split("First line!\r\nSecond"), (V{"First line!", "Second"}));
}

TEST(SentencesLines, LineEndingWithCitationSplits) {
  EXPECT_EQ(split("Cheating is punishable [S1]\nthe fine is separate [S2]"),
            (V{"Cheating is punishable [S1]", "the fine is separate [S2]"}));
}

TEST(SentencesLines, BulletsStartSentences) {
  EXPECT_EQ(split("The penalties are:\n- imprisonment\n* fine\n+ both\n\u2022 forfeiture"),
            (V{"The penalties are:", "- imprisonment", "* fine", "+ both", "\u2022 forfeiture"}));
  EXPECT_EQ(split("Items:\n  - indented\n  - also [S1]"),
            (V{"Items:", "- indented", "- also [S1]"}));
}

TEST(SentencesLines, NumberedLinesStartSentencesAndLabelsStayWithThem) {
  EXPECT_EQ(split("Steps:\n1. File a complaint.\n2. Attend the hearing.\n10. Appeal"),
            (V{"Steps:", "1. File a complaint.", "2. Attend the hearing.", "10. Appeal"}));
  EXPECT_EQ(split("Options:\n1) first\n2) second"), (V{"Options:", "1) first", "2) second"}));
  EXPECT_EQ(split("Clauses:\n(a) theft\n(b) fraud\n(iv) forgery\na) one\nb. two"),
            (V{"Clauses:", "(a) theft", "(b) fraud", "(iv) forgery", "a) one", "b. two"}));
  EXPECT_EQ(split("1. First item. Second sentence."), (V{"1. First item.", "Second sentence."}));
  EXPECT_EQ(split("Do it. 2. Then this."), (V{"Do it.", "2. Then this."}));
  EXPECT_EQ(split("The steps are: 1. File it. 2. Wait. Total: 420. Next."),
            (V{"The steps are: 1. File it.", "2. Wait.", "Total: 420.", "Next."}));
  EXPECT_EQ(split("Scored:1. Next."), (V{"Scored:1.", "Next."}));  // no space: not a label
  EXPECT_EQ(split("iv. Fourth point. A. Next point."), (V{"iv. Fourth point.", "A. Next point."}));
}

TEST(SentencesLines, NotListItems) {
  // "-5" and "**bold**" are no bullets, "1.5" is no label: these lines wrap.
  EXPECT_EQ(split("It fell to\n-5 degrees and\n**bold** text and\n1.5 more"),
            V{"It fell to\n-5 degrees and\n**bold** text and\n1.5 more"});
}

TEST(SentencesLines, HeadingsAndBoldLinesEndTheirLine) {
  EXPECT_EQ(split("## Punishment\nCheating is punishable.\n**Scope**\nIt applies."),
            (V{"## Punishment", "Cheating is punishable.", "**Scope**", "It applies."}));
  EXPECT_EQ(split("Intro text\n# Heading"), (V{"Intro text", "# Heading"}));
  EXPECT_EQ(split("#hashtag is\nnot a heading"), V{"#hashtag is\nnot a heading"});
}

// ---------------------------------------------------------------------------------------------
// Unicode and invalid UTF-8

TEST(SentencesUnicode, AccentedCyrillicGreek) {
  EXPECT_EQ(split("\u00C0 bient\u00F4t. \u00C9lan vital! \u0416\u0438\u0437\u043D\u044C. "
                  "\u03A9mega. \u03C9 stays."),
            (V{"\u00C0 bient\u00F4t.", "\u00C9lan vital!", "\u0416\u0438\u0437\u043D\u044C.",
               "\u03A9mega. \u03C9 stays."}));
}

TEST(SentencesUnicode, CjkFullStopsSplitWithoutSpaces) {
  EXPECT_EQ(split("\u8FD9\u662F\u53E5\u5B50\u3002\u90A3\u662F\u4EC0\u4E48\uFF1F\u597D\uFF01"
                  "\u6CA1\u6709\u6807\u70B9"),
            (V{"\u8FD9\u662F\u53E5\u5B50\u3002", "\u90A3\u662F\u4EC0\u4E48\uFF1F", "\u597D\uFF01",
               "\u6CA1\u6709\u6807\u70B9"}));
  EXPECT_EQ(split("\u300C\u597D\u3002\u300D\u662F"), (V{"\u300C\u597D\u3002\u300D", "\u662F"}));
  EXPECT_EQ(split("\u53E5\u5B50\u3002[S1]\u4E0B\u4E00"),
            (V{"\u53E5\u5B50\u3002[S1]", "\u4E0B\u4E00"}));
}

TEST(SentencesUnicode, UncasedScriptsOpenSentences) {
  EXPECT_EQ(
      split("Fine. \u092F\u0939 \u0938\u091A \u0939\u0948\u0964 \u0935\u0939 \u092D\u0940."),
      (V{"Fine.", "\u092F\u0939 \u0938\u091A \u0939\u0948\u0964", "\u0935\u0939 \u092D\u0940."}));
  EXPECT_EQ(split("Done. \U0001F389 Great."), (V{"Done.", "\U0001F389 Great."}));
}

TEST(SentencesUnicode, UnicodeSpacesTrimmedAndSeparate) {
  const std::string text = "\xC2\xA0One.\xE2\x80\x83Two.\xE3\x80\x80";
  EXPECT_EQ(sc::text::split_sentences(text), (std::vector<Span>{{2, 6}, {9, 13}}));
}

TEST(SentencesUnicode, ExactByteSpansWithMultibyteText) {
  const std::string text = "Caf\u00E9 ok. \u00C9t\u00E9 \U0001F600 fine.";
  // "Café ok." is 9 bytes; "Été 😀 fine." starts at 10 and is 16 bytes.
  EXPECT_EQ(sc::text::split_sentences(text), (std::vector<Span>{{0, 9}, {10, 26}}));
  ASSERT_EQ(text.size(), 26u);
}

TEST(SentencesUnicode, InvalidUtf8NeverCrashesNorReadsPast) {
  // Truncated sequences at the very end: the splitter must stop at the buffer's end. The strings
  // are copied to exact-size heap buffers so AddressSanitizer catches any over-read.
  const std::vector<std::string> cases = {
      "Fine. Broken \xE2\x82",
      "Fine. \xF0\x9F\x98",
      "\xC3",
      "A. \x80\x80 lone. Next.",
      "Ok.\xFF Then.",
      "Stop. \xC0\xAF overlong.",
      "Dot.\xE2",
      "End. \xED\xA0\x80 surrogate.",
      "Fine.\n\n\xE3\x80",
  };
  for (const std::string& c : cases) {
    const std::vector<char> heap(c.begin(), c.end());
    const std::string_view view(heap.data(), heap.size());
    check_invariants(view, sc::text::split_sentences(view));
  }
  EXPECT_EQ(split("Fine. Broken \xE2\x82"), (V{"Fine.", "Broken \xE2\x82"}));
  EXPECT_EQ(split("A. \x80\x80 lone. Next."), (V{"A. \x80\x80 lone.", "Next."}));
  EXPECT_EQ(split("Stop. \xC0\xAF overlong."), (V{"Stop.", "\xC0\xAF overlong."}));
  EXPECT_EQ(split("Ok.\xFF Then."), V{"Ok.\xFF Then."});  // no whitespace after the '.'
}

TEST(SentencesUnicode, RandomBytesKeepTheInvariants) {
  std::mt19937 rng(12345);
  const std::string alphabet =
      std::string("aZ .!?[]S1,\n\t\"()-#*") + "\xC3\xA9\xE3\x80\x82\x80\xFF";
  for (int round = 0; round < 2000; ++round) {
    std::string text(rng() % 60, ' ');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    const std::vector<char> heap(text.begin(), text.end());
    const std::string_view view(heap.data(), heap.size());
    check_invariants(view, sc::text::split_sentences(view));
    if (HasFailure()) {
      ADD_FAILURE() << "input: " << text;
      break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Scale

TEST(SentencesScale, TenMegabytesCompleteWithExactCount) {
  const std::string unit =
      "Cheating is punishable with imprisonment of up to seven years [IPC_420_0]. "
      "Sec. 420 of the I.P.C. says Rs. 10,000.50 is the fine, e.g. for fraud. [S1][S3] "
      "Is that all?! No. 5 says more\u2026 See Dr. Rao's note.\n"
      "- a bullet [S2]\n"
      "\u8FD9\u662F\u53E5\u5B50\u3002\n\n";
  // Per unit: "Cheating ...]." "Sec. ... [S1][S3]" "Is that all?!" "No. 5 says more…"
  // "See Dr. Rao's note." "- a bullet [S2]" and the CJK sentence.
  EXPECT_EQ(split(unit).size(), 7u) << ::testing::PrintToString(split(unit));
  std::string text;
  const std::size_t repeats = (10u << 20) / unit.size() + 1;
  text.reserve(repeats * unit.size());
  for (std::size_t i = 0; i < repeats; ++i) text += unit;
  ASSERT_GE(text.size(), 10u << 20);
  const std::vector<Span> spans = sc::text::split_sentences(text);
  EXPECT_EQ(spans.size(), 7 * repeats);
  EXPECT_EQ(spans.back().end, text.size() - 2);
}

TEST(SentencesScale, LongRunsStayLinear) {
  // Pathological inputs: one huge token, unclosed brackets, endless dots and spaces.
  const std::string dots(2u << 20, '.');
  EXPECT_EQ(sc::text::split_sentences(dots).size(), 1u);
  std::string brackets;
  for (int i = 0; i < 200000; ++i) brackets += "[S1 x ";
  EXPECT_EQ(sc::text::split_sentences(brackets).size(), 1u);
  std::string spaced;
  for (int i = 0; i < 200000; ++i) spaced += "e.g. ";
  EXPECT_EQ(sc::text::split_sentences(spaced).size(), 1u);
}

}  // namespace
