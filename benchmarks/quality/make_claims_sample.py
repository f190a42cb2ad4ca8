"""Writes tests/data/claims_sample.jsonl: a small, fixed sample of the claim sets for the oracle parity test.

The test suite must pass from the repository alone, so it reads this committed sample instead of ../shared/datasets.
Rows are drawn with a fixed seed, balanced by label, unchanged (licences: tests/data/README.md).

    python3 benchmarks/quality/make_claims_sample.py [--per-set 60]
"""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SETS = (("halueval", "halueval-qa-claims.jsonl"), ("begin", "begin-claims.jsonl"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-set", type=int, default=60)
    args = ap.parse_args()
    root = Path(os.environ.get("SC_DATASETS", REPO.parent / "shared" / "datasets"))
    rng = random.Random(20261124)
    out = []
    for name, file in SETS:
        rows = [json.loads(line) for line in (root / name / file).read_text(encoding="utf-8").splitlines() if line]
        for label in ("supported", "unsupported"):
            pool = [r for r in rows if r["label"] == label]
            out += [{"set": name, **r} for r in rng.sample(pool, args.per_set // 2)]
    target = REPO / "tests" / "data" / "claims_sample.jsonl"
    target.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out), encoding="utf-8")
    print(f"wrote {len(out)} rows to {target}")


if __name__ == "__main__":
    main()
