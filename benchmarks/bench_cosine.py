"""One query against N rows: the C++ cosine kernels vs NumPy vs SimSIMD, with memory bandwidth, one process.

Run from the repository root after a Release build (scripts/dev_build.sh builds Release), e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_cosine.py [--repeat 7] [--quick] [--all-paths]

Shapes (float32, C-contiguous, standard normal): N = 10k and 1M rows at d = 384, N = 10k and 200k at d = 1536.
Each large matrix is generated once; the 10k one is its first rows. Implementations timed on the same data:

- ours: ``sufficient_context.similarity.cosine_many(query, matrix)`` on the kernel the CPU gets by default;
  with ``--all-paths``, every kernel this CPU supports (pinned through the private ``_set_simd_path``).
- NumPy: ``(matrix / np.linalg.norm(matrix, axis=1, keepdims=True)) @ (query / np.linalg.norm(query))``,
  what users write (OpenBLAS may use every core for the product).
- SimSIMD: ``1 - simsimd.cdist(query[None], matrix, metric="cosine")`` (its default: one thread, float64 out).

Memory bandwidth is measured in the same run: ``np.copyto`` of a 1 GiB float32 array, (bytes read + bytes
written) / median time. The implementations and the copy take turns, one call each per round, so a burst of
load from other processes on a shared machine hits all of them alike.

Per shape: median time, GB/s of matrix read (matrix.nbytes / time), NumPy time / ours, SimSIMD time / ours,
% of the measured bandwidth (the 1 GiB copy between rounds evicts the caches, so even the 10k shapes, 15 and
61 MB, are mostly read from memory), and the max |error| against a float64 cosine on the first 10k rows.
SimSIMD picks its own best kernel for the CPU (AVX-512 where available), whatever path ours is pinned to.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from _machine import cpu_model

from sufficient_context import similarity
from sufficient_context._core import similarity as core

try:
    import simsimd
except ImportError as error:  # the table says so instead of failing
    simsimd = None
    SIMSIMD_ERROR = f"simsimd import failed ({error}); install it with `pip install simsimd`"
else:
    SIMSIMD_ERROR = ""

SHAPES = ((384, (10_000, 1_000_000)), (1536, (10_000, 200_000)))
QUICK_SHAPES = ((384, (10_000, 100_000)), (1536, (10_000, 20_000)))
ACCURACY_ROWS = 10_000


def seconds_of(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


class CopyBandwidth:
    """np.copyto of 1 GiB, timed once per round between the other calls so it sees the same machine load."""

    def __init__(self) -> None:
        self.src = np.ones(1 << 28, dtype=np.float32)
        self.dst = np.empty_like(self.src)
        self.times: list[float] = []
        self.run()  # warm-up: page faults

    def run(self) -> None:
        self.times.append(seconds_of(lambda: np.copyto(self.dst, self.src)))

    def gbps(self) -> float:
        """(bytes read + bytes written) / median time, in GB/s."""
        return 2 * self.src.nbytes / statistics.median(self.times[1:]) / 1e9


def float64_cosine(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    q = query.astype(np.float64)
    m = matrix.astype(np.float64)
    return (m @ q) / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))


def numpy_cosine(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    return (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)) @ (query / np.linalg.norm(query))


def simsimd_cosine(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    assert simsimd is not None
    return 1.0 - np.asarray(simsimd.cdist(query[None], matrix, metric="cosine"))[0]


@dataclass
class Row:
    name: str
    d: int
    n: int
    seconds: float
    nbytes: int
    error: float

    def gbps(self) -> float:
        return self.nbytes / self.seconds / 1e9


def bench_shape(
    query: np.ndarray,
    matrix: np.ndarray,
    paths: list[str],
    repeat: int,
    reference: np.ndarray,
    bandwidth: CopyBandwidth,
) -> list[Row]:
    """Median time per implementation; the implementations take turns, one call each per round."""
    n, d = matrix.shape
    head = matrix[:ACCURACY_ROWS]

    def ours(path: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        def call(q: np.ndarray, m: np.ndarray) -> np.ndarray:
            core._set_simd_path(path)
            return similarity.cosine_many(q, m)

        return call

    candidates: list[tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = [
        (f"sufficient_context ({path})", ours(path)) for path in paths
    ]
    candidates.append(("NumPy normalise + matmul", numpy_cosine))
    if simsimd is not None:
        candidates.append(("SimSIMD cdist", simsimd_cosine))
    times: dict[str, list[float]] = {name: [] for name, _ in candidates}
    for _, fn in candidates:  # warm-up: page faults, caches, lazy initialisation
        fn(query, matrix)
    for _ in range(repeat):
        for name, fn in candidates:
            times[name].append(seconds_of(lambda fn=fn: fn(query, matrix)))
        bandwidth.run()
    rows = [
        Row(name, d, n, statistics.median(times[name]), matrix.nbytes, max_error(fn, query, head, reference))
        for name, fn in candidates
    ]
    core._set_simd_path(None)
    return rows


def max_error(
    fn: Callable[[np.ndarray, np.ndarray], np.ndarray], query: np.ndarray, head: np.ndarray, reference: np.ndarray
) -> float:
    return float(np.max(np.abs(fn(query, head) - reference)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed calls per row (median reported)")
    parser.add_argument("--quick", action="store_true", help="smaller large shapes (100k and 20k rows)")
    parser.add_argument("--all-paths", action="store_true", help="time every SIMD kernel the CPU supports")
    args = parser.parse_args()

    load_before = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    default_path = similarity.simd_path()
    paths = core._supported_simd_paths()[::-1] if args.all_paths else [default_path]
    bandwidth = CopyBandwidth()
    rng = np.random.default_rng(0)

    results: list[Row] = []
    for d, sizes in QUICK_SHAPES if args.quick else SHAPES:
        big = rng.standard_normal((max(sizes), d), dtype=np.float32)
        query = rng.standard_normal(d, dtype=np.float32)
        reference = float64_cosine(query, big[:ACCURACY_ROWS])
        for n in sizes:
            results.extend(bench_shape(query, big[:n], paths, args.repeat, reference, bandwidth))
        del big

    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical cores; OS: {platform.platform()}")
    print(
        f"SIMD path: {default_path} (supported: {', '.join(core._supported_simd_paths())}); extension: {core.__file__}"
    )
    blas_threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"NumPy {np.__version__} (OPENBLAS_NUM_THREADS={blas_threads}); Python {platform.python_version()}")
    print(f"load average before the run (other processes share these cores): {load_before}")
    print(f"SimSIMD {simsimd.__version__}" if simsimd is not None else SIMSIMD_ERROR)
    gbps = bandwidth.gbps()
    print(f"memory bandwidth (np.copyto of 1 GiB, read + write, median of {len(bandwidth.times) - 1}): {gbps:.1f} GB/s")
    print()
    print("| d | N | implementation | median ms | GB/s read | vs NumPy | vs SimSIMD | % of bandwidth | max abs error |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        numpy_row = next(x for x in results if x.d == r.d and x.n == r.n and x.name.startswith("NumPy"))
        simsimd_row = next((x for x in results if x.d == r.d and x.n == r.n and x.name.startswith("SimSIMD")), None)
        vs_numpy = f"{numpy_row.seconds / r.seconds:.2f}x"
        vs_simsimd = f"{simsimd_row.seconds / r.seconds:.2f}x" if simsimd_row else "n/a"
        print(
            f"| {r.d} | {r.n:,} | {r.name} | {r.seconds * 1e3:.2f} | {r.gbps():.1f} | {vs_numpy} | {vs_simsimd} "
            f"| {100 * r.gbps() / gbps:.0f}% | {r.error:.1e} |"
        )
    print()
    print("vs NumPy / vs SimSIMD: their time / this row's time (above 1x: this row is faster).")


if __name__ == "__main__":
    main()
