"""Stubs for `sufficient_context._core.checker`: the sufficiency checker (use `sufficient_context.checker`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, overload

from numpy.typing import ArrayLike

_R = TypeVar("_R")

class TermStatistics:
    """Zipf frequency by term (stem); immutable."""

    def __init__(self) -> None: ...
    @staticmethod
    def english() -> TermStatistics:
        """The packaged English table, compiled in at build time (one shared object)."""
    @staticmethod
    def from_tsv(tsv: str) -> TermStatistics:
        """Parse `stem<TAB>zipf` lines (ValueError naming the line)."""
    @staticmethod
    def from_pairs(pairs: Sequence[tuple[str, float]]) -> TermStatistics: ...
    @staticmethod
    def from_texts(texts: list[str]) -> TermStatistics:
        """Corpus statistics: log10(occurrences x 1e9 / word tokens) per stem."""
    def zipf(self, term: str) -> float | None: ...
    def items(self) -> list[tuple[str, float]]: ...
    def __len__(self) -> int: ...

class WordRelations:
    """Related words and antonyms by term (stem); immutable."""

    def __init__(self) -> None: ...
    @staticmethod
    def english() -> WordRelations:
        """The packaged English relations, compiled in at build time (one shared object)."""
    @staticmethod
    def from_tsv(tsv: str) -> WordRelations:
        """Parse `stem<TAB>related<TAB>antonyms` lines (ValueError naming the line)."""
    def related(self, term: str) -> list[str]: ...
    def antonyms(self, term: str) -> list[str]: ...
    def __len__(self) -> int: ...

class CheckResult:
    @property
    def score(self) -> float: ...
    @property
    def level(self) -> str: ...
    @property
    def signals(self) -> dict[str, float]: ...
    @property
    def relevance_source(self) -> str: ...
    @property
    def missing_aspects(self) -> list[str]: ...
    @property
    def confidence_factors(self) -> list[str]: ...
    @property
    def covered_terms(self) -> list[str]: ...
    @property
    def missing_terms(self) -> list[str]: ...
    @property
    def doc_coverage(self) -> float | None: ...
    @property
    def relation(self) -> float | None: ...
    @property
    def polarity_ok(self) -> bool | None: ...
    @property
    def elapsed_ms(self) -> float: ...

class Checker:
    """A validated checker configuration (ValueError naming the field)."""

    def __init__(
        self,
        scoring: str = "default",
        weights: Sequence[tuple[str, float]] | None = None,
        sufficient: float = 0.8,
        partial: float = 0.5,
        min_contexts: int = 1,
        recency_days: float = 365.0,
        statistics: TermStatistics | None = None,
        relations: WordRelations | None = None,
    ) -> None: ...
    @property
    def scoring(self) -> str: ...
    @property
    def weights(self) -> dict[str, float]: ...
    @property
    def sufficient(self) -> float: ...
    @property
    def partial(self) -> float: ...
    @property
    def min_contexts(self) -> int: ...
    @property
    def recency_days(self) -> float: ...
    @overload
    def check(
        self,
        query: str,
        contents: list[str],
        summaries: list[str] | None = None,
        timestamps: ArrayLike | None = None,
        temperatures: ArrayLike | None = None,
        query_embedding: ArrayLike | None = None,
        chunk_embeddings: ArrayLike | None = None,
        now: float | None = None,
        min_contexts: int | None = None,
        recency_days: float | None = None,
        results: None = None,
        start: float = 0.0,
    ) -> CheckResult: ...
    @overload
    def check(
        self,
        query: str,
        contents: list[str],
        summaries: list[str] | None = None,
        timestamps: ArrayLike | None = None,
        temperatures: ArrayLike | None = None,
        query_embedding: ArrayLike | None = None,
        chunk_embeddings: ArrayLike | None = None,
        now: float | None = None,
        min_contexts: int | None = None,
        recency_days: float | None = None,
        *,
        results: ResultFactory[_R],
        start: float,
    ) -> _R: ...
    @overload
    def check(
        self,
        query: str,
        contents: list[str],
        summaries: list[str] | None,
        timestamps: ArrayLike | None,
        temperatures: ArrayLike | None,
        query_embedding: ArrayLike | None,
        chunk_embeddings: ArrayLike | None,
        now: float | None,
        min_contexts: int | None,
        recency_days: float | None,
        results: ResultFactory[_R],
        start: float,
    ) -> _R:
        """Score one check (GIL released). Arrays are converted to float64; per-chunk ones hold NaN for a chunk
        without a value. With `results`, the result object it makes (elapsed_ms measured from `start`)."""
    @overload
    def check_batch(
        self,
        queries: list[str],
        contents: list[list[str]],
        summaries: list[list[str] | None] | None = None,
        timestamps: Sequence[ArrayLike | None] | None = None,
        temperatures: Sequence[ArrayLike | None] | None = None,
        query_embeddings: Sequence[ArrayLike | None] | None = None,
        chunk_embeddings: Sequence[ArrayLike | None] | None = None,
        now: float | None = None,
        min_contexts: int | None = None,
        recency_days: float | None = None,
        threads: int = 0,
        results: None = None,
        start: float = 0.0,
    ) -> list[CheckResult]: ...
    @overload
    def check_batch(
        self,
        queries: list[str],
        contents: list[list[str]],
        summaries: list[list[str] | None] | None,
        timestamps: Sequence[ArrayLike | None] | None,
        temperatures: Sequence[ArrayLike | None] | None,
        query_embeddings: Sequence[ArrayLike | None] | None,
        chunk_embeddings: Sequence[ArrayLike | None] | None,
        now: float | None,
        min_contexts: int | None,
        recency_days: float | None,
        threads: int,
        results: ResultFactory[_R],
        start: float,
    ) -> list[_R]:
        """Score many checks on min(threads, n) C++ threads (0: all cores), GIL released; input order. With
        `results`, the result objects it makes (each one's elapsed_ms: its check plus an equal share of the call
        since `start`)."""

class ResultFactory(Generic[_R]):
    """Makes `result_type` objects (the package's SufficiencyResult) in C++: ``object.__new__`` and its slots
    _core (the CheckResult), _data (None), score, level and checker_level (from `levels`, indexed by insufficient,
    partial, sufficient), decided_by ("checker"), elapsed_ms and scoring set."""

    def __init__(
        self, result_type: type[_R], levels: tuple[Any, Any, Any], scoring: str, clock: Callable[[], float]
    ) -> None: ...

def _python_word_ranges() -> list[tuple[int, int]]: ...
def _reference_query_terms(query: str) -> list[str]: ...
def not_str_lists(lists: list[Any]) -> list[int]:
    """Indexes of the entries that are not a list of str (exact types): the batch entries that need adapting."""

def set_cache_budget(bytes: int) -> None: ...
def cache_usage() -> dict[str, int]: ...
def _sentences(text: str) -> list[str]: ...
def _one_edit_apart(a: str, b: str) -> bool: ...
