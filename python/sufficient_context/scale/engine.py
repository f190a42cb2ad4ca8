"""``sufficient-context eval DATA --engine ray``: read, evaluate, write and summarize on a Ray cluster (or on a
local Ray started on this machine's cores), with the same outputs as the local engine, results as Parquet."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..config import ConfigSource
from ..evaluation.runner import thresholds_of
from ..evaluation.summary import Summary
from ._deps import ray_module
from .readers import read, read_parquet, write_results
from .stage import checks_config, evaluate
from .summarize import summary_of

RESULTS_DIR = "results"  # Parquet files under the output directory
PARTIAL_SUFFIX = ".partial"  # results are written to results.partial/, renamed results/ when all are written
_CONNECT_TIMEOUT_S = 10.0


def connect(address: str | None) -> bool:
    """Join the cluster at `address` ("auto": the one this machine belongs to), or start a local Ray on this
    machine's cores. Returns True when this call started Ray (the caller shuts it down)."""
    ray = ray_module()
    if ray.is_initialized():
        return False
    if address is not None:
        _reachable(address)
    try:
        ray.init(address=address, include_dashboard=False if address is None else None, log_to_driver=False)
    except RuntimeError as exc:  # Ray's "Failed to connect to GCS", with a page of its logs
        if address is None:
            raise
        raise ConnectionError(
            f"address: cannot join the Ray cluster at {address!r}: {str(exc).splitlines()[0]}"
        ) from None
    return True


def _reachable(address: str) -> None:
    """Fail fast when nothing listens at a ``host:port`` address: Ray itself retries for about 14 minutes, then
    raises RuntimeError."""
    host, sep, port = address.rpartition(":")
    if "://" in address or not sep or not host or not port.isdigit():
        return  # "auto", ray://...: Ray's own errors are quick
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_TIMEOUT_S).close()
    except (OSError, OverflowError) as exc:
        raise ConnectionError(f"address: no Ray cluster answers at {address!r} ({exc})") from None


def run(
    data: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    config: ConfigSource | None = None,
    address: str | None = None,
    threads: int = 1,
    report: bool = True,
) -> Summary:
    """Evaluate `data` (JSONL or Parquet files) on Ray. With `out`, write ``results/`` (Parquet),
    ``summary.json`` and (``report=True``) ``report.html``, as the local engine writes ``results.jsonl`` and the
    rest."""
    ray = ray_module()
    settings = checks_config(config)  # a bad configuration fails before Ray starts
    target = None if out is None else Path(out) / RESULTS_DIR
    if target is not None and target.exists() and any(target.iterdir()):
        # Parquet writers add files beside old ones, and the summary would count both runs.
        raise ValueError(f"out: {os.fspath(target)!r} already holds files; remove it or choose another directory")
    outputs = () if out is None else (Path(out) / "summary.json", Path(out) / "report.html")
    for output in outputs:
        if output.exists() and os.path.exists(data) and os.path.samefile(data, output):
            raise ValueError(f"out: {os.fspath(output)!r} is the input file; writing it would erase the input")
    started = connect(address)
    for output in outputs:  # a previous run's files never sit beside this run's results (as in the local engine)
        output.unlink(missing_ok=True)
    try:
        results: Any = evaluate(read(os.fspath(data)), config, threads=threads)
        if target is not None:
            # Written beside, renamed when whole: an interrupted run leaves only results.partial/ (as the local
            # engine leaves results.jsonl.partial), never a results/ that looks complete.
            partial = target.with_name(RESULTS_DIR + PARTIAL_SUFFIX)
            if partial.is_dir():
                shutil.rmtree(partial)  # an earlier interrupted run's: its files would be counted again
            partial.mkdir(parents=True)
            write_results(results, partial)
            os.replace(partial, target)
            # Summarize what was written instead of scoring twice; no rows wrote no file.
            results = read_parquet(target) if any(target.iterdir()) else None
        summary = _summary(results, settings)
    finally:
        if started:
            ray.shutdown()
    if out is not None:
        Path(out, "summary.json").write_text(json.dumps(summary.to_dict(), indent=2) + "\n", encoding="utf-8")
        if report:
            from ..evaluation.report import write_report

            write_report(summary, Path(out) / "report.html", title=f"Evaluation of {os.fspath(data)}")
    return summary


def _summary(results: Any, settings: dict[str, dict[str, Any]]) -> Summary:
    try:
        if results is not None:
            return summary_of(results)
    except ValueError as exc:
        if "no rows" not in str(exc):
            raise
    # An empty input: the summary of nothing, with the thresholds of the configuration.
    checker = SufficientContextChecker(**settings["checker"])
    return Summary(thresholds_of(checker, ClaimCoverage(**settings["claims"])))


__all__ = ["PARTIAL_SUFFIX", "RESULTS_DIR", "connect", "run"]
