"""What every benchmark prints about the machine it ran on, where the shared datasets are, and a best-of timer."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from pathlib import Path

# The labelled datasets live beside the repo (../shared/datasets); SC_DATASETS points elsewhere.
DATASETS = Path(os.environ.get("SC_DATASETS", Path(__file__).resolve().parents[1].parent / "shared" / "datasets"))
# Each dataset's file under DATASETS, by name. Every row has a query and contexts, so any of them can feed
# check_sufficiency; the claim sets (halueval, begin) add an answer.
DATASET_FILES = {
    "squad2": "squad2/squad2-sufficiency.jsonl",
    "hotpot": "hotpot/hotpot-sufficiency.jsonl",
    "halueval": "halueval/halueval-qa-claims.jsonl",
    "begin": "begin/begin-claims.jsonl",
}


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what the platform module knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def best_of(call: Callable[[], object], repeat: int = 5) -> tuple[float, float]:
    """(best wall seconds, best CPU seconds) of `repeat` runs of `call`."""
    walls, cpus = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        call()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return min(walls), min(cpus)
