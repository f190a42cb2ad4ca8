"""SufficientContextChecker: is the retrieved context enough to answer the query? (API.md section 2)

The scoring runs in C++ (`_core.checker`), one call per check and one per batch; this module adapts inputs
(chunks, timestamps, embeddings from the user's model), escalates uncertain cases to a judge when asked, and
presents results (`SufficiencyResult`: attributes, ``to_dict()``, ``_repr_html_``).

Two scorings:

- ``"default"``: rarity-weighted, stemmed, whole-word coverage of the query's terms in the best chunk and in the
  best sentence (numbers and identifiers kept; one-edit spelling variants, related words from WordNet and shared
  prefixes credited in part; a sentence read with its chunk's topic; a negation mismatch or an antonym of an absent
  query term in the best sentence penalised), a lexical relevance signal (hashed character 3-5-gram cosine) or the best
  embedding cosine, density, count, and recency when chunks carry timestamps; score = (weighted mean) ** 2.
  Its spec and test oracle is ``_reference_checker.default_score``.
- ``"reference"``: the original design's formula, to 1e-9 (``_reference_checker.reference_score``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from enum import Enum
from typing import TYPE_CHECKING, Any, Callable, TypedDict, Union

from ._args import as_float, bool_types, int_in_range, list_of, real_array, real_types
from ._core import checker as _core
from ._word_relations import english_word_relations
from .chunks import Chunk, ChunkLike, all_str, as_chunks, plain_ids_and_contents
from .config import ConfigSource, load_checker_config
from .embeddings import EmbeddingAdapter, as_embedding_model
from .term_statistics import TermStatistics

if TYPE_CHECKING:  # NumPy is imported where arrays are made: embeddings, timestamps, temperatures
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Level", "SufficiencyResult", "SufficientContextChecker", "TermStatistics"]

_DEFAULT_BAND = (0.4, 0.6)

Escalation = Callable[[str, list[Chunk]], Any]
NowLike = Union[datetime, float, int, None]
_CoreResult = _core.CheckResult


class Level(str, Enum):
    """Sufficiency level; compares equal to its string value (``Level.PARTIAL == "partial"``)."""

    SUFFICIENT = "sufficient"
    PARTIAL = "partial"
    INSUFFICIENT = "insufficient"

    def __str__(self) -> str:
        return str(self.value)


_LEVELS = {level.value: level for level in Level}
_LEVEL_ORDER = (Level.INSUFFICIENT, Level.PARTIAL, Level.SUFFICIENT)  # the core's level codes 0, 1, 2


class _Fields(TypedDict):
    """A result's lists and details, read from the core result on first access or rebuilt by ``from_dict``."""

    missing_aspects: list[str]
    confidence_factors: list[str]
    signals: dict[str, float]
    covered_terms: list[str]
    missing_terms: list[str]
    relevance_source: str
    details: dict[str, Any]


# -- result ------------------------------------------------------------------------------------------------------


