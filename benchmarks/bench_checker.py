"""SufficientContextChecker speed: the C++ core (public API and core call) vs the plain-Python formulas.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_checker.py

The case of the targets: a query of ~12 words against 5 chunks of ~1,000 characters, no embedding model (20 such
cases from ../shared/datasets/squad2: 12-word questions, paragraphs of 900-1,100 characters). Every row scores the
same cases in one process; "plain Python" rows are the test oracles of python/sufficient_context/_reference_checker.py
(`reference_score`, the original formula, and `default_score`, the spec of the default scoring). Public-API rows
include input adaptation and building the result object. check_batch scores 10,000 queries (the 20 cases repeated)
in one call with 1 and 2 threads.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from _machine import DATASETS, cpu_model

from sufficient_context import _reference_checker as rc
from sufficient_context._core import checker as core
from sufficient_context.checker import SufficientContextChecker, TermStatistics

BATCH = 10_000


def cases() -> list[tuple[str, list[dict[str, str]]]]:
    with open(DATASETS / "squad2" / "squad2-sufficiency.jsonl", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    paras = sorted({c["content"] for r in rows for c in r["contexts"] if 900 <= len(c["content"]) <= 1100})[:50]
    queries = [r["query"] for r in rows if len(r["query"].split()) == 12][:20]
    return [(q, [{"content": p} for p in paras[i * 5 % 45 : i * 5 % 45 + 5]]) for i, q in enumerate(queries)]


def per_call_us(fn: Callable[[str, Any], Any], items: list[tuple[str, Any]], budget: float = 0.4) -> float:
    """Best of 5 runs of the average time per call over `items`, each run ~`budget` seconds."""
    for q, c in items:  # warm up: stems, n-gram hashes, the vocabulary memo, as a long-running process has them
        fn(q, c)
    start = time.perf_counter()
    for q, c in items:
        fn(q, c)
    once = time.perf_counter() - start
    loops = max(1, int(budget / max(once, 1e-9)))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(loops):
            for q, c in items:
                fn(q, c)
        best = min(best, (time.perf_counter() - start) / (loops * len(items)))
    return best * 1e6


def main() -> None:
    items = cases()
    chars = sum(len(c["content"]) for _, cs in items for c in cs) / len(items)
    nbytes = sum(len(c["content"].encode("utf-8")) for _, cs in items for c in cs) / len(items)
    str_items = [(q, [c["content"] for c in cs]) for q, cs in items]
    freq = rc.load_freq_table()
    default = SufficientContextChecker()
    reference = SufficientContextChecker(scoring="reference")
    core_default = core.Checker("default", statistics=TermStatistics.english()._core)
    core_reference = core.Checker("reference")

    rows: list[tuple[str, float]] = [
        ("C++ reference, public API: `check_sufficiency(q, dicts)`", per_call_us(reference.check_sufficiency, items)),
        ("C++ default, public API: `check_sufficiency(q, dicts)`", per_call_us(default.check_sufficiency, items)),
        ("C++ reference, core call alone: `_core.checker.Checker.check(q, strs)`",
         per_call_us(core_reference.check, str_items)),
        ("C++ default, core call alone: `_core.checker.Checker.check(q, strs)`",
         per_call_us(core_default.check, str_items)),
        ("plain Python, reference formula: `reference_score(q, dicts)`",
         per_call_us(lambda q, c: rc.reference_score(q, c), items)),
        ("plain Python, default scoring (oracle): `default_score(q, dicts)`",
         per_call_us(lambda q, c: rc.default_score(q, c, freq_table=freq), items, budget=1.0)),
    ]  # fmt: skip
    ref_python = rows[4][1]

    queries = [q for q, _ in items] * (BATCH // len(items))
    contexts = [c for _, c in items] * (BATCH // len(items))
    batch: dict[int, float] = {}
    for threads in (1, 2):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            default.check_batch(queries, contexts, threads=threads)
            best = min(best, time.perf_counter() - start)
        batch[threads] = best

    print(f"command: PYTHONPATH=... {sys.executable.split('/')[-1]} benchmarks/bench_checker.py")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}")
    print(f"case: 12-word queries x 5 chunks, {chars:.0f} characters ({nbytes:.0f} bytes UTF-8) of context per call\n")
    print("| path | us per call | MB/s of context | vs plain-Python reference formula |")
    print("|---|---:|---:|---:|")
    for name, us in rows:
        print(f"| {name} | {us:.1f} | {nbytes / us:.1f} | {us / ref_python:.2f}x the time |")
    for threads, seconds in batch.items():
        us = seconds / len(queries) * 1e6
        print(f"| C++ default, `check_batch` of {len(queries):,} queries, threads={threads} "
              f"| {us:.1f} | {nbytes / us:.1f} | {us / ref_python:.2f}x the time |")  # fmt: skip

    default_api = rows[1][1]
    print("\ntargets:")
    print(f"- default (public API) <= 2x the plain-Python reference formula: {default_api / ref_python:.2f}x")
    print(f"- default >= 20x faster than plain-Python default: {rows[5][1] / default_api:.0f}x")
    print(f"- reference no slower than the plain-Python formula: {rows[0][1] / ref_python:.2f}x the time")
    print(f"- check_batch scales with both cores: 2 threads {batch[1] / batch[2]:.2f}x faster than 1")


if __name__ == "__main__":
    main()
