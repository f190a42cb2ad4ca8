"""Plain-Python oracle of the deliberation core (src/deliberation/): what MetaDetector.analyze computes.

Test-only: the tests compare ``_core.deliberation.MetaDetector.analyze`` against :func:`reference_analyze` on random
texts; nothing imports this module at run time. Sentences come from the package's splitter (it has its own oracle);
keys, matching, questions, cues, clauses and the score are plain Python here. Offsets are ``str`` indices.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from .._reference import reference_fold, reference_tokenize
from .._reference_claims import (
    MAX_WILDCARD,
    NUMBER_WORDS,
    SPEAKER_KEY,
    SPEAKER_WORDS,
    WILDCARD,
    _number_key,
    _word_base,
    stem,
)
from ..sentences import split_sentences

NUMBERS_FOR_CUE = 2
_IRREGULAR = {"can't": "can", "won't": "will", "shan't": "shall", "ain't": "is"}
_SUFFIXES = {"d": "would", "re": "are", "ll": "will", "ve": "have", "m": "am"}
_IS_BASES = frozenset({"it", "that", "there", "what", "here", "who", "he", "she", "where", "how"})
_CLOSERS = ('"', "'", ")", "]", "}", "*", "_", "\u201d", "\u2019", "\u00bb")
Key = tuple[str, int, int, bool]  # key, start, end, written in digits


def _expand(w: str) -> list[str]:
    if w == "cannot":
        return ["can", "not"]
    if w.endswith("n't") and len(w) > 3:
        return [_IRREGULAR.get(w, w[:-3]), "not"]
    apostrophe = w.rfind("'")
    if apostrophe <= 0:
        return [w]
    base, suffix = w[:apostrophe], w[apostrophe + 1 :]
    if suffix in _SUFFIXES:
        return [base, _SUFFIXES[suffix]]
    if w == "let's":
        return ["let", "us"]
    if suffix == "s" and base in _IS_BASES:
        return [base, "is"]
    return [w]


def _word_key(folded: str) -> str:
    if folded in NUMBER_WORDS:
        return NUMBER_WORDS[folded]
    if folded in SPEAKER_WORDS:
        return SPEAKER_KEY
    return stem(_word_base(folded))


def reference_keys(text: str) -> list[Key]:
    """The matching keys of `text` (src/deliberation/pattern_matcher.cpp: text_keys)."""
    source = text.replace("\u2018", "\u2019").replace("\uff07", "\u2019")
    out: list[Key] = []
    for surface, start, end, kind in reference_tokenize(source):
        folded = reference_fold(surface).replace("\u02bc", "'")
        if kind != "word":
            number = _number_key(surface, kind)
            if number is not None:
                out.append((number.replace(",", ""), start, end, True))
            else:
                out.append((_word_key(folded), start, end, False))
            continue
        out.extend((_word_key(part), start, end, False) for part in _expand(folded))
    return out


@functools.lru_cache(maxsize=4096)
def compile_pattern(phrase: str) -> tuple[str, ...]:
    """Keys of a phrase; "*" (whitespace-separated) is a wildcard; leading and trailing wildcards dropped."""
    out: list[str] = []
    for part in phrase.split():
        out.extend([WILDCARD] if part == WILDCARD else [k for k, _s, _e, _n in reference_keys(part)])
    while out and out[0] == WILDCARD:
        out.pop(0)
    while out and out[-1] == WILDCARD:
        out.pop()
    return tuple(out)


def _match(
    keys: Sequence[str], pos: int, pattern: Sequence[str], p: int, memo: dict[tuple[int, int], int | None]
) -> int | None:
    """End of the match of pattern[p:] at keys[pos:], or None. Depth-first, shortest wildcard first; `memo` (one per
    keys and pattern) holds the result of each state after a wildcard, a function of the state only, so the search is
    polynomial in the wildcards (src/common/wildcard_match.hpp)."""
    while p < len(pattern):
        if pattern[p] == WILDCARD:
            for skip in range(1, MAX_WILDCARD + 1):
                if pos + skip > len(keys):
                    return None
                state = (pos + skip, p + 1)
                if state not in memo:
                    memo[state] = _match(keys, pos + skip, pattern, p + 1, memo)
                end = memo[state]
                if end is not None:
                    return end
            return None
        if pos >= len(keys) or keys[pos] != pattern[p]:
            return None
        pos += 1
        p += 1
    return pos


def reference_find(patterns: Sequence[Sequence[str]], keys: Sequence[Key]) -> list[tuple[int, int, int]]:
    """(pattern index, start, end) of the leftmost match of each pattern that matches."""
    words = [k for k, _s, _e, _n in keys]
    out = []
    for i, pattern in enumerate(patterns):
        if not pattern:
            continue
        memo: dict[tuple[int, int], int | None] = {}
        for pos in range(len(words)):
            end = _match(words, pos, pattern, 0, memo)
            if end is not None:
                out.append((i, keys[pos][1], keys[end - 1][2]))
                break
    return out


def reference_is_question(sentence: str) -> bool:
    s = sentence
    while s:
        if s[-1] in " \t\n\r" or s.endswith(_CLOSERS):
            s = s[:-1]
        else:
            break
    return s.endswith(("?", "\uff1f", "\u061f"))


def reference_clause_start(sentence: str, at: int) -> int:
    at = min(at, len(sentence))
    start = 0
    for i in range(at):
        if sentence[i] in ",;:(\u2014\u2013":
            start = i + 1
    while start < at and sentence[start] in " \t":
        start += 1
    return start


def reference_analyze(
    text: str, meta: Sequence[str], cues: Sequence[str], clauses: Sequence[str]
) -> tuple[float, int, list[tuple[int, int, bool, bool, bool, list[int], int]]]:
    """What ``MetaDetector(meta, cues, clauses).analyze(text)`` returns."""
    meta_c = [compile_pattern(p) for p in meta]
    cue_c = [compile_pattern(p) for p in cues]
    clause_c = [compile_pattern(p) for p in clauses]
    sentences = []
    meta_count = 0
    # Sentences come from the package's splitter (tested against its own oracle in test_sentences.py): this oracle
    # checks what src/deliberation/ adds on top of it.
    for start, end in ((s.start, s.end) for s in split_sentences(text)):
        sentence = text[start:end]
        keys = reference_keys(sentence)
        question = reference_is_question(sentence)
        numbers = sum(1 for _k, _s, _e, n in keys if n)
        cue = numbers >= NUMBERS_FOR_CUE or bool(reference_find(cue_c, keys))
        found = [i for i, _s, _e in reference_find(meta_c, keys)]
        clause_matches = reference_find(clause_c, keys)
        clause = -1
        if clause_matches:
            clause = start + reference_clause_start(sentence, min(s for _i, s, _e in clause_matches))
        is_meta = question or clause >= 0 or (bool(found) and not cue)
        meta_count += is_meta
        sentences.append((start, end, question, cue, is_meta, found, clause))
    score = meta_count / len(sentences) if sentences else 0.0
    return score, meta_count, sentences
