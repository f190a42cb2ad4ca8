/// @brief QueryTypeRules: query types as phrase data; classify a query, check that chunks hold its
/// kind of evidence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "claims/claim_tokens.hpp"
#include "claims/phrases.hpp"

namespace sc::claims {

/// The fallback type: no query phrase matched; evidence is a chunk with the query's key terms.
inline constexpr std::string_view kGeneralType = "general";

/// One query type: phrases that mark a query of this type, and phrases that mark a chunk holding
/// this type of answer (PhraseSet syntax: words, "*" wildcards; matched on stemmed tokens).
struct QueryTypeSpec {
  std::string name;
  std::vector<std::string> query_patterns;
  std::vector<std::string> evidence_patterns;
};

/// What is_evidence_sufficient decides.
struct EvidenceCheck {
  std::string query_type;
  bool is_sufficient = false;
  std::vector<std::size_t> supporting;  // chunk indexes: relevant, with the type's evidence
  std::vector<std::size_t> relevant;    // chunk indexes holding enough key terms
  std::vector<std::string> key_terms;   // the query's key terms as written (first occurrence)
  std::string reason;
};

/// Query types in priority order (most specific first) plus the implicit "general". Immutable:
/// one object serves many threads. Build a new one to extend it.
class QueryTypeRules {
 public:
  /// `types`: most specific first; names must be non-empty, distinct and not "general".
  /// `min_term_fraction` in (0, 1]: the share of the query's key terms a chunk must hold to be
  /// relevant to a typed query (at least one; a general query needs one). Throws
  /// std::invalid_argument naming the bad entry.
  explicit QueryTypeRules(std::vector<QueryTypeSpec> types, double min_term_fraction = 0.5);

  /// punishment, procedure, scope, definition (their phrases: see query_type.cpp).
  static const std::vector<QueryTypeSpec>& default_types();

  const std::vector<QueryTypeSpec>& types() const noexcept { return specs_; }
  double min_term_fraction() const noexcept { return min_term_fraction_; }

  /// The first type (in priority order) one of whose query phrases occurs in `query`, else
  /// "general".
  std::string_view classify(std::string_view query) const;

  /// Classifies `query`, then: a "general" query needs a chunk holding any of its key terms
  /// (content words outside the matched query phrases); any other type needs a relevant chunk
  /// (holding at least min_term_fraction of the key terms) with one of the type's evidence
  /// phrases. With no key term every chunk is relevant.
  EvidenceCheck evidence(std::string_view query, const std::vector<std::string_view>& chunks) const;

 private:
  std::vector<QueryTypeSpec> specs_;
  double min_term_fraction_;
  std::vector<PhraseSet> query_sets_;
  std::vector<PhraseSet> evidence_sets_;
  KeyFilter query_filter_;
  KeyFilter evidence_filter_;
};

}  // namespace sc::claims
