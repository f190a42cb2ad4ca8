"""Assertions for the tests of RAG code: is the context sufficient, is the answer grounded?

.. code-block:: python

    from sufficient_context.testing import assert_grounded, assert_sufficient

    def test_retrieval_finds_the_statute():
        chunks = retrieve("What is the punishment for cheating under section 420 IPC?")
        assert_sufficient("What is the punishment for cheating under section 420 IPC?", chunks)

    def test_answer_cites_its_sources():
        assert_grounded(answer, chunks, min_attribution=1.0)

A failed check raises an `AssertionError` (`InsufficientContextError`, `UngroundedAnswerError`) whose message alone
explains the failure; a passed check returns the result. This module does not need pytest. Under pytest, the package's
plugin (``sufficient_context.pytest_plugin``, loaded automatically once the package is installed) makes the helpers
use the checker and the claim coverage its ini options configure when none is passed, and records every check for
``--sc-report``.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Callable

from ._args import bool_types, real_types, text_of
from .checker import Level, SufficiencyResult, SufficientContextChecker
from .chunks import ChunkLike, as_chunks
from .claims import AnswerCoverage, ClaimCoverage, says_nothing

__all__ = [
    "ContextCheckError",
    "InsufficientContextError",
    "UngroundedAnswerError",
    "assert_grounded",
    "assert_sufficient",
]

_RANK = {Level.INSUFFICIENT: 0, Level.PARTIAL: 1, Level.SUFFICIENT: 2}
_TEXT_LIMIT = 300  # longer queries and sentences are shortened in messages


class ContextCheckError(AssertionError):
    """A failed `assert_sufficient` or `assert_grounded`: the message explains it, `result` is the check's result."""

    result: Any

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.result = result


class InsufficientContextError(ContextCheckError):
    """`assert_sufficient` failed; `result` is the `SufficiencyResult`."""

    result: SufficiencyResult


class UngroundedAnswerError(ContextCheckError):
    """`assert_grounded` failed; `result` is the `AnswerCoverage`."""

    result: AnswerCoverage


# -- the pytest plugin's session: configured defaults and the sink for results -----------------------------------------


@dataclass(frozen=True, eq=False)
class _Session:
    checker: Callable[[], SufficientContextChecker]
    coverage: Callable[[], ClaimCoverage]
    record: Callable[[dict[str, Any]], None] | None


_sessions: list[_Session] = []  # a stack: pytester's in-process runs nest sessions


def _push_session(session: _Session) -> None:
    _sessions.append(session)


def _pop_session(session: _Session) -> None:
    for i in range(len(_sessions) - 1, -1, -1):
        if _sessions[i] is session:
            del _sessions[i]
            return


@functools.lru_cache(maxsize=1)
def _default_checker() -> SufficientContextChecker:
    return SufficientContextChecker()


@functools.lru_cache(maxsize=1)
def _default_coverage() -> ClaimCoverage:
    return ClaimCoverage()


def _record(entry: dict[str, Any]) -> None:
    if _sessions and _sessions[-1].record is not None:
        _sessions[-1].record(entry)


# -- assert_sufficient -------------------------------------------------------------------------------------------------


