"""The packaged English word relations (data/english_relations.tsv, from WordNet 3.0), parsed once per process.

Default scoring credits a query term matched by a related word (synonym or derivation) like a spelling variant, and
treats an antonym of an absent query term in the best evidence sentence as a contradiction.
"""

from __future__ import annotations

import functools
from importlib import resources

from ._core import checker as _core

__all__ = ["english_word_relations"]


@functools.lru_cache(maxsize=1)
def english_word_relations() -> _core.WordRelations:
    """The packaged table, parsed on first use (lru_cache makes the first call's result the only one)."""
    text = resources.files("sufficient_context").joinpath("data/english_relations.tsv").read_text("utf-8")
    return _core.WordRelations.from_tsv(text)
