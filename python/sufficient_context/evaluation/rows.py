"""Rows of an evaluation file: JSON Lines of ``{query, contexts, answer?, label?, kind?, id?}``, read one line at a
time (constant memory), each validated with a message that names the line and the field."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Union

from ..chunks import Chunk, as_chunks

POSITIVE = {"sufficient": True, "insufficient": False, "supported": True, "unsupported": False}


class RowError(ValueError):
    """A row that cannot be evaluated; the run reports it with its line number and goes on."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Row:
    line: int
    id: str | None
    query: str
    chunks: list[Chunk]
    answer: str | None
    label: bool | None  # True: sufficient / supported
    kind: str | None

    @property
    def check(self) -> str:
        """Which check the label grades: the answer's claims when there is an answer, else the context."""
        return "claims" if self.answer is not None else "sufficiency"


def parse_label(value: Any) -> bool | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in POSITIVE:
        return POSITIVE[value.strip().lower()]
    raise ValueError(f"label must be one of {', '.join(POSITIVE)} or a boolean; got {value!r}")


def parse_row(line: int, data: Any) -> Row:
    if not isinstance(data, dict):
        raise RowError(line, f"a row must be a JSON object; got {type(data).__name__}")
    if "query" not in data:  # a misspelled field ("question", "querry") is the usual cause: name the row's fields
        raise RowError(line, f"query is missing (the row's fields: {_fields(data)})")
    query = data["query"]
    if not isinstance(query, str) or not query.strip():
        got = repr(query) if isinstance(query, str) else type(query).__name__
        raise RowError(line, f"query must be a non-empty string; got {got}")
    if "contexts" not in data:
        raise RowError(line, f"contexts is missing: a list of chunks or strings (the row's fields: {_fields(data)})")
    try:
        chunks = as_chunks(data["contexts"])
    except (TypeError, ValueError) as exc:
        raise RowError(line, f"contexts: {exc}") from None
    answer = data.get("answer")
    if answer is not None and not isinstance(answer, str):
        raise RowError(line, f"answer must be a string; got {type(answer).__name__}")
    try:
        label = parse_label(data.get("label"))
    except ValueError as exc:
        raise RowError(line, str(exc)) from None
    kind = data.get("kind")
    row_id = data.get("id")
    return Row(
        line=line,
        id=None if row_id is None else str(row_id),
        query=query,
        chunks=chunks,
        answer=answer,
        label=label,
        kind=None if kind is None else str(kind),
    )


def _fields(data: dict[Any, Any]) -> str:
    names = [str(k) for k in data]
    shown = ", ".join(repr(n[:40]) for n in names[:10])  # a row of 10,000 keys, or a 1 MB key, stays one line
    return (shown + (f" and {len(names) - 10} more" if len(names) > 10 else "")) or "none"


Source = Union[str, "os.PathLike[str]", BinaryIO]


def parse_line(number: int, raw: bytes) -> Row | RowError:
    """One non-blank line's row, or the RowError saying why it is bad (also what the Ray stage calls per line)."""
    try:
        # Without its line break, so a JSON error's column is on this line (and the same whoever split the lines).
        data = json.loads(raw.rstrip(b"\r\n").decode("utf-8"))
    except UnicodeDecodeError as exc:
        return RowError(number, f"not UTF-8: {exc.reason} at byte {exc.start}")
    except json.JSONDecodeError as exc:
        return RowError(number, f"not valid JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:
        return RowError(number, "not valid here: JSON nested too deeply")
    except ValueError as exc:  # an integer past int_max_str_digits: one bad row, not a failed run
        return RowError(number, f"not valid here: {exc}")
    try:
        return parse_row(number, data)
    except RowError as exc:
        return exc


def read_rows(source: Source) -> Iterator[Row | RowError]:
    """Every line's row, or the RowError saying why it is bad (blank lines are skipped)."""
    handle: BinaryIO
    if isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")  # noqa: SIM115 - closed below, also when the consumer stops early
        owned = True
    else:
        handle, owned = source, False
    try:
        for number, raw in enumerate(handle, start=1):
            if raw.strip():
                yield parse_line(number, raw)
    finally:
        if owned:
            handle.close()
