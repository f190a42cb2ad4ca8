"""Batch forms and the Python boundary on real rows, each row seen once per repetition.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_batch.py [--rows 2000] [--repeat 5]

Rows: the first `--rows` rows of ../shared/datasets/squad2 (question + its retrieved paragraphs), in file order.
Every measure is a ratio of two timings taken in the same repetition of the same process; the table shows the
median over repetitions, wall time and process CPU time side by side.

1. Python share of a tiny public call (1 chunk of 10 words): (public call - core call alone) / public call. The core
   call is the one the public call makes, result objects included (the core builds them).
2. `check_batch(threads=N)` vs a plain loop of `check_sufficiency` over n rows, and `threads=1` vs the core loop.
3. `ClaimCoverage.check_answers(threads=N)` vs a loop of `check_answer` on halueval answers.
4. Default `check_sufficiency` vs the original design's formula in plain Python (`_reference_checker.reference_score`)
   on the same rows: in a fresh process, first sight of every row (cold) and the same rows again (warm). The
   child imports what a process that only checks text does (the package loads NumPy only for arrays, so no OpenBLAS
   threads spin there while it is timed).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from _machine import DATASETS, cpu_model

import sufficient_context as sc
import sufficient_context.claims as claims_module
import sufficient_context.gate as gate_module
from sufficient_context import _reference_checker as rc
from sufficient_context.claims import AnswerCoverage, ClaimResult

Rows = list[tuple[str, list[str]]]


def squad_rows(n: int) -> Rows:
    out: Rows = []
    with open(DATASETS / "squad2" / "squad2-sufficiency.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out.append((row["query"], [c["content"] for c in row["contexts"]]))
            if len(out) == n:
                break
    return out


def claim_rows(n: int) -> list[tuple[str, list[dict[str, str]]]]:
    out = []
    with open(DATASETS / "halueval" / "halueval-qa-claims.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            chunks = [{"id": f"S{i + 1}", "content": c["content"]} for i, c in enumerate(row["contexts"])]
            out.append((row["answer"].rstrip() + " [S1].", chunks))
            if len(out) == n:
                break
    return out


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    """(wall seconds, process CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def tiny_share(repeat: int) -> list[tuple[str, float, float]]:
    checker = sc.SufficientContextChecker()
    coverage = sc.ClaimCoverage()
    gate = sc.EvidenceSufficiencyGate()
    query, chunk = "What is the boiling point of water?", "Water boils at 100 degrees Celsius at sea level."
    answer = "Water boils at 100 degrees Celsius [S1]."
    ctexts = [chunk]
    import numpy as np  # here, not at the top: the fresh-process child must load only what a text check does

    scores = np.array([0.82], dtype=np.float64)
    core_claims = claims_module._core  # the extension modules the public classes call
    core_gate = gate_module._core
    results = checker._results  # the core call makes the result objects, as the public call has it do
    pairs: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("check_sufficiency", lambda: checker.check_sufficiency(query, [chunk]),
         lambda: checker._core.check(query, [chunk], None, None, None, None, None, 0.0, None, None, results, 0.0)),
        ("check_answer", lambda: coverage.check_answer(answer, [chunk]),
         lambda: core_claims.check_answer(coverage._config, answer, None, ctexts, ClaimResult, AnswerCoverage)),
        ("evaluate_retrieval (array)", lambda: gate.evaluate_retrieval(scores),
         lambda: core_gate.retrieval_decision(sc.RetrievalDecision, scores, 0.2, 2, None)),
    ]  # fmt: skip
    out = []
    loops = 20_000
    for name, public, core in pairs:
        walls, cpus = [], []
        for _ in range(repeat):
            # Each loop keeps its results alive: a full collection first starts both from the same heap (else the
            # loop that runs first pays the older generations' collections, a bias of about 10 points).
            gc.collect()
            pw, pc = timed(lambda f=public: [f() for _ in range(loops)])  # type: ignore[misc]
            gc.collect()
            cw, cc = timed(lambda f=core: [f() for _ in range(loops)])  # type: ignore[misc]
            walls.append((pw - cw) / pw)
            cpus.append((pc - cc) / pc if pc > 0 else 0.0)
        out.append((name, statistics.median(walls), statistics.median(cpus)))
    return out


