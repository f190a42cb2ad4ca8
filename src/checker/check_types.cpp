#include "checker/check_types.hpp"

namespace sc::checker {

std::string_view level_name(Level level) noexcept {
  switch (level) {
    case Level::kSufficient:
      return "sufficient";
    case Level::kPartial:
      return "partial";
    case Level::kInsufficient:
      return "insufficient";
  }
  return "insufficient";
}

std::string_view relevance_source_name(RelevanceSource source) noexcept {
  switch (source) {
    case RelevanceSource::kConstant:
      return "constant";
    case RelevanceSource::kLexical:
      return "lexical";
    case RelevanceSource::kEmbedding:
      return "embedding";
    case RelevanceSource::kNone:
      return "none";
  }
  return "none";
}

}  // namespace sc::checker
