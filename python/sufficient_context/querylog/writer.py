"""Writing rows without losing them: one lock per file within a process, retries with backoff while SQLite reports
the file busy, and a spill file for a row that still cannot be written."""

from __future__ import annotations

import fcntl
import json
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, TypeVar

__all__ = ["file_lock", "immediate_transaction", "is_busy", "spill", "take_turn", "with_retries"]

_T = TypeVar("_T")
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()
_FIRST_DELAY = 0.001  # seconds; doubled after each busy attempt, up to _MAX_DELAY, with jitter
_MAX_DELAY = 0.1


def file_lock(path: str) -> threading.Lock:
    """The lock every QueryLog of this process takes to write `path`: writers of one file queue here instead of
    starving each other in SQLite's busy handler."""
    key = path if path == ":memory:" else os.path.realpath(path)
    with _GUARD:
        lock = _LOCKS.get(key)
        if lock is None:
            lock = _LOCKS[key] = threading.Lock()
        return lock


@contextmanager
def take_turn(path: str, until: float, at_least: float) -> Iterator[None]:
    """Hold `path`'s `file_lock`, waiting for it until the monotonic time `until` (but `at_least` seconds, as long
    as one SQLite attempt may wait): past that, the same busy error SQLite gives, so a writer queued behind others
    keeps its deadline instead of waiting for each of them in turn."""
    lock = file_lock(path)
    wait = min(max(until - time.monotonic(), at_least), threading.TIMEOUT_MAX)
    if not lock.acquire(timeout=wait):
        raise sqlite3.OperationalError("database is locked (by other writers of this process)")
    try:
        yield
    finally:
        lock.release()


@contextmanager
def immediate_transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction (``BEGIN IMMEDIATE``: the write lock is taken at once, so a busy error comes before any
    work), committed at the end, rolled back on any exception."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _after_fork_in_child() -> None:
    # A lock held by another thread at fork() time would stay held forever in the child.
    global _GUARD
    _GUARD = threading.Lock()
    _LOCKS.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite gave up waiting for another connection's lock (worth retrying)."""
    name = getattr(exc, "sqlite_errorname", "")
    text = str(exc)
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text or "busy" in text


def with_retries(attempt: Callable[[], _T], deadline_seconds: float) -> _T:
    """`attempt()`, retried with exponential backoff while the file is busy, until `deadline_seconds` have passed
    (then the last error propagates). Other errors propagate at once."""
    started = time.monotonic()
    delay = _FIRST_DELAY
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() - started >= deadline_seconds:
                raise
        time.sleep(delay * (0.5 + random.random()))
        delay = min(delay * 2.0, _MAX_DELAY)


def spill(path: str, row: dict[str, Any], error: str) -> str:
    """Append the row, as one JSON line with the error, to ``<path>.spill.jsonl``; return that path.

    Under an exclusive lock on the file, so lines of several writers never mix; synced, as SQLite syncs a commit. A line
    left cut short (a full disk, a killed process) stays one unreadable line: the next row starts a line of its own
    instead of being glued to it."""
    target = f"{path}.spill.jsonl"
    record = {"spilled_at": datetime.now(timezone.utc).isoformat(), "error": error, **row}
    data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # other writers' lines are whole when the last byte is read
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)
    return target