class SufficiencyResult:
    """The outcome of one check.

    Attributes
    ----------
    score : float
        In [0, 1] in default scoring (reference scoring can dip below 0 with negative embedding cosines).
    level : Level
        ``"sufficient"`` (score >= thresholds[0]), ``"partial"`` (>= thresholds[1]) or ``"insufficient"``; the
        escalation's verdict when ``decided_by == "escalation"``.
    missing_aspects, confidence_factors : list of str
        Why the score is not higher, and what supports it.
    signals : dict
        coverage, relevance, density, count and recency (only when chunks carry timestamps) -> value.
    covered_terms, missing_terms : list of str
        The query's key terms (as written, case-folded) found and not found in the context.
    elapsed_ms : float
        Time of the check (input adaptation, embedding, scoring; not the escalation).
    decided_by : {"checker", "escalation"}
        Who set `level`. ``checker_level`` keeps the checker's own level.
    scoring, relevance_source : str
        The scoring used; where relevance came from ("lexical", "embedding", "constant", "none").
    """

    __slots__ = ("_core", "_data", "checker_level", "decided_by", "elapsed_ms", "level", "score", "scoring")

    _core: _CoreResult | None  # None once rebuilt by from_dict; then _data is set
    _data: _Fields | None
    checker_level: Level
    decided_by: str
    elapsed_ms: float
    level: Level
    score: float
    scoring: str

    def __init__(
        self,
        score: float,
        level: Level | str,
        confidence_factors: Sequence[str] = (),
        missing_aspects: Sequence[str] = (),
        *,
        signals: Mapping[str, float] | None = None,
        covered_terms: Sequence[str] = (),
        missing_terms: Sequence[str] = (),
        elapsed_ms: float = 0.0,
    ) -> None:
        """Build a result by hand, as the original design's dataclass: ``SufficiencyResult(score=0.9,
        level="sufficient", confidence_factors=[...], missing_aspects=[...])`` (level a str or `Level`)."""
        if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
            raise ValueError(f"score must be a finite number; got {score!r}")
        name = getattr(level, "value", level)
        if name not in _LEVELS:
            raise ValueError(f"level must be one of {', '.join(_LEVELS)}; got {level!r}")
        for field_name, values in (("confidence_factors", confidence_factors), ("missing_aspects", missing_aspects),
                                   ("covered_terms", covered_terms), ("missing_terms", missing_terms)):  # fmt: skip
            if isinstance(values, str) or not all(isinstance(v, str) for v in values):
                raise TypeError(f"{field_name} must be a list of str")
        if isinstance(elapsed_ms, bool) or not isinstance(elapsed_ms, (int, float)) or not elapsed_ms >= 0:
            raise ValueError(f"elapsed_ms must be a number >= 0; got {elapsed_ms!r}")
        built = SufficiencyResult.from_dict(
            {
                "score": score,
                "level": name,
                "confidence_factors": list(confidence_factors),
                "missing_aspects": list(missing_aspects),
                "signals": dict(signals or {}),
                "covered_terms": list(covered_terms),
                "missing_terms": list(missing_terms),
                "elapsed_ms": elapsed_ms,
            }
        )
        for slot in self.__slots__:
            setattr(self, slot, getattr(built, slot))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SufficiencyResult:
        """Rebuild a result from ``to_dict()`` output (also the unpickling path).

        Raises ValueError for a score that is NaN or infinite (or outside [0, 1] in default scoring) and for an
        unknown level. A level cannot be checked against a score without the thresholds, which any score in [0, 1]
        can meet; the escalation may also have set it.
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"data must be a mapping (to_dict() output); got {type(data).__name__}")
        for key in ("score", "level"):
            if key not in data:
                raise ValueError(f"data has no {key!r}")
        self = object.__new__(cls)
        self._core = None
        score = data["score"]
        if (
            isinstance(score, bool)
            or not isinstance(score, (int, float))
            or not math.isfinite(as_float(score, "score"))
        ):
            raise ValueError(f"score must be a finite number; got {score!r}")
        scoring = data.get("scoring", "default")
        if scoring not in ("default", "reference"):
            raise ValueError(f"scoring must be 'default' or 'reference'; got {scoring!r}")
        if scoring == "default" and not 0.0 <= score <= 1.0:
            raise ValueError(f"score must be in [0, 1] in default scoring; got {score!r}")
        for key in ("level", "checker_level"):
            if key in data and data[key] not in _LEVELS:
                raise ValueError(f"{key} must be one of {', '.join(_LEVELS)}; got {data[key]!r}")
        decided_by = data.get("decided_by", "checker")
        if decided_by not in ("checker", "escalation"):
            raise ValueError(f"decided_by must be 'checker' or 'escalation'; got {decided_by!r}")
        source = data.get("relevance_source", "none")
        if source not in _RELEVANCE_SOURCES:
            raise ValueError(f"relevance_source must be one of {', '.join(_RELEVANCE_SOURCES)}; got {source!r}")
        elapsed = data.get("elapsed_ms", 0.0)
        if isinstance(elapsed, bool) or not isinstance(elapsed, (int, float)) or not 0 <= elapsed < math.inf:
            raise ValueError(f"elapsed_ms must be a finite number >= 0; got {elapsed!r}")
        self.score = float(score)
        self.level = Level(data["level"])
        self.checker_level = Level(data.get("checker_level", data["level"]))
        self.decided_by = decided_by
        self.elapsed_ms = float(elapsed)
        self.scoring = scoring
        self._data = {
            "missing_aspects": _str_list(data.get("missing_aspects"), "missing_aspects"),
            "confidence_factors": _str_list(data.get("confidence_factors"), "confidence_factors"),
            "signals": _signals(data.get("signals"), scoring),
            "covered_terms": _str_list(data.get("covered_terms"), "covered_terms"),
            "missing_terms": _str_list(data.get("missing_terms"), "missing_terms"),
            "relevance_source": source,
            "details": _details(data.get("details")),
        }
        return self

    def _fields(self) -> _Fields:
        data = self._data
        if data is None:  # read from the core result on first access: most callers only look at score/level
            core = self._core
            assert core is not None  # from_dict sets _data; only the core (ResultFactory) leaves it None
            details: dict[str, Any] = {}
            if core.doc_coverage is not None:
                details = {
                    "doc_coverage": core.doc_coverage,
                    "relation": core.relation,
                    "polarity_ok": core.polarity_ok,
                }
            data = {
                "missing_aspects": core.missing_aspects,
                "confidence_factors": core.confidence_factors,
                "signals": core.signals,
                "covered_terms": core.covered_terms,
                "missing_terms": core.missing_terms,
                "relevance_source": core.relevance_source,
                "details": details,
            }
            self._data = data
        return data

    @property
    def missing_aspects(self) -> list[str]:
        return self._fields()["missing_aspects"]

    @property
    def confidence_factors(self) -> list[str]:
        return self._fields()["confidence_factors"]

    @property
    def signals(self) -> dict[str, float]:
        return self._fields()["signals"]

    @property
    def covered_terms(self) -> list[str]:
        return self._fields()["covered_terms"]

    @property
    def missing_terms(self) -> list[str]:
        return self._fields()["missing_terms"]

    @property
    def relevance_source(self) -> str:
        return self._fields()["relevance_source"]

    @property
    def details(self) -> dict[str, Any]:
        """Default scoring's parts of coverage: doc_coverage (best chunk or pair), relation (best sentence or
        pair), polarity_ok (the best sentence's negation matches the query's); empty in reference scoring."""
        return self._fields()["details"]

    @property
    def is_sufficient(self) -> bool:
        """``level == "sufficient"``."""
        return self.level is Level.SUFFICIENT

    def _escalated(self, level: Level) -> None:
        self.level = level
        self.decided_by = "escalation"

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form (levels as plain strings)."""
        f = self._fields()
        return {
            "score": self.score,
            "level": self.level.value,
            "missing_aspects": list(f["missing_aspects"]),
            "confidence_factors": list(f["confidence_factors"]),
            "signals": dict(f["signals"]),
            "covered_terms": list(f["covered_terms"]),
            "missing_terms": list(f["missing_terms"]),
            "elapsed_ms": self.elapsed_ms,
            "scoring": self.scoring,
            "relevance_source": f["relevance_source"],
            "decided_by": self.decided_by,
            "checker_level": self.checker_level.value,
            "details": dict(f["details"]),
        }

    def __reduce__(self) -> tuple[Any, ...]:
        return (SufficiencyResult.from_dict, (self.to_dict(),))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SufficiencyResult):
            return NotImplemented
        a, b = self.to_dict(), other.to_dict()
        a.pop("elapsed_ms")
        b.pop("elapsed_ms")
        return a == b

    __hash__ = None  # type: ignore[assignment]  # mutable-looking value object: no hashing

    def __repr__(self) -> str:
        by = "" if self.decided_by == "checker" else f", decided_by={self.decided_by!r}"
        return (
            f"SufficiencyResult(score={self.score:.4f}, level={self.level.value!r}{by}, "
            f"missing_terms={self.missing_terms!r})"
        )

    def _repr_html_(self) -> str:
        from .display import render_html  # lazy: display imports this module

        return render_html(self)


