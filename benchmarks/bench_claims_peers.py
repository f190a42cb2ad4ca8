"""check_answer vs a rapidfuzz `token_set_ratio` loop over the same (sentence, chunk) pairs, on real answers.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_claims_peers.py [--repeat 7]

Short answers: the BEGIN rows (one reply of 1-2 sentences, one knowledge sentence as the chunk) and HaluEval rows
(a short answer, one paragraph), each cited as [S1], each row once per repetition; then the same answers with 1-3
chunks (the issue's shape: the row's own chunk plus 0, 1 or 2 chunks of other rows, in turn, as a retriever returns
neighbours). Long: 10 sentences x 10 chunks
of ~1,000 characters (squad2 paragraphs; each sentence taken from one of them, citing it). The peer scores every
(sentence, chunk) pair with `rapidfuzz.fuzz.token_set_ratio` (every sentence against every chunk, the pairs
`check_answer` scores), what users write when they want a fuzzy
"is this sentence in the source" check without a model; `check_answer` does more (citations, meta sentences,
contradictions), so a ratio above 1x means we are faster while doing more. Ratios are per repetition in one process
(peer time / our time), the median shown, wall and process CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import time
from collections.abc import Callable
from typing import Any

from _machine import DATASETS, cpu_model
from rapidfuzz import fuzz

import sufficient_context as sc
from sufficient_context.sentences import split_sentences

Row = tuple[str, list[dict[str, str]]]


def short_rows(limit: int) -> list[Row]:
    rows: list[Row] = []
    for name in ("begin/begin-claims.jsonl", "halueval/halueval-qa-claims.jsonl"):
        with open(DATASETS / name, encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if i >= limit:
                    break
                row = json.loads(line)
                chunks = [{"id": f"S{k + 1}", "content": c["content"]} for k, c in enumerate(row["contexts"])]
                answer = row["answer"].strip().rstrip(".")
                rows.append((f"{answer} [S1].", chunks))
    return rows


def with_neighbours(rows: list[Row]) -> list[Row]:
    """Row i keeps its answer and chunk and gets i % 3 more chunks taken from rows 7 and 14 places on (uncited)."""
    out: list[Row] = []
    for i, (answer, chunks) in enumerate(rows):
        extra = [rows[(i + 7 * (k + 1)) % len(rows)][1][0]["content"] for k in range(i % 3)]
        out.append((answer, chunks + [{"id": f"S{k + 2}", "content": c} for k, c in enumerate(extra)]))
    return out


def long_rows(count: int) -> list[Row]:
    paras: list[str] = []
    with open(DATASETS / "squad2" / "squad2-sufficiency.jsonl", encoding="utf-8") as fh:
        for line in fh:
            for c in json.loads(line)["contexts"]:
                if 900 <= len(c["content"]) <= 1100 and c["content"] not in paras:
                    paras.append(c["content"])
            if len(paras) >= count * 10:
                break
    rows: list[Row] = []
    for r in range(count):
        chunk_texts = paras[r * 10 : r * 10 + 10]
        chunks = [{"id": f"S{k + 1}", "content": t} for k, t in enumerate(chunk_texts)]
        sentences = []
        for k, text in enumerate(chunk_texts):
            first = re.split(r"(?<=[.!?])\s+", text)[0].rstrip(".")
            sentences.append(f"{first} [S{k + 1}].")
        rows.append((" ".join(sentences), chunks))
    return rows


_CITE = re.compile(r"\[S(\d+)\]")


def rapidfuzz_pairs(rows: list[Row]) -> list[list[tuple[str, str]]]:
    """The pairs `check_answer` scores: every claim sentence against every chunk (it scores uncited chunks too, to
    report the ones an answer uses without citing). Split outside the timed loop, as a user's code would have the
    sentences from its generator, so the peer is timed on scoring alone."""
    out = []
    for answer, chunks in rows:
        sentences = [_CITE.sub("", s.text) for s in split_sentences(answer)]
        out.append([(s, c["content"]) for s in sentences for c in chunks])
    return out


def timed(fn: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def compare(rows: list[Row], repeat: int) -> tuple[float, float, float, float]:
    coverage = sc.ClaimCoverage()
    pairs = rapidfuzz_pairs(rows)
    ours = lambda: [coverage.check_answer(a, c) for a, c in rows]  # noqa: E731
    peer = lambda: [[fuzz.token_set_ratio(s, t) >= 60 for s, t in p] for p in pairs]  # noqa: E731
    ours()
    peer()
    wall, cpu = [], []
    us = []
    for _ in range(repeat):
        ow, oc = timed(ours)
        pw, pc = timed(peer)
        wall.append(pw / ow)
        cpu.append(pc / oc if oc > 0 else float("nan"))
        us.append((ow / len(rows) * 1e6, pw / len(rows) * 1e6))
    return (statistics.median(wall), statistics.median(cpu), statistics.median(u[0] for u in us),
            statistics.median(u[1] for u in us))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rows", type=int, default=1000, help="rows of each short-answer file")
    args = parser.parse_args()
    import rapidfuzz

    print(f"command: PYTHONPATH=... python benchmarks/bench_claims_peers.py --repeat {args.repeat} --rows {args.rows}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}; "
          f"rapidfuzz {rapidfuzz.__version__}\n")  # fmt: skip
    print("| workload | check_answer us | rapidfuzz loop us | ratio (wall) | ratio (CPU) |")
    print("|---|---:|---:|---:|---:|")
    short = short_rows(args.rows)
    for name, rows in (("short answers: BEGIN + HaluEval, 1-2 sentences x 1 chunk", short),
                       ("the same short answers x 1-3 chunks", with_neighbours(short)),
                       ("10 sentences x 10 chunks of ~1,000 characters", long_rows(20))):  # fmt: skip
        wall, cpu, ours, peer = compare(rows, args.repeat)
        print(f"| {name} ({len(rows)} answers) | {ours:.1f} | {peer:.1f} | {wall:.2f}x | {cpu:.2f}x |")


if __name__ == "__main__":
    main()
