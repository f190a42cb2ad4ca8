"""``QueryLog.export``: the logged turns as one Parquet file whose columns are the evaluation rows' (``query``,
``contexts``, ``answer``), so ``sufficient_context.scale.read`` / ``evaluate`` take them as they are. The log keeps
only each chunk's id and score; the chunk texts come from `contents` (the document store the gateway retrieved
from). Rows are read and written a page at a time, so a log of any size exports in constant memory."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    from .log import QueryLog

Contents = Union[Mapping[str, str], Callable[[str], Union[str, None]]]
PAGE = 10_000
_COLUMNS = ("id", "timestamp", "question", "chunks", "answer", "decision", "score", "attribution_coverage",
            "removed_sentences", "latency_ms", "feedback_correct", "feedback_note", "feedback_at")  # fmt: skip


def _schema(pa: Any) -> Any:
    chunk = pa.struct([("id", pa.string()), ("content", pa.string()), ("score", pa.float64())])
    return pa.schema(
        [
            ("id", pa.int64()),
            ("timestamp", pa.string()),
            ("query", pa.string()),
            ("contexts", pa.list_(chunk)),
            ("answer", pa.string()),
            ("decision", pa.string()),
            ("logged_score", pa.float64()),  # the log's own score and coverage; the evaluation adds fresh ones
            ("logged_attribution_coverage", pa.float64()),
            ("removed_sentences", pa.list_(pa.string())),
            ("latency_ms", pa.float64()),
            ("feedback_correct", pa.bool_()),
            ("feedback_note", pa.string()),
            ("feedback_at", pa.string()),
        ]
    )


def _lookup(contents: Contents | None) -> Callable[[str], str | None]:
    if contents is None:
        return lambda _id: None
    if isinstance(contents, Mapping):
        return contents.get
    if callable(contents):
        return contents
    raise TypeError(f"contents must be a mapping or a function chunk id -> text; got {type(contents).__name__}")


def export_parquet(log: QueryLog, path: str | os.PathLike[str], contents: Contents | None, page: int) -> int:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as exc:
        raise ImportError(
            f"QueryLog.export needs pyarrow ({exc.name or exc}): pip install 'sufficient-context[ray]'"
        ) from None
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike; got {type(path).__name__}")
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise ValueError(f"page must be an int >= 1; got {page!r}")
    lookup = _lookup(contents)
    schema = _schema(pa)
    target = os.fspath(path)
    partial = f"{target}.partial"
    written, last = 0, 0
    try:
        with pq.ParquetWriter(partial, schema) as writer:
            while True:
                rows = log._query(  # the log's own locked, fork-safe read
                    f"SELECT {', '.join(_COLUMNS)} FROM query_log WHERE id > ? ORDER BY id LIMIT ?", (last, page)
                )
                if not rows:
                    break
                writer.write_table(pa.Table.from_pylist([_row(dict(zip(_COLUMNS, r)), lookup) for r in rows], schema))
                written += len(rows)
                last = rows[-1][0]
        os.replace(partial, target)  # a reader never sees half a file
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    return written


def json_column(raw: dict[str, Any], column: str) -> Any:
    """A JSON column of a stored row, decoded; ValueError naming the row and column when another program wrote
    something else there (a bare JSONDecodeError said neither)."""
    try:
        return json.loads(raw[column])
    except (TypeError, ValueError) as exc:
        raise ValueError(f"row {raw['id']} of the query log holds no JSON in {column!r} ({exc})") from None


def _row(raw: dict[str, Any], lookup: Callable[[str], str | None]) -> dict[str, Any]:
    chunks = json_column(raw, "chunks")
    content = [lookup(c["id"]) for c in chunks]
    for chunk_id, text in zip((c["id"] for c in chunks), content):
        if text is not None and not isinstance(text, str):
            raise TypeError(f"contents[{chunk_id!r}] must be a str or None; got {type(text).__name__}")
    removed = raw["removed_sentences"]
    feedback = raw["feedback_correct"]
    return {
        "id": raw["id"],
        "timestamp": raw["timestamp"],
        "query": raw["question"],
        "contexts": [{"id": c["id"], "content": t, "score": c["score"]} for c, t in zip(chunks, content)],
        "answer": raw["answer"],
        "decision": raw["decision"],
        "logged_score": raw["score"],
        "logged_attribution_coverage": raw["attribution_coverage"],
        "removed_sentences": None if removed is None else json_column(raw, "removed_sentences"),
        "latency_ms": raw["latency_ms"],
        "feedback_correct": None if feedback is None else bool(feedback),
        "feedback_note": raw["feedback_note"],
        "feedback_at": raw["feedback_at"],
    }
