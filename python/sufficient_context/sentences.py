"""Sentence splitting and citation markers of RAG answers (the C++ core in `_core.sentences`).

``split_sentences`` cuts an answer into the sentences whose support `ClaimCoverage` checks; ``extract_citations``
finds the ids of markers such as ``[IPC_420_0]``, ``[S1][S3]``, ``[S1, S3]``; ``strip_citations`` removes the
markers before words are compared. The rules (abbreviations, numbers, lists, line breaks, where a marker after the
period goes, what counts as an id) are documented in ``src/text/sentences.hpp`` and ``src/text/citations.hpp``.

Input: ``str``, or ``bytes`` decoded as UTF-8 with ``errors="replace"`` (each invalid sequence becomes U+FFFD, so
offsets index the decoded ``str``). Offsets are ``str`` indices, half-open: ``text[start:end]``. A ``str`` with
lone surrogates (from ``surrogateescape`` decoding, say) is accepted: they are read as U+FFFD, which keeps every
index valid for the original string.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple, TypeVar, Union

from ._core import sentences as _core

__all__ = [
    "Citation",
    "Sentence",
    "TextLike",
    "citation_ids",
    "extract_citations",
    "split_sentences",
    "strip_citations",
]

TextLike = Union[str, bytes]

_SURROGATES = re.compile("[\ud800-\udfff]")
_T = TypeVar("_T")


class Sentence(NamedTuple):
    """One sentence: its text and where it is, ``text == source[start:end]``."""

    text: str
    start: int
    end: int


class Citation(NamedTuple):
    """One cited id and where the id itself is, ``id == source[start:end]`` (brackets excluded)."""

    id: str
    start: int
    end: int


def _as_str(text: object, name: str = "text") -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, (bytes, bytearray)):
        return bytes(text).decode("utf-8", errors="replace")
    raise TypeError(f"{name} must be str or bytes, got {type(text).__name__}")


def _encodable(text: str) -> str:
    """`text` with lone surrogates replaced by U+FFFD: same length, so indices still fit `text`."""
    return _SURROGATES.sub("\ufffd", text)


def _call(function: Callable[[str], _T], text: str) -> _T:
    # Only a str with lone surrogates has no UTF-8 form; replacing them on that error alone keeps the common
    # path free of an extra scan.
    try:
        return function(text)
    except UnicodeEncodeError:
        return function(_encodable(text))


def split_sentences(text: TextLike) -> list[Sentence]:
    """Split `text` into sentences.

    Parameters
    ----------
    text : str or bytes
        The text; bytes are decoded as UTF-8 with ``errors="replace"``.

    Returns
    -------
    list of Sentence
        In order, non-overlapping, trimmed of whitespace, never empty; every non-whitespace character of
        `text` lies in one of them. ``[]`` for an empty or blank text.
    """
    source = _as_str(text)
    return [Sentence(source[start:end], start, end) for start, end in _call(_core.split_sentences, source)]


def extract_citations(text: TextLike) -> list[Citation]:
    """Cited ids of `text`, in order, duplicates kept.

    ``"[S1][S3]"`` and ``"[S1, S3]"`` both give ``S1`` then ``S3``. Brackets that are not markers
    (``"[citation needed]"``, ``"[...]"``, Markdown links ``"[x](url)"``) give nothing; ``"[1]"`` gives ``"1"``.
    """
    source = _as_str(text)
    return [Citation(id_, start, end) for id_, start, end in _call(_core.extract_citations, source)]


def citation_ids(text: TextLike) -> list[str]:
    """The distinct cited ids of `text` in first-seen order (exact, case-sensitive)."""
    return list(dict.fromkeys(citation.id for citation in extract_citations(text)))


def strip_citations(text: TextLike) -> str:
    """`text` without its citation markers, leaving no double space where a marker was.

    ``"seven years [IPC_420_0]. See also [S1][S3]."`` gives ``"seven years. See also."``. Lone surrogates in
    `text` come back as U+FFFD.
    """
    return _call(_core.strip_citations, _as_str(text))
