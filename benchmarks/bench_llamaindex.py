"""Cost of `SufficiencyPostprocessor` next to LlamaIndex's own `SimilarityPostprocessor`, on the same node lists.

Run from the repository root after a build, with llama-index-core installed, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_llamaindex.py

Every row calls the public ``postprocess_nodes(nodes, query_bundle=...)`` (LlamaIndex's instrumentation span
included, as in a query engine) on the same ``NodeWithScore`` lists of N = 5, 20, 100, 1,000 nodes (the sample
legal chunks with a per-node suffix, scores spread evenly from 0.95 down to 0.05), in one process:

- ``SimilarityPostprocessor(similarity_cutoff=0.2)``: LlamaIndex's score filter, the baseline;
- ``SufficiencyPostprocessor(min_score=0.2, check_sufficiency=False)``: our retrieval gate alone (same nodes kept,
  checked before timing), each kept node carrying the verdict in its metadata: on a copy (the default) or written
  into the retriever's node in place (``copy_nodes=False``);
- ``SufficiencyPostprocessor(min_score=0.2)``: the gate and the sufficiency check of the query against the kept nodes
  (verdict "sufficient", the common path), with copies or in place.

Time per call is the best of 5 runs of a loop long enough to last ~0.2 s, as wall time (``time.perf_counter``) and
CPU time of the process (``time.process_time``), with the garbage collector on as in a service (the copies' many
small objects trigger collections on long lists); the ratios are to SimilarityPostprocessor's time for the same N.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from collections.abc import Callable

from _machine import cpu_model
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from sufficient_context._samples import SAMPLE_CHUNKS, SAMPLE_QUERY
from sufficient_context.integrations.llamaindex import SufficiencyPostprocessor

SIZES = (5, 20, 100, 1000)
CUTOFF = 0.2


def node_list(n: int) -> list[NodeWithScore]:
    out = []
    for i in range(n):
        chunk = SAMPLE_CHUNKS[i % len(SAMPLE_CHUNKS)]
        node = TextNode(text=f"{chunk['content']} (Note {i}.)", id_=f"node-{i}", metadata=dict(chunk["metadata"]))  # type: ignore[call-overload]
        score = 0.95 - 0.9 * i / max(1, n - 1)
        out.append(NodeWithScore(node=node, score=score))
    return out


def per_call(call: Callable[[], object]) -> tuple[float, float]:
    """Best-of-5 (wall, CPU) seconds per call, each run looping for ~0.2 s."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            call()
        if time.perf_counter() - start >= 0.2:
            break
        number *= 2
    walls, cpus = [], []
    for _ in range(5):
        wall0, cpu0 = time.perf_counter(), time.process_time()
        for _ in range(number):
            call()
        walls.append((time.perf_counter() - wall0) / number)
        cpus.append((time.process_time() - cpu0) / number)
    return min(walls), min(cpus)


def main() -> None:
    bundle = QueryBundle(SAMPLE_QUERY)
    variants: list[tuple[str, BaseNodePostprocessor]] = [
        ("`SimilarityPostprocessor(similarity_cutoff=0.2)`", SimilarityPostprocessor(similarity_cutoff=CUTOFF)),
        ("ours, gate only, node copies", SufficiencyPostprocessor(min_score=CUTOFF, check_sufficiency=False)),
        ("ours, gate only, in place (`copy_nodes=False`)",
         SufficiencyPostprocessor(min_score=CUTOFF, check_sufficiency=False, copy_nodes=False)),
        ("ours, gate + check, node copies", SufficiencyPostprocessor(min_score=CUTOFF)),
        ("ours, gate + check, in place (`copy_nodes=False`)",
         SufficiencyPostprocessor(min_score=CUTOFF, copy_nodes=False)),
    ]  # fmt: skip
    checked = variants[3][1]
    assert isinstance(checked, SufficiencyPostprocessor)
    rows: list[tuple[int, str, float, float, float, float]] = []
    checks = []
    for n in SIZES:
        nodes = node_list(n)
        kept = [x.node.node_id for x in variants[0][1].postprocess_nodes(nodes, query_bundle=bundle)]
        for _, postprocessor in variants[1:]:
            assert [x.node.node_id for x in postprocessor.postprocess_nodes(node_list(n), query_bundle=bundle)] == kept
        result = checked.last_result
        assert result is not None
        checks.append(f"N={n}: {len(kept)} kept, check {result.level.value} {result.score:.2f}")
        base_wall = base_cpu = 0.0
        for label, postprocessor in variants:
            nodes = node_list(n)  # its own list: the in-place variants write into theirs
            wall, cpu = per_call(lambda p=postprocessor, nodes=nodes: p.postprocess_nodes(nodes, query_bundle=bundle))
            if not rows or rows[-1][0] != n:
                base_wall, base_cpu = wall, cpu
            rows.append((n, label, wall, cpu, wall / base_wall, cpu / base_cpu))

    print(f"command: `{' '.join([os.path.basename(sys.executable), *sys.argv])}`  ")
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}  ")
    print(f"same nodes kept by every variant before timing: {'; '.join(checks)}")
    print()
    print("| N | postprocessor | µs/call, wall | µs/call, CPU | x SimilarityPostprocessor, wall | x, CPU |")
    print("|---:|---|---:|---:|---:|---:|")
    for n, label, wall, cpu, wall_ratio, cpu_ratio in rows:
        print(f"| {n:,} | {label} | {wall * 1e6:,.1f} | {cpu * 1e6:,.1f} | {wall_ratio:.1f} | {cpu_ratio:.1f} |")


if __name__ == "__main__":
    main()
