"""The packaged English word relations (data/english_relations.tsv, from WordNet 3.0), compiled in at build time.

Default scoring credits a query term matched by a related word (synonym or derivation) like a spelling variant, and
treats an antonym of an absent query term in the best evidence sentence as a contradiction.
"""

from __future__ import annotations

import functools

from ._core import checker as _core

__all__ = ["english_word_relations"]


@functools.lru_cache(maxsize=1)
def english_word_relations() -> _core.WordRelations:
    """The packaged table: the extension's compiled-in copy (equal to ``from_tsv`` of the file), one per process."""
    return _core.WordRelations.english()
