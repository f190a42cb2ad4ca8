"""What QueryLog.record accepts, reduced to what it stores: decision facts and chunk ids with scores."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._args import as_float, finite_or_none, str_tuple
from ..chunks import as_chunks, check_unique_ids

__all__ = ["chunk_refs", "clean_text", "decision_facts", "str_list"]

_SURROGATES = re.compile("[\ud800-\udfff]")


def clean_text(value: str) -> str:
    """The text with lone surrogates replaced by U+FFFD: SQLite stores UTF-8, which cannot hold them."""
    return _SURROGATES.sub("\ufffd", value)


def decision_facts(decision: Any) -> dict[str, Any]:
    """What a decision object says, by duck typing (see `QueryLog.record`)."""
    if isinstance(decision, str):
        if not decision:
            raise TypeError("decision must be a non-empty str or a decision object; got ''")
        return {"decision": decision}
    status = getattr(decision, "status", None)
    if isinstance(status, str) and hasattr(decision, "attribution_coverage"):  # a GroundedAnswer envelope
        return {
            "decision": status,
            "score": getattr(decision, "confidence", None),
            "answer": getattr(decision, "answer", None),
            "attribution_coverage": decision.attribution_coverage,
            "removed_sentences": getattr(decision, "removed_sentences", None),
            "latency_ms": getattr(decision, "elapsed_ms", None),
        }
    outcome = getattr(decision, "outcome", None)
    if isinstance(outcome, str):  # a RetrievalDecision
        return {"decision": outcome, "score": getattr(decision, "max_score", None)}
    level = getattr(decision, "level", None)
    if level is not None and hasattr(decision, "score"):  # a SufficiencyResult
        return {"decision": str(getattr(level, "value", level)), "score": decision.score,
                "latency_ms": getattr(decision, "elapsed_ms", None)}  # fmt: skip
    if hasattr(decision, "is_grounded") and hasattr(decision, "supported_ratio"):  # an AnswerCoverage
        return {
            "decision": "grounded" if decision.is_grounded else "not_grounded",
            "score": decision.supported_ratio,
            "attribution_coverage": getattr(decision, "attribution_coverage", None),
        }
    raise TypeError(
        "decision must be a non-empty str, a RetrievalDecision, a GroundedAnswer, a SufficiencyResult or an "
        f"AnswerCoverage; got {type(decision).__name__}"
    )


def str_list(values: Iterable[str], name: str) -> list[str]:
    return list(str_tuple(values, name))


def chunk_refs(chunks: Any) -> list[dict[str, Any]]:
    """Id and score of each chunk; only those are stored, so chunks given as id + score need no content."""
    if isinstance(chunks, Mapping):
        refs = []
        for key, value in chunks.items():
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, np.number))):
                raise TypeError(f"chunks[{key!r}] must be a score (number) or None; got {type(value).__name__}")
            score = None if value is None else as_float(value, f"chunks[{key!r}]")
            if score is not None and not math.isfinite(score):
                raise ValueError(f"chunks[{key!r}] must be finite; got {score!r}")
            refs.append({"id": str(key), "score": score})
        return refs
    if isinstance(chunks, (str, bytes)):
        raise TypeError(f"chunks must be a sequence of chunks or a mapping id -> score; got {type(chunks).__name__}")
    try:
        items = list(chunks)
    except TypeError:
        raise TypeError(
            f"chunks must be a sequence of chunks or a mapping id -> score; got {type(chunks).__name__}"
        ) from None
    if all(_is_reference(item) for item in items):
        refs = [_reference(item, i) for i, item in enumerate(items)]
        check_unique_ids([r["id"] for r in refs])
        return refs
    return [{"id": c.id, "score": c.score} for c in as_chunks(items)]


def _is_reference(item: Any) -> bool:
    """An id + score without content: ``{"id", "score"}``, ``(id, score)``, or an object with ``id`` and ``score``."""
    if isinstance(item, Mapping):
        return "id" in item and "content" not in item and "page_content" not in item and "text" not in item
    if isinstance(item, tuple):
        # (id, score); an int id as chunks take one (stored as its str)
        return len(item) == 2 and isinstance(item[0], (str, int)) and not isinstance(item[0], bool)
    return hasattr(item, "id") and hasattr(item, "score") and not hasattr(item, "content")


def _reference(item: Any, i: int) -> dict[str, Any]:
    if isinstance(item, Mapping):
        key, score = item["id"], item.get("score")
    elif isinstance(item, tuple):
        key, score = item
    else:
        key, score = item.id, item.score
    if key is None or (isinstance(key, str) and not key):
        raise ValueError(f"chunks[{i}] has no id")
    return {"id": str(key), "score": finite_or_none(score, f"chunks[{i}].score")}
