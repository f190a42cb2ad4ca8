"""A BM25 index over passages in SQLite FTS5 (Porter stemming), in memory or in a file.

Ranking is FTS5's BM25; the score each hit carries is the share of the query's key terms it holds (the package's
own terms: folding, stop words, Porter2), a number in [0, 1] that the retrieval gate's thresholds can mean the same
thing for every corpus, which raw BM25 values do not."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable

from .. import text
from ..chunks import Chunk
from .documents import Passage

_MAX_WORDS = 64  # distinct query words searched; a question has a handful, the checks then read every key term


class PassageIndex:
    def __init__(self, path: str | os.PathLike[str] = ":memory:") -> None:
        self._db = sqlite3.connect(os.fspath(path), check_same_thread=False)
        try:
            self._db.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS passages USING fts5("
                "text, heading, source_path UNINDEXED, chunk_index UNINDEXED, tokenize='porter unicode61')"
            )
        except sqlite3.OperationalError as exc:  # an SQLite built without FTS5
            raise RuntimeError(f"the passage index needs SQLite with FTS5: {exc}") from None

    def add(self, passages: Iterable[Passage]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT INTO passages(text, heading, source_path, chunk_index) VALUES (?, ?, ?, ?)",
                ((p.text, p.heading or "", p.source_path, p.chunk_index) for p in passages),
            )

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM passages").fetchone()[0])

    def search(self, query: str, k: int = 5) -> list[Chunk]:
        """The `k` best passages for `query` as chunks (id ``path#index``, metadata source_path / heading /
        chunk_index, score = share of the query's key terms present), best first."""
        words = [t.text for t in text.tokenize(query)]
        # Stop words would match nearly every passage; a query of stop words only searches with them all.
        words = [w for w in words if text.fold(w) not in text.STOPWORDS] or words
        # Each distinct word once, and at most _MAX_WORDS of them: FTS5's work grows with the OR terms times the
        # passages, so a question of one word repeated 100,000 times took a minute of CPU.
        words = list(dict.fromkeys(text.fold(w) for w in words))[:_MAX_WORDS]
        if not words:
            return []
        # Each word quoted: FTS5 syntax characters in the query are text, not operators.
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self._db.execute(
            "SELECT text, heading, source_path, chunk_index FROM passages WHERE passages MATCH ? "
            "ORDER BY bm25(passages) LIMIT ?",
            (match, k),
        ).fetchall()
        wanted = set(text.terms(query))
        out = []
        for body, heading, source_path, chunk_index in rows:
            passage = Passage(source_path, heading or None, int(chunk_index), body)
            have = set(text.terms(f"{heading} {body}")) if wanted else set()
            score = len(wanted & have) / len(wanted) if wanted else 0.0
            out.append(passage.to_chunk(score=round(score, 6)))
        return out

    def close(self) -> None:
        self._db.close()
