#include "claims/query_type.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

#include "common/no_destructor.hpp"
#include "text/interner.hpp"
#include "text/stopwords.hpp"

namespace sc::claims {
namespace {

/// One query token: its key, as written, and whether it is a content word.
struct QueryToken {
  std::string key;
  std::string_view surface;
  bool content;
};

std::vector<QueryToken> query_tokens(std::string_view query) {
  std::vector<QueryToken> out;
  std::string folded;
  std::string key;
  for_each_claim_token(query, citation_runs_of(query), [&](const ClaimToken& t) {
    fold_token(t.token.text, folded);
    const bool number = token_key(t.token.text, t.token.kind, folded, key);
    out.push_back({key, t.token.text, is_content(number, folded, text::StopWords::english())});
  });
  return out;
}

std::vector<std::int32_t> ids_in(const PhraseSet& set, const std::vector<QueryToken>& tokens) {
  std::vector<std::int32_t> ids;
  ids.reserve(tokens.size());
  for (const QueryToken& t : tokens) ids.push_back(set.id(t.key));
  return ids;
}

std::string join(const std::vector<std::string>& words, std::string_view quote = "") {
  std::string out;
  for (const std::string& w : words) {
    if (!out.empty()) out += ", ";
    out += quote;
    out += w;
    out += quote;
  }
  return out;
}

}  // namespace

const std::vector<QueryTypeSpec>& QueryTypeRules::default_types() {
  // Most specific first: "What is the punishment for cheating?" is a punishment query.
  static const NoDestructor<std::vector<QueryTypeSpec>> types(std::vector<QueryTypeSpec>{
      {"punishment",
       {"punishment", "punish", "penalty", "penalties", "penal", "sentence for", "fine for",
        "imprisonment", "jail", "prison", "consequences of", "consequence of", "what happens if",
        "liable"},
       {"punish", "punishable", "punishment", "penalty", "imprisonment", "imprisoned", "fine",
        "fined", "jail", "prison", "sentenced", "liable", "forfeit", "rigorous", "custody"}},
      {"procedure",
       {"how to", "how do", "how does", "how can", "how should", "what are the steps", "what steps",
        "steps to", "steps for", "procedure", "process for", "process of", "process to",
        "apply for"},
       {"step", "procedure", "process", "first", "submit", "file", "filed", "apply", "application",
        "form", "register", "registration", "followed by", "within * days", "must be"}},
      {"scope",
       {"extent", "applicability", "applicable", "applies to", "apply to", "scope", "jurisdiction",
        "who is covered", "does * apply", "covered by", "extends to", "extend to", "limits of",
        "limit of"},
       {"applies to", "apply to", "applicable", "extends to", "extend to", "extent", "scope",
        "jurisdiction", "whole of", "throughout", "except", "exempt", "covers", "covered",
        "within the territory", "shall apply", "not apply"}},
      {"definition",
       {"what is", "what are", "define", "definition", "meaning of", "what does * mean",
        "what do * mean", "meant by", "explain the term", "who is"},
       {"means", "meaning", "defined as", "define", "definition", "refers to", "denotes", "is a",
        "is an", "is the", "are a", "are the", "known as", "called", "is deemed", "shall mean",
        "includes", "described as",
        // A statute's own section text defines its offence: "Whoever ... shall be punished",
        // "... is said to cheat".
        "whoever", "is said to"}},
  });
  return *types;
}

QueryTypeRules::QueryTypeRules(std::vector<QueryTypeSpec> types, double min_term_fraction)
    : specs_(std::move(types)), min_term_fraction_(min_term_fraction) {
  if (std::isnan(min_term_fraction) || min_term_fraction <= 0.0 || min_term_fraction > 1.0) {
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", min_term_fraction);
    throw std::invalid_argument(std::string("min_term_fraction must be in (0, 1]; got ") + shown);
  }
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const std::string& name = specs_[i].name;
    const std::string where = "types[" + std::to_string(i) + "]";
    if (name.empty()) throw std::invalid_argument(where + " has an empty name");
    if (name == kGeneralType) {
      throw std::invalid_argument(where + " is 'general': that is the fallback type, not a rule");
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (specs_[j].name == name) {
        throw std::invalid_argument(where + " repeats the name '" + name + "' of types[" +
                                    std::to_string(j) + "]");
      }
    }
    query_sets_.emplace_back(specs_[i].query_patterns);
    evidence_sets_.emplace_back(specs_[i].evidence_patterns);
    query_sets_.back().add_to(query_filter_);
    evidence_sets_.back().add_to(evidence_filter_);
  }
}

