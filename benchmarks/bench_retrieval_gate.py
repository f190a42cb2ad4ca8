"""The retrieval gate on LlamaIndex nodes: `sc.evaluate_retrieval(list of NodeWithScore)` against LlamaIndex's own
`SimilarityPostprocessor(similarity_cutoff=0.2)` on the same nodes, in one process (ratio > 1: ours is faster).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_retrieval_gate.py

Nodes hold real SQuAD 2.0 paragraphs from ../shared/datasets; scores spread over [0, 1]. Each figure is the best of 7
batches of calls; wall and process CPU time per call.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable

from _machine import DATASETS, cpu_model
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.schema import NodeWithScore, TextNode

import sufficient_context as sc


def per_call(fn: Callable[[], object], reps: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(7):
        w, c = time.perf_counter(), time.process_time()
        for _ in range(reps):
            fn()
        walls.append((time.perf_counter() - w) / reps)
        cpus.append((time.process_time() - c) / reps)
    return min(walls), min(cpus)


def main() -> None:
    rows = [json.loads(line) for line in (DATASETS / "squad2" / "squad2-sufficiency.jsonl").open(encoding="utf-8")]
    texts = [c["content"] for r in rows for c in r["contexts"]]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{cpu_model()}, {os.cpu_count()} cores, load average {load}")
    print(
        "| N nodes | SimilarityPostprocessor µs (wall / CPU) | evaluate_retrieval µs (wall / CPU) | ratio wall / CPU |"
    )
    print("|---:|---:|---:|---:|")
    for n in (5, 20, 100, 1000):
        nodes = [NodeWithScore(node=TextNode(text=texts[i % len(texts)], id_=f"n{i}"), score=(i % 97) / 97)
                 for i in range(n)]  # fmt: skip
        theirs = SimilarityPostprocessor(similarity_cutoff=0.2)
        # The same work on both sides: one pass that keeps the nodes scoring >= 0.2, in order.
        kept = [x.node.id_ for x in theirs.postprocess_nodes(nodes)]
        assert kept == sc.evaluate_retrieval(nodes).passing_chunks
        reps = max(10, 20_000 // n)
        tw, tc = per_call(lambda theirs=theirs, nodes=nodes: theirs.postprocess_nodes(nodes), reps)
        ow, oc = per_call(lambda nodes=nodes: sc.evaluate_retrieval(nodes), reps)
        print(f"| {n:,} | {tw * 1e6:.1f} / {tc * 1e6:.1f} | {ow * 1e6:.1f} / {oc * 1e6:.1f} | "
              f"{tw / ow:.2f}x / {tc / oc:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
