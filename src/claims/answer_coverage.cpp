#include "claims/answer_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <unordered_set>

#include "claims/claim_analysis.hpp"
#include "claims/claim_support.hpp"
#include "claims/key_table.hpp"
#include "claims/workspace.hpp"
#include "common/fixed2.hpp"
#include "common/parallel_for.hpp"
#include "common/quoted.hpp"
#include "text/citations.hpp"

namespace sc::claims {
namespace {

/// Fills `ids` (cleared) with chunk id -> input index; two chunks with one id are an error (a
/// citation could not say which).
void index_chunks(const std::vector<ChunkInput>& chunks, KeyTable& ids) {
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    const std::size_t before = ids.size();
    const std::uint32_t id = ids.intern_view(chunks[i].id);
    if (ids.size() == before) {
      throw std::invalid_argument("chunks[" + std::to_string(i) + "].id " + quoted(chunks[i].id) +
                                  " duplicates chunks[" + std::to_string(id) +
                                  "].id: citations need unique ids");
    }
  }
}

/// The state of one check: its chunks, analyzed on first use, and the scoring scratch (all in
/// the thread's workspace).
class Check {
 public:
  Check(const ClaimConfig& config, const std::vector<ChunkInput>& chunks, Workspace& workspace)
      : config_(config), chunks_(chunks), workspace_(workspace) {
    index_chunks(chunks, workspace.ids);
    if (workspace.profiles.size() < chunks.size()) workspace.profiles.resize(chunks.size());
    workspace.ready.assign(chunks.size(), kNone);
  }

  const ClaimConfig& config() const noexcept { return config_; }
  const std::vector<ChunkInput>& chunks() const noexcept { return chunks_; }
  std::optional<std::size_t> find(std::string_view id) const noexcept {
    if (const auto found = workspace_.ids.find(id)) return *found;
    return std::nullopt;
  }
  ClaimAnalyzer& analyzer() noexcept { return workspace_.analyzer; }
  /// Whether chunk i was analyzed (presence or full) in this check.
  bool analyzed(std::size_t i) const noexcept { return workspace_.ready[i] != kNone; }

  /// The chunk's profile; call only once every claim is analyzed.
  const ChunkProfile& chunk(std::size_t i) {
    ChunkProfile& profile = workspace_.profiles[i];
    if (workspace_.ready[i] != kFull) {
      workspace_.analyzer.chunk(chunks_[i].text, profile);
      workspace_.ready[i] = kFull;
    }
    return profile;
  }

  /// What may_reach() and contains() read of the chunk: its full profile once analyzed, else a
  /// presence-only one (most chunks no sentence cites never need more).
  const ChunkProfile& presence(std::size_t i) {
    ChunkProfile& profile = workspace_.profiles[i];
    if (workspace_.ready[i] == kNone) {
      workspace_.analyzer.chunk_presence(chunks_[i].text, profile);
      workspace_.ready[i] = config_.mode() == Mode::Default ? kPresence : kFull;
    }
    return profile;
  }

  /// False when the claim's support by chunk `i` is surely below `threshold` (see may_reach). A
  /// chunk not analyzed yet is first read as bytes (ruled_out): most chunks a sentence does not
  /// cite lack its heaviest words, and then need no analysis at all.
  bool may_reach(Pending& p, std::size_t i, double threshold) {
    if (!analyzed(i) && config_.mode() == Mode::Default) {
      if (ruled_out(p, i, threshold)) return false;
      // Read, and analyzed all the same (presence() below).
      if (workspace_.grams_chunk == i) ++fruitless_reads_;
    }
    return claims::may_reach(config_.mode(), p.profile, presence(i), threshold);
  }

  double score(const ClaimProfile& claim, std::size_t chunk_index) {
    return support_score(config_.mode(), claim, chunk(chunk_index), workspace_.scratch);
  }

  bool supports(Pending& p, std::size_t chunk_index, double threshold) {
    return may_reach(p, chunk_index, threshold) && score(p.profile, chunk_index) >= threshold;
  }

