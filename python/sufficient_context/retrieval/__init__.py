"""Retrieval built in, for running the pipeline on a folder of documents with nothing else installed: passages by
heading and paragraph (:func:`read_folder`) in an SQLite FTS5 BM25 index (:class:`PassageIndex`)."""

from __future__ import annotations

from .documents import Passage, passages_of, read_folder
from .index import PassageIndex

__all__ = ["Passage", "PassageIndex", "passages_of", "read_folder"]