def assert_sufficient(
    query: str,
    contexts: Iterable[ChunkLike],
    level: Level | str = "sufficient",
    *,
    checker: SufficientContextChecker | None = None,
) -> SufficiencyResult:
    """Assert that `contexts` suffice to answer `query` at least at `level`.

    Parameters
    ----------
    query : str
    contexts : sequence of chunks
        Anything `sufficient_context.as_chunks` accepts.
    level : {"sufficient", "partial", "insufficient"}
        The lowest acceptable level (sufficient > partial > insufficient; "insufficient" accepts any result).
    checker : SufficientContextChecker, optional
        Default: under pytest, the checker the plugin's ini options configure (the ``sufficiency_checker``
        fixture); otherwise ``SufficientContextChecker()``.

    Returns
    -------
    SufficiencyResult
        When the level is reached.

    Raises
    ------
    InsufficientContextError
        An `AssertionError` stating the level and the score against the threshold, the query's missing terms and
        the missing aspects.
    """
    __tracebackhide__ = True
    required = _required_level(level)
    if checker is None:
        checker = _sessions[-1].checker() if _sessions else _default_checker()
    elif not isinstance(checker, SufficientContextChecker):
        raise TypeError(f"checker must be a SufficientContextChecker; got {type(checker).__name__}")
    if not isinstance(contexts, (str, bytes, Mapping)):  # those are refused, with their reason, by the checker
        with contextlib.suppress(TypeError):  # not iterable: the checker says so
            contexts = list(contexts)  # an iterator is read once; the message counts the chunks
    result = checker.check_sufficiency(query, contexts)
    sufficient, partial = checker.thresholds
    threshold = {Level.SUFFICIENT: sufficient, Level.PARTIAL: partial}.get(required)
    passed = threshold is None or _RANK[result.level] >= _RANK[required]  # None: "insufficient" accepts any level
    message = None
    if threshold is not None and not passed:
        message = _sufficiency_message(query, contexts, required, threshold, result)
    _record(
        {
            "kind": "sufficiency",
            "passed": passed,
            "level": result.level.value,
            "required_level": required.value,
            "score": result.score,
            "threshold": threshold,
            "missing_terms": list(result.missing_terms),
            "message": message,
        }
    )
    if message is not None:
        raise InsufficientContextError(message, result)
    return result


def _required_level(level: object) -> Level:
    if isinstance(level, Level):
        return level
    if isinstance(level, str) and level in ("sufficient", "partial", "insufficient"):
        return Level(level)
    raise ValueError(f"level must be 'sufficient', 'partial' or 'insufficient'; got {level!r}")


def _sufficiency_message(
    query: str, contexts: Any, required: Level, threshold: float, result: SufficiencyResult
) -> str:
    score, limit = _numbers(result.score, threshold)
    relation = "<" if result.score < threshold else ">="
    decided = ""
    if result.decided_by != "checker":
        decided = f" (decided by {result.decided_by}; the checker's own level: {result.checker_level.value!r})"
    lines = [
        f"context is not enough: expected level {required.value!r} or better, got {result.level.value!r}{decided}: "
        f"score {score} {relation} {required.value} threshold {limit}",
        f"  query: {_short(query)}",
    ]
    if isinstance(contexts, list):
        lines.append(f"  contexts: {len(contexts)} chunk{'' if len(contexts) == 1 else 's'}")
    lines.append(f"  missing terms: {_quoted(result.missing_terms)}")
    lines.append(f"  covered terms: {_quoted(result.covered_terms)}")
    if result.missing_aspects:
        lines.append("  missing aspects:")
        lines.extend(f"    - {aspect}" for aspect in result.missing_aspects)
    else:
        lines.append("  missing aspects: none")
    return "\n".join(lines)


# -- assert_grounded ---------------------------------------------------------------------------------------------------