  Support support(const ClaimProfile& claim, std::size_t chunk_index) {
    if (config_.mode() == Mode::Default) {
      return default_support(claim, chunk(chunk_index), workspace_.scratch);
    }
    Support s;
    s.score = s.overlap = s.coverage = reference_overlap(claim, chunk(chunk_index));
    return s;
  }

  /// A meta candidate is meta when no chunk holds a content key of what follows its phrase.
  bool meta(const ClaimProfile& claim) {
    if (!claim.meta) return false;
    for (std::size_t i = 0; i < chunks_.size(); ++i) {
      const ChunkProfile& profile = presence(i);
      for (const std::uint32_t key : claim.meta_rest) {
        if (profile.contains(key)) return false;
      }
    }
    return true;
  }

 private:
  /// True when chunk i's bytes alone show the claim's support below `threshold`: its heaviest
  /// content words (and their related words) are absent, whatever else it holds (ChunkGrams). The
  /// bound is may_reach's with those words' weight taken out and everything else counted, with a
  /// wider margin, so it never rules out a pair may_reach lets through.
  bool ruled_out(Pending& p, std::size_t i, double threshold) {
    const ClaimProfile& claim = p.profile;
    if (claim.items.empty()) return false;
    ClaimAnalyzer& analyzer = workspace_.analyzer;
    if (!p.absence_ready) {
      p.absence.clear();
      for (std::size_t j = 0; j < claim.items.size(); ++j) {
        if (claim.kinds[j] == ItemKind::Content && analyzer.key_gram(claim.items[j]) != kNoGram) {
          p.absence.push_back(static_cast<std::uint32_t>(j));
        }
      }
      std::stable_sort(p.absence.begin(), p.absence.end(), [&](std::uint32_t a, std::uint32_t b) {
        return claim.weights[a] > claim.weights[b];
      });
      p.absence_weight = 0.0;
      for (const std::uint32_t j : p.absence) p.absence_weight += claim.weights[j];
      p.absence_ready = true;
    }
    constexpr double kMargin = 1e-6;  // may_reach's is 1e-9
    const auto below = [&](double absent) {
      return calibrate((claim.total - absent) / claim.total) < threshold - kMargin;
    };
    if (p.absence.empty() || !below(p.absence_weight)) return false;
    if (workspace_.grams_chunk != i) {
      // A reading spares an analysis only when no claim reaches the chunk: once most readings of
      // this check were followed by the analysis all the same (chunks sharing the claims' words,
      // long chunks), it costs a quarter of the analysis more, and the rest are analyzed directly.
      if (fruitless_reads_ >= kTrialReads && 2 * fruitless_reads_ > reads_) return false;
      workspace_.grams.read(chunks_[i].text);
      workspace_.grams_chunk = i;
      ++reads_;
    }
    ChunkGrams& grams = workspace_.grams;
    double absent = 0.0;
    for (const std::uint32_t j : p.absence) {
      const std::uint32_t item = claim.items[j];
      if (grams.may_hold(analyzer.key_gram(item), [&] { return analyzer.key(item); })) continue;
      bool related = false;
      for (std::uint32_t r = claim.related_begin[j]; r < claim.related_begin[j + 1] && !related;
           ++r) {
        const std::uint32_t stable = claim.related[r];
        related = grams.may_hold(analyzer.stable_gram(stable),
                                 [&] { return analyzer.stable_key(stable); });
      }
      absent += related ? claim.weights[j] * (1.0 - kRelatedCredit) : claim.weights[j];
      if (below(absent)) return true;
    }
    return false;
  }

  // workspace_.ready[i]: how far chunk i is analyzed in this check.
  static constexpr std::uint8_t kNone = 0;
  static constexpr std::uint8_t kPresence = 1;
  static constexpr std::uint8_t kFull = 2;

