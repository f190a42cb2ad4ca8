"""GroundedAnswerer overhead: the whole pipeline (extractive answerer, no model) vs the three checks it calls.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_pipeline.py [--rows 100]

Workload: HotpotQA rows from ../shared/datasets (a question and its 8-10 retrieved paragraphs), with descending
retrieval scores 0.9, 0.8, ... Per row, in one process:

- pipeline: ``GroundedAnswerer().answer(query, chunks)``: retrieval gate, sufficiency check, relabelling S1..Sn,
  prompt, extractive answer, claim validation, sources, envelope;
- bare checks: the same three calls on the same inputs, ``evaluate_retrieval(chunks)``,
  ``check_sufficiency(query, passing chunks)`` and ``check_answer(the pipeline's draft, labelled chunks)``.

The answerer does not decline (``decline_insufficient=False``), so every row runs every step. Target: the pipeline
costs under 2x the bare checks. The two alternate, one pass over the rows each per repetition, so a change in the
host's speed reaches both: the ratio is the median of the per-repetition ratios (wall and process CPU time), and
the times shown are the best of the repetitions.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import statistics
import sys
import time

from _machine import DATASETS, cpu_model

import sufficient_context as sc
from sufficient_context.pipeline import extractive_answer


def workload(n: int) -> list[tuple[str, list[dict[str, object]]]]:
    lines = (DATASETS / "hotpot" / "hotpot-sufficiency.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()][:n]
    return [(r["query"], [dict(c, score=round(0.9 - 0.1 * i, 2)) for i, c in enumerate(r["contexts"])]) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    rows = workload(args.rows)
    # Declining skips generation and validation; answering every row makes the pipeline run all its steps.
    answerer = sc.GroundedAnswerer(sc.SufficientContextChecker(decline_insufficient=False))
    checker, claims = answerer.checker, answerer.claims

    # The bare checks get exactly what the pipeline hands them.
    prepared = []
    for query, chunks in rows:
        decision = sc.evaluate_retrieval(chunks)
        passing = set(decision.passing_chunks)
        evidence = [c for c in sc.as_chunks(chunks) if c.id in passing]
        labelled = [dataclasses.replace(c, id=f"S{i}") for i, c in enumerate(evidence, start=1)]
        prepared.append((query, chunks, labelled, extractive_answer(query, labelled)))

    def pipeline() -> None:
        for query, chunks in rows:
            answerer.answer(query, chunks)

    def bare() -> None:
        for query, chunks, labelled, draft in prepared:
            sc.evaluate_retrieval(chunks)
            checker.check_sufficiency(query, labelled)
            claims.check_answer(draft, labelled)

    statuses: dict[str, int] = {}
    for query, chunks in rows:
        status = answerer.answer(query, chunks).status
        statuses[status] = statuses.get(status, 0) + 1
    times: dict[str, list[tuple[float, float]]] = {"pipeline": [], "bare": []}
    for _ in range(args.repeat):
        for name, call in (("pipeline", pipeline), ("bare", bare)):
            wall, cpu = time.perf_counter(), time.process_time()
            call()
            times[name].append((time.perf_counter() - wall, time.process_time() - cpu))
    pipe_wall, pipe_cpu = (min(t[k] for t in times["pipeline"]) for k in (0, 1))
    bare_wall, bare_cpu = (min(t[k] for t in times["bare"]) for k in (0, 1))
    ratio = statistics.median(p[0] / b[0] for p, b in zip(times["pipeline"], times["bare"]))
    ratio_cpu = statistics.median(p[1] / b[1] for p, b in zip(times["pipeline"], times["bare"]) if b[1] > 0)
    n = len(rows)
    print(f"command: PYTHONPATH=... python3 {' '.join(sys.argv)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}")
    print(f"workload: {n} HotpotQA rows, {sum(len(c) for _, c in rows) / n:.1f} chunks per row; statuses {statuses}")
    print()
    print("| path | ms per question (wall) | ms per question (CPU) |")
    print("|---|---:|---:|")
    print(f"| pipeline, extractive answerer | {pipe_wall / n * 1e3:.3f} | {pipe_cpu / n * 1e3:.3f} |")
    print(f"| the three checks it calls | {bare_wall / n * 1e3:.3f} | {bare_cpu / n * 1e3:.3f} |")
    print()
    print(f"- pipeline / bare checks, median of {args.repeat} alternated repetitions: {ratio:.2f}x wall, "
          f"{ratio_cpu:.2f}x CPU (target < 2x: {'met' if ratio < 2 else 'NOT met'})")  # fmt: skip


if __name__ == "__main__":
    main()
