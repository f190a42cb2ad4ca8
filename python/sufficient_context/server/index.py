"""The gateway's passage index over a docs folder, kept in ``<data_dir>/index.db`` and rebuilt when files change.

The file holds the FTS5 passages (:class:`~sufficient_context.retrieval.PassageIndex`), every document's text, each
chunk's character span in its document (for ``GET /v1/sources``) and the manifest of (path, size, mtime) it was built
from. At startup, and before a query at most once per ``interval`` seconds, the folder is compared with the manifest;
a difference rebuilds the index into a new file that replaces the old one atomically (queries in flight finish on the
old one). Any other retriever can stand in for the search through the :class:`Retriever` protocol.
"""

from __future__ import annotations

import inspect
import os
import re
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..chunks import Chunk
from ..retrieval import Passage, PassageIndex, passages_of
from ..retrieval.documents import document_files, document_name

__all__ = ["DocsIndex", "Retriever", "as_retriever"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS manifest (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS documents (path TEXT PRIMARY KEY, text TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS spans (id TEXT PRIMARY KEY, path TEXT NOT NULL, heading TEXT, chunk_index INTEGER "
    "NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL)",
)
Manifest = dict[str, tuple[int, int]]


@runtime_checkable
class Retriever(Protocol):
    """What the gateway retrieves with: ``retrieve(query, k)`` -> chunk-like objects, best first."""

    def retrieve(self, query: str, k: int) -> Sequence[Any]: ...


class _Adapter:
    """A LangChain retriever (``invoke(query)``) or a LlamaIndex one (``retrieve(query)``) as a :class:`Retriever`."""

    def __init__(self, target: Any, method: str, takes_k: bool) -> None:
        self._target = target
        self._method = method
        self._takes_k = takes_k

    def retrieve(self, query: str, k: int) -> Sequence[Any]:
        call = getattr(self._target, self._method)
        found = call(query, k) if self._takes_k else call(query)
        return list(found)[:k]


def as_retriever(obj: Any) -> Retriever:
    """`obj` as a :class:`Retriever`: anything with ``retrieve(query, k)``, a LlamaIndex retriever
    (``retrieve(query)``) or a LangChain one (``invoke(query)``)."""
    for method in ("retrieve", "invoke"):
        call = getattr(obj, method, None)
        if callable(call):
            try:
                parameters = inspect.signature(call).parameters.values()
            except (TypeError, ValueError):
                return _Adapter(obj, method, False)
            positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            varargs = any(p.kind is p.VAR_POSITIONAL for p in parameters)
            return _Adapter(obj, method, method == "retrieve" and (len(positional) >= 2 or varargs))
    raise TypeError(
        f"retriever must have retrieve(query, k), retrieve(query) or invoke(query); got {type(obj).__name__}"
    )


def _scan(docs: Path, exclude: Path | None) -> tuple[Manifest, dict[str, Path]]:
    """(name -> (size, mtime)) of the documents, and each name's file. Names are document_name's: a file name that
    is not UTF-8 has its bytes written as \\xNN, so SQLite can store it."""
    out: Manifest = {}
    files: dict[str, Path] = {}
    skip = None if exclude is None else exclude.resolve()
    for path in document_files(docs):
        if skip is not None and path.resolve().is_relative_to(skip):
            continue
        try:
            info = path.stat()
        except OSError:  # removed while scanning: it will show up (or not) on the next scan
            continue
        name = document_name(path, docs)
        out[name] = (info.st_size, info.st_mtime_ns)
        files[name] = path
    return out, files


def _spans(document: str, passages: Sequence[Passage]) -> list[tuple[int, int]]:
    """Each passage's [start, end) in `document`. A passage is its paragraph's lines joined by single spaces, so it
    is found word by word with any whitespace between, from where the previous one ended."""
    out = []
    cursor = 0
    for passage in passages:
        words = passage.text.split()
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words)) if words else None
        match = None if pattern is None else pattern.search(document, cursor) or pattern.search(document)
        if match is None:
            out.append((cursor, cursor))
            continue
        out.append((match.start(), match.end()))
        cursor = match.end()
    return out


class DocsIndex:
    """The searchable docs folder. Thread-safe: each thread searches over its own connection; a rebuild swaps in a
    new file, which the threads' connections then reopen."""

    def __init__(self, docs: str | os.PathLike[str], data_dir: str | os.PathLike[str], interval: float = 1.0) -> None:
        self.docs = Path(docs)
        if not self.docs.is_dir():
            raise ValueError(f"docs folder {os.fspath(docs)!r} is not a directory")
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.path = self.data_dir / "index.db"
        self.interval = float(interval)
        self._lock = threading.Lock()  # the current index and connection
        self._rebuild_lock = threading.Lock()
        self._last_check = 0.0
        self.rebuilds = 0
        self._index: PassageIndex | None = None
        self._generation = 0  # bumped by every swap: per-thread readers of an older file reopen
        self._local = threading.local()
        self._readers: list[PassageIndex] = []  # every per-thread reader, closed by close()
        self._meta: sqlite3.Connection | None = None
        manifest, files = _scan(self.docs, self.data_dir)
        if not self._open_existing(manifest):
            self._rebuild(manifest, files)
        self._last_check = time.monotonic()

    # -- building ------------------------------------------------------------------------------------------------

    def _open_existing(self, manifest: Manifest) -> bool:
        if not self.path.is_file():
            return False
        try:
            conn = sqlite3.connect(self.path, check_same_thread=False)
            stored = {p: (s, m) for p, s, m in conn.execute("SELECT path, size, mtime_ns FROM manifest")}
        except sqlite3.Error:
            return False
        if stored != manifest:
            conn.close()
            return False
        self._swap(PassageIndex(self.path), conn)
        return True

    def _rebuild(self, manifest: Manifest, files: dict[str, Path]) -> None:
        fresh = self.path.with_name(f"index.db.{os.getpid()}.{threading.get_ident()}.tmp")
        fresh.unlink(missing_ok=True)
        built: Manifest = {}
        documents: list[tuple[str, str]] = []
        passages: list[Passage] = []
        spans: list[tuple[str, str, str | None, int, int, int]] = []
        for relative, stamp in sorted(manifest.items()):
            try:
                raw = files[relative].read_bytes()
            except OSError:  # removed since the scan
                continue
            document = raw.decode("utf-8", errors="replace")
            found = passages_of(document, relative)
            passages.extend(found)
            spans.extend((p.id, relative, p.heading, p.chunk_index, start, end)
                         for p, (start, end) in zip(found, _spans(document, found)))  # fmt: skip
            documents.append((relative, document))
            built[relative] = stamp
        # One writer at a time on the new file: the passages (through PassageIndex's connection), then the rest.
        index = PassageIndex(fresh)
        index.add(passages)
        conn = sqlite3.connect(fresh, check_same_thread=False)
        with conn:
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT INTO documents(path, text) VALUES (?, ?)", documents)
            conn.executemany("INSERT INTO spans(id, path, heading, chunk_index, start, end) VALUES (?, ?, ?, ?, ?, ?)",
                             spans)  # fmt: skip
            conn.executemany("INSERT INTO manifest(path, size, mtime_ns) VALUES (?, ?, ?)",
                             [(p, s, m) for p, (s, m) in built.items()])  # fmt: skip
        os.replace(fresh, self.path)  # open connections keep the file they opened
        self._swap(index, conn)
        self.rebuilds += 1

    def _swap(self, index: PassageIndex, conn: sqlite3.Connection) -> None:
        with self._lock:  # every read holds this lock, so nothing is using the old index
            old_index, old_meta = self._index, self._meta
            self._index, self._meta = index, conn
            self._generation += 1
        if old_index is not None:
            old_index.close()
        if old_meta is not None:
            old_meta.close()

    def close(self) -> None:
        with self._lock:
            if self._index is not None:
                self._index.close()
            if self._meta is not None:
                self._meta.close()
            self._index = self._meta = None
            for reader in self._readers:
                reader.close()
            self._readers.clear()

    def refresh(self, force: bool = False) -> bool:
        """Compare the folder with the index (at most once per `interval` unless `force`) and rebuild on a change.
        Returns whether it rebuilt. One caller checks at a time; the others go on with the current index."""
        now = time.monotonic()
        if not force and now - self._last_check < self.interval:
            return False
        if not self._rebuild_lock.acquire(blocking=force):
            return False
        try:
            self._last_check = time.monotonic()
            manifest, files = _scan(self.docs, self.data_dir)
            with self._lock:
                assert self._meta is not None
                stored = {p: (s, m) for p, s, m in self._meta.execute("SELECT path, size, mtime_ns FROM manifest")}
            if stored == manifest:
                return False
            self._rebuild(manifest, files)
            return True
        finally:
            self._rebuild_lock.release()

    # -- reading -------------------------------------------------------------------------------------------------

    def retrieve(self, query: str, k: int) -> list[Chunk]:
        """The `k` best chunks for `query` (refreshing first when the interval has passed)."""
        self.refresh()
        return self._reader().search(query, k)

    def _reader(self) -> PassageIndex:
        """This thread's own connection to the current file: searches run in parallel, none waits on a lock."""
        with self._lock:
            if self._index is None:
                raise RuntimeError("the docs index is closed")
            generation = self._generation
        local = self._local
        if getattr(local, "generation", None) != generation:
            old: PassageIndex | None = getattr(local, "index", None)
            reader = PassageIndex(self.path)
            with self._lock:
                self._readers.append(reader)
                if old is not None and old in self._readers:
                    self._readers.remove(old)
            if old is not None:
                old.close()
            local.index, local.generation = reader, generation
        current: PassageIndex = local.index
        return current

    def __len__(self) -> int:
        with self._lock:
            assert self._index is not None
            return len(self._index)

    def source(self, chunk_id: str) -> dict[str, Any] | None:
        """An indexed chunk with its whole document and its [start, end) there; None for any other id. Nothing is
        read from disk: the document text is the one indexed."""
        with self._lock:
            assert self._meta is not None
            row = self._meta.execute(
                "SELECT s.path, s.heading, s.chunk_index, s.start, s.end, d.text FROM spans s "
                "JOIN documents d ON d.path = s.path WHERE s.id = ?",
                (chunk_id,),
            ).fetchone()
        if row is None:
            return None
        path, heading, chunk_index, start, end, document = row
        return {"id": chunk_id, "source_path": path, "heading": heading, "chunk_index": int(chunk_index),
                "document": document, "start": int(start), "end": int(end)}  # fmt: skip
