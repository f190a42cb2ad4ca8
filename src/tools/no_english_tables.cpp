// Empty English tables for the build-time generator (make_english_tables.cpp): it links the core
// without the tables it is about to generate, so its vocabulary analyses every word itself.
#include "checker/english_tables.hpp"

namespace sc::checker {

const SeedVocabulary& english_seed_vocabulary() noexcept {
  static constexpr SeedVocabulary kEmpty{};
  return kEmpty;
}

const EnglishFrequencies& english_frequencies() noexcept {
  static constexpr EnglishFrequencies kEmpty{};
  return kEmpty;
}

const EnglishRelations& english_relations() noexcept {
  static constexpr EnglishRelations kEmpty{};
  return kEmpty;
}

}  // namespace sc::checker
