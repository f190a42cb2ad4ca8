"""Writing back what a query log's spill file holds: the rows and verdicts that could not be written when they came
(the file busy past the deadline, read-only or full), once the log can be written again."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
from typing import Any

from .writer import immediate_transaction

__all__ = ["REPLAYED_TABLE", "replay_lines"]

# Digests of the spill lines already written back, in the log itself and in the same transaction as their rows: a
# replay interrupted between its commit and the spill file's rewrite never writes a line twice.
REPLAYED_TABLE = "query_log_replayed"

_ROW_COLUMNS = ("question", "chunks", "decision", "score", "answer", "timestamp", "attribution_coverage",
                "removed_sentences", "latency_ms")  # fmt: skip
_TEXT = {"question", "chunks", "decision", "timestamp"}  # required, str
_VERDICT = ("log_id", "feedback_correct", "feedback_note", "feedback_at")


def _row(entry: dict[str, Any]) -> tuple[Any, ...] | None:
    """The row's values in _ROW_COLUMNS order, or None when `entry` is not a row `spill` wrote."""
    if not all(isinstance(entry.get(name), str) for name in _TEXT):
        return None
    values = tuple(entry.get(name) for name in _ROW_COLUMNS)
    for name, value in zip(_ROW_COLUMNS, values):
        if name in ("score", "attribution_coverage", "latency_ms"):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                return None
        elif value is not None and not isinstance(value, str):
            return None
    return values


def _verdict(entry: dict[str, Any]) -> tuple[int, bool, str | None, str] | None:
    row_id, correct, note, at = (entry.get(name) for name in _VERDICT)
    if isinstance(row_id, bool) or not isinstance(row_id, int) or not isinstance(correct, bool):
        return None
    if (note is not None and not isinstance(note, str)) or not isinstance(at, str):
        return None
    return row_id, correct, note, at


def _write_back(conn: sqlite3.Connection, line: bytes) -> tuple[str, bool]:
    """Writes one spill line into the log (inside the caller's transaction). Returns (what it was, whether the line
    is done with): "row" / "verdict" written; "superseded" (a newer verdict is there); "done" (written by an
    earlier replay); "unknown row" (a verdict on no row: kept); "unreadable" (cut short or not ours: kept)."""
    digest = hashlib.sha256(line).hexdigest()
    if conn.execute(f"SELECT 1 FROM {REPLAYED_TABLE} WHERE digest = ?", (digest,)).fetchone():
        return "done", True
    try:
        entry = json.loads(line)
    except ValueError:  # UnicodeDecodeError included
        return "unreadable", False
    if not isinstance(entry, dict):
        return "unreadable", False
    row = _row(entry)
    verdict = None if row is not None else _verdict(entry)
    if row is not None:
        conn.execute(f"INSERT INTO query_log ({', '.join(_ROW_COLUMNS)}) VALUES ({', '.join('?' * len(row))})", row)
        what = "row"
    elif verdict is not None:
        row_id, correct, note, at = verdict
        current = conn.execute("SELECT feedback_at FROM query_log WHERE id = ?", (row_id,)).fetchone()
        if current is None:
            return "unknown row", False
        if current[0] is not None and current[0] >= at:  # a later verdict was written meanwhile: it stays
            what = "superseded"
        else:
            conn.execute(
                "UPDATE query_log SET feedback_correct = ?, feedback_note = ?, feedback_at = ? WHERE id = ?",
                (int(correct), note, at, row_id),
            )
            what = "verdict"
    else:
        return "unreadable", False
    conn.execute(f"INSERT INTO {REPLAYED_TABLE} (digest) VALUES (?)", (digest,))
    return what, True


def replay_lines(conn: sqlite3.Connection, spill_path: str) -> dict[str, int]:
    """Writes back every line of `spill_path` it can in one transaction on `conn`, then rewrites the file with only
    the lines it kept (cut short, not ours, a verdict on an unknown row), under the lock `spill` appends under, so no
    line appended meanwhile is lost. Counts of each outcome (see `_write_back`)."""
    counts = {"rows": 0, "verdicts": 0, "superseded": 0, "already_replayed": 0, "kept": 0}
    names = {"row": "rows", "verdict": "verdicts", "superseded": "superseded", "done": "already_replayed"}
    try:
        fd = os.open(spill_path, os.O_RDWR)
    except FileNotFoundError:
        return counts
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with os.fdopen(os.dup(fd), "rb") as fh:
            lines = fh.read().split(b"\n")
        kept: list[bytes] = []
        with immediate_transaction(conn):
            conn.execute(f"CREATE TABLE IF NOT EXISTS {REPLAYED_TABLE} (digest TEXT PRIMARY KEY)")
            for line in lines:
                if not line.strip():
                    continue
                what, done = _write_back(conn, line)
                if done:
                    counts[names[what]] += 1
                else:
                    kept.append(line)
        counts["kept"] = len(kept)
        data = b"".join(line + b"\n" for line in kept)
        os.ftruncate(fd, 0)
        view = memoryview(data)
        while view:
            view = view[os.pwrite(fd, view, len(data) - len(view)) :]
        os.fsync(fd)
    finally:
        os.close(fd)  # releases the lock
    return counts
