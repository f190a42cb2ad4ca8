"""`eval` on Ray Data against the local runner: rows generated from the real text of the shared datasets (SQuAD 2.0
sufficiency rows, HaluEval and BEGIN claim rows, repeated with new ids), written to Parquet, then evaluated

1. by the local runner (the rows streamed from the Parquet file with pyarrow, `evaluate_rows`, `--threads` C++
   threads), results to Parquet;
2. by `sufficient_context.scale` on a local Ray with `--cpus` CPUs (`read_parquet` -> `evaluate` -> `write_parquet`,
   then `summarize` over the written results);
3. in one process, the Ray stage's Python-side overhead per batch: `Scorer.__call__` on one Arrow batch minus the
   C++ calls it makes (`check_batch`, `check_answers` / `check_claim`) on the same rows.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_ray.py [--rows 1000000] [--cpus 2] [--threads 2]

Also prints the Parquet read throughput alone (rows/s and MB/s of `read_parquet` consumed on the same Ray), the other
term of a cluster estimate (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from _machine import DATASETS, cpu_model

from sufficient_context import scale
from sufficient_context.claims import ClaimCoverage
from sufficient_context.evaluation import evaluate_rows
from sufficient_context.evaluation.rows import parse_row
from sufficient_context.evaluation.runner import _claims_of
from sufficient_context.scale.stage import Scorer, checks_config

CHUNK = pa.struct([("id", pa.string()), ("content", pa.string())])
SCHEMA = pa.schema([("id", pa.string()), ("query", pa.string()), ("contexts", pa.list_(CHUNK)),
                    ("answer", pa.string()), ("label", pa.string()), ("kind", pa.string())])  # fmt: skip


def source_rows() -> list[dict[str, Any]]:
    sources = [DATASETS / "squad2" / "squad2-sufficiency.jsonl", DATASETS / "halueval" / "halueval-qa-claims.jsonl",
               DATASETS / "begin" / "begin-claims.jsonl"]  # fmt: skip
    rows = []
    for path in sources:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            r = json.loads(line)
            contexts = [{"id": str(c.get("id", f"S{i}")), "content": c["content"]} for i, c in enumerate(r["contexts"])]
            rows.append({"query": r["query"], "contexts": contexts, "answer": r.get("answer"),
                         "label": r.get("label"), "kind": r.get("kind")})  # fmt: skip
    return rows


def generate(path: Path, n: int) -> None:
    rows = source_rows()
    with pq.ParquetWriter(path, SCHEMA) as writer:
        for start in range(0, n, 50_000):
            batch = [dict(rows[i % len(rows)], id=f"r{i}") for i in range(start, min(n, start + 50_000))]
            writer.write_table(pa.Table.from_pylist(batch, SCHEMA), row_group_size=10_000)


def local_eval(path: Path, out: Path, threads: int) -> tuple[float, float, int]:
    """The local runner fed from Parquet; each row's record written to Parquet too, as the Ray run writes."""

    def rows() -> Any:
        for batch in pq.ParquetFile(path).iter_batches(batch_size=4096):
            for i, data in enumerate(batch.to_pylist()):
                yield parse_row(i + 1, data)

    kept: list[dict[str, Any]] = []
    w0, c0 = time.perf_counter(), time.process_time()
    with pq.ParquetWriter(out, pa.schema([("id", pa.string()), ("score", pa.float64())])) as writer:

        def on_row(record: dict[str, Any]) -> None:
            kept.append({"id": record["id"], "score": record["sufficiency"]["score"]})
            if len(kept) == 50_000:
                writer.write_table(pa.Table.from_pylist(kept, writer.schema))
                kept.clear()

        summary = evaluate_rows(rows(), threads=threads, on_row=on_row)
        if kept:
            writer.write_table(pa.Table.from_pylist(kept, writer.schema))
    return time.perf_counter() - w0, time.process_time() - c0, summary.rows