def batch_vs_loop(rows: Rows, repeat: int, threads: int) -> list[tuple[str, float, float]]:
    checker = sc.SufficientContextChecker()
    out = []
    for n in (10, 100, len(rows)):
        qs = [q for q, _ in rows[:n]]
        cs = [c for _, c in rows[:n]]
        wall, cpu = [], []
        for _ in range(repeat):
            lw, lc = timed(lambda: [checker.check_sufficiency(q, c) for q, c in zip(qs, cs)])  # noqa: B023
            bw, bc = timed(lambda: checker.check_batch(qs, cs, threads=threads))  # noqa: B023
            wall.append(lw / bw)
            cpu.append(lc / bc)
        out.append((f"check_batch(threads={threads}) vs loop, n={n}", statistics.median(wall), statistics.median(cpu)))
    core = checker._core
    wall, cpu = [], []
    qs = [q for q, _ in rows]
    cs = [c for _, c in rows]
    for _ in range(repeat):
        cw, cc = timed(lambda: [core.check(q, c, None, None, None, None, None, 0.0, None, None) for q, c in rows])
        bw, bc = timed(lambda: checker.check_batch(qs, cs, threads=1))
        wall.append(bw / cw)
        cpu.append(bc / cc)
    out.append((f"check_batch(threads=1) time / core loop time, n={len(rows)}", statistics.median(wall),
                statistics.median(cpu)))  # fmt: skip
    return out


def answers_vs_loop(n: int, repeat: int, threads: int) -> tuple[str, float, float]:
    coverage = sc.ClaimCoverage()
    rows = claim_rows(n)
    answers = [a for a, _ in rows]
    chunks = [c for _, c in rows]
    wall, cpu = [], []
    for _ in range(repeat):
        lw, lc = timed(lambda: [coverage.check_answer(a, c) for a, c in rows])
        bw, bc = timed(lambda: coverage.check_answers(answers, chunks, threads=threads))
        wall.append(lw / bw)
        cpu.append(lc / bc)
    return (f"check_answers(threads={threads}) vs loop, n={len(rows)}", statistics.median(wall), statistics.median(cpu))


def cold_child(n: int) -> None:
    """In a fresh process: (cold, warm, reference) seconds for `n` rows, wall and CPU, printed as JSON."""
    rows = squad_rows(n)
    dict_rows = [(q, [{"content": c} for c in cs]) for q, cs in rows]
    checker = sc.SufficientContextChecker()
    cold = timed(lambda: [checker.check_sufficiency(q, c) for q, c in rows])
    warm = timed(lambda: [checker.check_sufficiency(q, c) for q, c in rows])
    ref = timed(lambda: [rc.reference_score(q, c) for q, c in dict_rows])
    print(json.dumps({"cold": cold, "warm": warm, "reference": ref}))


def cold_vs_reference(n: int, repeat: int) -> list[tuple[str, float, float]]:
    runs = []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    for _ in range(repeat):
        done = subprocess.run([sys.executable, __file__, "--cold-child", str(n)], capture_output=True, text=True,
                              check=True, env=env)  # fmt: skip
        runs.append(json.loads(done.stdout))

    def med(key_a: str, key_b: str, i: int) -> float:
        return statistics.median(r[key_a][i] / r[key_b][i] for r in runs)

    return [
        (f"first sight / seen before (fresh process, n={n})", med("cold", "warm", 0), med("cold", "warm", 1)),
        (f"default check_sufficiency, first sight / plain-Python original formula (n={n})",
         med("cold", "reference", 0), med("cold", "reference", 1)),
        (f"default check_sufficiency, seen before / plain-Python original formula (n={n})",
         med("warm", "reference", 0), med("warm", "reference", 1)),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cold-child", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_child:
        cold_child(args.cold_child)
        return
    rows = squad_rows(args.rows)
    print(f"command: PYTHONPATH=... python benchmarks/bench_batch.py --rows {args.rows} --repeat {args.repeat}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores ({len(os.sched_getaffinity(0))} usable); "
          f"Python {platform.python_version()}; SIMD path {sc.similarity.simd_path()}")  # fmt: skip
    print(f"rows: first {len(rows)} of squad2 ({sum(len(c) for _, cs in rows for c in cs) / 1e6:.1f} MB of context)\n")
    print("| measure | wall (median) | process CPU (median) |")
    print("|---|---:|---:|")
    for name, wall, cpu in tiny_share(args.repeat):
        print(f"| Python share of a tiny `{name}` | {wall:.0%} | {cpu:.0%} |")
    for name, wall, cpu in batch_vs_loop(rows, args.repeat, args.threads):
        print(f"| {name} | {wall:.2f}x | {cpu:.2f}x |")
    name, wall, cpu = answers_vs_loop(args.rows, args.repeat, args.threads)
    print(f"| {name} | {wall:.2f}x | {cpu:.2f}x |")
    for name, wall, cpu in cold_vs_reference(args.rows, args.repeat):
        print(f"| {name} | {wall:.2f}x | {cpu:.2f}x |")


if __name__ == "__main__":
    main()
