"""A SQLite query log for evaluating a RAG gateway offline: one append-only row per answered (or refused) question.

The file is in WAL mode, so readers (a dashboard, `summary()`) never block the writer; every `record` commits on its
own, so a crash loses at most the row being written. Rows are never deleted; a user's verdict (`feedback`) is the
only update. Logs written by earlier versions gain the newer columns when opened.
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

from .chunks import as_chunks

__all__ = ["ANSWERED_DECISIONS", "REFUSED_DECISIONS", "QueryLog", "QueryLogError"]

_BASE_COLUMNS = ("id", "question", "chunks", "decision", "score", "answer", "timestamp")
# Added after the first release: (name, SQL type); opening an older log adds them.
_ADDED_COLUMNS = (
    ("attribution_coverage", "REAL"),
    ("removed_sentences", "TEXT"),  # JSON list of str
    ("latency_ms", "REAL"),
    ("feedback_correct", "INTEGER"),  # 1 / 0, NULL without feedback
    ("feedback_note", "TEXT"),
    ("feedback_at", "TEXT"),  # ISO-8601, UTC
)
_COLUMNS = _BASE_COLUMNS + tuple(name for name, _ in _ADDED_COLUMNS)
_SCHEMA = """
CREATE TABLE query_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    question  TEXT NOT NULL,
    chunks    TEXT NOT NULL,  -- JSON list of {"id": ..., "score": ...}
    decision  TEXT NOT NULL,
    score     REAL,
    answer    TEXT,
    timestamp TEXT NOT NULL,  -- ISO-8601, UTC
    attribution_coverage REAL,
    removed_sentences    TEXT,
    latency_ms           REAL,
    feedback_correct     INTEGER,
    feedback_note        TEXT,
    feedback_at          TEXT
)
"""
# Decisions that gave the user an answer, and those that refused (report()).
ANSWERED_DECISIONS = (
    "answered",
    "answered_with_caveat",
    "normal",
    "weak_evidence",
    "grounded",
    "sufficient",
    "partial",
)
REFUSED_DECISIONS = ("insufficient_evidence", "no_evidence", "refused", "insufficient", "not_grounded")
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
                if not set(_BASE_COLUMNS) <= set(columns):
                    conn.close()
                    raise QueryLogError(
                        f"cannot open query log {self._path!r}: its query_log table has columns {list(columns)}, "
                        f"not {list(_BASE_COLUMNS)}; it is not a sufficient_context query log"
                    )
                for name, sql_type in _ADDED_COLUMNS:  # a log from an earlier version: add what it lacks
                    if name not in columns:
                        conn.execute(f"ALTER TABLE query_log ADD COLUMN {name} {sql_type}")
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
        chunks: Iterable[Any] | Mapping[str, float | None],
        decision: Any,
        score: float | None = None,
        answer: str | None = None,
        *,
        attribution_coverage: float | None = None,
        removed_sentences: Iterable[str] | None = None,
        latency_ms: float | None = None,
    ) -> int:
        """Append one row and return its id.

        Parameters
        ----------
        question : str
        chunks : sequence, or a mapping chunk_id -> score
            Only each chunk's id and score are stored (JSON ``[{"id": ..., "score": ...}]``, score null when unknown):
            full chunks (anything ``as_chunks`` accepts), ``{"id": ..., "score": ...}`` mappings without content,
            objects with ``id`` and ``score`` attributes, or ``(id, score)`` pairs.
        decision : str, RetrievalDecision, GroundedAnswer, SufficiencyResult or AnswerCoverage
            A str such as "normal", "weak_evidence", "no_evidence", "refused"; a `RetrievalDecision` gives its outcome
            and max score; a pipeline envelope (`GroundedAnswer`: has ``status``) its status, confidence, answer,
            attribution coverage, removed sentences and latency; a `SufficiencyResult` its level and score; an
            `AnswerCoverage` "grounded" / "not_grounded", its supported ratio and attribution coverage.
        score, answer : optional
            Override what the decision object gives.
        attribution_coverage : float in [0, 1], optional
        removed_sentences : iterable of str, optional
        latency_ms : float >= 0, optional
        """
        if not isinstance(question, str):
            raise TypeError(f"question must be a str; got {type(question).__name__}")
        facts = _decision_facts(decision)
        decision_name = facts["decision"]
        score = facts.get("score") if score is None else score
        answer = facts.get("answer") if answer is None else answer
        if attribution_coverage is None:
            attribution_coverage = facts.get("attribution_coverage")
        if removed_sentences is None:
            removed_sentences = facts.get("removed_sentences")
        if latency_ms is None:
            latency_ms = facts.get("latency_ms")
        score = _finite_or_none(score, "score")
        coverage = _finite_or_none(attribution_coverage, "attribution_coverage")
        if coverage is not None and not 0.0 <= coverage <= 1.0:
            raise ValueError(f"attribution_coverage must be in [0, 1]; got {coverage!r}")
        latency = _finite_or_none(latency_ms, "latency_ms")
        if latency is not None and latency < 0:
            raise ValueError(f"latency_ms must be >= 0; got {latency!r}")
        removed = None if removed_sentences is None else _str_list(removed_sentences, "removed_sentences")
        if answer is not None and not isinstance(answer, str):
            raise TypeError(f"answer must be a str or None; got {type(answer).__name__}")
        refs = json.dumps(_chunk_refs(chunks), ensure_ascii=False)
        stamp = datetime.now(timezone.utc).isoformat()
        values = (question, refs, decision_name, score, answer, stamp, coverage,
                  None if removed is None else json.dumps(removed, ensure_ascii=False), latency)  # fmt: skip
        with self._lock:
            conn = self._connection()
            try:
                cursor = conn.execute(
                    "INSERT INTO query_log (question, chunks, decision, score, answer, timestamp, "
                    "attribution_coverage, removed_sentences, latency_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values,
                )
            except sqlite3.Error as exc:
                raise self._error("write to", exc) from exc
            return int(cursor.lastrowid or 0)

    def feedback(self, row_id: int, correct: bool, note: str | None = None) -> None:
        """Store a user's verdict on row `row_id` (given again, the last one wins).

        Raises KeyError when no row has that id, TypeError when `correct` is not a bool or `note` not a str.
        """
        if isinstance(row_id, bool) or not isinstance(row_id, int):
            raise TypeError(f"row_id must be an int; got {type(row_id).__name__}")
        if not isinstance(correct, bool):
            raise TypeError(f"correct must be a bool; got {type(correct).__name__}")
        if note is not None and not isinstance(note, str):
            raise TypeError(f"note must be a str or None; got {type(note).__name__}")
        stamp = datetime.now(timezone.utc).isoformat()
        with self._lock:
            conn = self._connection()
            try:
                cursor = conn.execute(
                    "UPDATE query_log SET feedback_correct = ?, feedback_note = ?, feedback_at = ? WHERE id = ?",
                    (int(correct), note, stamp, row_id),
                )
            except sqlite3.Error as exc:
                raise self._error("write to", exc) from exc
        if cursor.rowcount == 0:
            raise KeyError(f"row_id {row_id} names no row of query log {self._path!r}")

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
            if item["removed_sentences"] is not None:
                item["removed_sentences"] = json.loads(item["removed_sentences"])
            if item["feedback_correct"] is not None:
                item["feedback_correct"] = bool(item["feedback_correct"])
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

    def report(self, slowest: int = 5) -> dict[str, Any]:
        """What an evaluation needs at a glance (JSON-serialisable).

        Returns ``total``; ``decisions`` (count per decision); ``answered`` (rows whose decision is one of
        ``ANSWERED_DECISIONS``: answered, answered_with_caveat, normal, weak_evidence, grounded, sufficient,
        partial) and ``refused`` (``REFUSED_DECISIONS``: insufficient_evidence, no_evidence, refused, insufficient,
        not_grounded); ``mean_attribution_coverage`` over rows that have one; ``feedback`` (``count``, ``correct``
        and ``accuracy`` = correct / count, None without feedback); ``slowest`` (the `slowest` rows with the highest
        latency_ms: id, question, latency_ms, decision) and ``weakest`` (the same number with the lowest score: id,
        question, score, decision).
        """
        if isinstance(slowest, bool) or not isinstance(slowest, int) or slowest < 0:
            raise ValueError(f"slowest must be an int >= 0; got {slowest!r}")
        decisions = {str(k): int(v) for k, v in self._query(
            "SELECT decision, COUNT(*) FROM query_log GROUP BY decision ORDER BY decision")}  # fmt: skip
        mean_attribution = self._query(
            "SELECT AVG(attribution_coverage) FROM query_log WHERE attribution_coverage IS NOT NULL"
        )[0][0]
        given, correct = self._query(
            "SELECT COUNT(feedback_correct), COALESCE(SUM(feedback_correct), 0) FROM query_log"
        )[0]
        slow = self._query(
            "SELECT id, question, latency_ms, decision FROM query_log WHERE latency_ms IS NOT NULL "
            "ORDER BY latency_ms DESC, id LIMIT ?",
            (slowest,),
        )
        weak = self._query(
            "SELECT id, question, score, decision FROM query_log WHERE score IS NOT NULL ORDER BY score, id LIMIT ?",
            (slowest,),
        )
        return {
            "total": sum(decisions.values()),
            "decisions": decisions,
            "answered": sum(n for d, n in decisions.items() if d in ANSWERED_DECISIONS),
            "refused": sum(n for d, n in decisions.items() if d in REFUSED_DECISIONS),
            "mean_attribution_coverage": None if mean_attribution is None else float(mean_attribution),
            "feedback": {
                "count": int(given),
                "correct": int(correct),
                "accuracy": int(correct) / int(given) if given else None,
            },
            "slowest": [dict(zip(("id", "question", "latency_ms", "decision"), row)) for row in slow],
            "weakest": [dict(zip(("id", "question", "score", "decision"), row)) for row in weak],
        }

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


def _decision_facts(decision: Any) -> dict[str, Any]:
    """What a decision object says, by duck typing (see `QueryLog.record`)."""
    if isinstance(decision, str):
        if not decision:
            raise TypeError("decision must be a non-empty str or a decision object; got ''")
        return {"decision": decision}
    status = getattr(decision, "status", None)
    if isinstance(status, str) and hasattr(decision, "attribution_coverage"):  # a GroundedAnswer envelope
        return {
            "decision": status,
            "score": getattr(decision, "confidence", None),
            "answer": getattr(decision, "answer", None),
            "attribution_coverage": decision.attribution_coverage,
            "removed_sentences": getattr(decision, "removed_sentences", None),
            "latency_ms": getattr(decision, "elapsed_ms", None),
        }
    outcome = getattr(decision, "outcome", None)
    if isinstance(outcome, str):  # a RetrievalDecision
        return {"decision": outcome, "score": getattr(decision, "max_score", None)}
    level = getattr(decision, "level", None)
    if level is not None and hasattr(decision, "score"):  # a SufficiencyResult
        return {"decision": str(getattr(level, "value", level)), "score": decision.score,
                "latency_ms": getattr(decision, "elapsed_ms", None)}  # fmt: skip
    if hasattr(decision, "is_grounded") and hasattr(decision, "supported_ratio"):  # an AnswerCoverage
        return {
            "decision": "grounded" if decision.is_grounded else "not_grounded",
            "score": decision.supported_ratio,
            "attribution_coverage": getattr(decision, "attribution_coverage", None),
        }
    raise TypeError(
        "decision must be a non-empty str, a RetrievalDecision, a GroundedAnswer, a SufficiencyResult or an "
        f"AnswerCoverage; got {type(decision).__name__}"
    )


def _finite_or_none(value: Any, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number or None; got {type(value).__name__}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite; got {number!r}")
    return number


def _str_list(values: Iterable[str], name: str) -> list[str]:
    if isinstance(values, str):
        raise TypeError(f"{name} must be an iterable of str, not a str")
    out = list(values)
    for i, value in enumerate(out):
        if not isinstance(value, str):
            raise TypeError(f"{name}[{i}] must be a str; got {type(value).__name__}")
    return out


def _chunk_refs(chunks: Any) -> list[dict[str, Any]]:
    """Id and score of each chunk; only those are stored, so chunks given as id + score need no content."""
    if isinstance(chunks, Mapping):
        refs = []
        for key, value in chunks.items():
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float, np.number))):
                raise TypeError(f"chunks[{key!r}] must be a score (number) or None; got {type(value).__name__}")
            if value is not None and not math.isfinite(float(value)):
                raise ValueError(f"chunks[{key!r}] must be finite; got {float(value)!r}")
            refs.append({"id": str(key), "score": None if value is None else float(value)})
        return refs
    if isinstance(chunks, (str, bytes)):
        raise TypeError(f"chunks must be a sequence of chunks or a mapping id -> score; got {type(chunks).__name__}")
    items = list(chunks)
    if all(_is_reference(item) for item in items):
        return [_reference(item, i) for i, item in enumerate(items)]
    return [{"id": c.id, "score": c.score} for c in as_chunks(items)]


def _is_reference(item: Any) -> bool:
    """An id + score without content: ``{"id", "score"}``, ``(id, score)``, or an object with ``id`` and ``score``."""
    if isinstance(item, Mapping):
        return "id" in item and "content" not in item and "page_content" not in item and "text" not in item
    if isinstance(item, tuple):
        return len(item) == 2 and isinstance(item[0], str)
    return hasattr(item, "id") and hasattr(item, "score") and not hasattr(item, "content")


def _reference(item: Any, i: int) -> dict[str, Any]:
    if isinstance(item, Mapping):
        key, score = item["id"], item.get("score")
    elif isinstance(item, tuple):
        key, score = item
    else:
        key, score = item.id, item.score
    if key is None or (isinstance(key, str) and not key):
        raise ValueError(f"chunks[{i}] has no id")
    return {"id": str(key), "score": _finite_or_none(score, f"chunks[{i}].score")}