def overhead_per_batch(path: Path, batch_rows: int, threads: int) -> tuple[float, float, int]:
    """(Scorer.__call__ seconds, seconds of its C++ calls) per batch, best of 5, on the first batch."""
    batch = next(pq.ParquetFile(path).iter_batches(batch_size=batch_rows))
    table = pa.Table.from_batches([batch])
    scorer = Scorer(checks_config(None), ("sufficiency", "claims"), threads)
    rows = [parse_row(i, d) for i, d in enumerate(table.to_pylist())]
    checker, coverage = scorer._checker, scorer._coverage
    assert checker is not None
    assert isinstance(coverage, ClaimCoverage)
    total = core = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        scorer(table)
        total = min(total, time.perf_counter() - t0)
        t0 = time.perf_counter()
        checker.check_batch([r.query for r in rows], [r.chunks for r in rows], threads=threads)
        _claims_of(coverage, rows, threads)
        core = min(core, time.perf_counter() - t0)
    return total, core, table.num_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray")
    ap.add_argument("--threads", type=int, default=2, help="C++ threads of the local runner")
    ap.add_argument("--batch", type=int, default=512, help="rows per batch of the Ray stage")
    args = ap.parse_args()
    import ray

    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "turns.parquet"
        t0 = time.perf_counter()
        generate(data, args.rows)
        size_mb = data.stat().st_size / 1e6
        gen_s = time.perf_counter() - t0

        total, core, nb = overhead_per_batch(data, args.batch, 1)
        local_wall, local_cpu, local_rows = local_eval(data, Path(tmp) / "local.parquet", args.threads)

        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
        scale.summarize(scale.evaluate(scale.read_parquet(data).limit(100)))  # warm-up: workers, imports, pools
        t0 = time.perf_counter()
        read_rows = sum(b.num_rows for b in scale.read_parquet(data).iter_batches(batch_format="pyarrow"))
        read_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        scale.write_results(scale.evaluate(scale.read_parquet(data), batch_size=args.batch), Path(tmp) / "results")
        ray_s = time.perf_counter() - t0
        written = list((Path(tmp) / "results").glob("*.parquet"))
        out_mb = sum(f.stat().st_size for f in written) / 1e6
        t0 = time.perf_counter()
        summary = scale.summarize(scale.read_parquet(Path(tmp) / "results"))
        summ_s = time.perf_counter() - t0
        ray.shutdown()
    assert summary["rows"] == local_rows == read_rows == args.rows, (summary["rows"], local_rows, read_rows)
    print(f"command: PYTHONPATH=... python3 benchmarks/bench_ray.py --rows {args.rows} --cpus {args.cpus} "
          f"--threads {args.threads} --batch {args.batch}")  # fmt: skip
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; {time.ctime()}; ray {ray.__version__}, pyarrow "
          f"{pa.__version__}")  # fmt: skip
    print(f"data: {args.rows:,} rows, Parquet {size_mb:.0f} MB (generated in {gen_s:.0f} s); results: "
          f"{len(written)} Parquet files, {out_mb:.0f} MB")  # fmt: skip
    print("| run | wall s | rows/s |")
    print("|---|---:|---:|")
    print(f"| read_parquet only (Ray, {args.cpus} CPUs) | {read_s:.1f} | {read_rows / read_s:,.0f} "
          f"({size_mb / read_s:.0f} MB/s) |")  # fmt: skip
    print(f"| local runner, {args.threads} threads (CPU {local_cpu:.1f} s) | {local_wall:.1f} | "
          f"{local_rows / local_wall:,.0f} |")  # fmt: skip
    print(f"| Ray Data, {args.cpus} CPUs: evaluate + write_parquet | {ray_s:.1f} | {args.rows / ray_s:,.0f} |")
    print(f"| Ray Data: summarize the written results | {summ_s:.1f} | {args.rows / summ_s:,.0f} |")
    print(f"| Ray Data: both | {ray_s + summ_s:.1f} | {args.rows / (ray_s + summ_s):,.0f} |")
    over = total - core
    print(f"stage batch of {nb} rows, 1 thread: {total * 1e3:.1f} ms, of which C++ calls {core * 1e3:.1f} ms; "
          f"Python-side overhead {over * 1e3:.1f} ms per batch = {over / nb * 1e6:.0f} us per row "
          f"({over / total:.0%})")  # fmt: skip


if __name__ == "__main__":
    main()