  const ClaimConfig& config_;
  const std::vector<ChunkInput>& chunks_;
  Workspace& workspace_;
  // Chunks ruled_out read as bytes, and those of them analyzed all the same.
  static constexpr std::size_t kTrialReads = 2;
  std::size_t reads_ = 0;
  std::size_t fruitless_reads_ = 0;
};

void prepare(Check& check, std::string_view text, text::Span span, bool all_if_uncited,
             Pending& p) {
  p.span = span;
  p.text = text;
  p.evidence.clear();
  p.unknown.clear();
  text::citation_ids(text, p.citations);
  for (const std::string_view id : p.citations) {
    if (const auto i = check.find(id)) {
      p.evidence.push_back(*i);
    } else {
      p.unknown.push_back(id);
    }
  }
  p.cited = !p.citations.empty();
  if (!p.cited && all_if_uncited) {
    for (std::size_t i = 0; i < check.chunks().size(); ++i) p.evidence.push_back(i);
  }
  text::citation_runs(text, p.runs);
  check.analyzer().claim(text, p.runs, p.profile);
  p.absence_ready = false;
}

/// "<score> (<id>) < <threshold>" of a reason whose score is under the threshold: two decimals
/// (fixed2), or, when those print the same number, as many more as tell them apart (up to six),
/// the score cut rather than rounded: "0.299 (S1) < 0.300", never "0.30 (S1) < 0.30".
std::string under(double score, double threshold, const std::string& id) {
  const std::string thr = fixed2(threshold);
  std::string two = fixed2(score);
  if (two == thr && score >= 0.0 && score < threshold && threshold <= 1.0) {
    for (int digits = 3; digits <= 6; ++digits) {
      const double scale = std::pow(10.0, digits);
      const auto cut = static_cast<std::uint64_t>(std::floor(score * scale));
      const auto limit = static_cast<std::uint64_t>(std::llround(threshold * scale));
      if (cut >= limit) continue;
      const auto print = [digits](std::uint64_t units) {
        std::string out = std::to_string(units);
        if (out.size() <= static_cast<std::size_t>(digits)) {
          out.insert(0, static_cast<std::size_t>(digits) + 1 - out.size(), '0');
        }
        out.insert(out.size() - static_cast<std::size_t>(digits), ".");
        return out;
      };
      return print(cut) + " (" + id + ") < " + print(limit);
    }
  }
  return two + " (" + id + ") < " + thr;
}

std::string join_ids(const std::vector<ChunkInput>& chunks, const std::vector<std::size_t>& which) {
  std::string out;
  for (const std::size_t i : which) {
    if (!out.empty()) out += ", ";
    out += chunks[i].id;
  }
  return out;
}

std::string join_views(const std::vector<std::string_view>& ids) {
  std::string out;
  for (const std::string_view id : ids) {
    if (!out.empty()) out += ", ";
    out += id;
  }
  return out;
}

std::string quoted(const std::vector<std::string_view>& words, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < words.size() && i < limit; ++i) {
    if (i > 0) out += ", ";
    out += "'" + std::string(words[i]) + "'";
  }
  if (words.size() > limit) out += ", ...";
  return out;
}

