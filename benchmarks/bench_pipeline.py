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
costs under 2x the bare checks. Wall time and process CPU time, best of 5 repetitions.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import sys

from _machine import DATASETS, best_of, cpu_model

import sufficient_context as sc
from sufficient_context.pipeline import extractive_answer


def workload(n: int) -> list[tuple[str, list[dict[str, object]]]]:
    lines = (DATASETS / "hotpot" / "hotpot-sufficiency.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()][:n]
    return [(r["query"], [dict(c, score=round(0.9 - 0.1 * i, 2)) for i, c in enumerate(r["contexts"])]) for r in rows]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100)
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
    pipe_wall, pipe_cpu = best_of(pipeline)
    bare_wall, bare_cpu = best_of(bare)
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
    ratio = pipe_wall / bare_wall
    print(f"- pipeline / bare checks: {ratio:.2f}x wall, {pipe_cpu / bare_cpu:.2f}x CPU "
          f"(target < 2x: {'met' if ratio < 2 else 'NOT met'})")  # fmt: skip


if __name__ == "__main__":
    main()
