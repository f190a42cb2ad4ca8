#include "checker/default_score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/copies.hpp"
#include "checker/coverage.hpp"
#include "checker/edit_distance.hpp"
#include "checker/embedding_relevance.hpp"
#include "checker/explain.hpp"
#include "checker/ngram.hpp"
#include "checker/query_prefixes.hpp"
#include "checker/query_terms.hpp"
#include "checker/questions.hpp"
#include "checker/scanner.hpp"
#include "checker/signals.hpp"
#include "checker/vocabulary.hpp"
#include "checker/word_relations.hpp"
#include "common/renew.hpp"
#include "common/trim.hpp"
#include "text/tokenizer.hpp"

namespace sc::checker {
namespace {

// Per-thread buffers, reused by every check on the thread so a check allocates (almost) nothing.
struct Scratch {
  QueryAnalysis query;
  NgramRelevance relevance;
  CoverageSets sets;
  std::vector<std::int32_t> slot_of_term;   // vocabulary term id -> query term index, or -1
  QueryPrefixes prefixes;                   // the query's prefix groups
  std::vector<std::uint32_t> seen;          // vocabulary term id -> epoch when seen in context
  std::vector<std::uint32_t> bridge_epoch;  // vocabulary term id -> epoch when is_bridge was set
  std::vector<char> is_bridge;              // a rare non-query term of the best sentence's chunk
  std::uint32_t epoch = 0;
  std::vector<std::uint32_t> context_terms;   // distinct context term ids, in order of appearance
  std::vector<std::uint32_t> flat_terms;      // context term ids by sentence (repeats kept)
  std::vector<std::uint32_t> sentence_begin;  // index into flat_terms, one per sentence + end
  std::vector<std::uint32_t> sentence_chunk;
  std::vector<std::uint32_t>
      chunk_first;  // index of each chunk's first sentence, one per chunk + end
  std::vector<char> sentence_negated;
  std::vector<char> sentence_asks;  // a question (questions.hpp): not the answering sentence
  std::vector<double> weights;
  std::vector<char> typo;     // query term: a rare word with one-edit variants in the context
  std::vector<char> related;  // query term: a related word is in the context
  std::vector<std::int32_t> group;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> variants;  // (context term id, query index)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> antonyms;  // (context term id, query index)
  std::vector<double> cov;
  std::vector<double> scov;
  std::vector<std::uint32_t> first_of;  // chunk -> the first chunk with its text (find_copies)
  std::vector<std::uint32_t> order;
};

// Marks the query's terms in the scratch map for one check and unmarks them after, even on an
// exception, so the map is all -1 between checks (no per-check clearing of a map as large as the
// vocabulary).
class QueryMarks {
 public:
  QueryMarks(Scratch& s, const Vocabulary& vocabulary) : s_(s) {
    if (s_.slot_of_term.size() < vocabulary.term_count()) {
      s_.slot_of_term.resize(vocabulary.term_count(), -1);
    }
  }
  QueryMarks(const QueryMarks&) = delete;
  QueryMarks& operator=(const QueryMarks&) = delete;
  ~QueryMarks() {
    for (const QueryTerm& term : s_.query.terms) s_.slot_of_term[term.term] = -1;
  }

 private:
  Scratch& s_;
};

// Not inlined: the check then holds one plain reference, where an inlined thread_local was
// re-addressed (a __tls_get_addr call) inside its loops.
[[gnu::noinline]] Scratch& thread_scratch() {
  thread_local Scratch scratch;
  return scratch;
}

// Scratch grows with the context; after a large check the thread gives it back rather than keep
// the high-water mark for the rest of its life.
class ScratchTrim {
 public:
  ScratchTrim(Scratch& s, std::size_t input_bytes) : s_(s), input_bytes_(input_bytes) {}
  ScratchTrim(const ScratchTrim&) = delete;
  ScratchTrim& operator=(const ScratchTrim&) = delete;
  ~ScratchTrim() {
    if (input_bytes_ > kScratchKeepBytes) common::renew(s_);
  }

