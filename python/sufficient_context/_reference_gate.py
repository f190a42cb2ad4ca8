"""Plain-Python reference of the gate rules (API.md section 3): the test oracle for the C++ core.

The arithmetic mirrors src/gate.cpp step for step (same summation order, same overflow scaling), so results are
equal bit for bit, not just close.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

__all__ = ["AttentionOutcome", "RetrievalOutcome", "attention_gate", "retrieval_gate"]

_OVERFLOW_EXPONENT = -128


class AttentionOutcome(NamedTuple):
    passes: bool
    empty: bool
    max_attention: float
    argmax: int | None
    sufficiency: float
    margin: float


class RetrievalOutcome(NamedTuple):
    outcome: str
    max_score: float
    passing: list[int]


def _check_threshold(value: float, name: str = "threshold") -> None:
    if not (0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be a number in [0, 1]; got {value!r}")


def attention_gate(
    weights: Sequence[float], threshold: float = 0.5, strict: bool = False, mode: str = "max", top_k: int = 2
) -> AttentionOutcome:
    """Normalise `weights` to sum 1 and apply the attention gate; S is the max or the top-k sum."""
    _check_threshold(threshold)
    if mode not in ("max", "top_k_sum"):
        raise ValueError(f"mode must be 'max' or 'top_k_sum'; got {mode!r}")
    if top_k < 1:
        raise ValueError(f"top_k must be >= 1; got {top_k}")
    total = 0.0
    max_weight = 0.0
    argmax = 0
    for i, w in enumerate(weights):
        if not (w >= 0.0) or math.isinf(w):
            raise ValueError(f"attention_distribution[{i}] is {w!r}: weights must be finite and non-negative")
        total += w
        if w > max_weight:
            max_weight = w
            argmax = i
    if max_weight == 0.0:
        return AttentionOutcome(False, True, 0.0, None, 0.0, -threshold)
    scale = 1.0
    if math.isinf(total):
        scale = math.ldexp(1.0, _OVERFLOW_EXPONENT)
        total = 0.0
        for w in weights:
            total += w * scale
    max_attention = (max_weight * scale) / total
    if mode == "max":
        sufficiency = max_attention
    elif top_k >= len(weights):
        sufficiency = 1.0
    else:
        top = 0.0
        for w in sorted(weights, reverse=True)[:top_k]:
            top += w * scale
        sufficiency = min(1.0, top / total)
    passes = sufficiency > threshold if strict else sufficiency >= threshold
    return AttentionOutcome(passes, False, max_attention, argmax, sufficiency, sufficiency - threshold)


def retrieval_gate(
    scores: Sequence[float], min_score: float = 0.20, min_chunks: int = 2, weak_score: float | None = None
) -> RetrievalOutcome:
    """No LLM call unless at least `min_chunks` scores reach `min_score`; weak when the best is below weak_score."""
    if not math.isfinite(min_score):
        raise ValueError(f"min_score must be a finite number; got {min_score!r}")
    if min_chunks < 1:
        raise ValueError(f"min_chunks must be >= 1; got {min_chunks}")
    if weak_score is not None and (not math.isfinite(weak_score) or weak_score < min_score):
        raise ValueError(f"weak_score must be finite and >= min_score; got {weak_score!r}")
    max_score = 0.0
    passing: list[int] = []
    for i, s in enumerate(scores):
        if not math.isfinite(s):
            raise ValueError(f"chunks_or_scores[{i}] is {s!r}: scores must be finite")
        if i == 0 or s > max_score:
            max_score = s
        if s >= min_score:
            passing.append(i)
    if len(passing) < min_chunks:
        outcome = "no_evidence"
    elif weak_score is not None and max_score < weak_score:
        outcome = "weak_evidence"
    else:
        outcome = "normal"
    return RetrievalOutcome(outcome, max_score, passing)
