"""`eval` at scale: a JSONL file of about 200 MB generated on the fly from the shared datasets (SQuAD 2.0 sufficiency
rows and HaluEval / BEGIN claim rows, repeated with new ids), evaluated by `sufficient_context.evaluation`.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_eval.py [--mb 200] [--workers 2]

Reports rows per second (wall and CPU) and resident memory sampled every second during the run: it must stay flat
(the summary is fixed-size accumulators; results stream to disk). The baseline, in the same process, is reading and
parsing the same file with `json.loads` and nothing else: the floor of any JSONL evaluator in Python.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path

from _machine import DATASETS, cpu_model

from sufficient_context.evaluation import evaluate_file


def rss_mb() -> float:
    with open("/proc/self/statm", encoding="ascii") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def generate(path: Path, megabytes: int) -> int:
    sources = [DATASETS / "squad2" / "squad2-sufficiency.jsonl", DATASETS / "halueval" / "halueval-qa-claims.jsonl",
               DATASETS / "begin" / "begin-claims.jsonl"]  # fmt: skip
    rows = [json.loads(line) for p in sources for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    target = megabytes * 1_000_000
    written = n = 0
    with path.open("w", encoding="utf-8") as fh:
        while written < target:
            row = dict(rows[n % len(rows)], id=f"r{n}")
            line = json.dumps(row, ensure_ascii=False) + "\n"
            fh.write(line)
            written += len(line.encode("utf-8"))
            n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "turns.jsonl"
        n = generate(data, args.mb)
        size = data.stat().st_size / 1e6

        w0, c0 = time.perf_counter(), time.process_time()
        parsed = sum(1 for line in data.open("rb") if json.loads(line))
        base_wall, base_cpu = time.perf_counter() - w0, time.process_time() - c0

        samples: list[float] = []
        done = threading.Event()

        def sample() -> None:
            while not done.wait(1.0):
                samples.append(rss_mb())

        sampler = threading.Thread(target=sample, daemon=True)
        start_rss = rss_mb()
        sampler.start()
        w0, c0 = time.perf_counter(), time.process_time()
        summary = evaluate_file(data, Path(tmp) / "out", threads=args.workers)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        done.set()
        sampler.join()
    third = max(1, len(samples) // 3)
    early, late = samples[1 : third + 1] or samples[:1], samples[-third:]
    print(f"command: PYTHONPATH=... python3 benchmarks/bench_eval.py --mb {args.mb} --workers {args.workers}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; {time.ctime()}")
    print(f"file: {size:.0f} MB, {n:,} rows ({parsed:,} parsed by the baseline); {summary.rows:,} evaluated")
    print("| run | wall s | CPU s | rows/s wall | rows/s CPU |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| json.loads only (baseline) | {base_wall:.1f} | {base_cpu:.1f} | {n / base_wall:,.0f} | "
        f"{n / base_cpu:,.0f} |"
    )
    print(f"| evaluate_file (checks, results.jsonl, summary, report) | {wall:.1f} | {cpu:.1f} | {n / wall:,.0f} | "
          f"{n / cpu:,.0f} |")  # fmt: skip
    print(f"eval / baseline: {wall / base_wall:.1f}x wall, {cpu / base_cpu:.1f}x CPU")
    print(f"RSS MB: before {start_rss:.0f}, early third mean {sum(early) / len(early):.0f}, late third mean "
          f"{sum(late) / len(late):.0f}, max {max(samples):.0f} ({len(samples)} samples)")  # fmt: skip


if __name__ == "__main__":
    main()
