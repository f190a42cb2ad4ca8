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
import stat
import threading
import time
import urllib.parse
import warnings
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import numpy as np

from .._args import as_float, finite_or_none, int_in_range
from .export import PAGE, Contents, export_parquet, json_column
from .inputs import chunk_refs, clean_text, decision_facts, str_list
from .replay import REPLAYED_TABLE, replay_lines
from .writer import immediate_transaction, is_busy, spill, take_turn, with_retries

_SQLITE_MAX = 2**63 - 1  # the largest SQLite INTEGER

__all__ = ["ANSWERED_DECISIONS", "REFUSED_DECISIONS", "QueryLog", "QueryLogError", "QueryLogWarning"]

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


_MAX_BUSY_MS = 2**31 - 1  # SQLite reads a larger busy_timeout as 0: "never wait"
_INTERNAL_TABLES = ("query_log", "sqlite_sequence", REPLAYED_TABLE)


class QueryLogError(RuntimeError):
    """The query log file cannot be used: not a SQLite database, corrupt, another application's database, not a
    regular file, read-only, or closed."""


class QueryLogWarning(RuntimeWarning):
    """A row could not be written to the log (after retries) and was spilled to the side file instead."""


class QueryLog:
    """Append-only SQLite log of questions, the chunks retrieved for them, the decision and the answer.

    Parameters
    ----------
    path : str or os.PathLike
        The database file (created when missing; it must be a regular file). ``":memory:"`` keeps the log in memory.
    timeout : float
        Seconds one SQLite attempt waits for another connection's lock (busy timeout; capped at 2^31 - 1 ms).
    write_deadline : float
        Seconds `record` keeps retrying, with backoff, while the file stays busy (waiting behind other writers of
        this process counts; one attempt may run `timeout` past it). A row that still cannot be written
        (busy past the deadline, read-only file, disk full) is appended to ``<path>.spill.jsonl``, a
        `QueryLogWarning` says so, and `record` returns -1: no row is silently dropped.
    shared_database : bool
        Allow a file that holds other applications' tables: the ``query_log`` table is added to it and its journal
        mode is left alone. Without it such a file is refused, and QueryLog's own file is switched to WAL.
    read_only : bool
        Open for reading only (no schema change, `record` raises): how to read what remains of a corrupt log, or a
        log in a read-only folder.

    Safe to use from many threads at once; writers of one file within a process take turns (one lock per file),
    several processes may share the file. After ``fork()`` the child opens its own connection.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        timeout: float = 5.0,
        write_deadline: float = 30.0,
        shared_database: bool = False,
        read_only: bool = False,
    ) -> None:
        for name, value in (("timeout", timeout), ("write_deadline", write_deadline)):
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(as_float(value, name))
            ):
                raise TypeError(f"{name} must be a finite number of seconds; got {value!r}")
            if value < 0:
                raise ValueError(f"{name} must be >= 0; got {value!r}")
        for name, flag in (("shared_database", shared_database), ("read_only", read_only)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be a bool; got {type(flag).__name__}")
        try:
            self._path = os.fspath(path)
        except TypeError:
            raise TypeError(f"path must be a str or os.PathLike[str]; got {type(path).__name__}") from None
        if not isinstance(self._path, str):
            raise TypeError(f"path must be a str or os.PathLike[str]; got {type(path).__name__}")
        # SQLite reads "" (an unset setting, say) as a temporary database deleted on close: every row would be lost.
        # ":memory:" asks for that on purpose (documented).
        if self._path == "":
            raise ValueError("path must name a file (or be ':memory:'); '' is a temporary database SQLite deletes")
        if "\x00" in self._path:
            raise ValueError(f"path must not contain a NUL character; got {self._path!r}")
        self._timeout = float(timeout)
        self._write_deadline = float(write_deadline)
        self._shared = shared_database
        self._read_only = read_only
        self._lock = threading.Lock()
        self._orphans: list[sqlite3.Connection] = []  # connections inherited through fork(): never closed here
        self._conn: sqlite3.Connection | None = None
        self._conn = self._open()
        self._pid = os.getpid()

    @property
    def path(self) -> str:
        return self._path

    def _error(self, action: str, exc: sqlite3.Error) -> QueryLogError:
        name = getattr(exc, "sqlite_errorname", "")
        text = str(exc)
        if name.startswith("SQLITE_BUSY") or "locked" in text:
            waited = self._timeout if action == "read" else max(self._timeout, self._write_deadline)  # writes retry
            detail = f"the database is locked by another connection and stayed locked for {waited:g} s"
        elif name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")) or "not a database" in text or "malformed" in text:
            detail = f"the file is not a valid SQLite database or is corrupt ({text}); it was left untouched"
        elif name.startswith("SQLITE_CANTOPEN") and action != "read":
            detail = (f"{text} (its folder must exist and be writable: SQLite keeps the -wal and -shm files beside "
                      "the log; QueryLog(path, read_only=True) reads a log in a read-only folder)")  # fmt: skip
        else:
            detail = text
        return QueryLogError(f"cannot {action} query log {self._path!r}: {detail}")

    def _open(self) -> sqlite3.Connection:
        if self._path != ":memory:" and os.path.exists(self._path):
            mode = os.stat(self._path).st_mode
            if not stat.S_ISREG(mode):  # a FIFO or device would block or be damaged
                raise QueryLogError(f"cannot open query log {self._path!r}: it is not a regular file")
        try:
            # Autocommit (isolation_level=None): each INSERT is its own committed transaction.
            if self._read_only:
                conn = self._connect_read_only()
            else:
                conn = sqlite3.connect(self._path, timeout=self._timeout, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error("open", exc) from exc
        try:
            conn.execute(f"PRAGMA busy_timeout = {min(int(self._timeout * 1000), _MAX_BUSY_MS)}")
            self._check_integrity(conn)
            foreign = sorted(_tables(conn) - set(_INTERNAL_TABLES))
            if foreign and not self._shared:
                raise QueryLogError(
                    f"cannot open query log {self._path!r}: the file holds other tables ({', '.join(foreign[:5])}); "
                    "it looks like another application's database. Pass shared_database=True to add the query_log "
                    "table to it (its journal mode is then left alone)"
                )
            if self._read_only:
                if "query_log" not in _tables(conn):
                    raise QueryLogError(f"cannot open query log {self._path!r} read-only: it has no query_log table")
                self._check_columns(conn)
            else:
                # Several processes may open a new (or older) log at once: retried while another one holds the lock.
                with_retries(lambda: self._set_up(conn), self._write_deadline)
        except QueryLogError:
            conn.close()
            raise
        except sqlite3.Error as exc:
            conn.close()
            raise self._error("open", exc) from exc
        return conn

    def _connect_read_only(self, immutable: bool = False) -> sqlite3.Connection:
        uri = f"file:{urllib.parse.quote(os.path.abspath(self._path))}?mode=ro{'&immutable=1' if immutable else ''}"
        conn = sqlite3.connect(uri, uri=True, timeout=self._timeout, check_same_thread=False, isolation_level=None)
        if immutable:
            return conn
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as exc:
            wal = f"{self._path}-wal"
            if not getattr(exc, "sqlite_errorname", "").startswith("SQLITE_CANTOPEN") or (
                os.path.exists(wal) and os.path.getsize(wal) > 0
            ):
                conn.close()
                raise
            # A WAL-mode log in a read-only folder: SQLite cannot create its -shm file there. With no -wal file
            # beside it, every row is in the file itself: read it as it is (immutable).
            conn.close()
            return self._connect_read_only(immutable=True)
        return conn

    def _set_up(self, conn: sqlite3.Connection) -> None:
        """WAL mode for our own file; the table created, or an older one given the newer columns, in one write
        transaction that reads the schema again: another process may have created or upgraded it meanwhile."""
        if not self._shared and conn.execute("PRAGMA journal_mode").fetchone()[0] not in ("wal", "memory"):
            conn.execute("PRAGMA journal_mode = WAL")  # our own file: readers never block the writer
        if "query_log" in _tables(conn) and {name for name, _ in _ADDED_COLUMNS} <= set(self._check_columns(conn)):
            return  # up to date: opening takes no write lock
        with immediate_transaction(conn):
            if "query_log" in _tables(conn):
                columns = self._check_columns(conn)
                for name, sql_type in _ADDED_COLUMNS:  # a log from an earlier version: add what it lacks
                    if name not in columns:
                        conn.execute(f"ALTER TABLE query_log ADD COLUMN {name} {sql_type}")
            else:
                conn.execute(_SCHEMA)

    def _check_columns(self, conn: sqlite3.Connection) -> tuple[str, ...]:
        columns = tuple(row[1] for row in conn.execute("PRAGMA table_info(query_log)"))
        if not set(_BASE_COLUMNS) <= set(columns):
            raise QueryLogError(
                f"cannot open query log {self._path!r}: its query_log table has columns {list(columns)}, "
                f"not {list(_BASE_COLUMNS)}; it is not a sufficient_context query log"
            )
        return columns

    def _check_integrity(self, conn: sqlite3.Connection) -> None:
        """A damaged file is refused at open (read-only mode reads what remains)."""
        if self._path == ":memory:" or self._read_only:
            return
        result = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        if result != ["ok"]:
            detail = "; ".join(line.strip() for item in result for line in str(item).splitlines() if line.strip())
            raise QueryLogError(
                f"cannot open query log {self._path!r}: the file is corrupt ({detail}); it was "
                "left untouched. Open it with QueryLog(path, read_only=True) to read the rows that remain"
            )

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise QueryLogError(f"query log {self._path!r} is closed")
        return self._conn

    def _after_fork(self) -> None:
        """In a forked child: a fresh lock and connection; the parent's connection is kept, never used or closed
        (closing it could checkpoint or delete the parent's WAL)."""
        if self._pid == os.getpid():
            return
        self._lock = threading.Lock()
        if self._conn is not None:
            self._orphans.append(self._conn)
            self._conn = self._open()
        self._pid = os.getpid()

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
        facts = decision_facts(decision)
        decision_name = facts["decision"]
        score = facts.get("score") if score is None else score
        answer = facts.get("answer") if answer is None else answer
        if attribution_coverage is None:
            attribution_coverage = facts.get("attribution_coverage")
        if removed_sentences is None:
            removed_sentences = facts.get("removed_sentences")
        if latency_ms is None:
            latency_ms = facts.get("latency_ms")
        score = finite_or_none(score, "score")
        coverage = finite_or_none(attribution_coverage, "attribution_coverage")
        if coverage is not None and not 0.0 <= coverage <= 1.0:
            raise ValueError(f"attribution_coverage must be in [0, 1]; got {coverage!r}")
        latency = finite_or_none(latency_ms, "latency_ms")
        if latency is not None and latency < 0:
            raise ValueError(f"latency_ms must be >= 0; got {latency!r}")
        removed = None if removed_sentences is None else str_list(removed_sentences, "removed_sentences")
        if answer is not None and not isinstance(answer, str):
            raise TypeError(f"answer must be a str or None; got {type(answer).__name__}")
        refs = [{"id": clean_text(str(ref["id"])), "score": ref["score"]} for ref in chunk_refs(chunks)]
        row = {
            "question": clean_text(question),
            "chunks": json.dumps(refs, ensure_ascii=False),
            "decision": clean_text(decision_name),
            "score": score,
            "answer": None if answer is None else clean_text(answer),
            "timestamp": datetime.now(timezone.utc).isoformat(),
            "attribution_coverage": coverage,
            "removed_sentences": None if removed is None else json.dumps([clean_text(r) for r in removed]),
            "latency_ms": latency,
        }
        return self._insert(row)

    def _insert(self, row: dict[str, Any]) -> int:
        if self._read_only:
            raise QueryLogError(f"cannot write to query log {self._path!r}: it was opened read-only")
        self._after_fork()
        sql = f"INSERT INTO query_log ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"
        values = tuple(row.values())
        until = time.monotonic() + self._write_deadline

        def attempt() -> int:
            with take_turn(self._path, until, self._timeout), self._lock:  # writers of this file take turns
                cursor = self._connection().execute(sql, values)
                return int(cursor.lastrowid or 0)

        try:
            return with_retries(attempt, self._write_deadline)
        except sqlite3.Error as exc:
            self._spill(exc, row, "the row", stacklevel=4)  # warn in _spill, _insert, record: its caller
        return -1

    def _spill(self, exc: sqlite3.Error, row: dict[str, Any], what: str, stacklevel: int) -> None:
        """After a failed write: keep `row` beside the log and warn, or raise QueryLogError. Busy past the deadline,
        a read-only file, a full disk spill; a corrupt file is an error of its own: nothing more is written near it."""
        error = self._error("write to", exc)
        if self._path == ":memory:" or not (is_busy(exc) or _is_unwritable(exc)):
            raise error from exc
        try:
            target = spill(self._path, row, str(error))
        except OSError as spill_exc:
            raise QueryLogError(f"{error}; {what} could not be spilled either: {spill_exc}") from spill_exc
        warnings.warn(QueryLogWarning(f"{error}; {what} was appended to {target!r}"), stacklevel=stacklevel)

    def feedback(self, row_id: int, correct: bool, note: str | None = None) -> bool:
        """Store a user's verdict on row `row_id` (given again, the last one wins). Returns True; False when the log
        could not be written (busy past the deadline, read-only, full): the verdict was then appended to
        ``<path>.spill.jsonl`` with the row id, as `record` keeps rows, and a `QueryLogWarning` says so.

        Raises KeyError when no row has that id, TypeError when `correct` is not a bool or `note` not a str.
        """
        if isinstance(row_id, bool) or not isinstance(row_id, int):
            raise TypeError(f"row_id must be an int; got {type(row_id).__name__}")
        if not -_SQLITE_MAX - 1 <= row_id <= _SQLITE_MAX:  # no SQLite row has an id beyond 64 bits
            raise KeyError(f"no row with id {row_id}")
        if not isinstance(correct, bool):
            raise TypeError(f"correct must be a bool; got {type(correct).__name__}")
        if note is not None and not isinstance(note, str):
            raise TypeError(f"note must be a str or None; got {type(note).__name__}")
        stamp = datetime.now(timezone.utc).isoformat()
        if self._read_only:
            raise QueryLogError(f"cannot write to query log {self._path!r}: it was opened read-only")
        self._after_fork()
        params = (int(correct), None if note is None else clean_text(note), stamp, row_id)
        until = time.monotonic() + self._write_deadline

        def attempt() -> sqlite3.Cursor:
            with take_turn(self._path, until, self._timeout), self._lock:
                return self._connection().execute(
                    "UPDATE query_log SET feedback_correct = ?, feedback_note = ?, feedback_at = ? WHERE id = ?",
                    params,
                )

        try:
            cursor = with_retries(attempt, self._write_deadline)
        except sqlite3.Error as exc:
            verdict = {"log_id": row_id, "feedback_correct": correct, "feedback_note": params[1], "feedback_at": stamp}
            self._spill(exc, verdict, f"the verdict on row {row_id}", stacklevel=3)  # feedback's caller
            return False
        if cursor.rowcount == 0:
            raise KeyError(f"row_id {row_id} names no row of query log {self._path!r}")
        return True

    def replay_spill(self) -> dict[str, int]:
        """Write back what ``<path>.spill.jsonl`` holds, once the log can be written again: its rows are appended
        (with new ids; their timestamps are kept) and its verdicts applied unless a later verdict was stored
        meanwhile. It runs in one transaction, and each written line is remembered in the log itself, so a replay
        that is interrupted never writes a line twice; the spill file is then rewritten with only the lines that
        could not be written back (cut short, not a spilled row or verdict, a verdict on a row the log lacks).
        Appends by other writers meanwhile wait for it and are kept.

        Returns counts: ``rows``, ``verdicts``, ``superseded`` (verdicts older than the stored one),
        ``already_replayed``, ``kept`` (lines left in the file). Raises QueryLogError when the log is read-only,
        closed or stays locked past `write_deadline`; OSError when the spill file cannot be read or rewritten.
        """
        if self._read_only:
            raise QueryLogError(f"cannot write to query log {self._path!r}: it was opened read-only")
        self._after_fork()
        until = time.monotonic() + self._write_deadline

        def attempt() -> dict[str, int]:
            with take_turn(self._path, until, self._timeout), self._lock:
                return replay_lines(self._connection(), f"{self._path}.spill.jsonl")

        try:
            return with_retries(attempt, self._write_deadline)
        except sqlite3.Error as exc:
            raise self._error("write to", exc) from exc

    # -- reading -------------------------------------------------------------------------------------------------

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        self._after_fork()
        with self._lock:
            conn = self._connection()
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise self._error("read", exc) from exc

    def __len__(self) -> int:
        return int(self._query("SELECT COUNT(*) FROM query_log")[0][0])

    def rows(self, limit: int | None = None, *, newest_first: bool = False) -> list[dict[str, Any]]:
        """The rows, oldest first (the first `limit` when given), with `chunks` decoded from JSON; with
        `newest_first`, the latest rows first (the latest `limit`)."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM query_log ORDER BY id{' DESC' if newest_first else ''}"
        params: tuple[Any, ...] = ()
        if limit is not None:
            sql += " LIMIT ?"
            params = (int_in_range(limit, "limit", 0, _SQLITE_MAX),)
        out = []
        for row in self._query(sql, params):
            item = dict(zip(_COLUMNS, row))
            try:
                item["chunks"] = json_column(item, "chunks")
                if item["removed_sentences"] is not None:
                    item["removed_sentences"] = json_column(item, "removed_sentences")
            except ValueError as exc:
                raise QueryLogError(f"cannot read query log {self._path!r}: {exc}") from None
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
        if isinstance(slowest, bool) or not isinstance(slowest, int) or not 0 <= slowest <= _SQLITE_MAX:
            raise ValueError(f"slowest must be an int in [0, {_SQLITE_MAX}]; got {slowest!r}")
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

    def export(self, path: str | os.PathLike[str], contents: Contents | None = None, *, page: int = PAGE) -> int:
        """Write the rows, oldest first, to the Parquet file `path` (needs pyarrow, extra ``[ray]``) and return
        how many. Columns: ``id``, ``timestamp``, ``query``, ``contexts`` (``[{id, content, score}]``),
        ``answer``, ``decision``, ``logged_score``, ``logged_attribution_coverage``, ``removed_sentences``,
        ``latency_ms``, ``feedback_correct``, ``feedback_note``, ``feedback_at``: the rows of an evaluation, so
        ``sufficient_context.scale.evaluate`` takes the file as it is.

        The log keeps only chunk ids and scores: `contents` (a mapping or a function chunk id -> text, e.g. the
        document store the gateway retrieved from) supplies each chunk's text; a chunk it does not know has a null
        content, and the evaluation reports its row as bad. `page` rows are read and written at a time."""
        return export_parquet(self, path, contents, page)

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
        extra = "".join(
            f", {name}={value!r}"
            for name, value, default in (
                ("write_deadline", self._write_deadline, 30.0),
                ("shared_database", self._shared, False),
                ("read_only", self._read_only, False),
            )
            if value != default
        )
        return f"QueryLog({self._path!r}, timeout={self._timeout!r}{extra})"

    def __getstate__(self) -> dict[str, Any]:
        # The configuration: the file is reopened where the object lands.
        return {
            "path": self._path,
            "timeout": self._timeout,
            "write_deadline": self._write_deadline,
            "shared_database": self._shared,
            "read_only": self._read_only,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        path = state.pop("path")
        type(self).__init__(self, path, **state)


def _tables(conn: sqlite3.Connection) -> set[str]:
    return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _is_unwritable(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    return name.startswith(("SQLITE_READONLY", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_IOERR")) or any(
        word in text for word in ("readonly", "read-only", "disk is full", "unable to open")
    )
