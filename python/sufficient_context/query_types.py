"""Query types and their evidence rules (API.md section 4): is the retrieved evidence the kind the query asks for?

A query is classified by phrases ("What is the punishment for ...?" is a ``punishment`` query). What each type needs:

- ``punishment``: a relevant chunk (one holding at least ``min_term_fraction`` of the query's key terms) with penalty
  language ("punishable", "imprisonment", "fine", "liable", ...);
- ``procedure``: a relevant chunk with procedural language ("step", "submit", "apply", "within * days", ...);
- ``scope``: a relevant chunk with scope language ("applies to", "extends to", "whole of", "except", ...);
- ``definition``: a relevant chunk with definitional language ("means", "is defined as", "refers to", ...), and a
  statute's own section text counts: it defines its offence ("Whoever ... shall be punished", "is said to cheat"), so
  "What is Section 420 IPC?" is answered by the section's text;
- ``general``: a chunk holding any of the query's key terms (the original design).

Phrases are data
(:class:`QueryTypeRules`), matched on case-folded, Porter2-stemmed tokens in C++ (``_core.claims``), so
"punished", "punishment" and "punishable" all match "punish". One C++ call per check.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._args import replace_surrogates, str_tuple
from ._core import claims as _core
from .chunks import ChunkLike, as_chunks

__all__ = [
    "GENERAL",
    "EvidenceSufficiency",
    "QueryTypeRules",
    "classify_query",
    "is_evidence_sufficient",
]

GENERAL = "general"
"""The fallback type: no query phrase matched."""

_CoreRules = _core.QueryTypeRules


def _patterns(value: Any, name: str) -> tuple[str, ...]:
    return str_tuple(value, name)


class QueryTypeRules:
    """Query types as data: for each type, the phrases that mark such a query and those that mark its evidence.

    Parameters
    ----------
    types : mapping of str to (query_patterns, evidence_patterns), optional
        In priority order, most specific first. Patterns are words, with ``*`` standing for 1-8 words
        ("what does * mean"); they match case-insensitively on stemmed words anywhere in the text. Default:
        :meth:`default_types` (punishment, procedure, scope, definition). ``"general"`` is the implicit fallback.
    min_term_fraction : float
        Share of the query's key terms (its content words outside the matched query phrases) a chunk must hold to
        be relevant to a typed query, in (0, 1]; at least one. A general query needs one key term.

    Immutable: :meth:`extend` returns a new object. Pickles, compares by value.
    """

    __slots__ = ("_core", "_fraction", "_types")

    _core: _CoreRules
    _fraction: float
    _types: dict[str, tuple[tuple[str, ...], tuple[str, ...]]]

    def __init__(
        self,
        types: Mapping[str, tuple[Iterable[str], Iterable[str]]] | None = None,
        *,
        min_term_fraction: float = 0.5,
    ) -> None:
        if types is None:
            parsed = {name: (tuple(q), tuple(e)) for name, q, e in _core.QueryTypeRules.default_types()}
        else:
            if not isinstance(types, Mapping):
                raise TypeError(f"types must be a mapping of name -> (query_patterns, evidence_patterns); got "
                                f"{type(types).__name__}")  # fmt: skip
            parsed = {}
            for name, value in types.items():
                if not isinstance(name, str):
                    raise TypeError(f"types keys must be str; got {type(name).__name__}")
                if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
                    raise TypeError(f"types[{name!r}] must be a pair (query_patterns, evidence_patterns)")
                parsed[name] = (
                    _patterns(value[0], f"types[{name!r}][0]"),
                    _patterns(value[1], f"types[{name!r}][1]"),
                )
        if isinstance(min_term_fraction, bool) or not isinstance(min_term_fraction, numbers.Real):
            raise TypeError(f"min_term_fraction must be a number; got {type(min_term_fraction).__name__}")
        self._types = parsed
        self._fraction = float(min_term_fraction)
        # Names, "general" and the fraction's range are checked in C++ (ValueError naming the entry).
        self._core = _core.QueryTypeRules([(name, list(q), list(e)) for name, (q, e) in parsed.items()], self._fraction)

    @staticmethod
    def default_types() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """The built-in types in priority order: name -> (query_patterns, evidence_patterns)."""
        return {name: (tuple(q), tuple(e)) for name, q, e in _core.QueryTypeRules.default_types()}

    @property
    def types(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """name -> (query_patterns, evidence_patterns), in priority order (a copy)."""
        return dict(self._types)

    @property
    def min_term_fraction(self) -> float:
        return self._fraction

    def extend(
        self,
        name: str,
        query_patterns: Iterable[str] = (),
        evidence_patterns: Iterable[str] = (),
        *,
        before: str | None = None,
    ) -> QueryTypeRules:
        """A copy with more patterns: appended to type `name`, or a new type.

        A new type goes before the type `before` (default: before ``"definition"``, the least specific built-in
        type, or last when there is none).
        """
        if not isinstance(name, str):
            raise TypeError(f"name must be str; got {type(name).__name__}")
        extra_q = _patterns(query_patterns, "query_patterns")
        extra_e = _patterns(evidence_patterns, "evidence_patterns")
        types = dict(self._types)
        if name in types:
            q, e = types[name]
            types[name] = (q + extra_q, e + extra_e)
        else:
            anchor = before if before is not None else ("definition" if "definition" in types else None)
            if anchor is not None and anchor not in types:
                raise ValueError(f"before must name an existing type ({', '.join(types)}); got {anchor!r}")
            items = list(types.items())
            at = len(items) if anchor is None else [n for n, _ in items].index(anchor)
            items.insert(at, (name, (extra_q, extra_e)))
            types = dict(items)
        return QueryTypeRules(types, min_term_fraction=self._fraction)

    def classify(self, query: str) -> str:
        """The most specific type whose query phrases occur in `query`, else ``"general"``."""
        if not isinstance(query, str):
            raise TypeError(f"query must be str; got {type(query).__name__}")
        return str(self._core.classify(replace_surrogates(query)))

    def check(self, query: str, retrieved_chunks: Iterable[ChunkLike]) -> EvidenceSufficiency:
        """Whether `retrieved_chunks` hold the kind of evidence `query` asks for (one C++ call)."""
        if not isinstance(query, str):
            raise TypeError(f"query must be str; got {type(query).__name__}")
        chunks = as_chunks(retrieved_chunks, argument="retrieved_chunks")
        ids = [str(c.id) for c in chunks]
        qtype, ok, supporting, relevant, key_terms, reason = self._core.evidence(
            replace_surrogates(query), [replace_surrogates(c.content) for c in chunks]
        )
        supporting_ids = tuple(ids[i] for i in supporting)
        if supporting_ids:
            reason += ": " + ", ".join(supporting_ids)
        return EvidenceSufficiency(
            is_sufficient=bool(ok),
            reason=reason,
            query_type=qtype,
            supporting_chunks=supporting_ids,
            relevant_chunks=tuple(ids[i] for i in relevant),
            key_terms=tuple(key_terms),
        )

    def __repr__(self) -> str:
        return f"QueryTypeRules(types={self._types!r}, min_term_fraction={self._fraction!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QueryTypeRules):
            return NotImplemented
        return list(self._types.items()) == list(other._types.items()) and self._fraction == other._fraction

    def __hash__(self) -> int:
        return hash((tuple(self._types.items()), self._fraction))

    def __getstate__(self) -> dict[str, Any]:
        return {"types": self._types, "min_term_fraction": self._fraction}

    def __setstate__(self, state: dict[str, Any]) -> None:
        QueryTypeRules.__init__(self, state["types"], min_term_fraction=state["min_term_fraction"])


@dataclass(frozen=True)
class EvidenceSufficiency:
    """Whether the retrieved chunks hold the kind of evidence the query asks for.

    Attributes
    ----------
    is_sufficient : bool
    reason : str
    query_type : str
        ``"definition"``, ``"punishment"``, ``"procedure"``, ``"scope"``, ``"general"`` or a custom type.
    supporting_chunks : tuple of str
        Ids of the relevant chunks holding the type's evidence language (for ``general``: the relevant chunks).
    relevant_chunks : tuple of str
        Ids of the chunks holding enough of the query's key terms.
    key_terms : tuple of str
        The query's key terms as written.
    """

    is_sufficient: bool
    reason: str
    query_type: str
    supporting_chunks: tuple[str, ...]
    relevant_chunks: tuple[str, ...] = ()
    key_terms: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable form."""
        return {
            "is_sufficient": self.is_sufficient,
            "reason": self.reason,
            "query_type": self.query_type,
            "supporting_chunks": list(self.supporting_chunks),
            "relevant_chunks": list(self.relevant_chunks),
            "key_terms": list(self.key_terms),
        }

    def _repr_html_(self) -> str:
        from .display import render_html  # lazy: display imports this module

        return render_html(self)