# -- checker -----------------------------------------------------------------------------------------------------


class SufficientContextChecker:
    """Score whether retrieved context suffices to answer a query (before generation).

    Parameters
    ----------
    embedding_model : object, optional
        A sentence-transformers model (``.encode``), a LangChain ``Embeddings``, a LlamaIndex ``BaseEmbedding``, or
        a callable ``texts -> 2-D array``. Relevance is then the best cosine of the query with the chunks (a chunk's
        own ``embedding`` when it has one); without it, default scoring uses a lexical signal.
    weights : mapping, optional
        Overrides of named signal weights: coverage, relevance, density, count, recency (default scoring
        .6/.2/.1/.1/.1; reference .4/.3/.2/.1 and no recency). Recency's weight counts only when some chunk has a
        timestamp.
    thresholds : (float, float)
        (sufficient, partial): score >= sufficient is "sufficient", >= partial "partial"; 0 <= partial <=
        sufficient <= 1.
    min_contexts : int
        Fewer chunks lower the count signal (and are reported).
    recency_days : float
        Age at which a chunk's recency reaches 0.
    scoring : {"default", "reference"}
        The product's scoring, or the original design's formula to 1e-9.
    term_statistics : TermStatistics, optional
        Term rarity for default scoring; the packaged English table by default.
    require_embeddings : bool
        Refuse to construct without an embedding model.
    enabled, decline_insufficient : bool
        Policy flags for pipelines (the integrations read them; see `should_decline`). Checks always score.
    escalate : callable, optional
        A judge ``escalate(query, chunks) -> bool | str | Level`` (an LLM autorater, say) asked only when the score
        falls inside `escalate_band`; its verdict becomes the level (``decided_by="escalation"``). True means
        "sufficient", False "insufficient".
    escalate_band : (float, float)
        (low, high): scores with low <= score <= high are escalated. Default (0.4, 0.6), around the default
        partial threshold.

    Checks never mutate the checker: one instance can serve many threads. It pickles (its configuration).
    """

    def __init__(
        self,
        embedding_model: Any = None,
        *,
        weights: Mapping[str, float] | None = None,
        thresholds: Sequence[float] = (0.8, 0.5),
        min_contexts: int = 1,
        recency_days: float = 365,
        scoring: str = "default",
        term_statistics: TermStatistics | None = None,
        require_embeddings: bool = False,
        enabled: bool = True,
        decline_insufficient: bool = False,
        escalate: Escalation | None = None,
        escalate_band: Sequence[float] | None = None,
    ) -> None:
        if not isinstance(scoring, str):
            raise TypeError(f"scoring must be a str ('default' or 'reference'); got {type(scoring).__name__}")
        sufficient, partial = _thresholds(thresholds)
        min_contexts = int_in_range(min_contexts, "min_contexts")
        recency_days = _real(recency_days, "recency_days")
        overrides = _weight_overrides(weights)
        for name, flag in (("require_embeddings", require_embeddings), ("enabled", enabled),
                           ("decline_insufficient", decline_insufficient)):  # fmt: skip
            if not isinstance(flag, bool_types()):
                raise TypeError(f"{name} must be a bool; got {type(flag).__name__}")
        if term_statistics is not None and not isinstance(term_statistics, TermStatistics):
            raise TypeError(f"term_statistics must be a TermStatistics; got {type(term_statistics).__name__}")
        if escalate is not None and not callable(escalate):
            raise TypeError(f"escalate must be callable (query, chunks) -> verdict; got {type(escalate).__name__}")
        band = _band(escalate_band if escalate_band is not None else _DEFAULT_BAND)
        embedder = None if embedding_model is None else as_embedding_model(embedding_model)
        if require_embeddings and embedder is None:
            raise ValueError("require_embeddings=True needs an embedding_model")
        statistics = term_statistics if term_statistics is not None else TermStatistics.english()
        # Ranges, names and scoring are validated in C++ (ValueError naming the field).
        self._core = _core.Checker(scoring, overrides, sufficient, partial, min_contexts, recency_days,
                                   statistics._core, english_word_relations())  # fmt: skip
        self._scoring: str = self._core.scoring  # read on every check: a plain attribute, not a C++ property
        # The core builds the SufficiencyResult objects (no Python call per result).
        self._results = _core.ResultFactory(SufficiencyResult, _LEVEL_ORDER, self._scoring, time.perf_counter)
        self._embedding_model = embedding_model
        self._embedder: EmbeddingAdapter | None = embedder
        self._overrides = dict(overrides)
        self._statistics = statistics
        self._require_embeddings = bool(require_embeddings)
        self._enabled = bool(enabled)
        self._decline_insufficient = bool(decline_insufficient)
        self._escalate = escalate
        self._band = band
        self._user_band = escalate_band is not None

    # -- configuration ---------------------------------------------------------------------------------------------

    @classmethod
    def from_config(
        cls,
        source: ConfigSource,
        embedding_model: Any = None,
        *,
        term_statistics: TermStatistics | None = None,
        escalate: Escalation | None = None,
        escalate_band: Sequence[float] | None = None,
    ) -> SufficientContextChecker:
        """A checker from the ``sufficient_context:`` section of a YAML file (needs PyYAML) or a mapping.

        Keys: enabled, min_contexts, thresholds {sufficient, partial}, require_embeddings, decline_insufficient,
        weights, scoring, recency_days. An unknown key or a bad value raises ValueError naming it.
        """
        kwargs = load_checker_config(source)
        return cls(embedding_model, term_statistics=term_statistics, escalate=escalate,
                   escalate_band=escalate_band, **kwargs)  # fmt: skip

    @property
    def embedding_model(self) -> Any:
        return self._embedding_model

    @property
    def scoring(self) -> str:
        return self._scoring

    @property
    def weights(self) -> dict[str, float]:
        """The effective weight of every signal."""
        return self._core.weights

    @property
    def thresholds(self) -> tuple[float, float]:
        return (self._core.sufficient, self._core.partial)

    @property
    def min_contexts(self) -> int:
        return self._core.min_contexts

    @property
    def recency_days(self) -> float:
        return self._core.recency_days

    @property
    def term_statistics(self) -> TermStatistics:
        return self._statistics

    @property
    def require_embeddings(self) -> bool:
        return self._require_embeddings

    @property
    def enabled(self) -> bool:
        return self._enabled

    @property
    def decline_insufficient(self) -> bool:
        return self._decline_insufficient

    @property
    def escalate(self) -> Escalation | None:
        return self._escalate

    @property
    def escalate_band(self) -> tuple[float, float]:
        return self._band

    def should_decline(self, result: SufficiencyResult) -> bool:
        """Whether a pipeline should decline to answer: enabled, decline_insufficient and level "insufficient"."""
        return self._enabled and self._decline_insufficient and result.level is Level.INSUFFICIENT

    def _state(self) -> dict[str, Any]:
        return {
            "embedding_model": self._embedding_model,
            "weights": self._overrides or None,
            "thresholds": self.thresholds,
            "min_contexts": self.min_contexts,
            "recency_days": self.recency_days,
            "scoring": self.scoring,
            "term_statistics": None if self._statistics._english else self._statistics,
            "require_embeddings": self._require_embeddings,
            "enabled": self._enabled,
            "decline_insufficient": self._decline_insufficient,
            "escalate": self._escalate,
            "escalate_band": self._band if self._user_band else None,
        }

    def __getstate__(self) -> dict[str, Any]:
        return self._state()

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        embedding_model = state.pop("embedding_model")
        type(self).__init__(self, embedding_model, **state)

    def __repr__(self) -> str:
        w = ", ".join(f"{k!r}: {v!r}" for k, v in self.weights.items())
        parts = [
            f"embedding_model={self._embedding_model!r}",
            f"weights={{{w}}}",
            f"thresholds={self.thresholds!r}",
            f"min_contexts={self.min_contexts!r}",
            f"recency_days={self.recency_days!r}",
            f"scoring={self.scoring!r}",
            f"term_statistics={self._statistics!r}",
        ]
        if self._require_embeddings:
            parts.append("require_embeddings=True")
        if not self._enabled:
            parts.append("enabled=False")
        if self._decline_insufficient:
            parts.append("decline_insufficient=True")
        if self._escalate is not None:
            parts.append(f"escalate={self._escalate!r}, escalate_band={self._band!r}")
        return f"SufficientContextChecker({', '.join(parts)})"

    # -- checks ----------------------------------------------------------------------------------------------------

    def check_sufficiency(
        self,
        query: str,
        retrieved_contexts: Iterable[ChunkLike],
        min_contexts: int | None = None,
        recency_days: float | None = None,
        *,
        query_embedding: Any = None,
        now: NowLike = None,
    ) -> SufficiencyResult:
        """Score whether `retrieved_contexts` suffice to answer `query`.

        Parameters
        ----------
        query : str
        retrieved_contexts : sequence of chunks
            Strings, mappings with ``content``, `Chunk`, LangChain Documents or LlamaIndex nodes (see `as_chunks`).
            No chunks: score 0.0, "insufficient".
        min_contexts, recency_days : optional
            Override the checker's values for this check.
        query_embedding : array_like, optional
            The query's vector, when it is already embedded (the model is then not asked for it).
        now : datetime or POSIX seconds, optional
            The time recency is measured against (default: now).

        Returns
        -------
        SufficiencyResult
        """
        start = time.perf_counter()
        if type(query) is not str and not isinstance(query, str):
            raise TypeError(f"query must be a str; got {type(query).__name__}")
        scoring = self._scoring
        if scoring == "default" and not query.strip():  # reference scoring reproduces the original as it was
            raise ValueError("query must not be empty or blank: there is nothing to check the context against")
        if min_contexts is not None:
            min_contexts = int_in_range(min_contexts, "min_contexts")
        if recency_days is not None:
            recency_days = _real(recency_days, "recency_days")
        lexical = self._embedder is None and query_embedding is None
        if lexical and type(retrieved_contexts) is list and all_str(retrieved_contexts):
            # The most common call, strs and no embeddings: nothing to adapt (ids S1..Sn, no per-chunk arrays).
            result: SufficiencyResult = self._core.check(
                query, retrieved_contexts, None, None, None, None, None, 0.0 if now is None else _now_seconds(now),
                min_contexts, recency_days, self._results, start,
            )  # fmt: skip
            if self._escalate is not None:
                self._maybe_escalate(result, query, _Prepared(retrieved_contexts, "retrieved_contexts", False))
            return result
        prepared = _Prepared(retrieved_contexts, "retrieved_contexts", scoring == "reference")
        # `now` only matters for chunks with timestamps; it is still validated when given.
        now_s = (0.0 if prepared.timestamps is None else time.time()) if now is None else _now_seconds(now)
        if lexical:
            qvec = matrix = None  # lexical relevance (see _embeddings)
        else:
            qvec, matrix = self._embeddings(query, prepared, query_embedding, "retrieved_contexts")
        result = self._core.check(query, prepared.contents, prepared.summaries, prepared.timestamps,
                                  prepared.temperatures, qvec, matrix, now_s, min_contexts, recency_days,
                                  self._results, start)  # fmt: skip
        if self._escalate is not None:
            self._maybe_escalate(result, query, prepared)
        return result

    def check_batch(
        self,
        queries: Sequence[str],
        contexts_per_query: Sequence[Iterable[ChunkLike]],
        *,
        min_contexts: int | None = None,
        recency_days: float | None = None,
        now: NowLike = None,
        query_embeddings: Sequence[Any] | None = None,
        threads: int | None = None,
    ) -> list[SufficiencyResult]:
        """Score many checks in C++ threads (GIL released); results in input order, equal to one-by-one checks.

        With an embedding model, each query's missing embeddings are encoded first (one model call per query),
        then every check is scored in one parallel core call. `threads` defaults to the usable cores (at most one per
        query).
        """
        start = time.perf_counter()
        if isinstance(queries, str) or not isinstance(queries, Sequence):
            raise TypeError(f"queries must be a sequence of str; got {type(queries).__name__}")
        if isinstance(contexts_per_query, (str, Mapping)) or not isinstance(contexts_per_query, Sequence):
            raise TypeError("contexts_per_query must be a sequence with one sequence of chunks per query")
        n = len(queries)
        if len(contexts_per_query) != n:
            raise ValueError(f"contexts_per_query has {len(contexts_per_query)} entries for {n} queries")
        if query_embeddings is not None and len(query_embeddings) != n:
            raise ValueError(f"query_embeddings has {len(query_embeddings)} entries for {n} queries")
        queries = list(queries)
        try:
            well_formed = all(map(str.strip, queries))  # each a str with a non-blank character, at C speed
        except TypeError:
            well_formed = False
        if not well_formed:  # name the first offender (blank queries are fine in reference scoring)
            for i, q in enumerate(queries):
                if not isinstance(q, str):
                    raise TypeError(f"queries[{i}] must be a str; got {type(q).__name__}")
                if not q.strip() and self._scoring == "default":
                    raise ValueError(f"queries[{i}] must not be empty or blank")
        threads_n = 0 if threads is None else int_in_range(threads, "threads")
        min_contexts = None if min_contexts is None else int_in_range(min_contexts, "min_contexts")
        recency_days = None if recency_days is None else _real(recency_days, "recency_days")
        now_s = _now_seconds(now)
        reference = self._scoring == "reference"
        lexical = self._embedder is None and query_embeddings is None
        # Lists of str without embeddings need no adapting (the common case, found in one C++ pass); the others are
        # adapted here, in order, so an error names the first bad entry.
        contents: list[Any] = list(contexts_per_query)
        prepared: dict[int, _Prepared] = {}
        for i in _core.not_str_lists(contents) if lexical else range(n):
            p = prepared[i] = _Prepared(contents[i], f"contexts_per_query[{i}]", reference)
            contents[i] = p.contents
        qvecs: list[Any] | None = None
        matrices: list[Any] | None = None
        if not lexical:
            qvecs, matrices = [None] * n, [None] * n
            for i in range(n):
                qe = None if query_embeddings is None else query_embeddings[i]
                qvecs[i], matrices[i] = self._embeddings(queries[i], prepared[i], qe, f"contexts_per_query[{i}]")
            if all(m is None for m in matrices):
                qvecs = matrices = None
        summaries = timestamps = temps = None
        if prepared:
            if reference and any(p.summaries for p in prepared.values()):
                summaries = [prepared[i].summaries if i in prepared else None for i in range(n)]
            if any(p.timestamps is not None for p in prepared.values()):
                timestamps = [prepared[i].timestamps if i in prepared else None for i in range(n)]
            if any(p.temperatures is not None for p in prepared.values()):
                temps = [prepared[i].temperatures if i in prepared else None for i in range(n)]
        results: list[SufficiencyResult] = self._core.check_batch(
            queries, contents, summaries, timestamps, temps, qvecs, matrices,
            now_s, min_contexts, recency_days, threads_n, self._results, start,
        )  # fmt: skip
        if self._escalate is not None:
            for i, r in enumerate(results):
                p = prepared.get(i) or _Prepared(contexts_per_query[i], f"contexts_per_query[{i}]", reference)
                self._maybe_escalate(r, queries[i], p)
        return results

    # -- internals -------------------------------------------------------------------------------------------------

    def _maybe_escalate(self, result: SufficiencyResult, query: str, prepared: _Prepared) -> None:
        low, high = self._band
        if not low <= result.score <= high:
            return
        assert self._escalate is not None
        verdict = self._escalate(query, prepared.chunks())
        result._escalated(_verdict_level(verdict))

    def _embeddings(
        self, query: str, prepared: _Prepared, query_embedding: Any, argument: str
    ) -> tuple[NDArray[np.float64] | None, NDArray[np.float64] | None]:
        """(query vector, one row per chunk) for embedding relevance, or (None, None) without embeddings."""
        own = prepared.embeddings
        model = self._embedder
        # Chunk embeddings alone (a vector store's nodes carry them) cannot be compared with a query nobody can
        # embed: relevance is then lexical, as with no embeddings at all.
        if model is None and query_embedding is None:
            return None, None
        import numpy as np

        n = len(prepared.contents)
        qvec = None if query_embedding is None else _query_vector(query_embedding)
        if n == 0:
            return None, None
        own_list: list[Any] = own if own is not None else [None] * n
        missing = [i for i in range(n) if own_list[i] is None]
        encoded = None
        if model is None:
            if missing:
                i = missing[0]
                raise ValueError(
                    f"{argument}[{i}] (id {prepared.chunk_id(i)!r}) has no embedding and there is no embedding_model "
                    "to encode it"
                )
        elif qvec is None or missing:
            qv, encoded = model.embed(query if qvec is None else None, [prepared.contents[i] for i in missing])
            if qvec is None:
                assert qv is not None
                if not np.isfinite(qv).all():
                    raise ValueError("the embedding model returned NaN or inf for the query")
                qvec = qv
        assert qvec is not None
        d = qvec.shape[0]
        matrix = np.empty((n, d), dtype=np.float64)
        for i, e in enumerate(own_list):
            if e is not None:
                if e.shape[0] != d:
                    raise ValueError(
                        f"{argument}[{i}] (id {prepared.chunk_id(i)!r}): its embedding has dimension {e.shape[0]} "
                        f"but the query's has {d}"
                    )
                matrix[i] = e
        if encoded is not None and missing:
            if encoded.shape[1] != d:
                i = missing[0]
                raise ValueError(
                    f"{argument}[{i}] (id {prepared.chunk_id(i)!r}): the model's embedding has dimension "
                    f"{encoded.shape[1]} but the query's has {d}"
                )
            bad = ~np.isfinite(encoded).all(axis=1)
            if bad.any():
                i = missing[int(np.flatnonzero(bad)[0])]
                raise ValueError(
                    f"{argument}[{i}] (id {prepared.chunk_id(i)!r}): the embedding model returned NaN or inf"
                )
            matrix[missing] = encoded
        return qvec, matrix


