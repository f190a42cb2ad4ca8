"""A SQLite query log for evaluating a RAG gateway offline: one append-only row per answered (or refused) question.

The file is in WAL mode, so readers (a dashboard, `summary()`) never block the writer; every `record` commits on its
own, so a crash loses at most the row being written. Rows are never updated or deleted.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import numpy as np

from .chunks import ChunkLike, as_chunks

__all__ = ["QueryLog", "QueryLogError"]

_COLUMNS = ("id", "question", "chunks", "decision", "score", "answer", "timestamp")
_SCHEMA = """
CREATE TABLE query_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    question  TEXT NOT NULL,
    chunks    TEXT NOT NULL,  -- JSON list of {"id": ..., "score": ...}
    decision  TEXT NOT NULL,
    score     REAL,
    answer    TEXT,
    timestamp TEXT NOT NULL   -- ISO-8601, UTC
)
"""
_QUANTILES = (0.25, 0.5, 0.75, 0.9, 0.95, 0.99)


class QueryLogError(RuntimeError):
    """The query log file cannot be used: not a SQLite database, corrupt, locked too long, or closed."""


class QueryLog:
    """Append-only SQLite log of questions, the chunks retrieved for them, the gate decision and the answer.

    Parameters
    ----------
    path : str or os.PathLike
        The database file (created when missing). ``":memory:"`` keeps the log in memory.
    timeout : float
        Seconds to wait for another connection's lock before `QueryLogError` (SQLite's busy timeout).

    Safe to use from many threads at once (one connection behind a lock); several processes may share the file.
    """

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 5.0) -> None:
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout):
            raise TypeError(f"timeout must be a finite number of seconds; got {timeout!r}")
        if timeout < 0:
            raise ValueError(f"timeout must be >= 0; got {timeout!r}")
        self._path = os.fspath(path)
        if not isinstance(self._path, str):
            raise TypeError(f"path must be a str or os.PathLike[str]; got {type(path).__name__}")
        self._timeout = float(timeout)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._conn = self._open()

    @property
    def path(self) -> str:
        return self._path

    def _error(self, action: str, exc: sqlite3.Error) -> QueryLogError:
        name = getattr(exc, "sqlite_errorname", "")
        text = str(exc)
        if name.startswith("SQLITE_BUSY") or "locked" in text:
            detail = f"the database is locked by another connection and stayed locked for {self._timeout:g} s"
        elif name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")) or "not a database" in text or "malformed" in text:
            detail = f"the file is not a valid SQLite database or is corrupt ({text}); it was left untouched"
        else:
            detail = text
        return QueryLogError(f"cannot {action} query log {self._path!r}: {detail}")

    def _open(self) -> sqlite3.Connection:
        try:
            # Autocommit (isolation_level=None): each INSERT is its own committed transaction.
            conn = sqlite3.connect(self._path, timeout=self._timeout, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error("open", exc) from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self._timeout * 1000)}")
            exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'query_log'").fetchone()
            if conn.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
                conn.execute("PRAGMA journal_mode = WAL")
            if exists:
                columns = tuple(row[1] for row in conn.execute("PRAGMA table_info(query_log)"))
                if not set(_COLUMNS) <= set(columns):
                    conn.close()
                    raise QueryLogError(
                        f"cannot open query log {self._path!r}: its query_log table has columns {list(columns)}, "
                        f"not {list(_COLUMNS)}; it is not a sufficient_context query log"
                    )
            else:
                conn.execute(_SCHEMA)
        except sqlite3.Error as exc:
            conn.close()
            raise self._error("open", exc) from exc
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise QueryLogError(f"query log {self._path!r} is closed")
        return self._conn

    # -- writing -------------------------------------------------------------------------------------------------

    def record(
        self,
        question: str,
        chunks: Iterable[ChunkLike] | Mapping[str, float | None],
        decision: Any,
        score: float | None = None,
        answer: str | None = None,
    ) -> int:
        """Append one row and return its id.

        Parameters
        ----------
        question : str
        chunks : sequence of chunks, or a mapping chunk_id -> score
            Stored as JSON ``[{"id": ..., "score": ...}]`` (score null when unknown).
        decision : str or RetrievalDecision
            E.g. "normal", "weak_evidence", "no_evidence", "refused"; a `RetrievalDecision` gives its outcome.
        score : float, optional
            The decision's score (defaults to a RetrievalDecision's max_score).
        answer : str, optional
        """
        if not isinstance(question, str):
            raise TypeError(f"question must be a str; got {type(question).__name__}")
        outcome = getattr(decision, "outcome", None)
        if isinstance(outcome, str):
            if score is None:
                score = getattr(decision, "max_score", None)
            decision = outcome
        if not isinstance(decision, str) or not decision:
            raise TypeError(f"decision must be a non-empty str or a RetrievalDecision; got {decision!r}")
        if score is not None:
            if isinstance(score, bool) or not isinstance(score, (int, float, np.integer, np.floating)):
                raise TypeError(f"score must be a number or None; got {type(score).__name__}")
            score = float(score)
            if not math.isfinite(score):
                raise ValueError(f"score must be finite; got {score!r}")
        if answer is not None and not isinstance(answer, str):
            raise TypeError(f"answer must be a str or None; got {type(answer).__name__}")
        refs = json.dumps(_chunk_refs(chunks), ensure_ascii=False)
        stamp = datetime.now(timezone.utc).isoformat()
        with self._lock:
            conn = self._connection()
            try:
                cursor = conn.execute(
                    "INSERT INTO query_log (question, chunks, decision, score, answer, timestamp) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (question, refs, decision, score, answer, stamp),
                )
            except sqlite3.Error as exc:
                raise self._error("write to", exc) from exc
            return int(cursor.lastrowid or 0)

    # -- reading -------------------------------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            conn = self._connection()
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._error("read", exc) from exc

    def __len__(self) -> int:
        return int(self._query("SELECT COUNT(*) FROM query_log")[0][0])

    def rows(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The rows, oldest first (the first `limit` when given), with `chunks` decoded from JSON."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM query_log ORDER BY id"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (int(limit),)
        out = []
        for row in self._query(sql, params):
            item = dict(zip(_COLUMNS, row))
            item["chunks"] = json.loads(item["chunks"])
            out.append(item)
        return out

    def summary(self) -> dict[str, Any]:
        """Counts per decision and the distribution of the recorded scores, for evaluation.

        Returns ``{"total": n, "decisions": {decision: count}, "score": {"count", "mean", "min", "max", "p25",
        "p50", "p75", "p90", "p95", "p99"}}``; quantiles interpolate linearly (NumPy's default) and every figure is
        None when no row has a score.
        """
        decisions = self._query("SELECT decision, COUNT(*) FROM query_log GROUP BY decision ORDER BY decision")
        scores = np.array(
            [row[0] for row in self._query("SELECT score FROM query_log WHERE score IS NOT NULL")], dtype=np.float64
        )
        distribution: dict[str, Any] = {"count": int(scores.size)}
        keys = ["mean", "min", "max"] + [f"p{round(q * 100)}" for q in _QUANTILES]
        if scores.size:
            values = [scores.mean(), scores.min(), scores.max(), *np.quantile(scores, _QUANTILES)]
            distribution.update({k: float(v) for k, v in zip(keys, values)})
        else:
            distribution.update(dict.fromkeys(keys))
        counts = {str(name): int(count) for name, count in decisions}
        return {"total": sum(counts.values()), "decisions": counts, "score": distribution}

    # -- lifetime ------------------------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection (idempotent); later calls raise QueryLogError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> QueryLog:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()

    def __repr__(self) -> str:
        return f"QueryLog({self._path!r}, timeout={self._timeout!r})"

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self._path, "timeout": self._timeout}  # the configuration: the file is reopened

    def __setstate__(self, state: dict[str, Any]) -> None:
        type(self).__init__(self, state["path"], timeout=state["timeout"])


def _chunk_refs(chunks: Any) -> list[dict[str, Any]]:
    if isinstance(chunks, Mapping):
        refs = []
        for key, value in chunks.items():
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, np.number))):
                raise TypeError(f"chunks[{key!r}] must be a score (number) or None; got {type(value).__name__}")
            if value is not None and not math.isfinite(float(value)):
                raise ValueError(f"chunks[{key!r}] must be finite; got {float(value)!r}")
            refs.append({"id": str(key), "score": None if value is None else float(value)})
        return refs
    return [{"id": c.id, "score": c.score} for c in as_chunks(chunks)]
