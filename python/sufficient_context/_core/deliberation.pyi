"""Stubs for `sufficient_context._core.deliberation`: the meta-discussion detector (C++ core).

Offsets are Python ``str`` indices (code points). Texts are ``str`` only (anything else: ``TypeError``); a ``str`` with
lone surrogates raises ``UnicodeEncodeError`` (the package module replaces them first).
"""

from __future__ import annotations

class MetaDetector:
    """Three phrase lists (meta patterns, answer cues, clause patterns) compiled to stemmed keys; "*" is a wildcard."""

    def __init__(self, meta_patterns: list[str], answer_cues: list[str], clause_patterns: list[str]) -> None: ...
    @property
    def meta_patterns(self) -> list[str]: ...
    @property
    def answer_cues(self) -> list[str]: ...
    @property
    def clause_patterns(self) -> list[str]: ...
    def analyze(self, text: str) -> tuple[float, int, list[tuple[int, int, bool, bool, bool, list[int], int]]]:
        """(score, meta_sentences, sentences); each sentence is (start, end, question, answer_cue, meta,
        meta pattern indices, clause_start or -1)."""