 private:
  Scratch& s_;
  std::size_t input_bytes_;
};

bool seen_in_context(const Scratch& s, std::uint32_t term) noexcept {
  return term < s.seen.size() && s.seen[term] == s.epoch;
}

bool is_query_term(const Scratch& s, std::uint32_t term) noexcept {
  return term < s.slot_of_term.size() && s.slot_of_term[term] >= 0;
}

// Marks the bridge terms of `chunk`: its terms that are not query terms and are rare (zipf below
// kBridgeMaxZipf; unknown terms count as kUnknownZipf). Another chunk's sentence joins the best
// sentence only through one of them: the entity a multi-hop question hops through.
void mark_bridges(Scratch& s, const Vocabulary& vocabulary, const TermStatistics& statistics,
                  std::uint32_t chunk) {
  if (s.bridge_epoch.size() < s.seen.size()) {
    s.bridge_epoch.resize(s.seen.size(), 0);
    s.is_bridge.resize(s.seen.size(), 0);
  }
  const std::uint32_t first = s.sentence_begin[s.chunk_first[chunk]];
  const std::uint32_t last = s.sentence_begin[s.chunk_first[chunk + 1]];
  for (std::uint32_t i = first; i < last; ++i) {
    const std::uint32_t id = s.flat_terms[i];
    if (s.bridge_epoch[id] == s.epoch) continue;
    s.bridge_epoch[id] = s.epoch;
    s.is_bridge[id] = !is_query_term(s, id) &&
                      statistics.zipf(vocabulary.term(id)).value_or(kUnknownZipf) < kBridgeMaxZipf;
  }
}

// Whether sentence k holds a bridge term marked by mark_bridges() in this check.
bool holds_bridge(const Scratch& s, std::size_t k) noexcept {
  for (std::uint32_t i = s.sentence_begin[k]; i < s.sentence_begin[k + 1]; ++i) {
    const std::uint32_t id = s.flat_terms[i];
    if (id < s.bridge_epoch.size() && s.bridge_epoch[id] == s.epoch && s.is_bridge[id]) return true;
  }
  return false;
}

// x ** y as Python computes it for floats: the C library's pow. The exponent goes through a
// volatile so the compiler cannot turn pow(x, 2.0) into x * x, which differs from libm's pow in
// the last bit for some x.
double python_pow(double x, double y) noexcept {
  const volatile double exponent = y;
  return std::pow(x, exponent);
}

// The first index of the largest value (Python's max(range(n), key=values.__getitem__)).
std::size_t first_argmax(const std::vector<double>& values) noexcept {
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (values[i] > values[best]) best = i;
  }
  return best;
}

}  // namespace

