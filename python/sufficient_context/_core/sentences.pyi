"""Stubs for `sufficient_context._core.sentences`: sentence splitter and citation markers (C++ core).

Offsets are Python ``str`` indices (code points), half-open ``[start, end)``. The functions take ``str`` only (anything
else: ``TypeError``); a ``str`` holding lone surrogates has no UTF-8 form and raises ``UnicodeEncodeError`` (the
package module replaces them first).
"""

from __future__ import annotations

def split_sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans of `text` as (start, end), in order, trimmed of whitespace, never empty."""

def extract_citations(text: str) -> list[tuple[str, int, int]]:
    """Every cited id of `text` as (id, start, end), the span being the id's own, duplicates kept in order."""

def strip_citations(text: str) -> str:
    """`text` without its citation markers, with no double space where one was."""

def query_hits(query: str, texts: list[str]) -> list[tuple[int, int, int, int]]:
    """(text index, start, end, hits) of every sentence of `texts` (as `split_sentences` finds them) holding a term of
    `query`, in order: `hits` is how many distinct query terms (the default `terms`) it holds, citation markers left
    out."""
