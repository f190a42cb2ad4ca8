/// @brief Citation markers in answers ("[IPC_420_0]", "[S1][S3]", "[S1, S3]"): find, list, strip.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "text/sentences.hpp"

namespace sc::text {

/// The grammar, decided here and mirrored by python/sufficient_context/_reference_sentences.py:
/// - id:    a run of ASCII letters, digits and `_ - . : #` holding at least one letter or digit
///          ("IPC_420_0", "S1", "doc-3#p2", "Normans#p14", "1"). Exact text, case-sensitive.
///          Non-ASCII letters end an id (chunk ids are ASCII in practice; the claims layer reports
///          a marker it cannot read as missing, never as a wrong id).
/// - group: '[' id (sep id)* ']' where sep is ',' or ';'; spaces and tabs may surround ids and
///          separators, never newlines: "[S1]", "[S1, S3]", "[ S1 ;S3 ]".
/// - A bracket holding anything else is not a citation: "[citation needed]" (a space between
///   words), "[...]" (no letter or digit), "[S1,]", "[]". Numeric "[1]" is a citation.
/// - A group followed directly by '(' is a Markdown link ("[here](http://x)"), not a citation.
/// - Groups contain no '[', so in "[[S1]]" the inner "[S1]" is the citation; an unclosed "[S1"
///   is not one.
/// - run:   groups separated only by spaces/tabs and at most one ',' or ';' ("[S1][S3]",
///          "[S1] [S3]", "[S1], [S3]"): one marker site for stripping and sentence splitting.

/// One cited id: its text, its byte span, and the byte span of the bracket group that holds it
/// (shared by every id of "[A, B]").
struct Citation {
  std::string_view id;      // view into the searched text
  std::size_t begin;        // byte offset of the id's first byte
  std::size_t end;          // one past the id's last byte
  std::size_t group_begin;  // byte offset of the group's '['
  std::size_t group_end;    // one past the group's ']'
};

/// When text[pos] opens a citation group, returns the offset one past its ']'; else 0.
std::size_t citation_group_end(std::string_view text, std::size_t pos) noexcept;

/// When text[pos] opens a citation run, returns the offset one past its last ']'; else 0.
std::size_t citation_run_end(std::string_view text, std::size_t pos) noexcept;

/// Every cited id in text order, duplicates kept ("[S1] ... [S1]" gives two).
std::vector<Citation> extract_citations(std::string_view text);

/// The distinct cited ids of `text`, in first-seen order.
std::vector<std::string_view> citation_ids(std::string_view text);

/// citation_ids into `out` (cleared first), reusing its storage.
void citation_ids(std::string_view text, std::vector<std::string_view>& out);

/// Byte spans of the citation runs of `text`, in order (what strip_citations removes).
std::vector<Span> citation_runs(std::string_view text);

/// citation_runs into `out` (cleared first), reusing its storage.
void citation_runs(std::string_view text, std::vector<Span>& out);

/// `text` without its citation runs, joined so that no double space remains at a removed site:
/// spaces and tabs on both sides of a run are dropped and replaced by one space, or by nothing
/// when the run is at the start of the text or of a line, at the end of the text or of a line,
/// before closing punctuation (". , ; : ! ? ) ] }" and their typographic/CJK forms), before a
/// quote that touched it, or after an opening bracket or quote.
/// "seven years [IPC_420_0]. See also [S1][S3]." -> "seven years. See also."
/// "word[S1]next" -> "word next" (a marker never glues two words together).
std::string strip_citations(std::string_view text);

}  // namespace sc::text