/// The numbers of a chunk's units [first, last] whose keys the claim lacks, as written: those
/// within kNearNumber tokens of a claim content word when there are any ("seven years" for a claim
/// about years, not "Section 420"), else all of them. Runs only to write a reason.
std::vector<std::string_view> other_numbers(Check& check, const ClaimProfile& claim,
                                            std::string_view text, std::uint32_t first,
                                            std::uint32_t last) {
  constexpr std::size_t kNearNumber = 3;
  struct Seen {
    text::Token token;
    std::string_view shown;
    bool number;
    bool keyed;         // key holds chunk_key (read for numbers and their neighbours only)
    std::uint32_t key;  // the token's key id, KeyIds::kNone when no claim has it
  };
  std::vector<Seen> tokens;
  std::string folded;
  for_each_unit_token(text, citation_runs_of(text), [&](const text::Token& t, std::uint32_t unit) {
    if (unit < first || unit > last) return;
    Seen seen{t, t.text, false, false, KeyIds::kNone};
    // token_key's answer to "is it a number", without stemming.
    const std::string_view digits = number_part(t.text, t.kind);
    if (!digits.empty()) {
      seen.shown = digits;
      seen.number = true;
    } else if (t.kind == text::TokenKind::Word && !t.text.empty() &&
               (detail::kSkipBits[static_cast<unsigned char>(t.text[0])] &
                (detail::kSkipHigh | detail::kSkipNumberFirst)) != 0) {
      // A number word folds to one of kNumberFirst's letters first; an ASCII first letter folds
      // to itself lowered, so only those letters and non-ASCII words are folded.
      fold_token(t.text, folded);
      seen.number = !number_word(folded).empty();
    }
    tokens.push_back(seen);
  });
  ClaimAnalyzer& analyzer = check.analyzer();
  const auto key_of = [&](std::size_t i) {
    Seen& seen = tokens[i];
    if (!seen.keyed) {
      seen.key = analyzer.chunk_key(seen.token);
      seen.keyed = true;
    }
    return seen.key;
  };
  // Key ids, not strings: equal keys have equal ids. Sorted, so a claim and a chunk of thousands
  // of numbers each stay n log n.
  std::vector<std::uint32_t> claim_keys(claim.items.begin(), claim.items.end());
  std::vector<std::uint32_t> content_keys;
  for (std::size_t j = 0; j < claim.items.size(); ++j) {
    if (claim.kinds[j] == ItemKind::Content) content_keys.push_back(claim.items[j]);
  }
  std::sort(claim_keys.begin(), claim_keys.end());
  std::sort(content_keys.begin(), content_keys.end());
  const auto has = [](const std::vector<std::uint32_t>& ids, std::uint32_t id) {
    return id != KeyIds::kNone && std::binary_search(ids.begin(), ids.end(), id);
  };
  std::vector<std::string_view> near;
  std::vector<std::string_view> all;
  std::unordered_set<std::string_view> near_seen;
  std::unordered_set<std::string_view> all_seen;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!tokens[i].number || has(claim_keys, key_of(i))) continue;
    if (all_seen.insert(tokens[i].shown).second) all.push_back(tokens[i].shown);
    const std::size_t lo = i >= kNearNumber ? i - kNearNumber : 0;
    const std::size_t hi = std::min(tokens.size(), i + kNearNumber + 1);
    for (std::size_t k = lo; k < hi; ++k) {
      if (k != i && has(content_keys, key_of(k))) {
        if (near_seen.insert(tokens[i].shown).second) near.push_back(tokens[i].shown);
        break;
      }
    }
  }
  return near.empty() ? all : near;
}

/// Whether every unit of `chunk` that holds `key` is a question.
bool only_asked(const ChunkProfile& chunk, std::uint32_t key) {
  const std::vector<std::uint32_t>& questions = chunk.question_units;
  if (questions.empty()) return false;
  const auto it = std::lower_bound(chunk.keys.begin(), chunk.keys.end(), key);
  if (it == chunk.keys.end() || *it != key) return false;
  const auto i = static_cast<std::size_t>(it - chunk.keys.begin());
  for (std::uint32_t u = chunk.unit_begin[i]; u < chunk.unit_begin[i + 1]; ++u) {
    if (!std::binary_search(questions.begin(), questions.end(), chunk.key_units[u])) return false;
  }
  return true;
}

/// Why the best chunk falls short (default mode): what it says instead of a number, names and
/// words it lacks, a negation mismatch, an antonym (reason_text words it).
Shortfall shortfall(Check& check, const ClaimProfile& claim, std::size_t best, const Support& s) {
  Shortfall out;
  if (check.config().mode() != Mode::Default || !claim.has_content()) return out;
  const ChunkProfile& chunk = check.chunk(best);
  for (std::size_t j = 0; j < claim.items.size(); ++j) {
    if (claim.kinds[j] == ItemKind::Number && !chunk.contains(claim.items[j])) {
      out.numbers.push_back(claim.surfaces[j]);
    } else if (claim.names[j] && !chunk.contains(claim.items[j])) {
      out.names.push_back(claim.surfaces[j]);
    }
  }
  out.words.reserve(s.missing.size());  // one allocation, not one per doubling
  for (const std::uint32_t j : s.missing) {
    if (claim.kinds[j] != ItemKind::Content || claim.names[j]) continue;
    (only_asked(chunk, claim.items[j]) ? out.asked : out.words).push_back(claim.surfaces[j]);
  }
  if (!out.numbers.empty()) {
    const std::uint32_t first = s.has_window ? s.best_unit : 0;
    const std::uint32_t last =
        s.has_window ? s.best_unit + (s.best_pair ? 1 : 0) : chunk.unit_count;
    out.instead = other_numbers(check, claim, check.chunks()[best].text, first, last);
  }
  out.negation_mismatch = s.negation_mismatch;
  for (const std::uint32_t j : s.opposed) out.opposed.push_back(claim.surfaces[j]);
  return out;
}

