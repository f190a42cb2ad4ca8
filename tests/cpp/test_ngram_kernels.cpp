/// @brief GoogleTest suites for the n-gram kernels of lexical relevance (src/checker/ngram.*): the
/// squared-count table of exact cosines against a naive count over for_each_ngram.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "checker/ngram.hpp"

namespace {

namespace ck = sc::checker;

std::string random_text(std::mt19937& rng, std::size_t size, const std::string& alphabet) {
  std::string s;
  for (std::size_t i = 0; i < size; ++i) s.push_back(alphabet[rng() % alphabet.size()]);
  return s;
}

std::vector<std::uint32_t> buckets_of(const std::string& s) {
  std::vector<std::uint32_t> starts;
  std::vector<std::uint32_t> out;
  ck::for_each_ngram(s, starts, [&](std::uint32_t b) { out.push_back(b); });
  return out;
}

std::uint64_t naive_square_sum(const std::string& s) {
  std::map<std::uint32_t, std::uint64_t> counts;
  for (const std::uint32_t b : buckets_of(s)) ++counts[b];
  std::uint64_t sum = 0;
  for (const auto& [bucket, count] : counts) sum += count * count;
  return sum;
}

std::uint64_t square_sum(ck::SquareCounts& squares, const std::string& s) {
  squares.begin(3 * std::uint64_t{s.size()});
  std::vector<std::uint32_t> starts;
  ck::for_each_ngram(s, starts, [&](std::uint32_t b) { squares.add(b); });
  const std::uint64_t sum = squares.sum();
  squares.end();
  return sum;
}

// One table reused for thousands of strings (past the stamp's wrap), of every size (a huge one
// in between, whose table is given back), ASCII and not: each sum as from a fresh count.
TEST(NgramKernels, SquareCountsReusedEqualNaive) {
  std::mt19937 rng(5);
  ck::SquareCounts squares;
  const std::vector<std::string> code_points = {"a", "\xC3\xA9", " ", "\xE6\x97\xA5", "z"};
  for (int round = 0; round < 5000; ++round) {
    std::string text;
    if (round == 2500) {
      text = random_text(rng, 100000, "abcdefghij ");
    } else if (round % 3 == 0) {
      for (std::size_t i = rng() % 40; i > 0; --i) text += code_points[rng() % code_points.size()];
    } else {
      text = random_text(rng, rng() % 200, round % 2 == 0 ? "ab" : "abcdefgh ");
    }
    ASSERT_EQ(square_sum(squares, text), naive_square_sum(text)) << round;
  }
}

}  // namespace
