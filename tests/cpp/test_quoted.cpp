#include <gtest/gtest.h>

#include <string>

#include "common/quoted.hpp"

namespace {

TEST(Quoted, EscapesWhatWouldCutOrConfuseAMessage) {
  EXPECT_EQ(sc::quoted("max"), "'max'");
  EXPECT_EQ(sc::quoted(std::string("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(sc::quoted("it's \\ ok"), "'it\\'s \\\\ ok'");
  EXPECT_EQ(sc::quoted("line\nnext\ttab\x7f"), "'line\\nnext\\ttab\\x7f'");
  EXPECT_EQ(sc::quoted("Straße"), "'Straße'");  // UTF-8 kept
  EXPECT_EQ(sc::quoted(""), "''");
}

}  // namespace