ClaimResult decide(Check& check, Pending& p) {
  const ClaimConfig& config = check.config();
  ClaimResult r;
  r.span = p.span;
  r.citations = p.citations;
  r.has_content = p.profile.has_content();
  r.threshold = config.threshold(p.cited ? p.evidence.size() : 1);
  std::size_t best = 0;
  Support best_support;  // of chunk `best`, for the reason
  r.score = 0.0;
  for (const std::size_t i : p.evidence) {
    Support s = check.support(p.profile, i);
    r.overlaps.emplace_back(i, s.overlap);
    // An uncited claim (check_claim) is scored against every chunk but covered only when meta.
    if (p.cited && s.score >= r.threshold) r.covering.push_back(i);
    if (r.overlaps.size() == 1 || s.score > r.score) {
      r.score = s.score;
      best = i;
      best_support = std::move(s);
    }
  }
  r.is_meta = check.meta(p.profile);
  r.is_covered = r.is_meta || !r.covering.empty();

  // The reason, as parts (reason_text words them when read).
  using Kind = Reason::Kind;
  Reason& why = r.reason;
  why.best = best;
  why.unknown = p.unknown;
  if (r.is_meta) {
    why.kind = Kind::Meta;
    why.meta_phrase = p.text.substr(0, p.profile.meta_phrase_end);
  } else if (p.evidence.empty()) {
    why.kind = !p.unknown.empty()                    ? Kind::UnknownOnly
               : (p.cited || check.chunks().empty()) ? Kind::NoChunks
                                                     : Kind::NoCitation;
  } else if (!p.cited) {
    if (r.has_content && r.score >= r.threshold) {
      why.kind = Kind::CiteIt;
    } else if (r.has_content) {
      why.kind = Kind::Unsupported;
      why.shortfall = shortfall(check, p.profile, best, best_support);
    } else {
      why.kind = Kind::NoCitation;
    }
  } else if (!r.has_content) {
    why.kind = Kind::NoContent;
  } else if (r.is_covered) {
    why.kind = Kind::Covered;
  } else {
    why.kind = Kind::NotCovered;
    why.shortfall = shortfall(check, p.profile, best, best_support);
  }
  return r;
}

/// The words of a shortfall naming chunk `id`: "; '<n>' not in S1, which says '<m>'; ...".
void append_shortfall(std::string& out, const Shortfall& s, const std::string& id) {
  if (!s.numbers.empty()) {
    out += "; " + quoted(s.numbers, 3) + " not in " + id;
    if (!s.instead.empty()) out += ", which says " + quoted(s.instead, 3);
  }
  if (!s.names.empty()) out += "; " + quoted(s.names, 3) + " not in " + id;
  if (s.negation_mismatch) out += "; the claim is negated, " + id + " is not near its words";
  if (!s.opposed.empty()) out += "; " + id + " says the opposite of " + quoted(s.opposed, 3);
  if (!s.asked.empty()) out += "; " + id + " only asks about " + quoted(s.asked, 6);
  if (!s.words.empty()) out += "; missing from " + id + ": " + quoted(s.words, 6);
}

}  // namespace

