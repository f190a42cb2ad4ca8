"""TermStatistics: how common each term is, shared by the sufficiency checker and claim coverage.

One table, one parsed copy per process: ``TermStatistics.english()`` (the packaged table) is the default of both
``SufficientContextChecker`` and ``ClaimCoverage``, and both accept a user's own ``term_statistics=``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any

from ._args import real_types
from ._core import checker as _core

__all__ = ["TermStatistics"]


class TermStatistics:
    """How common each term is (Zipf frequency by Porter2 stem): rare terms weigh more in default scoring.

    Used by ``SufficientContextChecker`` (query terms) and ``ClaimCoverage`` (claim words). The default is the
    packaged English table (``TermStatistics.english()``, from wordfreq, CC BY-SA 4.0), loaded once per process and
    shared by every checker and claim coverage. Build your own from your corpus with ``from_texts`` when its
    vocabulary differs from general English (a legal corpus where "section" is everywhere, say). Immutable; two
    tables are equal when they hold the same ``{stem: zipf}``.
    """

    __slots__ = ("_core", "_english")
    _english_instance: TermStatistics | None = None
    _lock = threading.Lock()

    def __init__(self, core: _core.TermStatistics, *, _english: bool = False) -> None:
        self._core = core
        self._english = _english

    @classmethod
    def english(cls) -> TermStatistics:
        """The packaged English table (data/english_freq.tsv), compiled into the extension at build time.

        Equal to ``from_tsv`` of the packaged file (the build parses it with the same parser), without parsing it.
        """
        with cls._lock:
            if cls._english_instance is None:
                cls._english_instance = cls(_core.TermStatistics.english(), _english=True)
            return cls._english_instance

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> TermStatistics:
        """Corpus statistics: each stem's zipf is log10(occurrences x 1e9 / word tokens) over `texts`.

        Texts are tokenized as the checker tokenizes them (case folding, stop words, Porter2 stems); stems that
        never occur are treated as rare (zipf 1.0), as with the English table.
        """
        if isinstance(texts, (str, bytes)):
            raise TypeError("texts must be an iterable of str, not a single str")
        items = list(texts)
        for i, text in enumerate(items):
            if not isinstance(text, str):
                raise TypeError(f"texts[{i}] must be str; got {type(text).__name__}")
        return cls(_core.TermStatistics.from_texts(items))

    @classmethod
    def from_mapping(cls, zipf: Mapping[str, float]) -> TermStatistics:
        """From ``{stem: zipf}`` (zipf = log10 of occurrences per billion words; 1.0 is rare, 7 is "the")."""
        pairs = []
        numbers = real_types()
        for term, value in zipf.items():
            if not isinstance(term, str):
                raise TypeError(f"term statistics keys must be str; got {type(term).__name__}")
            if isinstance(value, bool) or not isinstance(value, numbers):
                raise TypeError(f"zipf of {term!r} must be a number; got {type(value).__name__}")
            pairs.append((term, float(value)))
        return cls(_core.TermStatistics.from_pairs(pairs))

    @classmethod
    def from_tsv(cls, path: str) -> TermStatistics:
        """From a ``stem<TAB>zipf`` file (the format of the packaged table; ``#`` lines are comments)."""
        with open(path, encoding="utf-8") as fh:
            return cls(_core.TermStatistics.from_tsv(fh.read()))

    def zipf(self, term: str) -> float | None:
        """The zipf of a term as the checker makes it (a Porter2 stem of a case-folded word), None if unknown."""
        return self._core.zipf(term)

    def to_dict(self) -> dict[str, float]:
        """Every ``{stem: zipf}``."""
        return dict(self._core.items())

    def __len__(self) -> int:
        return len(self._core)

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self._core.zipf(term) is not None

    def __eq__(self, other: object) -> bool:
        # By content, so a configuration holding a table equals its unpickled copy.
        if not isinstance(other, TermStatistics):
            return NotImplemented
        return self._core is other._core or (len(self) == len(other) and self.to_dict() == other.to_dict())

    def __hash__(self) -> int:
        return hash(len(self))

    def __repr__(self) -> str:
        return "TermStatistics.english()" if self._english else f"TermStatistics(<{len(self)} terms>)"

    def __reduce__(self) -> tuple[Any, ...]:
        if self._english:
            return (TermStatistics.english, ())
        return (TermStatistics.from_mapping, (self.to_dict(),))
