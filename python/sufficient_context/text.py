"""The text engine: tokenizing, case folding, stop words and stemming (C++ core, one call per text).

Rules, shared by every check of the package:

- Tokens are words (letters, with internal apostrophes: ``don't``, ``Arthur's``), numbers (ASCII digits joined
  by single ``.`` or ``,`` between digits: ``10,000``, ``3.14``; a trailing period is not part of it) and
  identifiers (letters and digits mixed, or joined by underscores: ``IPC_420``, ``covid19``). Hyphens and other
  punctuation split (``state-of-the-art`` is four words). CJK ideographs, kana and Hangul are one token per
  character. Any alphabetic script counts as letters.
- Folding is Unicode simple case folding for Latin, Greek, Cyrillic and Armenian (``ß`` stays ``ß``, ``İ``
  becomes ``i``) and maps the typographic apostrophe U+2019 to ``'``.
- ``bytes`` are decoded as UTF-8 with ``errors="replace"``: invalid bytes become U+FFFD, which separates tokens,
  and spans index the decoded ``str``. Lone surrogates in a ``str`` are treated as U+FFFD too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeVar

from ._args import replace_surrogates, str_tuple
from ._core import text as _core

if TYPE_CHECKING:  # NumPy is imported by the core when it makes arrays
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "STOPWORDS",
    "TOKEN_KINDS",
    "Token",
    "TokenKind",
    "TokenSpans",
    "count_tokens",
    "fold",
    "stem",
    "terms",
    "token_spans",
    "tokenize",
]

TokenKind = Literal["word", "number", "identifier"]
_T = TypeVar("_T")


class Token(NamedTuple):
    """One token: its text, its span ``text[start:end]`` in the input, and its kind."""

    text: str
    start: int
    end: int
    kind: TokenKind


STOPWORDS: frozenset[str] = frozenset(_core.english_stopwords())
"""The English stop words (NLTK's 179, case-folded), removed by :func:`terms` by default."""


def _as_text(value: object, name: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", errors="replace")
    raise TypeError(f"{name} must be str or bytes; got {type(value).__name__}")


def _as_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be bool; got {type(value).__name__}")
    return value


def _call(fn: Callable[[str], _T], text: str) -> _T:
    # A str with lone surrogates has no UTF-8; replacing each by U+FFFD keeps every str index in place.
    try:
        return fn(text)
    except UnicodeEncodeError:
        return fn(replace_surrogates(text))


def tokenize(text: str | bytes) -> list[Token]:
    """Split `text` into tokens.

    Parameters
    ----------
    text : str or bytes
        The text; bytes are decoded as UTF-8 (invalid bytes become U+FFFD).

    Returns
    -------
    list of Token
        In text order; ``text[token.start:token.end] == token.text``.
    """
    return _call(lambda s: _core.tokenize(s, Token), _as_text(text, "text"))


class TokenSpans(NamedTuple):
    """The tokens of a text as arrays: ``text[starts[i]:ends[i]]`` is token i; ``kinds[i]`` is 0 (word), 1 (number)
    or 2 (identifier), the indexes of :data:`TOKEN_KINDS`."""

    starts: NDArray[np.int64]
    ends: NDArray[np.int64]
    kinds: NDArray[np.uint8]


TOKEN_KINDS = ("word", "number", "identifier")


def token_spans(text: str | bytes) -> TokenSpans:
    """The tokens of `text` as three NumPy arrays instead of one object per token: the bulk form of `tokenize`
    for large texts (a 100 MB text gives arrays, not millions of objects for the garbage collector to walk)."""
    return TokenSpans(*_call(_core.token_spans, _as_text(text, "text")))


def count_tokens(text: str | bytes) -> int:
    """Return the number of tokens of `text` (``len(tokenize(text))`` without building them)."""
    return _call(_core.count_tokens, _as_text(text, "text"))


def fold(text: str | bytes) -> str:
    """Return `text` compatibility-normalized (NFKC) and case-folded (simple Unicode folding; see the module
    docstring): NFC and NFD, fullwidth forms and ligatures fold alike."""
    return _call(_core.fold, _as_text(text, "text"))


def stem(word: str | bytes) -> str:
    """Return the English Porter2 (Snowball) stem of one word, case-folded first.

    Words shorter than 3 characters or holding anything but a-z and apostrophes after folding (digits,
    accents, other scripts) are returned folded but otherwise unchanged.
    """
    return _core.stem(fold(_as_text(word, "word")))


def terms(
    text: str | bytes,
    stem: bool = True,
    remove_stopwords: bool = True,
    stopwords: Iterable[str] | None = None,
) -> list[str]:
    """Return the normalized terms of `text`: tokenized, case-folded, stop words dropped, words stemmed.

    Parameters
    ----------
    text : str or bytes
        The text; bytes are decoded as UTF-8 (invalid bytes become U+FFFD).
    stem : bool
        Stem words with the English Porter2 stemmer. Numbers and identifiers are never stemmed.
    remove_stopwords : bool
        Drop tokens whose folded text is a stop word.
    stopwords : iterable of str, optional
        The stop words to drop instead of :data:`STOPWORDS` (compared case-folded).

    Returns
    -------
    list of str
        The terms in text order, repeats kept.
    """
    value = _as_text(text, "text")
    do_stem = _as_flag(stem, "stem")
    do_remove = _as_flag(remove_stopwords, "remove_stopwords")
    words = None if stopwords is None else _as_word_list(stopwords)
    return _call(lambda s: _core.terms(s, do_stem, do_remove, words), value)


def _as_word_list(stopwords: Iterable[str]) -> list[str]:
    return [replace_surrogates(word) for word in str_tuple(stopwords, "stopwords")]
