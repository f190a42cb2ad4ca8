/// @brief check_claim / check_answer / check_answers: which sentences of an answer are backed by
/// what they cite.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claims/claim_config.hpp"
#include "text/sentences.hpp"

namespace sc::claims {

/// One retrieved chunk: its id (what citations name, matched exactly) and its text.
struct ChunkInput {
  std::string_view id;
  std::string_view text;
};

/// Why the best chunk falls short of a claim (default mode), as reason_text words it: views into
/// the claim (its numbers, names and words) and into the chunk (the numbers it says instead).
struct Shortfall {
  std::vector<std::string_view> numbers;  // the claim's numbers the chunk lacks
  std::vector<std::string_view> instead;  // the chunk's other numbers near the claim's words
  std::vector<std::string_view> names;    // the claim's names the chunk lacks
  std::vector<std::string_view> opposed;  // words the chunk holds the antonym of
  std::vector<std::string_view> asked;    // words the chunk holds only in questions
  std::vector<std::string_view> words;    // other content words the window lacks
  bool negation_mismatch = false;
};

/// A claim's reason as parts, formatted by reason_text only when read (formatting every reason was
/// ~6% of a short check whose reasons nobody read).
struct Reason {
  enum class Kind : std::uint8_t {
    Meta,         // frames the answer ("meta statement ('<phrase>'): ...")
    UnknownOnly,  // cites only ids naming no chunk
    NoChunks,     // cited or not, there is no chunk to check it against
    NoCitation,   // uncited, nothing to check (or no chunk scored)
    CiteIt,       // uncited, chunk `best` supports it
    Unsupported,  // uncited, no chunk supports it: the best one and its shortfall
    NoContent,    // cited, no content word to check
    Covered,      // cited and covered
    NotCovered,   // cited, not covered: the best chunk and its shortfall
  };
  Kind kind = Kind::NoCitation;
  std::size_t best = 0;                   // the chunk named (CiteIt, Unsupported, NotCovered)
  std::string_view meta_phrase;           // Meta
  std::vector<std::string_view> unknown;  // cited ids naming no chunk (a suffix)
  Shortfall shortfall;                    // Unsupported, NotCovered
  // check_answer, an uncited claim: the chunk that would support it ("; <id> supports it ...").
  bool cite_it = false;
  std::size_t cite_chunk = 0;
  double cite_score = 0.0;
};

/// The decision about one sentence. Chunks are referred to by their index in the input.
struct ClaimResult {
  text::Span span;         // bytes of the sentence in the answer (the whole text for check_claim)
  double score = 0.0;      // best support among the evidence chunks (0 without any)
  double threshold = 0.0;  // min_overlap, or min_overlap x multi_citation_factor
  bool is_covered = false;
  bool is_meta = false;
  bool has_content = false;  // has a content word (default) / word (reference) to check
  std::vector<std::string_view> citations;  // distinct cited ids, first-seen (views into the text)
  std::vector<std::size_t> covering;        // evidence chunks with support >= threshold
  std::vector<std::pair<std::size_t, double>> overlaps;  // evidence chunk -> support, in order
  Reason reason;  // reason_text words it; its views are into the answer and the chunk texts
};

/// Why, in words: the reason of `result`, checked against `chunks` (the same chunks: their ids name
/// them; the reason's own views, into the answer and the chunk texts, must still be alive).
std::string reason_text(const ClaimResult& result, const std::vector<ChunkInput>& chunks);

/// The decision about one answer.
struct AnswerResult {
  std::vector<ClaimResult> claims;                  // one per sentence, in order
  std::vector<std::string_view> unknown_citations;  // ids naming no chunk, first-seen order
  std::vector<std::size_t> missing_citations;       // used but never cited chunks, input order
  std::size_t covered_count = 0;                    // covered claim (non-meta) sentences
  std::size_t claim_count = 0;                      // non-meta sentences
  double attribution_coverage = 1.0;  // claim sentences citing a retrieved chunk / claim sentences
  double supported_ratio = 1.0;       // covered_count / claim sentences
  bool is_grounded = true;            // every claim covered, no unknown and no missing citation
};

/// Checks one claim against `chunks`: the chunks it cites when it has citation markers, else
/// every chunk. A claim opening with a meta phrase whose rest no chunk supports is meta (covered).
/// Throws std::invalid_argument when two chunks share an id.
ClaimResult check_claim(const ClaimConfig& config, std::string_view claim,
                        const std::vector<ChunkInput>& chunks);

/// Splits `answer` into sentences (text::split_sentences) and checks each against the chunks it
/// cites; reports unknown citations and chunks whose content a sentence uses (support >=
/// min_overlap) that no sentence cites. Throws std::invalid_argument when two chunks share an id.
AnswerResult check_answer(const ClaimConfig& config, std::string_view answer,
                          const std::vector<ChunkInput>& chunks);

/// check_answer for each answer with its own chunks, on sc::threads_for(threads, answers, bytes of
/// text) threads (threads 0: the usable cores; a small batch stays on the calling thread). Results
/// in input order, equal to sequential calls. The first error (lowest answer index) is rethrown
/// here after every thread has stopped.
std::vector<AnswerResult> check_answers(const ClaimConfig& config,
                                        const std::vector<std::string_view>& answers,
                                        const std::vector<std::vector<ChunkInput>>& chunks,
                                        std::size_t threads = 0);

/// The support of `claim` (citation markers ignored) by each chunk text: the scores check_claim
/// reports (an opening meta phrase left out in the default mode), without the citation and meta
/// decisions (for tests against the Python oracle).
std::vector<double> support_scores(const ClaimConfig& config, std::string_view claim,
                                   const std::vector<std::string_view>& chunks);

}  // namespace sc::claims