std::string reason_text(const ClaimResult& r, const std::vector<ChunkInput>& chunks) {
  using Kind = Reason::Kind;
  const Reason& why = r.reason;
  const std::string unknown =
      why.unknown.empty() ? ""
                          : "; unknown citation" + std::string(why.unknown.size() > 1 ? "s" : "") +
                                ": " + join_views(why.unknown);
  const auto best_id = [&] { return std::string(chunks[why.best].id); };
  std::string out;
  switch (why.kind) {
    case Kind::Meta:
      out = "meta statement ('" + std::string(why.meta_phrase) +
            "'): frames the answer, claims nothing the chunks hold";
      break;
    case Kind::UnknownOnly:
      out = "cites no retrieved chunk" + unknown;
      break;
    case Kind::NoChunks:
      out = "no chunks to check it against";
      break;
    case Kind::NoCitation:
      out = "no citation";
      break;
    case Kind::CiteIt:
      out = "no citation; " + best_id() + " supports it (" + fixed2(r.score) + "): cite it";
      break;
    case Kind::Unsupported:
      out = "no citation, and no chunk supports it: best support " +
            under(r.score, r.threshold, best_id());
      append_shortfall(out, why.shortfall, best_id());
      break;
    case Kind::NoContent:
      out = "covered by " + join_ids(chunks, r.covering) +
            ": no content word to check (score 1.00)" + unknown;
      break;
    case Kind::Covered:
      out = "covered by " + join_ids(chunks, r.covering) + " (support " + fixed2(r.score) +
            " >= " + fixed2(r.threshold) + ")" + unknown;
      break;
    case Kind::NotCovered:
      out = "not covered: best support " + under(r.score, r.threshold, best_id());
      append_shortfall(out, why.shortfall, best_id());
      out += unknown;
      break;
  }
  if (why.cite_it) {
    out += "; " + std::string(chunks[why.cite_chunk].id) + " supports it (" +
           fixed2(why.cite_score) + "): cite it";
  }
  return out;
}

ClaimResult check_claim(const ClaimConfig& config, std::string_view claim,
                        const std::vector<ChunkInput>& chunks) {
  const Lease lease(config);
  Workspace& workspace = *lease;
  Check check(config, chunks, workspace);
  if (workspace.pending.empty()) workspace.pending.emplace_back();
  Pending& p = workspace.pending[0];
  prepare(check, claim, {0, claim.size()}, /*all_if_uncited=*/true, p);
  return decide(check, p);
}