def assert_grounded(
    answer: str,
    chunks: Iterable[ChunkLike],
    min_attribution: float = 0.9,
    *,
    coverage: ClaimCoverage | None = None,
) -> AnswerCoverage:
    """Assert that `answer` is backed by the `chunks` it cites.

    It passes when ``supported_ratio`` (claim sentences covered by a chunk they cite) and ``attribution_coverage``
    (claim sentences citing a retrieved chunk) both reach `min_attribution` and no citation names an unknown chunk.

    Parameters
    ----------
    answer : str
    chunks : sequence of chunks
        Anything `sufficient_context.as_chunks` accepts; ids default to S1, S2, ...
    min_attribution : float
        In [0, 1]; 1.0 demands every claim sentence be covered.
    coverage : ClaimCoverage, optional
        Default: under pytest, the one the plugin's ini options configure (the ``claim_coverage`` fixture);
        otherwise ``ClaimCoverage()``.

    Returns
    -------
    AnswerCoverage
        When the answer passes.

    Raises
    ------
    UngroundedAnswerError
        An `AssertionError` stating supported_ratio and attribution_coverage against min_attribution, each uncovered
        sentence with its score and reason, and the unknown and missing citations.
    """
    __tracebackhide__ = True
    if isinstance(min_attribution, bool_types()) or not isinstance(min_attribution, real_types()):
        raise TypeError(f"min_attribution must be a number in [0, 1]; got {type(min_attribution).__name__}")
    if not (math.isfinite(min_attribution) and 0.0 <= min_attribution <= 1.0):
        raise ValueError(f"min_attribution must be in [0, 1]; got {min_attribution!r}")
    if coverage is None:
        coverage = _sessions[-1].coverage() if _sessions else _default_coverage()
    elif not isinstance(coverage, ClaimCoverage):
        raise TypeError(f"coverage must be a ClaimCoverage; got {type(coverage).__name__}")
    converted = as_chunks(chunks)
    result = coverage.check_answer(answer, converted)
    # "" or "[S1]" has no claim to be unsupported, so its ratios are 1.0; but it answers nothing.
    text = text_of(answer, "answer")
    empty = says_nothing(text)
    passed = (
        result.supported_ratio >= min_attribution
        and result.attribution_coverage >= min_attribution
        and not result.unknown_citations
        and not empty
    )
    message = None
    if empty:
        message = f"answer {text!r} says nothing: it has no word outside its citation markers"
    elif not passed:
        message = _grounding_message(answer, [str(c.id) for c in converted], float(min_attribution), result)
    _record(
        {
            "kind": "grounded",
            "passed": passed,
            "supported_ratio": result.supported_ratio,
            "attribution_coverage": result.attribution_coverage,
            "min_attribution": float(min_attribution),
            "is_grounded": result.is_grounded,
            "unknown_citations": list(result.unknown_citations),
            "missing_citations": list(result.missing_citations),
            "message": message,
        }
    )
    if message is not None:
        raise UngroundedAnswerError(message, result)
    return result


def _grounding_message(answer: str, ids: list[str], min_attribution: float, result: AnswerCoverage) -> str:
    parts = []
    for name, value in (("supported_ratio", result.supported_ratio),
                        ("attribution_coverage", result.attribution_coverage)):  # fmt: skip
        shown, limit = _numbers(value, min_attribution)
        parts.append(f"{name} {shown} {'<' if value < min_attribution else '>='} min_attribution {limit}")
    if result.unknown_citations:
        n = len(result.unknown_citations)
        parts.append(f"{n} unknown citation{'' if n == 1 else 's'}")
    claims = result.claim_count
    lines = [
        "answer is not grounded: " + "; ".join(parts),
        f"  answer: {_short(answer)}",
        f"  covered: {result.covered_count} of {claims} claim sentence{'' if claims == 1 else 's'}",
    ]
    if result.uncovered:
        lines.append("  uncovered sentences:")
        for claim in result.uncovered:
            lines.append(f"    - {_short(claim.sentence)} (score {_numbers(claim.score)[0]}): {claim.reason}")
    if result.unknown_citations:
        lines.append(f"  unknown citations (no retrieved chunk has this id): {', '.join(result.unknown_citations)}")
    if result.missing_citations:
        lines.append(f"  missing citations (chunks the answer uses but never cites): "
                     f"{', '.join(result.missing_citations)}")  # fmt: skip
    lines.append(f"  retrieved chunk ids: {', '.join(ids) if ids else 'none'}")
    return "\n".join(lines)


# -- formatting --------------------------------------------------------------------------------------------------------


def _numbers(*values: float) -> list[str]:
    """The values to 4 decimals (trailing zeros dropped), or in full where that would make different values look
    equal."""
    shown = [f"{v:.4f}".rstrip("0") for v in values]
    shown = [text + "0" if text.endswith(".") else text for text in shown]
    if len(set(shown)) < len(set(values)):
        shown = [repr(float(v)) for v in values]
    return shown


def _short(text: str) -> str:
    if len(text) > _TEXT_LIMIT:
        text = text[: _TEXT_LIMIT - 3] + "..."
    return repr(text)


def _quoted(terms: Iterable[str]) -> str:
    return ", ".join(repr(t) for t in terms) or "none"
