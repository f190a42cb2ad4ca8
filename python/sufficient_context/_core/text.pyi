"""Stubs for `sufficient_context._core.text`: the C++ text engine (use `sufficient_context.text`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, overload

import numpy as np

_T = TypeVar("_T", bound=tuple[str, int, int, str])

@overload
def tokenize(text: str, token_type: None = None) -> list[tuple[str, int, int, str]]: ...
@overload
def tokenize(text: str, token_type: type[_T]) -> list[_T]:
    """Tokens as (text, start, end, kind), str indices; kind is "word", "number" or "identifier".

    Items are built as `token_type` (a tuple subclass such as a NamedTuple) when given.
    Raises UnicodeEncodeError when `text` holds lone surrogates.
    """

def count_tokens(text: str) -> int:
    """Number of tokens of `text`."""

_Int64s = np.ndarray[Any, np.dtype[np.int64]]

def token_spans(text: str) -> tuple[_Int64s, _Int64s, np.ndarray[Any, np.dtype[np.uint8]]]:
    """(starts, ends, kinds) as arrays: str indices; kinds 0 word, 1 number, 2 identifier."""

def fold(text: str) -> str:
    """Simple Unicode case folding of `text`."""

def stem(word: str) -> str:
    """Porter2 stem of an already folded word."""

def terms(
    text: str, stem: bool = True, remove_stopwords: bool = True, stopwords: Sequence[str] | None = None
) -> list[str]:
    """Terms of `text`: tokenized, folded, stop words removed, words stemmed."""

def english_stopwords() -> list[str]:
    """The English stop words, folded and sorted."""
