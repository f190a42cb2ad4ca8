#include <gtest/gtest.h>

#include <string>

#include "text/python_space.hpp"

namespace {

using sc::text::is_python_space;
using sc::text::python_space_at;

// The complete set Python's str.isspace() accepts (Unicode 14, CPython 3.11).
constexpr char32_t kPythonSpaces[] = {
    0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x1C,   0x1D,   0x1E,   0x1F,   0x20,
    0x85,   0xA0,   0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
    0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000};

TEST(PythonSpace, ExactlyPythonsSetOverTheBmp) {
  std::size_t count = 0;
  for (char32_t cp = 0; cp < 0x10000; ++cp) {
    bool expected = false;
    for (const char32_t space : kPythonSpaces) expected = expected || space == cp;
    EXPECT_EQ(is_python_space(cp), expected) << "U+" << std::hex << static_cast<unsigned>(cp);
    count += is_python_space(cp) ? 1 : 0;
  }
  EXPECT_EQ(count, sizeof(kPythonSpaces) / sizeof(kPythonSpaces[0]));
  EXPECT_FALSE(is_python_space(0x200B));  // zero-width space is not whitespace to Python
  EXPECT_FALSE(is_python_space(0xFEFF));
}

TEST(PythonSpace, ByteLengthInUtf8AndInvalidBytes) {
  const std::string text = "a \xC2\xA0\xE3\x80\x80\xE2\x80\xAF\xC2\xFF";
  EXPECT_EQ(python_space_at(text, 0), 0U);
  EXPECT_EQ(python_space_at(text, 1), 1U);
  EXPECT_EQ(python_space_at(text, 2), 2U);   // U+00A0
  EXPECT_EQ(python_space_at(text, 4), 3U);   // U+3000
  EXPECT_EQ(python_space_at(text, 7), 3U);   // U+202F
  EXPECT_EQ(python_space_at(text, 10), 0U);  // truncated sequence: not space, not read past
  EXPECT_EQ(python_space_at(text, 11), 0U);
}

}  // namespace
