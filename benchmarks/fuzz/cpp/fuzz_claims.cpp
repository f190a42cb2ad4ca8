/// @brief libFuzzer target: claim coverage on an arbitrary answer and chunk set (fields split at
/// 0x1E; a chunk's id is its text up to the first 0x1F, else "S<n>"). Every sentence span lies in
/// the answer, scores are finite and in [0, 1], the ratios are in [0, 1]; duplicate ids are refused
/// with std::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "claims/answer_coverage.hpp"
#include "claims/claim_config.hpp"
#include "fuzz_input.hpp"

namespace {

namespace cl = sc::claims;

const cl::ClaimConfig& config(cl::Mode mode) {
  static const auto make = [](cl::Mode m) {
    cl::ClaimOptions options;
    options.mode = m;
    options.max_sentences = 100000;
    return cl::ClaimConfig(options, sc::fuzz::english_statistics(), sc::fuzz::english_relations());
  };
  static const cl::ClaimConfig by_default = make(cl::Mode::Default);
  static const cl::ClaimConfig by_reference = make(cl::Mode::Reference);
  return mode == cl::Mode::Default ? by_default : by_reference;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using sc::fuzz::require;
  const std::vector<std::string_view> parts = sc::fuzz::fields(data, size);
  const std::string_view answer = parts[0];
  std::vector<std::string> ids;
  std::vector<cl::ChunkInput> chunks;
  ids.reserve(parts.size());
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t cut = parts[i].find('\x1f');
    ids.push_back(cut == std::string_view::npos ? "S" + std::to_string(i)
                                                : std::string(parts[i].substr(0, cut)));
  }
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t cut = parts[i].find('\x1f');
    chunks.push_back(
        {ids[i - 1], cut == std::string_view::npos ? parts[i] : parts[i].substr(cut + 1)});
  }
  for (const cl::Mode mode : {cl::Mode::Default, cl::Mode::Reference}) {
    cl::AnswerResult result;
    try {
      result = cl::check_answer(config(mode), answer, chunks);
    } catch (const std::invalid_argument&) {
      continue;  // duplicate chunk ids
    }
    std::size_t end = 0;
    for (const cl::ClaimResult& claim : result.claims) {
      require(claim.span.begin >= end && claim.span.end <= answer.size(), "claim span in order");
      end = claim.span.end;
      require(sc::fuzz::in_unit(claim.score), "claim score finite and in [0, 1]");
      // Reasons are worded only when read: every view they keep must still be readable here.
      require(!cl::reason_text(claim, chunks).empty(), "every claim has a reason");
    }
    require(sc::fuzz::in_unit(result.supported_ratio), "supported_ratio in [0, 1]");
    require(sc::fuzz::in_unit(result.attribution_coverage), "attribution_coverage in [0, 1]");
    require(result.covered_count <= result.claim_count, "covered <= claims");
    if (!chunks.empty()) {
      const cl::ClaimResult one = cl::check_claim(config(mode), answer, chunks);
      require(sc::fuzz::in_unit(one.score), "check_claim score in [0, 1]");
      require(!cl::reason_text(one, chunks).empty(), "check_claim has a reason");
    }
  }
  return 0;
}
