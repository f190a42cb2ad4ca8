"""atheris target: configuration from arbitrary mappings and arbitrary YAML text fails only with a clear error.

python benchmarks/fuzz/fuzz_config.py benchmarks/fuzz/corpus/config -max_total_time=30
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile

import atheris

with atheris.instrument_imports():
    from _common import EXPECTED, value

    import sufficient_context as sc

SECTIONS = ["sufficient_context", "retrieval", "answering", "server"]
KEYS = ["enabled", "min_contexts", "thresholds", "weights", "scoring", "recency_days", "decline_insufficient",
        "min_score", "min_chunks", "weak_score", "prompt", "on_unsupported", "attribution_target"]  # fmt: skip
PATH = os.path.join(tempfile.mkdtemp(prefix="sc-fuzz-"), "config.yaml")


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    document = {}
    for _ in range(fdp.ConsumeIntInRange(0, 3)):
        section = {
            KEYS[fdp.ConsumeIntInRange(0, len(KEYS) - 1)]: value(fdp) for _ in range(fdp.ConsumeIntInRange(0, 4))
        }
        document[SECTIONS[fdp.ConsumeIntInRange(0, len(SECTIONS) - 1)]] = section
    for build in (sc.GroundedAnswerer.from_config, sc.SufficientContextChecker.from_config):
        with contextlib.suppress(*EXPECTED):
            build(document)
    with open(PATH, "wb") as fh:
        fh.write(fdp.ConsumeBytes(fdp.remaining_bytes()))
    for build in (sc.GroundedAnswerer.from_config, sc.SufficientContextChecker.from_config):
        with contextlib.suppress(*EXPECTED):
            build(PATH)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
