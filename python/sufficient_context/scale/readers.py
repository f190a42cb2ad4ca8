"""Reading evaluation rows into Ray Data and writing results out.

JSON Lines go through Ray's file-based datasource machinery (file listing, any pyarrow filesystem, compression,
one read task per file) but are not parsed there: each non-blank line travels as its bytes with its line number,
and the evaluation stage parses it with the same code as the local runner. Ray's ``read_json`` would fail the
whole job on one malformed line, or on a field whose type differs between rows (contexts as strings in one row and
as objects in the next), where a local run reports the row and goes on. Parquet goes through ``read_parquet``."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Union

from ._deps import pyarrow_module, ray_module

if TYPE_CHECKING:
    import ray.data

Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]

LINE = "line"  # column of the 1-based line number in its file
RAW = "json"  # column of a line's bytes, parsed by the evaluation stage
_LINES_PER_BLOCK = 4096
_READ_BYTES = 1 << 22


def _lines(read: Any) -> Iterator[bytes]:
    """The lines of a binary stream split on b"\\n" only, as iterating a file opened "rb" does (the local runner)."""
    rest = b""
    while True:
        data = read(_READ_BYTES)
        if not data:
            break
        parts = (rest + data).split(b"\n")
        rest = parts.pop()
        yield from parts
    if rest:
        yield rest


def _datasource(paths: list[str], **kwargs: Any) -> Any:
    from ray.data.datasource import FileBasedDatasource

    pa = pyarrow_module()

    class JsonLinesDatasource(FileBasedDatasource):
        """One row per non-blank line: its line number and its bytes."""

        _FILE_EXTENSIONS = None  # the user names the files; .jsonl, .json, .ndjson, compressed or not

        def _read_stream(self, f: Any, path: str) -> Iterator[Any]:
            numbers: list[int] = []
            raws: list[bytes] = []
            for number, raw in enumerate(_lines(f.read), start=1):
                if not raw.strip():
                    continue
                numbers.append(number)
                raws.append(raw)
                if len(raws) == _LINES_PER_BLOCK:
                    yield pa.table({LINE: pa.array(numbers, pa.int64()), RAW: pa.array(raws, pa.binary())})
                    numbers, raws = [], []
            if raws:
                yield pa.table({LINE: pa.array(numbers, pa.int64()), RAW: pa.array(raws, pa.binary())})

    return JsonLinesDatasource(paths, **kwargs)


def _path_list(paths: Paths, name: str = "paths") -> list[str]:
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not items:
        raise ValueError(f"{name} must name at least one file or directory")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"{name}[{i}] must be a str or os.PathLike; got {type(item).__name__}")
        out.append(os.fspath(item))
    return out


def read_jsonl(paths: Paths, **read_args: Any) -> ray.data.Dataset:
    """A dataset of the evaluation rows of JSON Lines files (or directories of them): columns ``line`` and
    ``json`` (the line's bytes), which :func:`~sufficient_context.scale.evaluate` parses. `read_args` go to
    ``ray.data.read_datasource`` (``override_num_blocks``, ``ray_remote_args`` ...)."""
    ray = ray_module()
    return ray.data.read_datasource(_datasource(_path_list(paths)), **read_args)  # type: ignore[no-any-return]


def read_parquet(paths: Paths, **read_args: Any) -> ray.data.Dataset:
    """A dataset of the evaluation rows of Parquet files (columns ``query``, ``contexts``, ``answer``, ``label``,
    ``kind``, ``id``, as in the JSONL rows), through ``ray.data.read_parquet``."""
    ray = ray_module()
    return ray.data.read_parquet(_path_list(paths), **read_args)  # type: ignore[no-any-return]


def read(paths: Paths, **read_args: Any) -> ray.data.Dataset:
    """:func:`read_parquet` when every path ends in ``.parquet`` (or is a directory holding only Parquet files),
    else :func:`read_jsonl`."""
    items = _path_list(paths)
    if all(_is_parquet(p) for p in items):
        return read_parquet(items, **read_args)
    return read_jsonl(items, **read_args)


def _is_parquet(path: str) -> bool:
    if os.path.isdir(path):
        names = [n for n in os.listdir(path) if not n.startswith((".", "_"))]
        return bool(names) and all(n.endswith(".parquet") for n in names)
    return path.endswith(".parquet")


def write_results(results: ray.data.Dataset, path: str | os.PathLike[str], **write_args: Any) -> None:
    """Write evaluated rows as Parquet files under directory `path` (``Dataset.write_parquet``)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike; got {type(path).__name__}")
    results.write_parquet(os.fspath(path), **write_args)
