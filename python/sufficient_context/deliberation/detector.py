"""Scoring one expert contribution: meta-discussion about missing context, or substance.

The C++ core (``_core.deliberation.MetaDetector``) splits the contribution into sentences and matches the phrase
lists on each. A sentence is *meta* when it is a question, asks for information ("we need to know the peak load"),
or matches an insufficient-context pattern without an answer cue ("It depends on the load: at 10k rps use Kafka"
answers). The score is the fraction of meta sentences; a contribution is meta when the score is above `threshold`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .._args import as_float, replace_surrogates, str_tuple
from .._core import deliberation as _core
from .patterns import ANSWER_CUE_PATTERNS, INSUFFICIENT_CONTEXT_PATTERNS, QUESTION_CLAUSE_PATTERNS

__all__ = ["MetaScore", "extract_expert_questions", "is_context_insufficient_discussion"]

_TRAILING = " \t\r\n.;,"


@dataclass(frozen=True)
class MetaScore:
    """How much of one contribution is talk about missing context.

    - `is_meta`: ``score > threshold``;
    - `score`: the fraction of its sentences that are meta (0.0 for a text without a sentence);
    - `matched`: the insufficient-context patterns found, in pattern order, each once;
    - `questions`: the expert questions it asks (see :func:`extract_expert_questions`).
    """

    is_meta: bool
    score: float
    matched: tuple[str, ...]
    questions: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.is_meta


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be str; got {type(value).__name__}")
    # Lone surrogates have no UTF-8 form: read them as U+FFFD (same length, so offsets still fit).
    return replace_surrogates(value)


def _patterns(value: Any, name: str) -> tuple[str, ...]:
    return str_tuple(value, name)


def _threshold(value: Any, name: str = "threshold") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number in [0, 1]; got {type(value).__name__}")
    if not (math.isfinite(as_float(value, name)) and 0.0 <= value <= 1.0):
        raise ValueError(f"{name} must be in [0, 1]; got {value!r}")
    return float(value)


@functools.lru_cache(maxsize=32)
def detector(
    patterns: tuple[str, ...] = INSUFFICIENT_CONTEXT_PATTERNS,
    answer_cues: tuple[str, ...] = ANSWER_CUE_PATTERNS,
    clause_patterns: tuple[str, ...] = QUESTION_CLAUSE_PATTERNS,
) -> _core.MetaDetector:
    """The compiled detector of these lists (cached: compiling takes longer than scoring a contribution)."""
    return _core.MetaDetector(list(patterns), list(answer_cues), list(clause_patterns))


def _questions(text: str, sentences: list[tuple[int, int, bool, bool, bool, list[int], int]]) -> tuple[str, ...]:
    out: list[str] = []
    for start, end, question, _cue, _meta, _found, clause in sentences:
        if question:
            out.append(text[start:end].strip())
        elif clause >= 0:
            out.append(text[clause:end].rstrip(_TRAILING))
    return tuple(dict.fromkeys(q for q in out if q))


def analyze(
    text: str,
    *,
    patterns: tuple[str, ...] = INSUFFICIENT_CONTEXT_PATTERNS,
    answer_cues: tuple[str, ...] = ANSWER_CUE_PATTERNS,
    threshold: float = 0.5,
) -> MetaScore:
    """:func:`is_context_insufficient_discussion` for arguments already checked."""
    score, _meta, sentences = detector(patterns, answer_cues).analyze(text)
    matched: set[int] = set()
    for sentence in sentences:
        matched.update(sentence[5])
    return MetaScore(
        is_meta=score > threshold,
        score=score,
        matched=tuple(patterns[i] for i in sorted(matched)),
        questions=_questions(text, sentences),
    )


def is_context_insufficient_discussion(
    text: str,
    *,
    patterns: Iterable[str] = INSUFFICIENT_CONTEXT_PATTERNS,
    threshold: float = 0.5,
    answer_cues: Iterable[str] = ANSWER_CUE_PATTERNS,
) -> MetaScore:
    """Scores one expert contribution (see the module doc). Truthy when it is meta-discussion.

    `patterns` and `answer_cues` are phrase lists (extend the defaults: ``INSUFFICIENT_CONTEXT_PATTERNS + (...)``).
    Empty or blank text scores 0.0. Lone surrogates are read as U+FFFD. TypeError / ValueError name the argument.
    """
    return analyze(
        _text(text, "text"),
        patterns=_patterns(patterns, "patterns"),
        answer_cues=_patterns(answer_cues, "answer_cues"),
        threshold=_threshold(threshold),
    )


def extract_expert_questions(text: str) -> list[str]:
    """The questions one contribution asks: its sentences ending in "?" (or a fullwidth one), and its requests for
    information ("we need to know the peak load": the clause, from its start to the end of the sentence, without the
    final period). In order, each once."""
    source = _text(text, "text")
    _score, _meta, sentences = detector().analyze(source)
    return list(_questions(source, sentences))
