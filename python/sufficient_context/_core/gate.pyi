"""Stubs for `sufficient_context._core.gate`: the attention gate and the retrieval gate (C++ core)."""

from __future__ import annotations

from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

_T = TypeVar("_T")

def check_threshold(value: float, name: str = "threshold") -> None:
    """Raise ValueError naming `name` unless 0 <= value <= 1."""

class AttentionConfig:
    """Validated configuration of the attention gate (ValueError on a bad threshold, mode or top_k)."""

    def __init__(self, threshold: float = 0.5, strict: bool = False, mode: str = "max", top_k: int = 2) -> None: ...
    @property
    def threshold(self) -> float: ...
    @property
    def strict(self) -> bool: ...
    @property
    def mode(self) -> str: ...
    @property
    def top_k(self) -> int: ...

class AttentionResult:
    @property
    def passes(self) -> bool: ...
    @property
    def empty(self) -> bool: ...
    @property
    def max_attention(self) -> float: ...
    @property
    def argmax(self) -> int | None: ...
    @property
    def sufficiency(self) -> float: ...
    @property
    def margin(self) -> float: ...

def evaluate_attention(
    weights: ArrayLike, config: AttentionConfig, argument: str = "attention_distribution"
) -> AttentionResult:
    """Normalise the 1-D weights to sum 1 and apply the gate (ValueError naming `argument[i]` on a bad weight)."""

class RetrievalResult:
    @property
    def outcome(self) -> str: ...
    @property
    def max_score(self) -> float: ...
    @property
    def passing(self) -> NDArray[np.int64]: ...

def evaluate_retrieval(
    scores: ArrayLike,
    min_score: float = 0.2,
    min_chunks: int = 2,
    weak_score: float | None = None,
    argument: str = "chunks_or_scores",
) -> RetrievalResult:
    """Apply the retrieval gate (ValueError naming `argument[i]` on a NaN or infinite score)."""

def retrieval_decision(
    cls: type[_T], scores: object, min_score: object, min_chunks: object, weak_score: object, /
) -> _T | None:
    """The retrieval gate in one call: a `cls` instance with every field but reason and message (the class makes
    those when read), or None when the input or a parameter needs the general path (its checks and errors)."""