CheckResult default_score(const CheckInput& input, const CheckerConfig& config,
                          const TermStatistics& statistics, const WordRelations& relations) {
  CheckResult result;
  const std::size_t n = input.contents.size();
  const long long min_contexts = input.min_contexts.value_or(config.min_contexts);
  const double recency_days = input.recency_days.value_or(config.recency_days);
  if (n == 0) {
    result.missing_aspects.emplace_back(explain::kNoContext);
    return result;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (input.contents[i].size() >= std::numeric_limits<std::uint32_t>::max()) {
      throw std::invalid_argument("contents[" + std::to_string(i) +
                                  "] is too long: chunks must be shorter than 4 GiB");
    }
  }

  Scratch& s = thread_scratch();
  std::size_t input_bytes = input.query.size();
  for (const std::string_view text : input.contents) input_bytes += text.size();
  for (const std::string_view text : input.summaries) input_bytes += text.size();
  const ScratchTrim trim(s, input_bytes);
  VocabularyLease lease;
  Vocabulary& vocabulary = lease.get();

  // --- query terms, and where each query term and prefix sits
  QueryAnalysis& q = s.query;
  analyze_query(input.query, vocabulary, statistics, q);
  const std::size_t n_terms = q.terms.size();
  const QueryMarks marks(s, vocabulary);
  s.group.assign(n_terms, -1);
  s.weights.resize(n_terms);
  s.prefixes.reset(n_terms);
  for (std::size_t t = 0; t < n_terms; ++t) {
    const QueryTerm& term = q.terms[t];
    s.slot_of_term[term.term] = static_cast<std::int32_t>(t);
    s.weights[t] = term.weight;
    if (term.prefix != kNoTerm) {
      s.group[t] = s.prefixes.add(term.prefix, term_prefix(vocabulary.term(term.term)));
    }
  }
  const bool any_prefix = !s.prefixes.empty();
  const bool use_embeddings = input.query_embedding != nullptr && input.chunk_embeddings != nullptr;
  const bool lexical = !use_embeddings;
  if (lexical) s.relevance.set_query(q.ngram_words, kRelevanceScale);
  const bool ngrams = lexical && !s.relevance.empty();

  // Which terms have variants is known only after the scan (for the explanations).
  s.typo.assign(n_terms, 0);
  s.related.assign(n_terms, 0);
  s.sets.reset(s.weights, q.total_weight, s.group);

  // --- one pass over every chunk: sentences, tokens, term sets, n-gram relevance
  if (++s.epoch == 0) {  // wrapped: old stamps could collide
    std::fill(s.seen.begin(), s.seen.end(), 0);
    std::fill(s.bridge_epoch.begin(), s.bridge_epoch.end(), 0);
    s.epoch = 1;
  }
  s.context_terms.clear();
  s.flat_terms.clear();
  s.sentence_begin.clear();
  s.sentence_chunk.clear();
  s.chunk_first.clear();
  s.sentence_negated.clear();
  s.sentence_asks.clear();
  std::size_t n_tokens = 0;
  std::size_t n_content = 0;
  std::size_t n_blank = 0;     // empty or whitespace-only chunks: not counted as contexts
  std::size_t n_repeated = 0;  // copies of an earlier chunk's text (not blank): read once
  const bool copies = find_copies(input.contents, s.first_of, s.order);
  for (std::size_t c = 0; c < n; ++c) s.sets.add_set();  // sets 0..n-1: the chunks
  // Sentence state; sets n, n+1, ...: the sentences in order.
  std::size_t set = 0;
  bool negated = false;
  bool score_sentence = false;
  // A question ("Is X the capital?") asserts nothing: known from its first word and its end.
  enum class Asking : std::uint8_t { kNoWordYet, kAsks, kNo };
  Asking asking = Asking::kNoWordYet;  // kAsks: the first word asks; then track the sentence's end
  std::size_t last_end = 0;            // where the sentence's last token ends in its chunk
  std::string_view chunk_text;
  bool may_ask = false;  // the chunk holds a "?"
  const auto begin_sentence = [&](std::size_t chunk) {
    set = s.sets.add_set();
    s.sentence_begin.push_back(static_cast<std::uint32_t>(s.flat_terms.size()));
    s.sentence_chunk.push_back(static_cast<std::uint32_t>(chunk));
    negated = false;
    asking = may_ask ? Asking::kNoWordYet : Asking::kNo;
    score_sentence = ngrams && !s.relevance.saturated();
    if (score_sentence) s.relevance.begin_sentence();
  };
  const auto end_sentence = [&]() {
    s.sentence_negated.push_back(negated ? 1 : 0);
    s.sentence_asks.push_back(asking == Asking::kAsks && ends_in_question(chunk_text, last_end));
    if (score_sentence) s.relevance.end_sentence();
  };
  const auto on_token = [&](const text::Token& token) {
    ++n_tokens;
    const WordInfo& info = vocabulary.lookup(token);
    negated |= info.negation;
    if (asking != Asking::kNo) {  // most sentences are ruled out at their first word
      if (asking == Asking::kNoWordYet && info.kind == text::TokenKind::Word) {
        asking = text::asks(info.folded) ? Asking::kAsks : Asking::kNo;
      }
      last_end = token.offset + token.text.size();
    }
    if (info.term == kNoTerm) return;
    ++n_content;
    if (score_sentence) s.relevance.add_word(info.folded);
    const std::uint32_t term = info.term;
    s.flat_terms.push_back(term);
    if (term >= s.seen.size()) s.seen.resize(term + 1024, 0);
    if (s.seen[term] != s.epoch) {
      s.seen[term] = s.epoch;
      s.context_terms.push_back(term);
    }
    if (is_query_term(s, term)) {
      s.sets.set_exact(set, static_cast<std::size_t>(s.slot_of_term[term]));
    }
    if (any_prefix && info.prefix != kNoTerm) {
      const std::int32_t group =
          s.prefixes.find(info.prefix, [&] { return vocabulary.term(term); });
      if (group >= 0) s.sets.set_prefix(set, static_cast<std::size_t>(group));
    }
  };
  for (std::size_t c = 0; c < n; ++c) {
    s.chunk_first.push_back(static_cast<std::uint32_t>(s.sentence_chunk.size()));
    if (copies && s.first_of[c] != c) {  // says nothing new: no sentence, token or context
      // The first chunk with this text was read (it is no copy): without sentences, it was blank.
      const std::uint32_t first = s.first_of[c];
      const bool blank_copy = s.chunk_first[first] == s.chunk_first[first + 1];
      (blank_copy ? n_blank : n_repeated) += 1;
      continue;
    }
    chunk_text = input.contents[c];
    // Most chunks hold no "?", so no sentence of theirs is a question: their tokens skip the test.
    may_ask = chunk_text.find('?') != std::string_view::npos;
    begin_sentence(c);
    const std::size_t sentences = scan_chunk(chunk_text, on_token, [&]() {
      end_sentence();
      begin_sentence(c);
    });
    if (sentences == 0) {  // a blank chunk: the provisional sentence holds nothing, drop it
      ++n_blank;
      s.sets.pop_set();
      s.sentence_begin.pop_back();
      s.sentence_chunk.pop_back();
      if (score_sentence) s.relevance.discard_sentence();
    } else {
      end_sentence();
    }
  }
  const double relevance_raw = ngrams ? s.relevance.best() : 0.0;
  const std::size_t n_sentences = s.sentence_chunk.size();
  s.sentence_begin.push_back(static_cast<std::uint32_t>(s.flat_terms.size()));
  s.chunk_first.push_back(static_cast<std::uint32_t>(n_sentences));

  // --- variants of query terms in the context: one-edit variants of rare words absent from it
  // (typos, spelling variants) and related words (synonyms, derivations); antonyms of query terms
  // absent from it
  s.variants.clear();
  s.antonyms.clear();
  // The word's bytes are read only when the vocabulary likely holds it: a query's related words
  // are mostly absent, and on first sight each would cost two cache misses.
  const auto context_term = [&](const WordRelations::Links& links, std::size_t k) {
    const std::uint32_t id =
        vocabulary.find_term_hashed(links.hash(k), [&] { return relations.word(links.id(k)); });
    return id != kNoTerm && seen_in_context(s, id) ? id : kNoTerm;
  };
  for (std::size_t t = 0; t < n_terms; ++t) {
    const QueryTerm& term = q.terms[t];
    const auto index = static_cast<std::uint32_t>(t);
    const std::string_view word = vocabulary.term(term.term);
    const bool absent = !seen_in_context(s, term.term);
    if (absent && term.kind == text::TokenKind::Word && term.length >= kTypoMinLength &&
        term.zipf < kTypoMaxZipf) {
      for (const std::uint32_t other : s.context_terms) {
        if (one_edit_apart(word, vocabulary.term(other))) {
          s.variants.emplace_back(other, index);
          s.typo[t] = 1;
        }
      }
    }
    const WordRelations::Links related = relations.related(word);
    for (std::size_t k = 0; k < related.size(); ++k) {
      const std::uint32_t id = context_term(related, k);
      if (id == kNoTerm) continue;
      s.variants.emplace_back(id, index);
      s.related[t] = 1;
    }
    if (!absent) continue;
    const WordRelations::Links antonyms = relations.antonyms(word);
    for (std::size_t k = 0; k < antonyms.size(); ++k) {
      const std::uint32_t id = context_term(antonyms, k);
      if (id != kNoTerm && !is_query_term(s, id)) {
        s.antonyms.emplace_back(id, index);
      }
    }
  }
  std::sort(s.variants.begin(), s.variants.end());

  // Sentence sets come after the n chunk sets; each chunk's set is the union of its sentences'.
  for (std::size_t k = 0; k < n_sentences; ++k) {
    const std::size_t set = n + k;
    if (!s.variants.empty()) {
      for (std::uint32_t i = s.sentence_begin[k]; i < s.sentence_begin[k + 1]; ++i) {
        const std::uint32_t id = s.flat_terms[i];
        auto it = std::lower_bound(s.variants.begin(), s.variants.end(),
                                   std::make_pair(id, std::uint32_t{0}));
        for (; it != s.variants.end() && it->first == id; ++it) s.sets.set_variant(set, it->second);
      }
    }
    s.sets.merge(s.sentence_chunk[k], set);
  }
  // Sets n + n_sentences + c: chunk c's topic, the marks at least half its sentences hold (chunks
  // of two or more sentences). They count as present in each of its sentences, which often name
  // the topic only by a pronoun.
  const std::size_t topic0 = n + n_sentences;
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t topic = s.sets.add_set();
    const std::size_t first = s.chunk_first[c];
    const std::size_t count = s.chunk_first[c + 1] - first;
    if (count >= 2) s.sets.mark_topic(topic, n + first, count);
  }

  // --- coverage = (.35 document coverage + .65 relation) x polarity, squared
  // A query without a content term: nothing of it can be found, so nothing is covered.
  double doc_cov = 0.0;
  double relation = 0.0;
  double coverage = 0.0;
  bool polarity_ok = true;
  std::int32_t contradicted = -1;  // a query term whose antonym the best sentence holds
  bool only_asked = false;         // a question matched the query better than any other sentence
  if (q.total_weight > 0.0) {
    std::vector<double>& cov = s.cov;
    cov.resize(n);
    for (std::size_t c = 0; c < n; ++c) cov[c] = s.sets.coverage(c);
    const std::size_t best_chunk = first_argmax(cov);
    doc_cov = cov[best_chunk];
    for (std::size_t j = 0; j < n; ++j) {
      if (j != best_chunk) doc_cov = std::max(doc_cov, s.sets.coverage(best_chunk, j));
    }
    if (n_sentences > 0) {
      std::vector<double>& scov = s.scov;
      scov.resize(n_sentences);
      // A question asserts nothing: it is neither the best sentence nor a bridge, and does not
      // dilute the concentration bonus (its terms still count for doc_cov and its chunk's topic).
      double asked = 0.0;
      for (std::size_t k = 0; k < n_sentences; ++k) {
        const double v = s.sets.coverage(n + k, topic0 + s.sentence_chunk[k]);
        if (s.sentence_asks[k] != 0) asked = std::max(asked, v);
        scov[k] = s.sentence_asks[k] != 0 ? 0.0 : v;
      }
      const std::size_t best = first_argmax(scov);
      only_asked = asked > scov[best];
      const std::uint32_t best_chunk_of = s.sentence_chunk[best];
      if (n > 1) mark_bridges(s, vocabulary, statistics, best_chunk_of);
      relation = scov[best];
      double far = 0.0;  // best share of a sentence in another chunk or > 1 sentence away
      for (std::size_t m = 0; m < n_sentences; ++m) {
        if (s.sentence_chunk[m] != best_chunk_of) {
          if (s.sentence_asks[m] == 0 && holds_bridge(s, m)) {
            relation = std::max(relation, s.sets.coverage(n + best, topic0 + best_chunk_of, n + m));
          }
          far = std::max(far, scov[m]);
        } else if (m + 1 < best || m > best + 1) {
          far = std::max(far, scov[m]);
        }
      }
      // Concentration: one place that answers beats the same terms spread evenly.
      relation = std::min(1.0, relation + kConcentrationBonus * (scov[best] - far));
      polarity_ok = q.negated == (s.sentence_negated[best] != 0);
      for (std::uint32_t i = s.sentence_begin[best]; i < s.sentence_begin[best + 1]; ++i) {
        for (const auto& [id, index] : s.antonyms) {
          if (id == s.flat_terms[i] &&
              (contradicted < 0 || index < static_cast<std::uint32_t>(contradicted))) {
            contradicted = static_cast<std::int32_t>(index);
          }
        }
      }
    } else {
      relation = 0.0;
      polarity_ok = !q.negated;
    }
    double polarity = 1.0;
    if (!polarity_ok) polarity = q.negated ? kNegationFactor : kReverseNegationFactor;
    if (contradicted >= 0) polarity *= kContradictionFactor;
    const double combined = (kDocShare * doc_cov + (1.0 - kDocShare) * relation) * polarity;
    coverage = python_pow(combined, kCoveragePower);
  }

  // --- relevance
  double relevance = 0.0;
  if (use_embeddings) {
    const double best =
        max_cosine_engine(input.query_embedding, input.chunk_embeddings, n, input.dim);
    relevance = std::min(1.0, std::max(0.0, best));
    result.relevance_source = RelevanceSource::kEmbedding;
  } else {
    relevance = ngrams ? std::min(1.0, relevance_raw / kRelevanceScale) : 0.0;
    result.relevance_source = RelevanceSource::kLexical;
  }

  // --- density, count, recency, score
  const double density = density_signal(n_content, n_tokens, input.temperatures, n);
  // A blank chunk says nothing and a copy of another says nothing new: neither makes up
  // min_contexts.
  const std::size_t n_distinct = n - n_blank - n_repeated;
  const double count = count_signal(n_distinct, min_contexts);
  std::optional<double> recency;
  if (input.timestamps != nullptr) {
    recency =
        recency_signal(input.timestamps, n, input.now ? *input.now : now_seconds(), recency_days);
  }
  const Weights& w = config.weights;
  // Every signal in [0, 1] before combining (max first: NaN becomes 0).
  const auto unit = [](double v) { return std::min(1.0, std::max(0.0, v)); };
  double wsum = w.coverage + w.relevance + w.density + w.count;
  double weighted = w.coverage * unit(coverage) + w.relevance * unit(relevance) +
                    w.density * unit(density) + w.count * unit(count);
  if (recency) {
    wsum += w.recency;
    weighted += w.recency * unit(*recency);
  }
  result.score = wsum > 0.0 ? python_pow(weighted / wsum, kScoreExponent) : 0.0;
  result.level = level_of(result.score, config.sufficient, config.partial);
  result.signals = Signals{coverage, relevance, density, count, recency ? *recency : NAN};
  result.doc_coverage = doc_cov;
  result.relation = relation;
  result.polarity_ok = polarity_ok;

  // --- explanations
  for (const QueryTerm& term : q.terms) {
    const bool found = seen_in_context(s, term.term);
    (found ? result.covered_terms : result.missing_terms).emplace_back(term.surface);
  }
  for (std::size_t t = 0; t < n_terms; ++t) {
    const QueryTerm& term = q.terms[t];
    if (seen_in_context(s, term.term)) continue;
    std::string_view prefix = "Query term '";
    std::string_view suffix = "' not found in context";
    if (term.kind == text::TokenKind::Number) {
      prefix = "Number '";
      suffix = "' from the query not found in context";
    } else if (term.kind == text::TokenKind::Identifier) {
      prefix = "Identifier '";
      suffix = "' from the query not found in context";
    } else if (s.typo[t]) {
      suffix = "' only matched as a spelling variant in context";
    } else if (s.related[t]) {
      suffix = "' only matched by a related word in context";
    } else if (s.group[t] >= 0) {
      bool partly = false;
      for (std::size_t c = 0; c < n && !partly; ++c) {
        partly = s.sets.has_prefix_group(c, static_cast<std::size_t>(s.group[t]));
      }
      if (partly) suffix = "' only partly matched in context";
    }
    result.missing_aspects.push_back(explain::quoted(prefix, term.surface, suffix));
  }
  if (q.total_weight <= 0.0) result.missing_aspects.emplace_back(explain::kNoKeyTerms);
  if (q.truncated) result.missing_aspects.emplace_back(explain::kQueryTruncated);
  if (q.total_weight > 0.0 && relation < 0.5) {
    result.missing_aspects.emplace_back(explain::kNotTogether);
  }
  if (only_asked) result.missing_aspects.emplace_back(explain::kOnlyAsked);
  if (!polarity_ok) {
    result.missing_aspects.emplace_back(q.negated ? explain::kQueryNegated
                                                  : explain::kEvidenceNegated);
  }
  if (contradicted >= 0) {
    result.missing_aspects.push_back(
        explain::quoted("Best supporting sentence holds an antonym of query term '",
                        q.terms[static_cast<std::size_t>(contradicted)].surface, "'"));
  }
  if (density < 0.5) result.missing_aspects.emplace_back(explain::kThinContext);
  if (count < 1.0) {
    result.missing_aspects.push_back(
        explain::too_few_contexts(n_distinct, min_contexts, n_blank, n_repeated));
  }
  if (doc_cov > 0.7) {
    result.confidence_factors.push_back("Good keyword coverage (" + explain::percent(doc_cov) +
                                        ")");
  }
  if (q.total_weight > 0.0 && relation > 0.7) {
    result.confidence_factors.push_back("Query terms found together in one passage (" +
                                        explain::percent(relation) + ")");
  }
  if (relevance > 0.7) {
    result.confidence_factors.push_back(
        std::string(use_embeddings ? "High semantic relevance (" : "High lexical relevance (") +
        explain::percent(relevance) + ")");
  }
  return result;
}

}  // namespace sc::checker
