#include <gtest/gtest.h>

#include <string>

#include "text/casefold.hpp"
#include "text/utf8.hpp"

namespace {

using sc::text::fold;
using sc::text::fold_code_point;

TEST(Casefold, Empty) {
  EXPECT_EQ(fold(""), "");
  std::string out = "keep";
  sc::text::append_folded("", out);
  EXPECT_EQ(out, "keep");
}

TEST(Casefold, Ascii) {
  EXPECT_EQ(fold("HELLO World 123 _-!"), "hello world 123 _-!");
  for (char32_t c = 0; c < 0x80; ++c) {
    const char32_t expected = (c >= 'A' && c <= 'Z') ? c + 32 : c;
    EXPECT_EQ(fold_code_point(c), expected) << static_cast<unsigned>(c);
  }
}

TEST(Casefold, Latin1AndExtendedA) {
  EXPECT_EQ(fold("ÀÉÎÕÜ ØÞ Ÿ"), "àéîõü øþ ÿ");
  EXPECT_EQ(fold("× ÷ ß ÿ"), "× ÷ ß ÿ");  // signs and lowercase-only letters stay
  EXPECT_EQ(fold("µ"), "μ");              // micro sign -> Greek mu
  EXPECT_EQ(fold("ĀĂĄĆŁŃŒŠŽ"), "āăąćłńœšž");
  EXPECT_EQ(fold("ſ"), "s");
  EXPECT_EQ(fold("İstanbul ıI"), "istanbul ıi");  // dotted capital I -> i; dotless i kept
  EXPECT_EQ(fold("ŉ"), "ʼn");  // NFKC splits it; the apostrophe-like letter stays
}

TEST(Casefold, SharpS) {
  EXPECT_EQ(fold("STRAẞE Straße"), "straße straße");  // ß is kept, never "ss"
  EXPECT_EQ(fold_code_point(0x00DF), 0x00DFU);
  EXPECT_EQ(fold_code_point(0x1E9E), 0x00DFU);
}

TEST(Casefold, ExtendedBGreekCyrillicArmenianVietnamese) {
  EXPECT_EQ(fold("ǄǅǆȘȚ"), "dždždžșț");  // NFKC decomposes the digraphs
  EXPECT_EQ(fold("Ⱥ"), "ⱥ");             // U+023A -> U+2C65: the UTF-8 grows from 2 to 3 bytes
  EXPECT_EQ(fold("ΣΟΦΊΑ σοφός ΆΈΉΏ"), "σοφία σοφόσ άέήώ");  // final sigma folds to σ
  EXPECT_EQ(fold("ϐϑϕ"), "βθφ");
  EXPECT_EQ(fold("ПРИВЕТ ЁЖЇЄ Ґ Ӂ Ԁ"), "привет ёжїє ґ ӂ ԁ");
  EXPECT_EQ(fold("ԱԲԳ"), "աբգ");
  EXPECT_EQ(fold("TIẾNG VIỆT Ỹ"), "tiếng việt ỹ");
  EXPECT_EQ(fold("ＡＢＣ ａ"), "abc a");  // fullwidth forms are compatibility variants
}

TEST(Casefold, EqualAcrossNormalForms) {
  EXPECT_EQ(fold("cafe\u0301"), fold("caf\u00e9"));  // NFD and NFC
  EXPECT_EQ(fold("cafe\u0301"), "café");
  EXPECT_EQ(fold("\ufb01nal \ufb02ow"), "final flow");  // ligatures
  EXPECT_EQ(fold("Ｃａｆé"), fold("CAFE\u0301"));
  // Invalid bytes become U+FFFD, one each.
  EXPECT_EQ(fold(std::string("a\xff"
                             "b\xc3",
                             4)),
            "a\uFFFD"
            "b\uFFFD");
}

TEST(Casefold, OtherScriptsUnchanged) {
  for (const char* s : {"日本語", "한국어", "😀🎉", "नमस्ते", "مرحبا", "ႠႡ", "ⰀⰁ", "ᏀᏁ"}) {
    EXPECT_EQ(fold(s), s);
  }
}

TEST(Casefold, TypographicApostrophe) {
  EXPECT_EQ(fold("Don\u2019t"), "don't");
  EXPECT_EQ(fold_code_point(0x2019), static_cast<char32_t>('\''));
  EXPECT_EQ(fold("\u2018x\u201D"), "\u2018x\u201D");  // other quotes stay
}

TEST(Casefold, InvalidUtf8BecomesReplacementPerByte) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(fold("A\xff"
                 "B"),
            "a" + r + "b");
  EXPECT_EQ(fold("x\xC3"), "x" + r);                    // truncated at the end
  EXPECT_EQ(fold("\xE6\x97"), r + r);                   // truncated 3-byte
  EXPECT_EQ(fold("\x80\xBF"), r + r);                   // lone continuation bytes
  EXPECT_EQ(fold("\xC0\xAF"), r + r);                   // overlong
  EXPECT_EQ(fold("\xED\xA0\x80"), r + r + r);           // surrogate
  EXPECT_EQ(fold("\xC3\x89\xC3"), "\xC3\xA9" + r);      // É then truncated
  EXPECT_EQ(fold(std::string_view("\xC3\x89", 1)), r);  // view ends mid-sequence
}

TEST(Casefold, AppendsWithoutClearing) {
  std::string out = "x:";
  sc::text::append_folded("ÉTÉ", out);
  EXPECT_EQ(out, "x:été");
}

// Over every Unicode scalar value: folding is idempotent and yields a scalar value.
TEST(Casefold, IdempotentEverywhere) {
  std::size_t changed = 0;
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp >= 0xD800 && cp <= 0xDFFF) continue;
    const char32_t f = fold_code_point(cp);
    ASSERT_EQ(fold_code_point(f), f) << std::hex << static_cast<unsigned>(cp);
    ASSERT_FALSE(f > 0x10FFFF || (f >= 0xD800 && f <= 0xDFFF));
    changed += f != cp;
  }
  // 26 ASCII + the table's ~600 mappings + U+2019: a change here means the table changed.
  EXPECT_GT(changed, 600U);
  EXPECT_LT(changed, 700U);
}

}  // namespace
