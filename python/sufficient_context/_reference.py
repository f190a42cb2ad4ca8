"""Plain-Python reference implementations: the test oracles of the C++ core (RapidFuzz style).

Each section restates the rules of one C++ module the obvious way (regular expressions, ``str`` methods) so
the tests can check ``C++(x) == reference(x)`` on random inputs. Slow by design; nothing at run time uses it.
Append new sections below, each headed by the C++ files it mirrors.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import unicodedata
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

__all__ = [
    "ENGLISH_STOPWORDS",
    "reference_fold",
    "reference_simple_fold",
    "reference_stem",
    "reference_terms",
    "reference_tokenize",
]

# ==================================================================================================
# Text engine: case folding, tokenizer, stop words, term pipeline
# (src/text/casefold.*, tokenizer.*, stopwords.*, analyzer.*)
# ==================================================================================================

# --- case folding ---------------------------------------------------------------------------------
# Simple (one-to-one) case folding, restricted to these blocks: Python's str.casefold() when it gives one
# character, except U+0130 -> "i" and U+1E9E -> U+00DF; U+2019 folds to "'". Everything else is unchanged.
_FOLD_BLOCKS = (
    (0x0000, 0x024F),  # ASCII, Latin-1 Supplement, Latin Extended-A and -B
    (0x0370, 0x03FF),  # Greek and Coptic
    (0x0400, 0x052F),  # Cyrillic, Cyrillic Supplement
    (0x0530, 0x058F),  # Armenian
    (0x1E00, 0x1EFF),  # Latin Extended Additional
    (0xFF21, 0xFF3A),  # fullwidth Latin capitals
)
_FOLD_SPECIAL = {"\u0130": "i", "\u1e9e": "\u00df", "\u2019": "'"}


@cache
def _fold_char(ch: str) -> str:
    special = _FOLD_SPECIAL.get(ch)
    if special is not None:
        return special
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:  # a lone surrogate has no UTF-8: the package reads it as U+FFFD
        return "\ufffd"
    if any(first <= cp <= last for first, last in _FOLD_BLOCKS):
        folded = ch.casefold()
        if len(folded) == 1:
            return folded
    return ch


def reference_simple_fold(text: str) -> str:
    """Simple case folding, code point by code point (casefold.cpp's fold_code_point), without normalization."""
    return "".join(map(_fold_char, text))


def reference_fold(text: str) -> str:
    """Case-fold `text` as src/text/casefold.cpp's append_folded does: NFKC (non-ASCII text only), then simple
    folding. Lone surrogates read as U+FFFD first, as the package reads them."""
    if text.isascii():
        return "".join(map(_fold_char, text))
    return "".join(map(_fold_char, _nfkc("".join(map(_surrogate_free, text)))))


def _surrogate_free(ch: str) -> str:
    return "\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch


def _nfkc(text: str) -> str:
    """NFKC by the library the core links (utf8proc), so both see the same Unicode version; Python's
    unicodedata when it cannot be loaded."""
    libs = _utf8proc()
    if libs is None:
        return unicodedata.normalize("NFKC", text)
    lib, libc = libs
    data = text.encode("utf-8")
    out = ctypes.c_void_p()
    options = 2 | 4 | 8  # UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE
    length = lib.utf8proc_map(data, len(data), ctypes.byref(out), options)
    if length < 0:
        return text
    try:
        return ctypes.string_at(out.value or 0, length).decode("utf-8")
    finally:
        libc.free(out)


@cache
def _utf8proc() -> tuple[Any, Any] | None:
    """(utf8proc, libc) loaded with ctypes, or None."""
    name = ctypes.util.find_library("utf8proc")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        libc = ctypes.CDLL(None)  # the process's own free (an interposed one, such as ASan's, included)
    except OSError:
        return None
    lib.utf8proc_map.restype = ctypes.c_ssize_t
    lib.utf8proc_map.argtypes = [ctypes.c_char_p, ctypes.c_ssize_t, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int]
    libc.free.argtypes = [ctypes.c_void_p]
    return lib, libc


# --- tokenizer ------------------------------------------------------------------------------------
# The same classification table as src/text/tokenizer.cpp: non-ASCII code points are letters unless
# listed here as separators or ideographs. ASCII: letters, digits 0-9, and the connectors _ ' . ,
_SEPARATOR_RANGES = (
    (0x0080, 0x00A9), (0x00AB, 0x00B4), (0x00B6, 0x00B9), (0x00BB, 0x00BF), (0x00D7, 0x00D7),
    (0x00F7, 0x00F7), (0x02C2, 0x02C5), (0x02D2, 0x02DF), (0x02E5, 0x02EB), (0x02ED, 0x02ED),
    (0x02EF, 0x02FF), (0x0375, 0x0375), (0x037E, 0x037E), (0x0384, 0x0385), (0x0387, 0x0387),
    (0x03F6, 0x03F6), (0x0482, 0x0482), (0x055A, 0x055F), (0x0589, 0x058A), (0x058D, 0x058F),
    (0x05BE, 0x05BE), (0x05C0, 0x05C0), (0x05C3, 0x05C3), (0x05C6, 0x05C6), (0x05F3, 0x05F4),
    (0x0600, 0x060F), (0x061B, 0x061F), (0x066A, 0x066D), (0x06D4, 0x06D4), (0x06DD, 0x06DE),
    (0x06E9, 0x06E9), (0x06FD, 0x06FE), (0x0700, 0x070F), (0x0964, 0x0965), (0x0970, 0x0970),
    (0x0E3F, 0x0E3F), (0x0E4F, 0x0E4F), (0x0E5A, 0x0E5B), (0x104A, 0x104F), (0x10FB, 0x10FB),
    (0x1360, 0x1368), (0x166D, 0x166E), (0x1680, 0x1680), (0x169B, 0x169C), (0x16EB, 0x16ED),
    (0x17D4, 0x17D6), (0x17D8, 0x17DB), (0x1800, 0x180A), (0x180E, 0x180E), (0x1FBD, 0x1FBD),
    (0x1FBF, 0x1FC1), (0x1FCD, 0x1FCF), (0x1FDD, 0x1FDF), (0x1FED, 0x1FEF), (0x1FFD, 0x1FFE),
    (0x2000, 0x2018), (0x201A, 0x2BFF), (0x2CF9, 0x2CFF), (0x2E00, 0x2E7F), (0x2FF0, 0x3004),
    (0x3008, 0x3020), (0x302A, 0x303F), (0x30A0, 0x30A0), (0x30FB, 0x30FB), (0x3190, 0x319F),
    (0x31C0, 0x31EF), (0x3200, 0x33FF), (0x4DC0, 0x4DFF), (0xD800, 0xF8FF), (0xFD3E, 0xFD3F),
    (0xFE00, 0xFE1F), (0xFE30, 0xFE6F), (0xFEFF, 0xFEFF), (0xFF01, 0xFF0F), (0xFF1A, 0xFF20),
    (0xFF3B, 0xFF40), (0xFF5B, 0xFF65), (0xFFE0, 0xFFFF), (0x1D000, 0x1D24F), (0x1F000, 0x1FBFF),
    (0xE0000, 0x10FFFF),
)  # fmt: skip
_IDEOGRAPH_RANGES = (
    (0x1100, 0x11FF), (0x2E80, 0x2FDF), (0x3005, 0x3007), (0x3021, 0x3029), (0x3040, 0x309F),
    (0x30A1, 0x30FA), (0x30FC, 0x30FF), (0x3100, 0x318F), (0x31A0, 0x31BF), (0x31F0, 0x31FF),
    (0x3400, 0x4DBF), (0x4E00, 0xA4CF), (0xA960, 0xA97F), (0xAC00, 0xD7FF), (0xF900, 0xFAFF),
    (0xFF66, 0xFFDC), (0x1B000, 0x1B16F), (0x20000, 0x3FFFF),
)  # fmt: skip
_APOSTROPHES = "'\u2019"


def _letter_ranges() -> list[tuple[int, int]]:
    """Complement of separators, ideographs and U+2019 within U+0080..U+10FFFF, plus ASCII letters."""
    taken = sorted([*_SEPARATOR_RANGES, *_IDEOGRAPH_RANGES, (0x2019, 0x2019)])
    letters = [(ord("A"), ord("Z")), (ord("a"), ord("z"))]
    next_free = 0x80
    for first, last in taken:
        if first > next_free:
            letters.append((next_free, first - 1))
        next_free = max(next_free, last + 1)
    if next_free <= 0x10FFFF:
        letters.append((next_free, 0x10FFFF))
    return letters


def _char_class(ranges: Iterable[tuple[int, int]]) -> str:
    return "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in ranges)


_L = _char_class(_letter_ranges())
_I = _char_class(_IDEOGRAPH_RANGES)
# A run of letters/digits whose parts are joined by: underscores between letters/digits, one apostrophe
# between letters, one '.' or ',' between digits. Or a single ideograph.
_TOKEN_RE = re.compile(
    rf"[{_L}0-9]+(?:(?:_+|(?<=[{_L}])[{_APOSTROPHES}](?=[{_L}])|(?<=[0-9])[.,](?=[0-9]))[{_L}0-9]+)*|[{_I}]"
)
_IDEOGRAPH_RE = re.compile(f"[{_I}]")
_HAS_LETTER_RE = re.compile(f"[{_L}]")
_HAS_DIGIT_RE = re.compile("[0-9]")


def _token_kind(token: str) -> str:
    if _IDEOGRAPH_RE.fullmatch(token):
        return "word"
    has_letter = _HAS_LETTER_RE.search(token) is not None
    has_digit = _HAS_DIGIT_RE.search(token) is not None
    has_underscore = "_" in token
    if has_letter and not has_digit and not has_underscore:
        return "word"
    if not has_letter and not has_underscore:
        return "number"
    return "identifier"


def reference_tokenize(text: str) -> list[tuple[str, int, int, str]]:
    """Tokens of `text` as (text, start, end, kind) with str indices, as src/text/tokenizer.cpp finds them."""
    return [(m.group(), m.start(), m.end(), _token_kind(m.group())) for m in _TOKEN_RE.finditer(text)]


# --- stop words and terms -------------------------------------------------------------------------
# NLTK's English stop words (179), as in src/text/stopwords.cpp.
# fmt: off
#: Folded first words that open a question (which asserts nothing): wh-words and auxiliaries (src/text/asking.cpp).
# fmt: off
ASKING: frozenset[str] = frozenset({
    "what", "who", "whom", "whose", "which", "when", "where", "why", "how", "is", "are", "was", "were", "am", "do",
    "does", "did", "can", "could", "will", "would", "shall", "should", "may", "might", "must", "has", "have", "had",
    "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "can't", "couldn't", "won't", "wouldn't",
    "shouldn't", "hasn't", "haven't", "hadn't",
})
# fmt: on


ENGLISH_STOPWORDS: frozenset[str] = frozenset(
    (
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "you're",
        "you've",
        "you'll",
        "you'd",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "she's",
        "her",
        "hers",
        "herself",
        "it",
        "it's",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "that'll",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "don't",
        "should",
        "should've",
        "now",
        "d",
        "ll",
        "m",
        "o",
        "re",
        "ve",
        "y",
        "ain",
        "aren",
        "aren't",
        "couldn",
        "couldn't",
        "didn",
        "didn't",
        "doesn",
        "doesn't",
        "hadn",
        "hadn't",
        "hasn",
        "hasn't",
        "haven",
        "haven't",
        "isn",
        "isn't",
        "ma",
        "mightn",
        "mightn't",
        "mustn",
        "mustn't",
        "needn",
        "needn't",
        "shan",
        "shan't",
        "shouldn",
        "shouldn't",
        "wasn",
        "wasn't",
        "weren",
        "weren't",
        "won",
        "won't",
        "wouldn",
        "wouldn't",
    )
)
# fmt: on

_STEMMABLE_RE = re.compile(r"[a-z']{3,}")


@cache
def reference_stem(word: str) -> str:
    """Porter2 stem (snowballstemmer's pure-Python "english") of a folded word; words shorter than 3
    characters or holding anything but a-z and apostrophes are returned unchanged (src/text/stemmer.hpp)."""
    if not _STEMMABLE_RE.fullmatch(word):
        return word
    from snowballstemmer import EnglishStemmer  # test-only dependency

    return str(EnglishStemmer().stemWord(word))


def reference_terms(
    text: str,
    stem: bool = True,
    remove_stopwords: bool = True,
    stopwords: Iterable[str] | None = None,
    stemmer: Callable[[str], str] | None = None,
) -> list[str]:
    """Terms of `text` as src/text/analyzer.hpp makes them: tokenize, fold, drop tokens whose folded text is a
    stop word, stem words (not numbers or identifiers), drop empty results. `stemmer` replaces
    reference_stem (to test the pipeline apart from the stemmer)."""
    stop = ENGLISH_STOPWORDS if stopwords is None else frozenset(reference_fold(w) for w in stopwords if w)
    stem_word = reference_stem if stemmer is None else stemmer
    out = []
    for token, _start, _end, kind in reference_tokenize(text):
        term = reference_fold(token)
        if remove_stopwords and term in stop:
            continue
        if stem and kind == "word":
            term = stem_word(term)
        if term:
            out.append(term)
    return out
