"""Evidence gates: refuse instead of answering on thin evidence (API.md section 3).

`EvidenceSufficiencyGate.evaluate` is the attention gate (after generation: did the model concentrate enough attention
on the evidence?); `evaluate_retrieval` is the retrieval gate (before generation: did retrieval find enough similar
chunks to call the LLM at all?). The decisions are made in C++ (`_core.gate`) in one call per evaluation; this module
adapts inputs and builds the result dicts and objects, except for the retrieval gate's common inputs (float arrays,
lists of numbers, LlamaIndex nodes), which one C call reads and turns into the finished `RetrievalDecision`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Union, overload

from ._args import as_float, bool_types, int_in_range, is_ndarray, numpy, real_types
from ._core import gate as _core
from .assembly import LOW_CONFIDENCE_BANNER
from .chunks import Chunk, ChunkLike, as_chunks, check_unique_ids

if TYPE_CHECKING:  # NumPy is imported where weights and scores become arrays
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "NO_EVIDENCE_MESSAGE",
    "EvidenceSufficiencyGate",
    "RetrievalDecision",
    "evaluate_retrieval",
]

NO_EVIDENCE_MESSAGE = "No supporting documentation found in indexed sources."

AttentionLike = Union[Mapping[Any, float], Sequence[float], "NDArray[Any]"]

# Refusal heuristics. A distribution is "flat" when its top weight is below 1.5x the uniform share; similarity is
# "low" when no chunk's retrieval score reaches 0.5; fewer than 3 chunks is "too few" to corroborate an answer.
_FLAT_FACTOR = 1.5
_LOW_SIMILARITY = 0.5
_FEW_CHUNKS = 3
_SUMMARY_LIMIT = 5  # evidence_summary lists the chunks with the most attention, at most this many
_SUMMARY_KEYS = ("statute", "section", "source_path", "heading")
_GENERIC_SUGGESTIONS = (
    "Ask a more specific question that names the statute, section or document it concerns.",
    "Split a question with several parts into separate questions, one per topic.",
    "Consult the primary source or a qualified expert if the indexed documentation does not cover this topic.",
)


@dataclass(frozen=True)
class _GateConfig:
    threshold: float
    strict_mode: bool
    mode: str
    top_k: int
    enabled: bool
    core: _core.AttentionConfig = field(compare=False)  # validated once


def _positive_int(value: Any, name: str) -> int:
    return int_in_range(value, name, minimum=1)


def _make_config(threshold: Any, strict_mode: Any, mode: Any, top_k: Any, enabled: bool) -> _GateConfig:
    threshold = _number(threshold, "threshold")
    if not isinstance(strict_mode, bool_types()):
        raise TypeError(f"strict_mode must be a bool; got {type(strict_mode).__name__}")
    if not isinstance(mode, str):
        raise TypeError(f"mode must be a str ('max' or 'top_k_sum'); got {type(mode).__name__}")
    top_k = _positive_int(top_k, "top_k")
    core = _core.AttentionConfig(threshold, bool(strict_mode), mode, top_k)  # range checks live in C++
    return _GateConfig(threshold, bool(strict_mode), mode, top_k, bool(enabled), core)


def _decimal_difference(a: float, b: float) -> float:
    """a - b rounded to 12 decimals, so that 0.65 - 0.5 reports 0.15 exactly (the original design's own test asserts
    it) instead of 0.15000000000000002. Only reported figures are rounded; decisions compare the exact values."""
    return round(a - b, 12) + 0.0  # + 0.0 turns -0.0 into 0.0


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, real_types()):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    return as_float(value, name)


class EvidenceSufficiencyGate:
    """Let the model speak only when enough attention falls on the evidence.

    Parameters
    ----------
    threshold : float
        Required sufficiency S in [0, 1].
    strict_mode : bool
        Pass iff S > threshold instead of S >= threshold.
    mode : {"max", "top_k_sum"}
        S is the largest normalised weight, or the sum of the `top_k` largest.
    top_k : int
        Number of weights summed in "top_k_sum" mode (>= 1).
    enabled : bool
        A disabled gate always passes and reports what it would have decided (`would_pass`).

    Checks never mutate the gate, so one gate can serve many threads; the setters are thread-safe.
    """

    def __init__(
        self,
        threshold: float = 0.5,
        strict_mode: bool = False,
        mode: str = "max",
        top_k: int = 2,
        *,
        enabled: bool = True,
    ) -> None:
        self._lock = threading.Lock()
        self._config = _make_config(threshold, strict_mode, mode, top_k, enabled)

    # -- configuration -------------------------------------------------------------------------------------------

    def set_threshold(self, threshold: float) -> None:
        """Set the required sufficiency; ValueError unless 0 <= threshold <= 1."""
        with self._lock:
            c = self._config
            self._config = _make_config(threshold, c.strict_mode, c.mode, c.top_k, c.enabled)

    def get_threshold(self) -> float:
        """The required sufficiency."""
        return self._config.threshold

    def enable(self) -> None:
        """Turn gating on."""
        self._set_enabled(True)

    def disable(self) -> None:
        """Turn gating off: every evaluation passes, with `would_pass` saying what the gate would have decided."""
        self._set_enabled(False)

    def is_enabled(self) -> bool:
        """Whether the gate refuses on insufficient evidence."""
        return self._config.enabled

    def _set_enabled(self, enabled: bool) -> None:
        with self._lock:
            c = self._config
            self._config = _GateConfig(c.threshold, c.strict_mode, c.mode, c.top_k, enabled, c.core)

    @property
    def threshold(self) -> float:
        return self._config.threshold

    @property
    def strict_mode(self) -> bool:
        return self._config.strict_mode

    @property
    def mode(self) -> str:
        return self._config.mode

    @property
    def top_k(self) -> int:
        return self._config.top_k

    def __repr__(self) -> str:
        c = self._config
        return (
            f"EvidenceSufficiencyGate(threshold={c.threshold!r}, strict_mode={c.strict_mode!r}, mode={c.mode!r}, "
            f"top_k={c.top_k!r}, enabled={c.enabled!r})"
        )

    def __getstate__(self) -> dict[str, Any]:
        c = self._config
        return {"threshold": c.threshold, "strict_mode": c.strict_mode, "mode": c.mode, "top_k": c.top_k,
                "enabled": c.enabled}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._lock = threading.Lock()
        self._config = _make_config(
            state["threshold"], state["strict_mode"], state["mode"], state["top_k"], state["enabled"]
        )

    # -- attention gate ------------------------------------------------------------------------------------------

    def evaluate(
        self,
        attention_distribution: AttentionLike,
        evidence_chunks: Iterable[ChunkLike] | None = None,
        query: str = "",
        answer: str = "",
    ) -> tuple[bool, dict[str, Any]]:
        """Decide whether the attention over the evidence is concentrated enough to let the answer through.

        Parameters
        ----------
        attention_distribution : mapping or 1-D sequence/array
            Chunk id -> weight, or one weight per evidence chunk (ids from `evidence_chunks`, else S1..Sn).
            Weights are normalised to sum 1. With `evidence_chunks`, a mapping may leave chunks out (weight 0) but
            every id it names must be an evidence chunk id.
        evidence_chunks : sequence of chunks, optional
            Anything `as_chunks` accepts; their metadata feeds the refusal's evidence summary.
        query, answer : str
            Used in the refusal's explanation.

        Returns
        -------
        (passes, info)
            `info` holds passes, max_attention, max_chunk_id, sufficiency, threshold, margin, status, mode,
            evidence_count, and on refusal `refusal`; a disabled gate adds `would_pass`.
        """
        config = self._config  # one snapshot: a concurrent setter cannot mix two configurations
        if not isinstance(query, str):
            raise TypeError(f"query must be a str; got {type(query).__name__}")
        if not isinstance(answer, str):
            raise TypeError(f"answer must be a str; got {type(answer).__name__}")
        chunks = None if evidence_chunks is None else as_chunks(evidence_chunks, argument="evidence_chunks")
        ids, weights, keyed = _attention_vector(attention_distribution, chunks)
        try:
            result = _core.evaluate_attention(weights, config.core)
        except ValueError as exc:
            if keyed:  # name the offending id rather than its position in our internal array
                raise ValueError(_bad_weight_message(ids, weights)) from None
            raise ValueError(str(exc)) from None

        argmax = result.argmax
        evidence_count = len(chunks) if chunks is not None else len(ids)
        info: dict[str, Any] = {
            "passes": result.passes,
            "max_attention": result.max_attention,
            "max_chunk_id": ids[argmax] if argmax is not None else None,
            "sufficiency": result.sufficiency,
            "threshold": config.threshold,
            "margin": _decimal_difference(result.sufficiency, config.threshold),
            "status": "evidence_sufficient" if result.passes else "insufficient_evidence",
            "mode": config.mode,
            "evidence_count": evidence_count,
        }
        if config.mode == "top_k_sum":
            info["top_k"] = config.top_k
        if not config.enabled:
            info.update(passes=True, status="gating_disabled", would_pass=result.passes)
            return True, info
        if not result.passes:
            info["refusal"] = _refusal(config, result, ids, weights, chunks, evidence_count, query, answer)
        return result.passes, info

    # -- retrieval gate ------------------------------------------------------------------------------------------

    def evaluate_retrieval(
        self,
        chunks_or_scores: Iterable[ChunkLike] | Sequence[float] | NDArray[Any],
        min_score: float = 0.20,
        min_chunks: int = 2,
        weak_score: float | None = None,
    ) -> RetrievalDecision:
        """The retrieval gate (see `evaluate_retrieval`); a disabled gate returns outcome "normal" and keeps the
        decision it would have made in `would_outcome`."""
        decision = _core.retrieval_decision(RetrievalDecision, chunks_or_scores, min_score, min_chunks, weak_score)
        if decision is None:  # inlined evaluate_retrieval: this runs on every request
            decision = _general_retrieval(chunks_or_scores, min_score, min_chunks, weak_score)
        if self._config.enabled:
            return decision
        if decision.outcome == "normal":
            return replace(decision, gating_enabled=False)
        return replace(
            decision,
            outcome="normal",
            message="",
            reason=f"Gating disabled; the retrieval gate would have decided {decision.outcome}: {decision.reason}",
            gating_enabled=False,
        )


# -- attention input adaptation ------------------------------------------------------------------------------------


class _PositionalIds(Sequence[str]):
    """S1..Sn, made on demand: building 1,000 id strings per call would cost more than the gate itself."""

    def __init__(self, n: int) -> None:
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [f"S{j + 1}" for j in range(*i.indices(self._n))]
        if not -self._n <= i < self._n:
            raise IndexError(i)
        return f"S{i % self._n + 1}"


def _attention_vector(attention: Any, chunks: list[Chunk] | None) -> tuple[Sequence[str], NDArray[np.float64], bool]:
    """(ids, weights as float64, whether the input was a mapping), weights aligned with the evidence chunks."""
    np = numpy()  # every evaluate() comes here

    if type(attention) is np.ndarray and attention.dtype == np.float64 and attention.ndim == 1 and chunks is None:
        return _PositionalIds(attention.shape[0]), attention, False  # the common case, without the checks below
    if isinstance(attention, Mapping):
        return (*_mapping_vector(attention, chunks), True)
    if attention is None or isinstance(attention, (str, bytes)) or np.isscalar(attention):
        raise TypeError(
            "attention_distribution must be a mapping chunk_id -> weight or a 1-D sequence of weights; "
            f"got {type(attention).__name__}"
        )
    if not isinstance(attention, (Sequence, np.ndarray)) and isinstance(attention, Iterable):
        attention = list(attention)  # a generator or other one-shot iterable of weights
    try:
        array = np.asarray(attention)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"attention_distribution must be a 1-D sequence of numbers: {exc}") from None
    if array.dtype.kind not in "iuf":
        raise TypeError(f"attention_distribution must hold numbers; got dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"attention_distribution must be 1-D; got shape {array.shape}")
    weights = np.require(array, np.float64, ["C", "A"])  # C-contiguous and aligned: the core reads doubles
    if chunks is None:
        return _PositionalIds(weights.shape[0]), weights, False
    if weights.shape[0] != len(chunks):
        raise ValueError(
            f"attention_distribution has {weights.shape[0]} weights but evidence_chunks has {len(chunks)} chunks: "
            "give one weight per chunk, or a mapping chunk_id -> weight"
        )
    return [str(c.id) for c in chunks], weights, False


def _mapping_vector(attention: Mapping[Any, Any], chunks: list[Chunk] | None) -> tuple[list[str], NDArray[np.float64]]:
    import numpy as np

    keys = list(attention)
    raw = list(attention.values())
    try:
        array: NDArray[Any] | None = np.array(raw) if raw else np.zeros(0)
    except (TypeError, ValueError):  # ragged nested values: reported value by value below
        array = None
    # Fast path: NumPy found plain numbers (no str, None or objects); bools would be coerced, so look for them.
    bools = bool_types()  # numpy.bool_ too: NumPy would read a flag as 0.0 / 1.0
    if array is not None and array.dtype.kind in "iuf" and array.ndim == 1 and set(map(type, raw)).isdisjoint(bools):
        values = array.astype(np.float64, copy=False)
    else:
        numbers = real_types()
        for key, value in zip(keys, raw):
            if isinstance(value, bools) or not isinstance(value, numbers):
                raise TypeError(f"attention_distribution[{key!r}] must be a number; got {type(value).__name__}")
        values = np.array([as_float(v, f"attention_distribution[{k!r}]") for k, v in zip(keys, raw)], dtype=np.float64)
    if keys and set(map(type, keys)) != {str}:
        for key in keys:
            if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
                raise TypeError(f"attention_distribution keys must be chunk ids (str); got {type(key).__name__}")
        keys = [str(k) for k in keys]
        if len(set(keys)) != len(keys):
            raise ValueError("attention_distribution has two keys with the same id once converted to str")
    if chunks is None:
        return keys, values
    ids = [str(c.id) for c in chunks]  # unique: as_chunks refuses duplicate ids
    position = dict(zip(ids, range(len(ids))))
    where = list(map(position.get, keys))
    if None in where:
        unknown = [k for k, i in zip(keys, where) if i is None]
        raise ValueError(
            f"attention_distribution names {len(unknown)} id(s) that are not evidence chunk ids: "
            f"{_preview(unknown)}; the evidence ids are {_preview(ids)}"
        )
    weights = np.zeros(len(ids), dtype=np.float64)
    weights[np.array(where, dtype=np.intp)] = values
    return ids, weights


def _preview(items: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(repr(x) for x in items[:limit])
    return f"[{shown}{', ...' if len(items) > limit else ''}]"


def _bad_weight_message(ids: Sequence[str], weights: NDArray[np.float64]) -> str:
    import numpy as np

    bad = np.flatnonzero(~(np.isfinite(weights) & (weights >= 0)))
    i = int(bad[0])
    return f"attention_distribution[{ids[i]!r}] is {float(weights[i])!r}: weights must be finite and non-negative"


# -- refusal -------------------------------------------------------------------------------------------------------


def _percent_pair(value: float, threshold: float) -> tuple[str, str]:
    # Print enough digits that two different numbers never read the same ("50.0% but threshold is 50.0%").
    for digits in range(1, 7):
        a, b = f"{value:.{digits}%}", f"{threshold:.{digits}%}"
        if a != b or value == threshold:
            return a, b
    return a, b


def _refusal(
    config: _GateConfig,
    result: Any,
    ids: Sequence[str],
    weights: NDArray[np.float64],
    chunks: list[Chunk] | None,
    evidence_count: int,
    query: str,
    answer: str,
) -> dict[str, Any]:
    s, t = result.sufficiency, config.threshold
    s_text, t_text = _percent_pair(s, t)
    if config.mode == "top_k_sum":
        reason = f"Top-{config.top_k} attention mass was {s_text} but threshold is {t_text}."
    else:
        reason = f"Highest attention was {s_text} but threshold is {t_text}."
    if result.empty:
        reason += " The attention distribution is empty or all zero."
    elif config.strict_mode and s >= t:
        reason += " Strict mode requires more than the threshold."
    summary = _evidence_summary(ids, weights, result.max_attention, chunks)
    return {
        "status": "insufficient_evidence",
        "reason": reason,
        "max_attention": result.max_attention,
        "sufficiency": s,
        "required_threshold": t,
        "deficit": _decimal_difference(t, s),
        "evidence_count": evidence_count,
        "evidence_summary": summary,
        "suggestions": _suggestions(result, evidence_count, chunks),
        "explanation": _explanation(config, result, summary, evidence_count, query, answer),
        "query": query,
    }


def _evidence_summary(
    ids: Sequence[str], weights: NDArray[np.float64], max_attention: float, chunks: list[Chunk] | None
) -> list[dict[str, Any]]:
    """The chunks with the most attention (at most _SUMMARY_LIMIT), with their citation metadata."""
    np = numpy()

    peak = float(weights.max()) if weights.size else 0.0
    if peak > 0:
        # Relative to the peak, so the top entry shows exactly max_attention and nothing can overflow.
        shares = (weights / peak) * max_attention
        order = np.argsort(-shares, kind="stable")[:_SUMMARY_LIMIT]
    else:
        shares = np.zeros(len(ids))
        order = np.arange(min(len(ids), _SUMMARY_LIMIT))
    summary = []
    for i in order.tolist():
        entry: dict[str, Any] = {"chunk_id": ids[i], "attention": float(shares[i])}
        chunk = chunks[i] if chunks is not None else None
        if chunk is not None:
            metadata = chunk.metadata
            for key in _SUMMARY_KEYS:
                if metadata.get(key) not in (None, ""):
                    entry[key] = metadata[key]
            page = metadata.get("page_number", metadata.get("page"))
            if page not in (None, ""):
                entry["page"] = page
            if chunk.score is not None:
                entry["score"] = chunk.score
        summary.append(entry)
    return summary


def _suggestions(result: Any, evidence_count: int, chunks: list[Chunk] | None) -> list[str]:
    """Suggestions for what went wrong first, then general ones up to at least three."""
    out: list[str] = []
    if result.empty:
        out.append(
            "The attention map gives no weight to any evidence chunk: check that it uses the evidence chunk ids "
            "and that the model actually read the retrieved context."
        )
    if evidence_count < _FEW_CHUNKS:
        out.append(
            f"Retrieve more evidence: only {evidence_count} chunk(s) were available; raise the retriever's top-k "
            "or index more documents on this topic."
        )
    if not result.empty and evidence_count >= 2 and result.max_attention < _FLAT_FACTOR / evidence_count:
        out.append(
            f"Attention is spread almost evenly over {evidence_count} chunks (top chunk "
            f"{result.max_attention:.1%}, {1 / evidence_count:.1%} each if uniform): no single source answers the "
            "question; narrow the question or rerank the evidence."
        )
    scores = [c.score for c in chunks or () if c.score is not None]
    if scores and max(scores) < _LOW_SIMILARITY:
        out.append(
            f"The retrieved chunks match the question weakly (best similarity {max(scores):.2f}): rephrase it with "
            "the exact statute, section or document name, or index the missing source."
        )
    for generic in _GENERIC_SUGGESTIONS:
        if len(out) >= 3:
            break
        out.append(generic)
    return out


def _describe(entry: dict[str, Any]) -> str:
    parts = [str(entry[k]) for k in ("statute", "section") if k in entry]
    if not parts:
        parts = [str(entry[k]) for k in ("source_path", "heading") if k in entry]
    return f"{entry['chunk_id']} ({', '.join(parts)})" if parts else str(entry["chunk_id"])


def _explanation(
    config: _GateConfig, result: Any, summary: list[dict[str, Any]], evidence_count: int, query: str, answer: str
) -> str:
    if answer:
        action = f"withheld the generated answer to {query!r}" if query else "withheld the generated answer"
    else:
        action = f"declined to answer {query!r}" if query else "declined to answer"
    s_text, t_text = _percent_pair(result.sufficiency, config.threshold)
    if result.empty:
        return (
            f"The evidence gate {action}: the model's attention gave no weight to any of the {evidence_count} "
            "evidence chunk(s), so nothing in the retrieved documentation supports an answer."
        )
    if config.mode == "top_k_sum":
        focus = f"the top {min(config.top_k, evidence_count)} evidence chunks together"
    else:
        focus = f"the strongest evidence chunk, {_describe(summary[0])}," if summary else "the strongest chunk"
    comparison = (
        f"which does not exceed the required {t_text} (strict mode)"
        if result.sufficiency >= config.threshold
        else f"below the required {t_text}"
    )
    return (
        f"The evidence gate {action}: {focus} received {s_text} of the model's attention, {comparison}. "
        "An answer resting on evidence this thin is likely to be ungrounded, so the system declines instead of "
        "guessing."
    )


# -- retrieval gate ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RetrievalDecision:
    """What the retrieval gate allows before any LLM call.

    `outcome` is "no_evidence" (refuse with `message`), "weak_evidence" (answer under `message`, the
    low-confidence banner) or "normal"; `passing_chunks` are the ids of chunks with score >= min_score, in input
    order; `reason` says why.
    """

    outcome: str
    message: str
    max_score: float | None  # None when the chunks carry no scores (only their count was gated)
    passing_chunks: list[str]
    reason: str
    min_score: float
    min_chunks: int
    weak_score: float | None
    chunk_count: int
    would_outcome: str  # the gate's own decision; differs from `outcome` only when gating is disabled
    gating_enabled: bool = True

    @property
    def allows_answer(self) -> bool:
        """Whether an LLM call is allowed (outcome is not "no_evidence")."""
        return self.outcome != "no_evidence"

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        # Every field is a str, number, bool or None but the list of ids: asdict's deep copy of each cost more than
        # the gate (the pipeline converts a decision per question). A subclass's own fields are kept.
        names = _DECISION_FIELDS if type(self) is RetrievalDecision else [f.name for f in fields(self)]
        out = {name: getattr(self, name) for name in names}
        out["passing_chunks"] = list(self.passing_chunks)
        return out

    def _repr_html_(self) -> str:
        from .display import render_html  # lazy: display imports this module

        return render_html(self)

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            # The gate leaves `message` and `reason` out of a new decision's __dict__: most callers read only the
            # outcome, and formatting the reason cost more than the gate. They are made from the other fields on
            # first read and kept, so ==, repr, asdict and dataclasses.replace see the same text as before.
            state = self.__dict__
            if (name == "reason" or name == "message") and "would_outcome" in state:
                value = _retrieval_reason(state) if name == "reason" else _RETRIEVAL_MESSAGES[state["outcome"]]
                state[name] = value
                return value
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __getstate__(self) -> dict[str, Any]:
        # Pickles carry the text itself, so a process with another version of this class can read them.
        return {**self.__dict__, "message": self.message, "reason": self.reason}


_DECISION_FIELDS = tuple(f.name for f in fields(RetrievalDecision))
_RETRIEVAL_MESSAGES = {"no_evidence": NO_EVIDENCE_MESSAGE, "weak_evidence": LOW_CONFIDENCE_BANNER, "normal": ""}


def _retrieval_reason(state: dict[str, Any]) -> str:
    """The reason of a decision, from its fields (the gate's own outcome, scores and counts)."""
    outcome, best, count = state["would_outcome"], state["max_score"], len(state["passing_chunks"])
    min_score, min_chunks = state["min_score"], state["min_chunks"]
    if best is None:
        return (
            f"{state['chunk_count']} chunk(s) without retrieval scores: only their count is gated "
            f"(min_chunks {min_chunks})."
        )
    if outcome == "no_evidence":
        if not state["chunk_count"]:
            return "No chunks were retrieved."
        if not count:
            return f"Best similarity {best:.2f} is below min_score {min_score:.2f}."
        return (
            f"Only {count} chunk(s) reach min_score {min_score:.2f} (best similarity {best:.2f}); "
            f"min_chunks is {min_chunks}."
        )
    if outcome == "weak_evidence":
        return (
            f"{count} chunk(s) reach min_score {min_score:.2f}, but the best similarity {best:.2f} is below "
            f"weak_score {state['weak_score']:.2f}: answer under the low-confidence banner."
        )
    return f"{count} chunk(s) reach min_score {min_score:.2f} (best similarity {best:.2f})."


def evaluate_retrieval(
    chunks_or_scores: Iterable[ChunkLike] | Sequence[float] | NDArray[Any],
    min_score: float = 0.20,
    min_chunks: int = 2,
    weak_score: float | None = None,
) -> RetrievalDecision:
    """The retrieval gate: no LLM call unless at least `min_chunks` chunks score >= `min_score`.

    Parameters
    ----------
    chunks_or_scores : sequence of chunks, or of numbers, or a 1-D array
        Chunks with a `score` each, or chunks with none (a retriever that returns documents without scores, e.g.
        LangChain's ``retriever.invoke``): then only their count is gated (``min_chunks``), ``max_score`` is None
        and the reason says so. Bare scores get ids S1..Sn.
    min_score : float
        Similarity a chunk needs to count; any finite number, signed cosine included (scores are whatever the
        retriever returns).
    min_chunks : int
        How many chunks must reach `min_score` (>= 1).
    weak_score : float, optional
        Evidence that passes but whose best score is below this (>= min_score) is "weak_evidence".

    Raises
    ------
    ValueError
        A NaN or infinite score, chunks of which some have a score and some not, or an invalid parameter, naming it.
    """
    # The common inputs (a float array, a list of floats, LlamaIndex nodes) are read and decided in one C call.
    decision = _core.retrieval_decision(RetrievalDecision, chunks_or_scores, min_score, min_chunks, weak_score)
    if decision is None:
        decision = _general_retrieval(chunks_or_scores, min_score, min_chunks, weak_score)
    return decision


def _general_retrieval(obj: Any, min_score: Any, min_chunks: Any, weak_score: Any) -> RetrievalDecision:
    """Every input and parameter the C path leaves to Python: checked here, errors naming the problem."""
    min_score = _number(min_score, "min_score")
    min_chunks = _positive_int(min_chunks, "min_chunks")
    weak = None if weak_score is None else _number(weak_score, "weak_score")
    if not (is_ndarray(obj) or isinstance(obj, (str, bytes, Mapping))) and isinstance(obj, Iterable):
        obj = list(obj)  # a generator can be read only once; its items may suit the C path after all
    # Again with the parameters as plain float / int (NumPy numbers, say): the C path may now take the input.
    decision = _core.retrieval_decision(RetrievalDecision, obj, min_score, min_chunks, weak)
    if decision is not None:
        return decision
    if type(obj) is list and obj and all(type(c) is Chunk and c.id is not None for c in obj):
        decision = _chunks_decision(obj, min_score, min_chunks, weak)
        if decision is not None:
            return decision
    ids, scores = _retrieval_vector(obj)
    if scores is None:  # chunks without scores: nothing to compare with min_score, so only their count is gated
        enough = len(ids) >= min_chunks
        outcome, best, passing = ("normal" if enough else "no_evidence"), None, list(ids)
    else:
        result = _core.evaluate_retrieval(scores, min_score, min_chunks, weak)
        indexes = result.passing.tolist()
        passing = [f"S{i + 1}" for i in indexes] if type(ids) is _PositionalIds else [ids[i] for i in indexes]
        outcome, best = result.outcome, result.max_score
    # Filled like the C path fills it (frozen: straight into __dict__), message and reason made when read.
    decision = object.__new__(RetrievalDecision)
    decision.__dict__.update(
        outcome=outcome,
        max_score=best,
        passing_chunks=passing,
        min_score=min_score,
        min_chunks=min_chunks,
        weak_score=weak,
        chunk_count=len(ids),
        would_outcome=outcome,
        gating_enabled=True,
    )
    return decision


def _chunks_decision(
    chunks: list[Chunk], min_score: float, min_chunks: int, weak: float | None
) -> RetrievalDecision | None:
    """The decision on validated `Chunk`s that all carry a score (what the pipeline passes on every request), by the C
    path on their scores, with their own ids; None when some chunk has no score (the general path gates the count or
    names the one without)."""
    scores = [c.score for c in chunks if c.score is not None]
    if len(scores) != len(chunks):
        return None
    ids = [str(c.id) for c in chunks]
    check_unique_ids(ids, "chunks_or_scores")
    return named_decision(ids, scores, min_score, min_chunks, weak)


def named_decision(
    ids: Sequence[str], scores: Sequence[float], min_score: float, min_chunks: int, weak_score: float | None = None
) -> RetrievalDecision:
    """`evaluate_retrieval(scores, ...)` with `ids` (distinct, one per score) as the names of the passing chunks instead
    of positions S1..Sn: the ids of the scores >= min_score, in order (the gate's rule)."""
    decision = evaluate_retrieval(list(scores), min_score, min_chunks, weak_score)
    minimum = decision.min_score
    decision.__dict__["passing_chunks"] = [i for i, score in zip(ids, scores) if score >= minimum]
    return decision


def _retrieval_vector(obj: Any) -> tuple[Sequence[str], NDArray[np.float64] | None]:
    import numpy as np

    if isinstance(obj, np.ndarray):
        if obj.dtype.kind not in "iuf":
            raise TypeError(f"chunks_or_scores must hold numbers; got dtype {obj.dtype}")
        if obj.ndim != 1:
            raise ValueError(f"chunks_or_scores must be 1-D; got shape {obj.shape}")
        return _PositionalIds(obj.shape[0]), np.require(obj, np.float64, ["C", "A"])
    if isinstance(obj, (str, bytes, Mapping)) or not isinstance(obj, Iterable):
        raise TypeError(f"chunks_or_scores must be a sequence of chunks or of scores; got {type(obj).__name__}")
    items = list(obj)
    numbers = real_types()
    if items and isinstance(items[0], numbers) and not isinstance(items[0], bool):
        for i, x in enumerate(items):
            if isinstance(x, bool) or not isinstance(x, numbers):
                raise TypeError(f"chunks_or_scores[{i}] must be a number like the items before it; got "
                                f"{type(x).__name__}")  # fmt: skip
            as_float(x, f"chunks_or_scores[{i}]")  # an int no float holds is named, not a bare OverflowError
        return _PositionalIds(len(items)), np.array(items, dtype=np.float64)
    chunks = as_chunks(items, argument="chunks_or_scores")
    ids = [str(c.id) for c in chunks]
    scored = [c.score is not None for c in chunks]
    if chunks and not any(scored):
        return ids, None
    scores = np.empty(len(chunks), dtype=np.float64)
    for i, chunk in enumerate(chunks):
        if chunk.score is None:
            first = scored.index(True)
            raise ValueError(
                f"chunks_or_scores[{i}] (id {chunk.id!r}) has no score but chunks_or_scores[{first}] has one: give "
                "every chunk a similarity score, or none (then only their count is gated)"
            )
        scores[i] = chunk.score
    return ids, scores
