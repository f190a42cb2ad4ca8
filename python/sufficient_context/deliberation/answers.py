"""Is a user's answer to a clarification question partial?"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from .detector import _patterns, _text, detector
from .patterns import NON_ANSWERS, PARTIAL_ANSWER_PATTERNS

__all__ = ["PartialAnswer", "is_partial_answer"]

_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")
_YES_NO_OPENERS = frozenset(
    {"am", "is", "are", "was", "were", "do", "does", "did", "can", "could", "will", "would", "shall", "should"}
    | {"have", "has", "had", "may", "might", "must"}
)
# A question of several parts: more than one "?", a numbered or lettered list, or "and"/"also" followed by a new
# question word. "(?<!\s)": the "and" branch starts only where a run of white space does (a later start in the run
# reaches the same "and" or fails the same way), so a long run is scanned once, not once per character.
_PART_SPLIT = re.compile(
    r"\?\s+(?=\S)|(?:^|\s)(?:\(?\d+[.)]|\(?[a-z][)])\s+|[,;]?(?<!\s)\s+(?:and|also|plus)\s+(?=(?:what|which|who|whom|"
    r"whose|when|where|why|how|do|does|did|is|are|can|could|will|would|should|have|has)\b)",
    re.IGNORECASE,
)
_ANSWER_SPLIT = re.compile(r"[,;\n]|\s+(?:and|but|plus)\s+|\.\s+", re.IGNORECASE)
_SPACE_RUN = re.compile(r"\s+")
# An open question asks for about one word of answer per this many words of question (at most _MAX_EXPECTED).
_WORDS_PER_ANSWER_WORD = 6
_MAX_EXPECTED = 4


@dataclass(frozen=True)
class PartialAnswer:
    """Whether an answer is partial, and why (empty `reason` for a complete answer)."""

    partial: bool
    reason: str

    def __bool__(self) -> bool:
        return self.partial


def question_parts(question: str) -> list[str]:
    """The parts of a question: split at "?" followed by more text, list labels ("1)", "(b)"), and "and"/"also"
    followed by a question word."""
    parts = [p.strip(" \t\n?,;.") for p in _PART_SPLIT.split(question)]
    return [p for p in parts if _WORD.search(p)]


def is_partial_answer(
    question: str, answer: str, *, patterns: tuple[str, ...] | list[str] = PARTIAL_ANSWER_PATTERNS
) -> PartialAnswer:
    """Whether `answer` only partly answers `question`, with the reason:

    - ``"empty answer"``: blank, or a non-answer alone ("?", "-", "pass", "skip", "later");
    - ``"uncertain answer: 'not sure'"``: a pattern of `patterns` matched (case, apostrophes and punctuation do not
      matter: "IDK", "I don't know" with a curly apostrophe, "N/A");
    - ``"answers 1 of 3 parts"``: the question has several parts (several "?", a numbered list, "... and what ...")
      and the answer fewer segments (split at commas, semicolons, lines, "and");
    - ``"too short: 1 word for a question of 14 words"``: an open question (not yes/no) asks for about one word per
      six of its own, up to four.

    Otherwise ``PartialAnswer(False, "")``. TypeError names `question`, `answer` or `patterns`.
    """
    q = _text(question, "question")
    a = _text(answer, "answer")
    plist = _patterns(patterns, "patterns")
    stripped = a.strip()
    if not stripped or stripped.casefold() in NON_ANSWERS:
        return PartialAnswer(True, "empty answer")
    hedges = _matched(plist, stripped)
    if hedges:
        return PartialAnswer(True, f"uncertain answer: {hedges[0]!r}")
    parts = question_parts(q)
    if len(parts) > 1:
        segments = [s for s in _ANSWER_SPLIT.split(_SPACE_RUN.sub(_short_run, stripped)) if _WORD.search(s)]
        if len(segments) < len(parts):
            return PartialAnswer(True, f"answers {len(segments)} of {len(parts)} parts")
    answer_words = len(_WORD.findall(stripped))
    question_words = _WORD.findall(q)
    if question_words and question_words[0].casefold() not in _YES_NO_OPENERS:
        expected = min(_MAX_EXPECTED, max(1, math.ceil(len(question_words) / _WORDS_PER_ANSWER_WORD)))
        if answer_words < expected:
            plural = "word" if answer_words == 1 else "words"
            return PartialAnswer(
                True, f"too short: {answer_words} {plural} for a question of {len(question_words)} words"
            )
    return PartialAnswer(False, "")


def _short_run(run: re.Match[str]) -> str:
    """A run of white space of at most 2 characters that _ANSWER_SPLIT splits as it splits the run: at its newlines,
    or through a following "and" from the first other character ("\\n " keeps both). _ANSWER_SPLIT tries its
    "and" branch at every character of a run, each try reading to the run's end: 40,000 spaces took 14 s."""
    text = run.group()
    newline = "\n" in text
    other = bool(text.replace("\n", ""))
    return ("\n" if newline else "") + (" " if other else "")


def _matched(patterns: tuple[str, ...], text: str) -> list[str]:
    _score, _meta, sentences = detector(patterns, (), ()).analyze(text)
    found: set[int] = set()
    for sentence in sentences:
        found.update(sentence[5])
    return [patterns[i] for i in sorted(found)]
