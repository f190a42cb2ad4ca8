"""What reading the frameworks' own objects adds to a check: the same chunks as str, plain dicts, LangChain Documents,
LlamaIndex NodeWithScore and (Document, score) tuples.

Run from the repository root after a build, with the `[langchain]` and `[llamaindex]` extras installed:

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_framework_inputs.py [--rows 299] [--repeat 7]

Workload: the first `--rows` HotpotQA rows of ../shared/datasets (a question and its 8-10 paragraphs). Each input kind
holds the same texts and ids (scores 0.9, 0.85, ... where the kind carries one); every object is built before timing,
as a retriever returns them. Per kind, in one process: `check_sufficiency(query, chunks)` and
`ClaimCoverage().check_answer(answer, chunks)`, where the answer is the row's first paragraph's first sentence citing
it. Time per call is the best of `--repeat` passes over the rows, wall (perf_counter) and process CPU (process_time);
"x str" is the kind's time over the str input's in the same run: what adapting that kind costs on top of the check.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
from collections.abc import Callable
from typing import Any

from _machine import DATASETS, best_of, cpu_model
from langchain_core.documents import Document
from llama_index.core.schema import NodeWithScore, TextNode

import sufficient_context as sc


def workload(n: int) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """(query, answer, [{id, content, score}]) of the first n rows."""
    rows = []
    with open(DATASETS / "hotpot" / "hotpot-sufficiency.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if len(rows) == n:
                break
            row = json.loads(line)
            chunks = [
                {"id": str(c["id"]), "content": c["content"], "score": round(0.9 - 0.05 * k, 2)}
                for k, c in enumerate(row["contexts"])
            ]
            first = re.split(r"(?<=[.!?])\s+", chunks[0]["content"].strip())[0].rstrip(".")
            rows.append((row["query"], f"{first} [{chunks[0]['id']}].", chunks))
    return rows


def kinds(chunks: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The same chunks as each input kind."""
    return {
        "str": [c["content"] for c in chunks],
        "dict": [dict(c) for c in chunks],
        "LangChain Document": [
            Document(page_content=c["content"], id=c["id"], metadata={"source": "wiki.md", "score": c["score"]})
            for c in chunks
        ],
        "LlamaIndex NodeWithScore": [
            NodeWithScore(
                node=TextNode(text=c["content"], id_=c["id"], metadata={"file_name": "wiki.md"}), score=c["score"]
            )
            for c in chunks
        ],
        "(Document, score)": [
            (Document(page_content=c["content"], id=c["id"], metadata={"source": "wiki.md"}), c["score"])
            for c in chunks
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=299, help="HotpotQA rows (the file holds 299)")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows = workload(args.rows)
    by_kind: dict[str, list[tuple[str, str, list[Any]]]] = {}
    for query, answer, chunks in rows:
        for kind, given in kinds(chunks).items():
            # str chunks are S1..Sn to the checks: the answer cites S1 there, the chunk's own id elsewhere.
            cited = answer if kind != "str" else re.sub(r"\[[^\]]+\]\.$", "[S1].", answer)
            by_kind.setdefault(kind, []).append((query, cited, given))
    checker, claims = sc.SufficientContextChecker(), sc.ClaimCoverage()
    calls: dict[str, Callable[[str, str, list[Any]], object]] = {
        "check_sufficiency": lambda q, a, c: checker.check_sufficiency(q, c),
        "check_answer": lambda q, a, c: claims.check_answer(a, c),
    }
    results: dict[tuple[str, str], tuple[float, float]] = {}
    for name, call in calls.items():
        for kind, data in by_kind.items():
            for q, a, c in data:  # warm: every word seen, every framework class recognised
                call(q, a, c)
            results[name, kind] = best_of(lambda data=data, call=call: [call(q, a, c) for q, a, c in data], args.repeat)
    n = len(rows)
    chunks = sum(len(c) for _, _, c in rows) / n
    print(
        "command: PYTHONPATH=... python3 benchmarks/bench_framework_inputs.py",
        f"--rows {args.rows} --repeat {args.repeat}",
    )
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}")
    print(f"workload: {n} HotpotQA rows, {chunks:.1f} chunks per row")
    print()
    print("| call | input | µs per call (wall) | µs per call (CPU) | x str (wall) | x str (CPU) |")
    print("|---|---|---:|---:|---:|---:|")
    for name in calls:
        base_wall, base_cpu = results[name, "str"]
        for kind in by_kind:
            wall, cpu = results[name, kind]
            print(
                f"| `{name}` | {kind} | {wall / n * 1e6:.1f} | {cpu / n * 1e6:.1f} | {wall / base_wall:.2f}x | "
                f"{cpu / base_cpu:.2f}x |"
            )


if __name__ == "__main__":
    main()