AnswerResult check_answer(const ClaimConfig& config, std::string_view answer,
                          const std::vector<ChunkInput>& chunks) {
  const std::vector<text::Span> spans = sentence_spans(answer);
  const std::size_t limit = config.options().max_sentences;
  if (limit != 0 && spans.size() > limit) {
    throw std::length_error("answer has " + std::to_string(spans.size()) +
                            " sentences, more than max_sentences=" + std::to_string(limit));
  }
  const Lease lease(config);
  Workspace& workspace = *lease;
  Check check(config, chunks, workspace);
  if (workspace.pending.size() < spans.size()) workspace.pending.resize(spans.size());
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const text::Span& span = spans[s];
    prepare(check, answer.substr(span.begin, span.end - span.begin), span,
            /*all_if_uncited=*/false, workspace.pending[s]);
  }
  const auto sentences = [&](std::size_t s) -> Pending& { return workspace.pending[s]; };

  AnswerResult out;
  out.claims.reserve(spans.size());
  std::vector<bool> cited(chunks.size(), false);
  std::unordered_set<std::string_view> unknown_seen;
  for (std::size_t s = 0; s < spans.size(); ++s) {
    Pending& p = sentences(s);
    for (const std::size_t i : p.evidence) cited[i] = true;
    for (const std::string_view id : p.unknown) {
      // A set: an answer citing thousands of unknown ids stays linear.
      if (unknown_seen.insert(id).second) out.unknown_citations.push_back(id);
    }
    out.claims.push_back(decide(check, p));
  }

  // Chunks whose content a sentence uses (support >= min_overlap) but no sentence cites.
  const double min_overlap = config.min_overlap();
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    if (cited[i]) continue;
    for (std::size_t s = 0; s < spans.size(); ++s) {
      const ClaimResult& r = out.claims[s];
      if (r.is_meta || !r.has_content) continue;
      if (check.supports(sentences(s), i, min_overlap)) {
        out.missing_citations.push_back(i);
        break;
      }
    }
  }
  // Uncited claims: say which chunk would support them. Chunk by chunk, so each chunk is read
  // once whatever the number of claims (ruled_out keeps the bytes of one chunk at a time).
  std::vector<std::size_t> uncited;
  for (std::size_t s = 0; s < spans.size(); ++s) {
    const ClaimResult& r = out.claims[s];
    if (!sentences(s).cited && !r.is_meta && r.has_content) uncited.push_back(s);
  }
  std::vector<std::pair<double, std::size_t>> best(uncited.size(), {-1.0, 0});  // score, chunk
  for (std::size_t i = 0; i < chunks.size() && !uncited.empty(); ++i) {
    // Cited chunks are analyzed (decide), and an uncited one left unanalyzed by the loop above was
    // ruled out for every sentence with content, these ones too: reading it again would only
    // rule them out again.
    if (!check.analyzed(i)) continue;
    for (std::size_t u = 0; u < uncited.size(); ++u) {
      // A chunk the bound rules out scores below min_overlap: never the best reported below.
      if (!check.may_reach(sentences(uncited[u]), i, min_overlap)) continue;
      const double score = check.score(sentences(uncited[u]).profile, i);
      if (score > best[u].first) best[u] = {score, i};
    }
  }
  for (std::size_t u = 0; u < uncited.size(); ++u) {
    if (best[u].first >= min_overlap) {
      Reason& why = out.claims[uncited[u]].reason;
      why.cite_it = true;
      why.cite_chunk = best[u].second;
      why.cite_score = best[u].first;
    }
  }

  std::size_t attributed = 0;
  for (const ClaimResult& r : out.claims) {
    if (r.is_meta) continue;
    ++out.claim_count;
    if (r.is_covered) ++out.covered_count;
    bool known = false;
    for (const std::string_view id : r.citations) known = known || check.find(id);
    if (known) ++attributed;
  }
  if (out.claim_count > 0) {
    const auto n = static_cast<double>(out.claim_count);
    out.attribution_coverage = static_cast<double>(attributed) / n;
    out.supported_ratio = static_cast<double>(out.covered_count) / n;
  }
  out.is_grounded = out.covered_count == out.claim_count && out.unknown_citations.empty() &&
                    out.missing_citations.empty();
  return out;
}

std::vector<AnswerResult> check_answers(const ClaimConfig& config,
                                        const std::vector<std::string_view>& answers,
                                        const std::vector<std::vector<ChunkInput>>& chunks,
                                        std::size_t threads) {
  if (answers.size() != chunks.size()) {
    throw std::invalid_argument("chunks_per_answer must have one entry per answer: got " +
                                std::to_string(chunks.size()) + " for " +
                                std::to_string(answers.size()) + " answers");
  }
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    bytes += answers[i].size();
    for (const ChunkInput& chunk : chunks[i]) bytes += chunk.text.size();
  }
  std::vector<AnswerResult> out(answers.size());
  threads = sc::threads_for(threads, answers.size(), bytes);
  sc::parallel_for(answers.size(), threads, [&](std::size_t i) {
    try {
      out[i] = check_answer(config, answers[i], chunks[i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("answers[" + std::to_string(i) + "]: " + e.what());
    } catch (const std::length_error& e) {
      throw std::length_error("answers[" + std::to_string(i) + "]: " + e.what());
    }
  });
  return out;
}

std::vector<double> support_scores(const ClaimConfig& config, std::string_view claim,
                                   const std::vector<std::string_view>& chunks) {
  const Lease lease(config);
  Workspace& workspace = *lease;
  ClaimAnalyzer& analyzer = workspace.analyzer;
  if (workspace.pending.empty()) workspace.pending.emplace_back();
  if (workspace.profiles.empty()) workspace.profiles.emplace_back();
  ClaimProfile& profile = workspace.pending[0].profile;
  analyzer.claim(claim, citation_runs_of(claim), profile);
  std::vector<double> out;
  out.reserve(chunks.size());
  for (const std::string_view text : chunks) {
    analyzer.chunk(text, workspace.profiles[0]);
    out.push_back(support_score(config.mode(), profile, workspace.profiles[0], workspace.scratch));
  }
  return out;
}

}  // namespace sc::claims
