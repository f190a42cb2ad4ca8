/// @brief libFuzzer target: the sufficiency checker, default and reference scoring, on an
/// arbitrary query and chunk set (fields split at 0x1E). Scores are finite and in [0, 1]; the level
/// is the score's level; a query that is empty or blank is refused (default scoring) with
/// std::invalid_argument, never a crash.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "checker/checker.hpp"
#include "fuzz_input.hpp"

namespace {

namespace ck = sc::checker;

const ck::SufficiencyChecker& checker(ck::Scoring scoring) {
  static const auto make = [](ck::Scoring s) {
    ck::CheckerConfig config;
    config.scoring = s;
    config.weights = ck::default_weights(s);
    return ck::SufficiencyChecker(config, sc::fuzz::english_statistics(),
                                  sc::fuzz::english_relations());
  };
  static const ck::SufficiencyChecker by_default = make(ck::Scoring::kDefault);
  static const ck::SufficiencyChecker by_reference = make(ck::Scoring::kReference);
  return scoring == ck::Scoring::kDefault ? by_default : by_reference;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using sc::fuzz::require;
  const std::vector<std::string_view> parts = sc::fuzz::fields(data, size);
  ck::CheckInput input;
  input.query = parts[0];
  input.contents.assign(parts.begin() + 1, parts.end());
  for (const ck::Scoring scoring : {ck::Scoring::kDefault, ck::Scoring::kReference}) {
    ck::CheckResult result;
    try {
      result = checker(scoring).check(input);
    } catch (const std::invalid_argument&) {
      continue;  // a refused input (an empty query) is an answer too
    }
    require(sc::fuzz::in_unit(result.score), "score finite and in [0, 1]");
    const ck::CheckerConfig& c = checker(scoring).config();
    require(result.level == ck::level_of(result.score, c.sufficient, c.partial),
            "the level is the score's level");
  }
  return 0;
}
