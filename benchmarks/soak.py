"""Soak run: every public API in a loop for a while; resident memory must stay flat (no leak, no unbounded cache).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/soak.py [--minutes 10]

Each round calls, on real SQuAD text from ../shared/datasets (a different row each round, so caches meet new words):
the checker (single and batch), the attention and retrieval gates with their stats, ClaimCoverage (answer, batch,
citations), query types, the grounded answering pipeline with a query log, the text engine (terms, token spans,
sentences) and cosine. RSS is sampled every few seconds; the report compares the last third of the run with the
first third after warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _machine import DATASETS, cpu_model

import sufficient_context as sc


def rss_mb() -> float:
    """Current resident set size in MB (from /proc; ru_maxrss only ever grows)."""
    with open("/proc/self/statm", encoding="ascii") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    args = ap.parse_args()
    rows = [json.loads(line) for line in (DATASETS / "squad2" / "squad2-sufficiency.jsonl").open(encoding="utf-8")]
    checker, gate, claims = sc.SufficientContextChecker(), sc.EvidenceSufficiencyGate(), sc.ClaimCoverage()
    gate_stats, check_stats = sc.EvidenceGatingStats(), sc.SufficiencyStats()
    rng = np.random.default_rng(0)
    matrix = rng.standard_normal((200, 384)).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        log = sc.QueryLog(Path(tmp) / "soak.db")
        answerer = sc.GroundedAnswerer(query_log=log, stats=check_stats)
        deadline = time.monotonic() + args.minutes * 60
        samples: list[tuple[float, float]] = []
        started = time.monotonic()
        rounds = 0
        next_sample = started
        while time.monotonic() < deadline:
            row = rows[rounds % len(rows)]
            chunks = [dict(c, score=0.9 - 0.1 * i) for i, c in enumerate(row["contexts"])]
            query, text = row["query"], row["contexts"][0]["content"]
            result = checker.check_sufficiency(query, chunks)
            checker.check_batch([query, query + " history"], [chunks, chunks[:1]])
            passes, info = gate.evaluate([c["score"] for c in chunks])
            gate_stats.record(passes, info["max_attention"])
            sc.evaluate_retrieval(chunks)
            sentence = sc.sentences.split_sentences(text)[0].text
            answer = f"{sentence} [{chunks[0]['id']}] The moon is made of cheese."
            claims.check_answer(answer, chunks)
            claims.check_answers([answer], [chunks])
            claims.validate_citations(answer, chunks)
            sc.is_evidence_sufficient(query, chunks)
            answerer.answer(query, chunks)
            sc.text.terms(text)
            sc.text.token_spans(text)
            sc.similarity.cosine_many(matrix[rounds % 200], matrix)
            result.to_dict()
            gate_stats.to_prometheus()
            check_stats.to_prometheus()
            rounds += 1
            if time.monotonic() >= next_sample:
                samples.append((time.monotonic() - started, rss_mb()))
                next_sample += 5.0
        report = log.report()
        log.close()
    third = max(1, len(samples) // 3)
    early = [mb for _, mb in samples[1 : third + 1]] or [samples[0][1]]  # the first sample is warm-up
    late = [mb for _, mb in samples[-third:]]
    print(f"command: PYTHONPATH=... python3 {' '.join(sys.argv)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores")
    print(
        f"rounds: {rounds:,} in {args.minutes:g} min ({rounds / (args.minutes * 60):.0f}/s); "
        f"log rows {report['total']:,}"
    )
    print(f"RSS MB: first sample {samples[0][1]:.1f}, early third mean {np.mean(early):.1f}, "
          f"late third mean {np.mean(late):.1f}, max {max(mb for _, mb in samples):.1f}; "
          f"peak (ru_maxrss) {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f}")  # fmt: skip
    growth = np.mean(late) - np.mean(early)
    print(f"growth late - early: {growth:+.1f} MB ({'flat' if abs(growth) < 5 else 'GROWING'})")


if __name__ == "__main__":
    main()
