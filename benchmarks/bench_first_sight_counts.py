"""First sight vs seen before, counted instead of timed: instructions and simulated last-level cache misses.

Run from the repository root after a build (needs valgrind: `apt-get install valgrind`), e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_first_sight_counts.py --rows 1000

`bench_cold_start.py` times first sight in fresh processes; on a shared VM its ratio moves by several points from
run to run. This script gives the same comparison as counts, which do not depend on the machine's load: the
child of `bench_cold_start.py` (one random sample of `--rows` squad2 rows, `check_sufficiency` on each once, then
on equal but new `str` objects again) runs under callgrind three times, stopping after 0, 1 and 2 passes, and the
differences of the program totals are what pass 1 (first sight) and pass 2 (seen before) cost. The cache is
simulated (32 MiB, 16-way, 64-byte lines as the last level, whatever the host has), so a first lookup in a
compiled-in table or a new memo page shows as a miss on every machine. Two runs of one build differ by up to ~2M
instructions per pass (address-dependent work; str hashes are fixed); the misses repeat within ~10. `--top` lists
the functions whose last-level read misses first sight adds most.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from _machine import DATASETS, cpu_model

CHILD = """
import gc, json, random, sys
from sufficient_context import SufficientContextChecker
rows_wanted, seed, passes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
with open(sys.argv[4], encoding="utf-8") as fh:
    rows = [json.loads(line) for line in fh if line.strip()]
rows = random.Random(seed).sample(rows, rows_wanted)
cases = [(r["query"], [c["content"] for c in r["contexts"]]) for r in rows]
copies = json.loads(json.dumps(cases))
checker = SufficientContextChecker()
checker.check_sufficiency("a tiny warm-up query", ["A tiny warm-up context."])
gc.collect(); gc.freeze()
for cs in (cases, copies)[:passes]:
    for q, chunks in cs:
        checker.check_sufficiency(q, chunks)
"""

EVENTS = ("Ir", "DLmr", "DLmw")


def run(passes: int, rows: int, seed: int, out: Path) -> Path:
    data = DATASETS / "squad2" / "squad2-sufficiency.jsonl"
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--cache-sim=yes", "--LL=33554432,16,64", f"--callgrind-out-file={out}",
         sys.executable, "-c", CHILD, str(rows), str(seed), str(passes), str(data)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # str hashes fixed: dict probes count the same every run
    )  # fmt: skip
    return out


def totals(path: Path) -> dict[str, int]:
    text = subprocess.run(["callgrind_annotate", "--auto=no", f"--show={','.join(EVENTS)}", str(path)],
                          capture_output=True, text=True, check=True).stdout  # fmt: skip
    line = next(x for x in text.splitlines() if "PROGRAM TOTALS" in x)
    numbers = [int(n.replace(",", "")) for n in re.findall(r"[\d,]+(?= \()", line)]
    return dict(zip(EVENTS, numbers, strict=True))


def by_function(path: Path) -> dict[str, int]:
    command = ["callgrind_annotate", "--auto=no", "--show=DLmr", "--sort=DLmr", "--threshold=100", str(path)]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    out: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*\S)\s*$", line)
        if m and "=>" not in line and ":" in m.group(2) and not m.group(2).startswith(("PROGRAM", "file:")):
            out[m.group(2)] = int(m.group(1).replace(",", ""))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--top", type=int, default=10, help="functions to list by first-sight LL read misses")
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        sys.exit("needs valgrind (apt-get install valgrind)")
    print(f"command: PYTHONPATH={os.environ.get('PYTHONPATH', '')} python benchmarks/bench_first_sight_counts.py "
          f"--rows {args.rows} --seed {args.seed}")  # fmt: skip
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores (counts do not depend on it)\n")
    with tempfile.TemporaryDirectory() as tmp:
        with ThreadPoolExecutor(max_workers=3) as pool:
            paths = list(pool.map(lambda p: run(p, args.rows, args.seed, Path(tmp) / f"cg.{p}"), range(3)))
        t = [totals(p) for p in paths]
        first = {e: t[1][e] - t[0][e] for e in EVENTS}
        again = {e: t[2][e] - t[1][e] for e in EVENTS}
        print("| pass | instructions (M) | LL read misses | LL write misses |")
        print("|---|---:|---:|---:|")
        for name, c in (("first sight", first), ("seen before (new str objects)", again)):
            print(f"| {name} | {c['Ir'] / 1e6:.1f} | {c['DLmr']:,} | {c['DLmw']:,} |")
        print(f"| first / seen - 1 | {first['Ir'] / again['Ir'] - 1:+.1%} | | |")
        if args.top > 0:
            f0, f1, f2 = (by_function(p) for p in paths)
            extra = {k: (f1.get(k, 0) - f0.get(k, 0)) - (f2.get(k, 0) - f1.get(k, 0)) for k in f1}
            print(f"\nLL read misses first sight adds, by function (top {args.top}):\n")
            for name, misses in sorted(extra.items(), key=lambda kv: -kv[1])[: args.top]:
                print(f"{misses:8,d}  {name[:150]}")


if __name__ == "__main__":
    main()