# -- input adaptation ----------------------------------------------------------------------------------------------


class _Prepared:
    """The contents of a check's chunks and their per-chunk arrays, taking fast paths for str and plain dicts."""

    # Class-level defaults: the fast path sets only what it has (this runs on every check).
    summaries: list[str] | None = None
    embeddings: list[Any] | None = None
    timestamps: NDArray[np.float64] | None = None
    temperatures: NDArray[np.float64] | None = None
    _chunks: list[Chunk] | None = None
    contents: list[str]

    def __init__(self, objs: Iterable[ChunkLike], argument: str, want_summaries: bool) -> None:
        if type(objs) is list:
            items: list[Any] = objs
        elif isinstance(objs, (str, bytes, Mapping)):
            raise TypeError(f"{argument} must be a sequence of chunks, not a single {type(objs).__name__}")
        else:
            try:
                items = list(objs)
            except TypeError:
                raise TypeError(f"{argument} must be a sequence of chunks; got {type(objs).__name__}") from None
        self._items = items
        self.argument = argument
        plain = plain_ids_and_contents(items, argument)
        if plain is not None:
            self.contents = plain[1]
            return
        chunks = as_chunks(items, argument=argument)  # validates and names the offending index
        self._chunks = chunks
        self.contents = [c.content for c in chunks]
        if want_summaries and any(c.summary for c in chunks):
            self.summaries = [c.summary for c in chunks]
        if any(c.embedding is not None for c in chunks):
            self.embeddings = [c.embedding for c in chunks]
        timed = any(c.timestamp is not None for c in chunks)
        heated = any(c.temperature is not None for c in chunks)
        if timed or heated:
            import numpy as np

            if timed:
                self.timestamps = np.array(
                    [c.timestamp.timestamp() if c.timestamp is not None else math.nan for c in chunks],
                    dtype=np.float64,
                )
            if heated:
                self.temperatures = np.array(
                    [c.temperature if c.temperature is not None else math.nan for c in chunks], dtype=np.float64
                )

    def chunks(self) -> list[Chunk]:
        """The chunks as `Chunk` objects (built on demand on the fast path)."""
        if self._chunks is None:
            self._chunks = as_chunks(self._items, argument=self.argument)
        return self._chunks

    def chunk_id(self, i: int) -> str:
        chunk_id = self.chunks()[i].id
        return str(chunk_id)