std::string_view QueryTypeRules::classify(std::string_view query) const {
  const std::vector<QueryToken> tokens = query_tokens(query);
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (query_sets_[i].matches_anywhere(ids_in(query_sets_[i], tokens))) return specs_[i].name;
  }
  return kGeneralType;
}

EvidenceCheck QueryTypeRules::evidence(std::string_view query,
                                       const std::vector<std::string_view>& chunks) const {
  EvidenceCheck out;
  const std::vector<QueryToken> tokens = query_tokens(query);

  // The type, and which query tokens any type's query phrases cover (not key terms).
  std::size_t type = specs_.size();
  std::vector<bool> covered(tokens.size(), false);
  std::vector<bool> marks;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    if (!query_sets_[i].mark_matches(ids_in(query_sets_[i], tokens), marks)) continue;
    if (type == specs_.size()) type = i;
    for (std::size_t t = 0; t < tokens.size(); ++t) covered[t] = covered[t] || marks[t];
  }
  const bool general = type == specs_.size();
  out.query_type = general ? std::string(kGeneralType) : specs_[type].name;

  text::TermInterner terms;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    if (!tokens[t].content || covered[t]) continue;
    const std::size_t before = terms.size();
    terms.intern(tokens[t].key);
    if (terms.size() != before) out.key_terms.emplace_back(tokens[t].surface);
  }
  const std::size_t n_terms = terms.size();
  // A general query needs any key term (the original design); a typed one min_term_fraction of
  // them in the chunk that holds its kind of language. A query without a key term ("what is it?",
  // "define it") names nothing a chunk could hold: no chunk is relevant, and it is not sufficient.
  const std::size_t required =
      general ? 1
              : std::max<std::size_t>(
                    1, static_cast<std::size_t>(
                           std::ceil(min_term_fraction_ * static_cast<double>(n_terms) - 1e-9)));

  KeyFilter filter;
  for (const std::string_view key : terms.terms()) filter.add(key);
  const PhraseSet* evidence = general ? nullptr : &evidence_sets_[type];
  if (evidence != nullptr) evidence->add_to(filter);

  std::vector<bool> found(n_terms);
  std::vector<std::int32_t> ids;
  std::string folded;
  std::string key;
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    std::fill(found.begin(), found.end(), false);
    std::size_t hits = 0;
    ids.clear();
    for_each_claim_token(chunks[c], citation_runs_of(chunks[c]), [&](const ClaimToken& t) {
      std::int32_t id = kNoKey;
      fold_token(t.token.text, folded);
      const bool number = !number_part(t.token.text, t.token.kind).empty();
      if (number || filter.might_match_word(folded)) {
        token_key(t.token.text, t.token.kind, folded, key);
        if (filter.has(prefix_code(key))) {
          if (const auto term = terms.find(key); term && !found[*term]) {
            found[*term] = true;
            ++hits;
          }
          if (evidence != nullptr) id = evidence->id(key);
        }
      }
      ids.push_back(id);
    });
    if (hits < required) continue;
    out.relevant.push_back(c);
    if (evidence == nullptr || evidence->matches_anywhere(ids)) out.supporting.push_back(c);
  }
  out.is_sufficient = !out.supporting.empty();

  // The reason, in words (the caller names the chunks of `supporting`).
  const std::string terms_text = out.key_terms.empty() ? "" : " (" + join(out.key_terms, "'") + ")";
  if (chunks.empty()) {
    out.reason = "no chunks retrieved";
  } else if (n_terms == 0) {
    out.reason = out.query_type + " query: the query has no key term to look for";
  } else if (general) {
    out.reason = out.is_sufficient
                     ? "general query: a chunk holds a key term of the query" + terms_text
                     : "general query: no chunk holds a key term of the query" + terms_text;
  } else if (out.is_sufficient) {
    out.reason = out.query_type + " query: a relevant chunk has " + out.query_type + " language" +
                 terms_text;
  } else if (out.relevant.empty()) {
    out.reason = out.query_type + " query: no chunk holds the query's key terms" + terms_text;
  } else {
    out.reason = out.query_type + " query: no relevant chunk has " + out.query_type + " language";
  }
  return out;
}

}  // namespace sc::claims
