"""Stubs for `sufficient_context._core.claims`: claim coverage and query types (C++ core, src/claims/).

Texts are ``str`` (anything else: ``TypeError``); a ``str`` holding lone surrogates raises ``UnicodeEncodeError`` (the
package modules replace them first). Offsets are ``str`` indices. Chunks are passed as two parallel lists, ``ids`` and
``texts`` (``ids`` None: ``"S1".."Sn"``); results name chunks by the id objects passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, overload

from .checker import TermStatistics, WordRelations

# A claim as the plain tuple the core builds: (sentence, score, is_covered, is_meta, citations, covering_chunks,
# overlaps, threshold, reason, start, end).
_Claim = tuple[str, float, bool, bool, tuple[str, ...], tuple[str, ...], dict[str, float], float, str, int, int]
# A `claim_type` builds each claim from those fields, positionally (a NamedTuple with them is one).
_C = TypeVar("_C", bound=tuple[Any, ...])
_A = TypeVar("_A")
# (claims, unknown_citations, missing_citations, covered_count, claim_count, attribution_coverage, supported_ratio,
# is_grounded)
_Answer = tuple[list[_C], tuple[str, ...], tuple[str, ...], int, int, float, float, bool]

class ClaimConfig:
    """Validated, immutable configuration (ValueError naming min_overlap / multi_citation_factor / mode)."""

    def __init__(
        self,
        min_overlap: float = 0.3,
        multi_citation_factor: float = 0.7,
        mode: str = "default",
        stopwords: Sequence[str] | None = None,
        meta_patterns: Sequence[str] | None = None,
        statistics: TermStatistics | None = None,
        relations: WordRelations | None = None,
        max_sentences: int = 0,
    ) -> None:
        """`max_sentences`: check_answer raises ValueError for an answer with more sentences (0: no limit).
        `statistics` weighs default-mode words, clamp(7 - zipf, 3, 7) (held, not copied); None: all unknown.
        `relations` credits related words and flags antonyms in default mode (held); None: no relations."""
    @property
    def min_overlap(self) -> float: ...
    @property
    def multi_citation_factor(self) -> float: ...
    @property
    def mode(self) -> str: ...
    @property
    def meta_patterns(self) -> list[str]: ...
    @property
    def stopwords(self) -> list[str]: ...
    @property
    def statistics(self) -> TermStatistics:
        """The held statistics object itself (an empty one when none was given)."""

def default_meta_patterns() -> list[str]:
    """The built-in meta phrases."""

@overload
def check_claim(
    config: ClaimConfig, sentence: str, ids: list[str] | None, texts: list[str], claim_type: None = None
) -> _Claim: ...
@overload
def check_claim(
    config: ClaimConfig, sentence: str, ids: list[str] | None, texts: list[str], claim_type: type[_C]
) -> _C:
    """A `claim_type` record (sentence, score, is_covered, is_meta, citations, covering_chunks, overlaps, threshold,
    reason, start, end); a plain tuple when claim_type is None."""

@overload
def check_answer(
    config: ClaimConfig,
    answer: str,
    ids: list[str] | None,
    texts: list[str],
    claim_type: None = None,
    answer_type: None = None,
) -> _Answer[_Claim]: ...
@overload
def check_answer(
    config: ClaimConfig,
    answer: str,
    ids: list[str] | None,
    texts: list[str],
    claim_type: type[_C],
    answer_type: None = None,
) -> _Answer[_C]: ...
@overload
def check_answer(
    config: ClaimConfig,
    answer: str,
    ids: list[str] | None,
    texts: list[str],
    claim_type: type[_C],
    answer_type: type[_A],
) -> _A:
    """(claims, unknown_citations, missing_citations, covered_count, claim_count, attribution_coverage,
    supported_ratio, is_grounded). ValueError when two chunks share an id. With `answer_type`: an instance of it made
    as ``object.__new__`` with its ``__dict__`` holding answer, claims (a tuple), covered_count, attribution_coverage,
    supported_ratio, missing_citations, unknown_citations, is_grounded, mode and uncovered (AnswerCoverage's
    fields)."""

@overload
def check_answer_chunks(
    config: ClaimConfig, answer: str, chunks: object, claim_type: None = None, answer_type: None = None
) -> _Answer[_Claim] | None: ...
@overload
def check_answer_chunks(
    config: ClaimConfig, answer: str, chunks: object, claim_type: type[_C], answer_type: None = None
) -> _Answer[_C] | None: ...
@overload
def check_answer_chunks(
    config: ClaimConfig, answer: str, chunks: object, claim_type: type[_C], answer_type: type[_A]
) -> _A | None:
    """check_answer with the chunks read here, in one pass, when `chunks` is a list that `plain_chunk_lists` reads
    (str and plain dicts with unique ids); None for anything else, before the answer is read (adapt the chunks, then
    call check_answer)."""

@overload
def check_answers(
    config: ClaimConfig,
    answers: list[str],
    ids_per_answer: Sequence[list[str] | None],
    texts_per_answer: Sequence[list[str]],
    claim_type: None = None,
    threads: int = 0,
    answer_type: None = None,
) -> list[_Answer[_Claim]]: ...
@overload
def check_answers(
    config: ClaimConfig,
    answers: list[str],
    ids_per_answer: Sequence[list[str] | None],
    texts_per_answer: Sequence[list[str]],
    claim_type: type[_C],
    threads: int = 0,
    answer_type: None = None,
) -> list[_Answer[_C]]: ...
@overload
def check_answers(
    config: ClaimConfig,
    answers: list[str],
    ids_per_answer: Sequence[list[str] | None],
    texts_per_answer: Sequence[list[str]],
    claim_type: type[_C],
    threads: int,
    answer_type: type[_A],
) -> list[_A]:
    """check_answer for each answer on C++ threads (0: one per CPU), GIL released; results in input order."""

# check_answer_chunks through pybind11's dispatcher: where every call check_answer_chunks cannot take goes.
_check_answer_chunks = check_answer_chunks

def materialize_claims(answer: object) -> bool:
    """Sets ``claims`` and ``uncovered`` of an ``answer_type`` object the core built, from the result it holds pending
    (built on first read); False when it holds none."""

def plain_chunk_lists(
    chunks_per_answer: list[Any],
) -> tuple[list[list[str] | None], list[list[str]], list[int]]:
    """(ids per entry, contents per entry, indexes of the entries to adapt in Python, whose ids and contents are left
    None). An entry is read here when it is a list of str (ids None) or of str and plain ``{"content", "id"?,
    "score"?}`` dicts (extra keys allowed but summary, embedding, timestamp, temperature, metadata, page_content; a
    str id; a finite float or int score) with unique ids, as ``chunks.plain_ids_and_contents`` reads it."""

def support_scores(config: ClaimConfig, sentence: str, texts: list[str]) -> list[float]:
    """The support score of `sentence` by each text (citation markers ignored; no citation or meta logic)."""

class QueryTypeRules:
    """Query types as phrase data, most specific first; "general" is the implicit fallback."""

    def __init__(
        self, types: Sequence[tuple[str, Sequence[str], Sequence[str]]], min_term_fraction: float = 0.5
    ) -> None: ...
    @property
    def types(self) -> list[tuple[str, list[str], list[str]]]: ...
    @property
    def min_term_fraction(self) -> float: ...
    @staticmethod
    def default_types() -> list[tuple[str, list[str], list[str]]]: ...
    def classify(self, query: str) -> str: ...
    def evidence(self, query: str, texts: list[str]) -> tuple[str, bool, list[int], list[int], list[str], str]:
        """(query_type, is_sufficient, supporting, relevant, key_terms, reason); chunks as indexes into texts."""
