"""The evaluation stage: ``Dataset.map_batches`` with a callable class on an actor pool. Each actor builds its
checker and ``ClaimCoverage`` once, from the configuration parsed on the driver, and scores each Arrow batch with
the local runner's own batch function (``check_batch`` / ``check_answers`` on C++ threads, GIL released), so a
row's results are the same bits as a local ``eval``."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..config import ConfigSource, load_checker_config, load_pipeline_config
from ..evaluation.rows import Row, RowError, parse_line, parse_row
from ..evaluation.runner import score_batch, thresholds_of
from ._deps import pyarrow_module, ray_module
from .columns import RESULT_COLUMNS, record_of, result_row, to_table
from .readers import LINE, RAW

if TYPE_CHECKING:
    import ray.data

CHECKS = ("sufficiency", "claims")


def checks_config(config: ConfigSource | None) -> dict[str, dict[str, Any]]:
    """Constructor arguments of the checker and of ClaimCoverage, read (and validated) once, on the driver: a YAML
    path is read where the job is submitted, workers get plain data."""
    if config is None:
        return {"checker": {}, "claims": {}}
    if not isinstance(config, (str, os.PathLike, Mapping)):
        raise TypeError(f"config must be a YAML path or a mapping; got {type(config).__name__}")
    if isinstance(config, Mapping):  # a mapping may be the checker section itself
        return {"checker": load_checker_config(config), "claims": load_pipeline_config(config)["claims"]}
    # A file needs no sufficient_context section: calibrate may write claims only.
    sections = load_pipeline_config(config)
    return {"checker": sections["sufficient_context"], "claims": sections["claims"]}


class Scorer:
    """The callable class of the stage (one instance per actor)."""

    def __init__(self, settings: dict[str, dict[str, Any]], checks: tuple[str, ...], threads: int) -> None:
        checker = SufficientContextChecker(**settings["checker"])
        coverage = ClaimCoverage(**settings["claims"])
        self._thresholds = thresholds_of(checker, coverage)
        self._checker = checker if "sufficiency" in checks else None
        self._coverage = coverage if "claims" in checks else None
        self._threads = threads

    def __call__(self, batch: Any) -> Any:
        names = batch.column_names
        numbered = LINE in names and pyarrow_module().types.is_integer(batch.schema.field(LINE).type)
        lines: list[int | None] = batch.column(LINE).to_pylist() if numbered else [None] * batch.num_rows
        # Rows are parsed with a stand-in line number (their position), which maps results back to positions.
        parsed: list[Row | RowError]
        ids: list[str | None] = [None] * batch.num_rows  # of rows that fail parsing, when they have one
        if RAW in names:
            parsed = [parse_line(i, raw) for i, raw in enumerate(batch.column(RAW).to_pylist())]
        else:
            mappings = batch.to_pylist()
            parsed = [_parse_mapping(i, data) for i, data in enumerate(mappings)]
            ids = [None if data.get("id") is None else str(data["id"]) for data in mappings]
        scored, bad = score_batch(parsed, checker=self._checker, coverage=self._coverage, threads=self._threads)
        out: list[dict[str, Any] | None] = [None] * batch.num_rows
        for row, record in scored:
            record["line"] = lines[row.line]
            out[row.line] = result_row(lines[row.line], record, row.check, None, self._thresholds)
        for position, message in bad:
            item = parsed[position]
            row_id = item.id if isinstance(item, Row) else ids[position]
            error = message if lines[position] is not None or row_id is None else f"id {row_id!r}: {message}"
            failed = result_row(lines[position], None, None, error, self._thresholds)
            failed["id"] = row_id
            out[position] = failed
        results = to_table([row for row in out if row is not None])
        kept = batch.drop_columns([n for n in names if n == RAW or n in RESULT_COLUMNS])
        for name in results.column_names:
            kept = kept.append_column(results.field(name), results.column(name))
        return kept


def _parse_mapping(position: int, data: dict[str, Any]) -> Row | RowError:
    try:
        return parse_row(position, data)
    except RowError as exc:
        return exc


def evaluate(
    ds: ray.data.Dataset,
    config: ConfigSource | None = None,
    checks: Sequence[str] = CHECKS,
    *,
    concurrency: int | tuple[int, int] | None = None,
    threads: int = 1,
    batch_size: int = 512,
) -> ray.data.Dataset:
    """Add each row's results to `ds` (lazily: nothing runs until the dataset is consumed or written).

    Parameters
    ----------
    ds : ray.data.Dataset
        Rows from :func:`read_jsonl` (``line`` + ``json``), or with the fields of the JSONL rows as columns
        (``query``, ``contexts``, ``answer``, ``label``, ``kind``, ``id``; e.g. from :func:`read_parquet` or
        ``QueryLog.export``).
    config : YAML path or mapping, optional
        The ``sufficient_context:`` and ``claims:`` sections, as for the local ``eval --config``; read once here.
    checks : "sufficiency" and/or "claims"
    concurrency : int or (min, max)
        Actors in the pool (default: as many as the cluster's CPUs allow at `threads` CPUs each).
    threads : int
        C++ threads per actor; each actor reserves that many CPUs (``num_cpus``).
    batch_size : int
        Rows per batch handed to an actor.

    Returns the dataset with the columns of ``RESULT_COLUMNS`` added (``id``, ``kind`` and ``label`` replaced by
    their parsed values, as in ``results.jsonl``); a row that cannot be evaluated keeps its place, with ``error``
    saying why.
    """
    ray = ray_module()
    if not isinstance(ds, ray.data.Dataset):
        raise TypeError(f"ds must be a ray.data.Dataset; got {type(ds).__name__}")
    if isinstance(checks, str) or not checks or any(c not in CHECKS for c in checks):
        raise ValueError(f"checks must be a non-empty sequence of {', '.join(map(repr, CHECKS))}; got {checks!r}")
    for name, value in (("threads", threads), ("batch_size", batch_size)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an int >= 1; got {value!r}")
    settings = checks_config(config)
    Scorer(settings, tuple(checks), threads)  # a bad configuration fails here, not in every actor
    return ds.map_batches(  # type: ignore[no-any-return]
        Scorer,
        fn_constructor_kwargs={"settings": settings, "checks": tuple(checks), "threads": threads},
        batch_format="pyarrow",
        batch_size=batch_size,
        compute=ray.data.ActorPoolStrategy(**_pool(ray, concurrency, threads)),
        num_cpus=threads,
        zero_copy_batch=True,
    )


def _pool(ray: Any, concurrency: int | tuple[int, int] | None, threads: int) -> dict[str, int]:
    if concurrency is None:
        cpus = ray.cluster_resources().get("CPU", 1.0) if ray.is_initialized() else os.cpu_count() or 1
        return {"min_size": 1, "max_size": max(1, math.floor(cpus / threads))}
    if isinstance(concurrency, int) and not isinstance(concurrency, bool) and concurrency >= 1:
        return {"size": concurrency}
    if (
        isinstance(concurrency, tuple)
        and len(concurrency) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in concurrency)
        and 1 <= concurrency[0] <= concurrency[1]
    ):
        return {"min_size": concurrency[0], "max_size": concurrency[1]}
    raise ValueError(f"concurrency must be an int >= 1 or a (min, max) pair of them; got {concurrency!r}")


__all__ = ["CHECKS", "Scorer", "evaluate", "record_of"]