_DEFAULT_RULES: QueryTypeRules | None = None


def _default_rules() -> QueryTypeRules:
    global _DEFAULT_RULES
    if _DEFAULT_RULES is None:
        _DEFAULT_RULES = QueryTypeRules()  # immutable: a race builds two equal objects, harmlessly
    return _DEFAULT_RULES


def _rules(rules: object) -> QueryTypeRules:
    if rules is None:
        return _default_rules()
    if not isinstance(rules, QueryTypeRules):
        raise TypeError(f"rules must be a QueryTypeRules or None; got {type(rules).__name__}")
    return rules


def classify_query(query: str, rules: QueryTypeRules | None = None) -> str:
    """The type of `query`: ``"punishment"``, ``"procedure"``, ``"scope"``, ``"definition"`` or ``"general"``.

    When several types match, the most specific wins (in `rules`' order): "What is the punishment for cheating?"
    is ``punishment``, not ``definition``.
    """
    return _rules(rules).classify(query)


def is_evidence_sufficient(
    query: str, retrieved_chunks: Iterable[ChunkLike], rules: QueryTypeRules | None = None
) -> EvidenceSufficiency:
    """Whether `retrieved_chunks` hold the kind of evidence `query` asks for (see :class:`QueryTypeRules`)."""
    return _rules(rules).check(query, retrieved_chunks)
