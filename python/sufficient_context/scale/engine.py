"""``sufficient-context eval DATA --engine ray``: read, evaluate, write and summarize on a Ray cluster (or on a
local Ray started on this machine's cores), with the same outputs as the local engine, results as Parquet."""

from __future__ import annotations

import json
import os
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


def connect(address: str | None) -> bool:
    """Join the cluster at `address` ("auto": the one this machine belongs to), or start a local Ray on this
    machine's cores. Returns True when this call started Ray (the caller shuts it down)."""
    ray = ray_module()
    if ray.is_initialized():
        return False
    ray.init(address=address, include_dashboard=False if address is None else None, log_to_driver=False)
    return True


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
    started = connect(address)
    try:
        results = evaluate(read(os.fspath(data)), config, threads=threads)
        if target is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_results(results, target)
            results = read_parquet(target)  # summarize what was written instead of scoring twice
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
        return summary_of(results)
    except ValueError as exc:
        if "no rows" not in str(exc):
            raise
    # An empty input: the summary of nothing, with the thresholds of the configuration.
    checker = SufficientContextChecker(**settings["checker"])
    return Summary(thresholds_of(checker, ClaimCoverage(**settings["claims"])))


__all__ = ["RESULTS_DIR", "connect", "run"]
