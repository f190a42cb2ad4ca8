#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "text/utf8.hpp"

namespace {

using sc::text::CodePointIndex;

TEST(CodePointIndex, AsciiOffsetsAreTheirOwnIndex) {
  const std::string text = "Section 420.";
  const CodePointIndex index(text);
  for (std::size_t i = 0; i <= text.size(); ++i) EXPECT_EQ(index(i), i);
  EXPECT_EQ(index.size(), text.size());
  EXPECT_THROW(index(text.size() + 1), std::out_of_range);
}

TEST(CodePointIndex, MultiByteAfterAsciiPrefix) {
  const std::string text = "ab\xC3\xA9\xE6\x97\xA5z";  // "abé日z"
  const CodePointIndex index(text);
  EXPECT_EQ(index(0), 0U);
  EXPECT_EQ(index(2), 2U);  // é starts
  EXPECT_EQ(index(3), 2U);  // inside é
  EXPECT_EQ(index(4), 3U);  // 日 starts
  EXPECT_EQ(index(7), 4U);  // z
  EXPECT_EQ(index(text.size()), 5U);
  EXPECT_EQ(index.size(), 5U);
  EXPECT_THROW(index(text.size() + 1), std::out_of_range);
}

TEST(CodePointIndex, EmptyAndInvalidBytes) {
  const CodePointIndex empty{std::string_view{}};
  EXPECT_EQ(empty(0), 0U);
  EXPECT_EQ(empty.size(), 0U);
  const std::string invalid =
      "a\xFF\xC3";  // a lone 0xFF and a truncated sequence: one code point each
  const CodePointIndex index(invalid);
  EXPECT_EQ(index(1), 1U);
  EXPECT_EQ(index(2), 2U);
  EXPECT_EQ(index.size(), 3U);
}

}  // namespace
