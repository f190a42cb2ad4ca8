"""Hostile input: does any public entry grow faster than its input? Each case is timed at sizes n, 2n, 4n and 8n.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_hostile.py [--cases NAME ...] [--steps 4] [--timeout 120]

Every size runs in a fresh subprocess: the input is built first, one warm-up call is made, then the best process CPU
time of 3 calls is kept. The ratio between two sizes is near 2 for linear work and near 4 for quadratic work (8 for
cubic). A size past --timeout seconds stops its case (shown as T/O). Cases are pathological on purpose: huge single
tokens, runs of one character, thousands of citations, numbers or questions, long runs of white space.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import sufficient_context as sc
from sufficient_context.deliberation import ContextInsufficiencyMonitor, is_partial_answer
from sufficient_context.retrieval.documents import passages_of

Q = "What is the punishment for cheating under section 420?"
CH = [{"id": "S1", "content": "Whoever cheats shall be punished with imprisonment up to seven years."}]
WORDS = ("whoever", "cheats", "shall", "be", "punished", "with", "imprisonment", "up", "to", "seven", "years")


def prose(n_bytes: int) -> str:
    out, i, total = [], 0, 0
    while total < n_bytes:
        word = f"{WORDS[i % len(WORDS)]}{i % 997}"
        out.append(word)
        total += len(word) + 1
        i += 7
    return " ".join(out)


def _check(query: str, chunks: list[dict[str, str]]) -> Callable[[], Any]:
    checker = sc.SufficientContextChecker()
    return lambda: checker.check_sufficiency(query, chunks)


def _answer(answer: str, chunks: list[dict[str, str]] = CH) -> Callable[[], Any]:
    coverage = sc.ClaimCoverage(max_sentences=None)
    return lambda: coverage.check_answer(answer, chunks)


def _batch(n: int) -> Callable[[], Any]:
    checker, contexts = sc.SufficientContextChecker(), [[{"id": "a", "content": prose(200)}]] * n
    return lambda: checker.check_batch([Q] * n, contexts, threads=1)


def _questions(n: int) -> Callable[[], Any]:
    text = " ".join(f"What is the load {i}?" for i in range(n))
    return lambda: ContextInsufficiencyMonitor().record(1, "e", text)


def _numbered(n: int, text: str) -> list[dict[str, str]]:
    return [{"id": f"c{i}", "content": text.format(i=i)} for i in range(n)]


def _grounded(draft: str) -> Callable[[], Any]:
    """The pipeline on a model reply (the pipeline's Markdown layout and citation reading run on it)."""
    # The sufficiency check off: the model is always asked, whatever the context.
    answerer = sc.GroundedAnswerer(
        sc.SufficientContextChecker(enabled=False), claims=sc.ClaimCoverage(max_sentences=None)
    )
    chunks = [dict(c, score=0.9) for c in CH] + [{"id": "S2", "content": prose(300), "score": 0.8}]
    return lambda: answerer.answer(Q, chunks, lambda system, user: draft)


# name -> (first size, input of that size -> the call to time)
CASES: dict[str, tuple[int, Callable[[int], Callable[[], Any]]]] = {
    "check: one token of n bytes": (1_250_000, lambda n: _check(Q, [{"id": "a", "content": "x" * n}])),
    "check: n tiny sentences": (12_500, lambda n: _check(Q, [{"id": "a", "content": "A b. " * n}])),
    "check: n chunks": (1_250, lambda n: _check(Q, _numbered(n, "Cheating {i} is punished."))),
    "check: n 1 kB chunks, one prefix": (1_250, lambda n: _check(Q, _numbered(n, prose(990) + " tail{i}"))),
    "check: n equal 1 kB chunks": (1_250, lambda n: _check(Q, _numbered(n, prose(1000)))),
    "check: query of n words": (
        1_250,
        lambda n: _check(" ".join(f"w{i}" for i in range(n)) + "?", [{"id": "a", "content": prose(20_000)}]),
    ),
    "check: n combining marks": (100_000, lambda n: _check(Q, [{"id": "a", "content": "e" + "\u0301" * n}])),
    "check: n dots": (200_000, lambda n: _check(Q, [{"id": "a", "content": ". " * n}])),
    "check: number of n digits": (200_000, lambda n: _check(Q, [{"id": "a", "content": "1" + ",000" * (n // 4)}])),
    "check: URL of n bytes": (200_000, lambda n: _check(Q, [{"id": "a", "content": "https://x.org/" + "a/" * n}])),
    "check_batch: n checks": (500, _batch),
    "check_answer: [S1] x n": (12_500, lambda n: _answer("Cheating is punished " + "[S1]" * n + ".")),
    "check_answer: [ x n": (50_000, lambda n: _answer("Cheating is punished " + "[" * n + ".")),
    "check_answer: [X0, ..., Xn] unknown": (
        2_500,
        lambda n: _answer("Cheating is punished [" + ", ".join(f"X{i}" for i in range(n)) + "]."),
    ),
    "check_answer: n numbers vs n numbers": (
        2_500,
        lambda n: _answer(
            " ".join(str(i) for i in range(n)) + " [S1].",
            [{"id": "S1", "content": " ".join(str(i) for i in range(n, 0, -1))}],
        ),
    ),
    "check_answer: n sentences": (1_250, lambda n: _answer("Cheating is punished with seven years [S1]. " * n)),
    "check_answer: n chunks": (
        1_250,
        lambda n: _answer("Cheating is punished [S1]. Uncited fraud.", _numbered(n, "Cheating {i} is punished.")),
    ),
    "check_answer: n meta phrases": (1_250, lambda n: _answer("Based on the evidence, in summary, " * n + "x [S1].")),
    "check_answer: n uncited sentences x n chunks": (
        250,
        lambda n: _answer(
            " ".join(f"Cheating claim {i} about theft." for i in range(n)), _numbered(n, "Fraud {i} is punished.")
        ),
    ),
    "is_partial_answer: n spaces": (5_000, lambda n: lambda: is_partial_answer(f"What,{' ' * n}and who?", "a b")),
    "monitor: n questions": (2_500, _questions),
    "format_context: n blank lines": (
        25_000,
        lambda n: lambda c=[{"id": "a", "content": "a" + "\n" * n + "x"}]: sc.format_context(c),
    ),
    "passages_of: heading with n spaces": (1_000, lambda n: lambda: passages_of(f"# a{' ' * n}b\n\nx", "a.md")),
    "split_sentences: n sentences": (25_000, lambda n: lambda t="A b. " * n: sc.sentences.split_sentences(t)),
    "pipeline: n headings": (500, lambda n: _grounded("## Cheating\nWhoever cheats shall be punished [S1].\n" * n)),
    "pipeline: n unclosed fences": (500, lambda n: _grounded("```\nWhoever cheats is fined [1].\n" * n)),
    "pipeline: n bracket groups": (
        2_500,
        lambda n: _grounded("Whoever cheats shall be punished " + "[1](2)" * n + "."),
    ),
    "pipeline: table of n rows": (
        500,
        lambda n: _grounded("| a | b |\n|---|---|\n" + "| Whoever cheats | punished [S1]. |\n" * n),
    ),
    "pipeline: a source label, heading and table delimiter with n spaces each": (
        25_000,
        lambda n: _grounded(
            "Whoever cheats shall be punished [S1].\n## Punishment"
            + " " * n
            + "x\n\n| a | b |\n|---"
            + " " * n
            + "x\n\n**Sources"
            + " " * n
            + "x"
        ),
    ),
    "pipeline: n list items, every other removed": (
        500,
        lambda n: _grounded("- Whoever cheats shall be punished [S1].\n- The moon is cheese [S1].\n" * n),
    ),
}

ONE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import bench_hostile
call = bench_hostile.CASES[sys.argv[2]][1](int(sys.argv[3]))
call()
best = min((lambda t: (call(), time.process_time() - t)[1])(time.process_time()) for _ in range(3))
print(json.dumps(best))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="*", default=None, help="substrings of the case names to run")
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    here = __file__.rsplit("/", 1)[0] or "."
    print("| case | n | CPU ms at n, 2n, 4n, ... | ratios |\n|---|---:|---|---|")
    for name, (first, _make) in CASES.items():
        if args.cases and not any(c in name for c in args.cases):
            continue
        times: list[float | None] = []
        for k in range(args.steps):
            try:
                done = subprocess.run(
                    [sys.executable, "-c", ONE, here, name, str(first * 2**k)],
                    capture_output=True, text=True, timeout=args.timeout, check=True,
                )  # fmt: skip
                times.append(float(json.loads(done.stdout.strip().splitlines()[-1])))
            except subprocess.TimeoutExpired:
                times.append(None)
                break
        ratios = [f"{b / a:.2f}" if a and b else "-" for a, b in zip(times, times[1:])]
        shown = ", ".join("T/O" if t is None else f"{t * 1000:.1f}" for t in times)
        print(f"| {name} | {first:,} | {shown} | {' '.join(ratios)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