_RELEVANCE_SOURCES = ("lexical", "embedding", "constant", "none")
_SIGNALS = ("coverage", "relevance", "density", "count", "recency")


def _str_list(value: Any, name: str) -> list[str]:
    """A result's list of strings from a dict: absent or None is empty; a lone str is refused (not its letters)."""
    return [] if value is None else list_of(value, str, name)


def _signals(value: Any, scoring: str) -> dict[str, float]:
    """Known signal names with finite values; in [0, 1] in default scoring (the reference's relevance is a raw
    cosine, which can be negative)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"signals must be a mapping of signal name to number; got {type(value).__name__}")
    out = {}
    for name, number in value.items():
        if name not in _SIGNALS:
            raise ValueError(f"signals has an unknown signal {name!r}; known: {', '.join(_SIGNALS)}")
        if (
            isinstance(number, bool)
            or not isinstance(number, (int, float))
            or not math.isfinite(as_float(number, f"signals[{name!r}]"))
        ):
            raise ValueError(f"signals[{name!r}] must be a finite number; got {number!r}")
        if scoring == "default" and not 0.0 <= number <= 1.0:
            raise ValueError(f"signals[{name!r}] must be in [0, 1] in default scoring; got {number!r}")
        out[name] = float(number)
    return out


def _details(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"details must be a mapping; got {type(value).__name__}")
    for name, item in value.items():
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"details[{name!r}] must be finite; got {item!r}")
    return dict(value)


def _query_vector(value: Any) -> NDArray[np.float64]:
    import numpy as np

    array = real_array(value, np.float64, "query_embedding")
    if array.ndim != 1 or array.shape[0] == 0:
        raise ValueError(f"query_embedding must be a non-empty 1-D array; got shape {array.shape}")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(f"query_embedding[{bad[0]}] is {array[bad[0]]}: embeddings must be finite")
    return array


def _verdict_level(verdict: Any) -> Level:
    if isinstance(verdict, bool_types()):
        return Level.SUFFICIENT if verdict else Level.INSUFFICIENT
    if isinstance(verdict, SufficiencyResult):
        return verdict.level
    if isinstance(verdict, str) and verdict in _LEVELS:
        return _LEVELS[verdict]
    raise ValueError(
        f"escalate must return True/False or a level ('sufficient', 'partial', 'insufficient'); got {verdict!r}"
    )


def _now_seconds(now: NowLike) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        try:
            return (now if now.tzinfo is not None else now.replace(tzinfo=timezone.utc)).timestamp()
        except (ValueError, OverflowError, OSError) as exc:  # pandas' NaT is a datetime that has no time
            raise ValueError(f"now is not a point in time: {now!r} ({exc})") from None
    if isinstance(now, bool) or not isinstance(now, real_types()):
        raise TypeError(f"now must be a datetime or POSIX seconds; got {type(now).__name__}")
    value = as_float(now, "now")
    if not math.isfinite(value):
        raise ValueError(f"now must be finite; got {value}")
    return value


def _real(value: Any, name: str) -> float:
    if isinstance(value, bool_types()) or not isinstance(value, real_types()):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    return as_float(value, name)


def _thresholds(value: Any) -> tuple[float, float]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence) or len(value) != 2:
        raise TypeError(f"thresholds must be a (sufficient, partial) pair; got {value!r}")
    return _real(value[0], "thresholds[0] (sufficient)"), _real(value[1], "thresholds[1] (partial)")


def _band(value: Any) -> tuple[float, float]:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence) or len(value) != 2:
        raise TypeError(f"escalate_band must be a (low, high) pair; got {value!r}")
    low, high = _real(value[0], "escalate_band[0]"), _real(value[1], "escalate_band[1]")
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(f"escalate_band must satisfy 0 <= low <= high <= 1; got ({low}, {high})")
    return low, high


def _weight_overrides(weights: Mapping[str, float] | None) -> list[tuple[str, float]]:
    if weights is None:
        return []
    if not isinstance(weights, Mapping):
        raise TypeError(f"weights must be a mapping of signal name to weight; got {type(weights).__name__}")
    out = []
    for name, value in weights.items():
        if not isinstance(name, str):
            raise TypeError(f"weights keys must be signal names (str); got {type(name).__name__}")
        out.append((name, _real(value, f"weights[{name!r}]")))
    return out  # names and ranges: checked in C++ (ValueError naming the weight)
