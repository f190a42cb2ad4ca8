"""Gate decisions per second: the C++ gate (through the public API and the core call alone) vs plain Python.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_gate.py

Every row times the same decision rules (normalise to sum 1, S = max or top-2 sum, S >= 0.5) on the same weights, in
one process. "plain Python" is `_reference_gate` (the test oracle, a loop over a list) and an idiomatic dict version
as the original design wrote it; the public API rows include input adaptation and building the `info` dict.
"""

from __future__ import annotations

import os
import platform
import sys
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np
from _machine import cpu_model

from sufficient_context import _reference_gate as ref
from sufficient_context._core import gate as core
from sufficient_context.chunks import Chunk
from sufficient_context.gate import EvidenceSufficiencyGate

SIZES = (10, 1000)
THRESHOLD = 0.5


def dict_python_gate(attention: dict[str, float], threshold: float = THRESHOLD) -> tuple[bool, dict[str, Any]]:
    """The original design's gate in idiomatic Python: normalise the dict, take the max, compare."""
    total = sum(attention.values())
    normalised = {k: v / total for k, v in attention.items()}
    max_id = max(normalised, key=normalised.__getitem__)
    top = normalised[max_id]
    passes = top >= threshold
    return passes, {
        "passes": passes,
        "max_attention": top,
        "max_chunk_id": max_id,
        "threshold": threshold,
        "margin": top - threshold,
        "status": "evidence_sufficient" if passes else "insufficient_evidence",
    }


def rate(call: Callable[[], object]) -> float:
    """Best-of-5 calls per second, each run long enough (~0.2 s) to swamp timer overhead."""
    timer = timeit.Timer(call)
    number, _ = timer.autorange()
    number = max(1, number)
    best = min(timer.repeat(repeat=5, number=number)) / number
    return 1.0 / best


def main() -> None:
    rng = np.random.default_rng(0)
    gate_max = EvidenceSufficiencyGate(THRESHOLD)
    gate_topk = EvidenceSufficiencyGate(THRESHOLD, mode="top_k_sum", top_k=2)
    config_max = core.AttentionConfig(THRESHOLD, False, "max", 2)
    config_topk = core.AttentionConfig(THRESHOLD, False, "top_k_sum", 2)

    rows: list[tuple[str, list[float]]] = []
    checks: list[str] = []
    cases: dict[int, dict[str, Any]] = {}
    for n in SIZES:
        weights = rng.random(n)
        weights[n // 3] = weights.sum()  # a clear peak (> 50%), so the gate passes: the common path
        ids = [f"IPC_{i}" for i in range(n)]
        chunks = [Chunk(content=f"chunk {i}", id=ids[i]) for i in range(n)]
        cases[n] = {
            "array": weights,
            "list": weights.tolist(),
            "mapping": dict(zip(ids, weights.tolist())),
            "chunks": chunks,
        }
        # Same decision everywhere, checked once before timing.
        want = ref.attention_gate(cases[n]["list"], THRESHOLD)
        got = gate_max.evaluate(weights)[1]
        assert (got["passes"], got["max_attention"]) == (want.passes, want.max_attention)
        assert dict_python_gate(cases[n]["mapping"])[0] == want.passes
        checks.append(f"n={n}: passes={want.passes}, max_attention={want.max_attention:.4f}")

    def row(label: str, make: Callable[[dict[str, Any]], Callable[[], object]]) -> None:
        rows.append((label, [rate(make(cases[n])) for n in SIZES]))

    row("C++ core call alone, max (`_core.gate.evaluate_attention`, float64 array)",
        lambda c: lambda: core.evaluate_attention(c["array"], config_max))  # fmt: skip
    row("C++ core call alone, top-2 sum",
        lambda c: lambda: core.evaluate_attention(c["array"], config_topk))  # fmt: skip
    row("public API, max: `gate.evaluate(array)`", lambda c: lambda: gate_max.evaluate(c["array"]))
    row("public API, top-2 sum: `gate.evaluate(array)`", lambda c: lambda: gate_topk.evaluate(c["array"]))
    row("public API, max: `gate.evaluate(list)`", lambda c: lambda: gate_max.evaluate(c["list"]))
    row("public API, max: `gate.evaluate(dict)`", lambda c: lambda: gate_max.evaluate(c["mapping"]))
    row("public API, max: `gate.evaluate(dict, chunks)`",
        lambda c: lambda: gate_max.evaluate(c["mapping"], c["chunks"]))  # fmt: skip
    flat = {n: np.ones(n) for n in SIZES}  # fails: the refusal (summary, suggestions, explanation) is built
    rows.append(("public API, max, refusal path: `gate.evaluate(flat array)`",
                 [rate(lambda n=n: gate_max.evaluate(flat[n])) for n in SIZES]))  # fmt: skip
    row("plain Python, max: reference loop over a list (`_reference_gate`)",
        lambda c: lambda: ref.attention_gate(c["list"], THRESHOLD))  # fmt: skip
    row("plain Python, top-2 sum: reference loop over a list",
        lambda c: lambda: ref.attention_gate(c["list"], THRESHOLD, False, "top_k_sum", 2))  # fmt: skip
    row("plain Python, max: idiomatic dict version (original design)",
        lambda c: lambda: dict_python_gate(c["mapping"]))  # fmt: skip

    print(f"command: `{' '.join([os.path.basename(sys.executable), *sys.argv])}`  ")
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores; Python {platform.python_version()}, NumPy {np.__version__}  ")
    print(f"decisions checked equal before timing: {'; '.join(checks)}")
    print()
    print("| path | decisions/s, 10 chunks | decisions/s, 1,000 chunks |")
    print("|---|---:|---:|")
    for label, rates in rows:
        print(f"| {label} | {rates[0]:,.0f} | {rates[1]:,.0f} |")
    print()
    base = dict(rows)
    core_max = base["C++ core call alone, max (`_core.gate.evaluate_attention`, float64 array)"]
    api_array = base["public API, max: `gate.evaluate(array)`"]
    api_dict = base["public API, max: `gate.evaluate(dict)`"]
    py_list = base["plain Python, max: reference loop over a list (`_reference_gate`)"]
    py_dict = base["plain Python, max: idiomatic dict version (original design)"]
    for i, n in enumerate(SIZES):
        print(
            f"n={n}: core alone {core_max[i] / py_list[i]:.1f}x the plain-Python loop; public API on an array "
            f"{api_array[i] / py_list[i]:.1f}x; public API on a dict {api_dict[i] / py_dict[i]:.1f}x the dict "
            "version."
        )


if __name__ == "__main__":
    main()
