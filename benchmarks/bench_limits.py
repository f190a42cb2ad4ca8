"""Resource limits: time and peak RSS of the checks on very large inputs, and how they scale (nothing quadratic).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_limits.py [--max-mb 100]

Each case runs in a fresh subprocess so its peak RSS (ru_maxrss) is its own; wall and CPU time are measured around
the call only. Text is real (SQuAD paragraphs from ../shared/datasets, repeated to size). Cases:

- `check_sufficiency` on one context of 1, 10 and 100 MB; a 10 kB, 100 kB and 1 MB query against 1 MB, and a 1 MB
  query against 100 MB;
- `check_sufficiency` and `evaluate_retrieval` on 1,000, 10,000 and 100,000 chunks;
- `ClaimCoverage.check_answer` on a 1, 2 and 10 MB answer against one chunk;
- `sc.text.token_spans` on 1, 10 and 100 MB;
- a 65,536-dimension embedding per chunk (20 chunks) with `cosine_many`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from _machine import DATASETS, cpu_model

CASE = r"""
import json, resource, sys, time
import numpy as np
import sufficient_context as sc

kind, size = sys.argv[1], int(sys.argv[2])
paragraphs = [c["content"] for line in open(sys.argv[3], encoding="utf-8") for c in json.loads(line)["contexts"]]
corpus = " ".join(paragraphs)

def text_of(n_bytes):
    reps = n_bytes // len(corpus) + 1
    return (corpus + " ") * reps

before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if kind == "context":
    big = text_of(size * 1_000_000)[: size * 1_000_000]
    args = ("Who founded the Normans and where did they settle?", [big])
    fn = lambda: sc.SufficientContextChecker().check_sufficiency(*args)
elif kind in ("query", "query100"):
    query = text_of(size * 1_000)[: size * 1_000]  # size in kB
    context_bytes = 100_000_000 if kind == "query100" else 1_000_000
    context = text_of(context_bytes)[:context_bytes]
    fn = lambda: sc.SufficientContextChecker().check_sufficiency(query, [context])
elif kind == "chunks":
    chunks = [{"id": f"c{i}", "content": paragraphs[i % len(paragraphs)], "score": (i % 97) / 97} for i in range(size)]
    checker = sc.SufficientContextChecker()
    fn = lambda: (checker.check_sufficiency("Who founded the Normans?", chunks), sc.evaluate_retrieval(chunks))
elif kind == "answer":
    answer = text_of(size * 1_000_000)[: size * 1_000_000]
    fn = lambda: sc.ClaimCoverage(max_sentences=None).check_answer(answer, [{"id": "S1", "content": paragraphs[0]}])
elif kind == "tokens":
    big = text_of(size * 1_000_000)[: size * 1_000_000]
    fn = lambda: sc.text.token_spans(big)
else:  # embedding
    rng = np.random.default_rng(0)
    q = rng.standard_normal(size).astype(np.float32)
    m = rng.standard_normal((20, size)).astype(np.float32)
    fn = lambda: sc.similarity.cosine_many(q, m)
w0, c0 = time.perf_counter(), time.process_time()
fn()
wall, cpu = time.perf_counter() - w0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak / 1024, "input_mb": (peak - before) / 1024}))
"""


def run(kind: str, size: int, data: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CASE, kind, str(size), data], capture_output=True, text=True, check=True, env=os.environ
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--max-mb", type=int, default=100)
    args = ap.parse_args()
    data = str(DATASETS / "squad2" / "squad2-sufficiency.jsonl")
    mbs = [m for m in (1, 10, 100) if m <= args.max_mb]
    cases = [("context", m, f"{m} MB context") for m in mbs]
    cases += [("query", k, f"{k:,} kB query, 1 MB context") for k in (10, 100, 1_000)]
    if args.max_mb >= 100:
        cases += [("query100", 1_000, "1,000 kB query, 100 MB context")]
    cases += [("chunks", n, f"{n:,} chunks") for n in (1_000, 10_000, 100_000)]
    cases += [("answer", m, f"{m} MB answer") for m in (1, 2, 10) if m <= args.max_mb]
    cases += [("tokens", m, f"token_spans {m} MB") for m in mbs]
    cases += [("embedding", 65_536, "cosine_many 20 x 65,536 dims")]
    print(f"command: PYTHONPATH=... python3 {' '.join(sys.argv)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; peak RSS of a fresh process per case")
    print()
    print("| case | wall s | CPU s | peak RSS MB |")
    print("|---|---:|---:|---:|")
    for kind, size, label in cases:
        r = run(kind, size, data)
        print(f"| {label} | {r['wall']:.3f} | {r['cpu']:.3f} | {r['peak_mb']:.0f} |", flush=True)
    print()
    print(f"(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; {time.ctime()})")


if __name__ == "__main__":
    main()
