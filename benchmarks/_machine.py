"""What every benchmark prints about the machine it ran on, and where the shared datasets are."""

from __future__ import annotations

import os
import platform
from pathlib import Path

# The labelled datasets live beside the repo (../shared/datasets); SC_DATASETS points elsewhere.
DATASETS = Path(os.environ.get("SC_DATASETS", Path(__file__).resolve().parents[1].parent / "shared" / "datasets"))


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo, else what the platform module knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"
