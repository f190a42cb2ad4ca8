"""Scaling curves: time, CPU time and peak RSS of the checks as the input grows (each curve should be linear).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_scaling.py [--quick] [--reps 7] [--plot /tmp/scaling.png]

Four curves, each point in a fresh subprocess so its peak RSS (ru_maxrss) is its own; wall and process CPU time are
measured around the call only. In that process the same call is made `--reps` times (more, up to 200, while they
total under 0.3 s): the first call (cold: its words are new to the process) is reported apart, and the median of the
others (warm: the same text seen again). Text is real: SQuAD 2.0 paragraphs from ../shared/datasets/squad2.

- `check_sufficiency(query, chunks)` on 1, 10, 100, 1,000 and 10,000 chunks, each a ~1 kB paragraph (the 700-1,300
  byte paragraphs of the file, cycled: there are 341 of them);
- `check_sufficiency` on one chunk of 100 B, 1 kB, 10 kB, 100 kB and 1 MB (all 748 paragraphs, 636 kB,
  joined, repeated past that, cut at a word);
- `ClaimCoverage().check_answer(answer, chunks)` on an answer of 1, 10, 100 and 1,000 sentences against 10 chunks:
  the sentences of those chunks, in turn (cycled past their 60), each citing the chunk it came from;
- `check_answer` on a 10-sentence answer against 1, 10, 100 and 1,000 chunks (sentence j from chunk j mod N).

For each curve: a markdown table with warm CPU time per unit, and the slope between the last two points, (time
ratio) / (size ratio), of warm wall, warm CPU and first-call CPU time: ~1.0 is linear, above it grows faster than the
input. `--plot` saves the four curves (warm CPU solid, first-call CPU dashed) on log-log axes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from _machine import DATASETS, cpu_model

CASE = r"""
import json, resource, statistics, sys, time
import sufficient_context as sc

kind, size, reps, data = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rows = [json.loads(line) for line in open(data, encoding="utf-8")]
seen, paragraphs = set(), []
for row in rows:
    for c in row["contexts"]:
        if c["content"] not in seen:
            seen.add(c["content"])
            paragraphs.append(c["content"])
kb_paragraphs = [p for p in paragraphs if 700 <= len(p.encode()) <= 1300]
query = next(r["query"] for r in rows if r["contexts"][0]["content"] == kb_paragraphs[0])

def chunks_of(n):
    return [{"id": f"c{i}", "content": kb_paragraphs[i % len(kb_paragraphs)]} for i in range(n)]

def sentences(text):  # the library's own splitter; skip the few that would merge with a neighbour once cited
    found = [s.text.strip() for s in sc.sentences.split_sentences(text)]
    return [s for s in found if s[:1].isupper() and s[-1] in ".!?" and not s.endswith("..") and "[" not in s]

def cited(sentence, cid):
    body = sentence.rstrip()
    end = body[-1] if body[-1] in ".!?" else ""
    return f"{body[:-1] if end else body} [{cid}]{end or '.'}"

rss_import = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if kind == "chunks":
    chunks = chunks_of(size)
    checker = sc.SufficientContextChecker()
    fn = lambda: checker.check_sufficiency(query, chunks)
elif kind == "chunk_bytes":
    corpus = " ".join(paragraphs)
    text = (corpus + " ") * (size // len(corpus) + 1)
    cut = text.rfind(" ", 0, size + 1)
    chunks = [{"id": "c0", "content": text[: cut if cut > 0 else size]}]
    checker = sc.SufficientContextChecker()
    fn = lambda: checker.check_sufficiency(query, chunks)
else:
    if kind == "sentences":
        chunks = chunks_of(10)
        pool = [cited(s, c["id"]) for c in chunks for s in sentences(c["content"])]
        answer = " ".join(pool[j % len(pool)] for j in range(size))
    else:  # answer_chunks: a 10-sentence answer against `size` chunks
        chunks = chunks_of(size)
        per = [sentences(c["content"]) for c in chunks]
        answer = " ".join(cited(per[j % size][(j // size) % len(per[j % size])], f"c{j % size}") for j in range(10))
    coverage = sc.ClaimCoverage()
    fn = lambda: coverage.check_answer(answer, chunks)
walls, cpus = [], []
while len(walls) < reps or (sum(walls) < 0.3 and len(walls) < 200):  # tiny calls: repeat more, for a stable median
    w0, c0 = time.perf_counter(), time.process_time()
    result = fn()
    walls.append(time.perf_counter() - w0)
    cpus.append(time.process_time() - c0)
claims = len(result.claims) if kind in ("sentences", "answer_chunks") else None
assert claims is None or claims == (size if kind == "sentences" else 10), claims  # one claim per sentence
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"wall": statistics.median(walls[1:]), "cpu": statistics.median(cpus[1:]), "calls": len(cpus),
                  "first_wall": walls[0], "first_cpu": cpus[0],
                  "peak_mb": peak / 1024, "import_mb": rss_import / 1024, "claims": claims,
                  "input_bytes": sum(len(c["content"].encode()) for c in chunks)}))
"""

# curve key -> (title, x label, unit, sizes full, sizes quick, per-unit divisor of the size)
CURVES = {
    "chunks": ("check_sufficiency vs chunks (~1 kB each)", "chunks", "chunk", [1, 10, 100, 1_000, 10_000]),
    "chunk_bytes": ("check_sufficiency vs chunk size (1 chunk)", "KB", "KB", [100, 1_000, 10_000, 100_000, 1_000_000]),
    "sentences": ("check_answer vs answer sentences (10 chunks)", "sentences", "sentence", [1, 10, 100, 1_000]),
    "answer_chunks": ("check_answer vs chunks (10-sentence answer)", "chunks", "chunk", [1, 10, 100, 1_000]),
}


def run(kind: str, size: int, reps: int, data: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CASE, kind, str(size), str(reps), data],
        capture_output=True,
        text=True,
        check=True,
        env=os.environ,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def units_of(kind: str, size: int) -> float:
    """The size in the curve's unit (KB for chunk size, else the count)."""
    return size / 1_000 if kind == "chunk_bytes" else float(size)


def size_label(kind: str, size: int) -> str:
    if kind != "chunk_bytes":
        return f"{size:,}"
    return f"{size // 1_000_000} MB" if size >= 1_000_000 else (f"{size // 1_000} kB" if size >= 1_000 else f"{size} B")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller largest points, 3 repetitions")
    ap.add_argument("--reps", type=int, default=None, help="calls per point; default 7, quick 4")
    ap.add_argument("--plot", default=None, help="save a log-log PNG of the four curves here")
    args = ap.parse_args()
    reps = max(2, args.reps or (4 if args.quick else 7))
    data = str(DATASETS / "squad2" / "squad2-sufficiency.jsonl")
    from sufficient_context.similarity import simd_path

    print(f"command: PYTHONPATH=... python3 {' '.join(sys.argv)}")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, ISA {simd_path()}; load average {os.getloadavg()[0]:.1f}")
    print(f"each point: a fresh process; 1st call apart, then the median of >= {reps - 1} warm calls (same input)")
    print("peak RSS is the whole process's (import included); CPU is process CPU time, wall is elapsed")
    results: dict[str, list[tuple[int, dict[str, float]]]] = {}
    for kind, (title, _xlabel, unit, sizes) in CURVES.items():
        if args.quick:
            sizes = sizes[:-1]
        print(f"\n**{title}**\n")
        print(f"| size | wall ms | CPU ms | 1st call CPU ms | peak RSS MB | CPU us per {unit} |")
        print("|---:|---:|---:|---:|---:|---:|")
        points = []
        for size in sizes:
            r = run(kind, size, reps, data)
            points.append((size, r))
            per = r["cpu"] * 1e6 / units_of(kind, size)
            print(
                f"| {size_label(kind, size)} | {r['wall'] * 1e3:.3f} | {r['cpu'] * 1e3:.3f} "
                f"| {r['first_cpu'] * 1e3:.3f} | {r['peak_mb']:.0f} | {per:,.1f} |",
                flush=True,
            )
        (s1, r1), (s2, r2) = points[-2], points[-1]
        ratio = s2 / s1
        print(
            f"\nslope {size_label(kind, s1)} -> {size_label(kind, s2)} (time ratio / size ratio): "
            f"wall {r2['wall'] / r1['wall'] / ratio:.2f}, CPU {r2['cpu'] / r1['cpu'] / ratio:.2f}, "
            f"1st call CPU {r2['first_cpu'] / r1['first_cpu'] / ratio:.2f}; "
            f"RSS before the input is built {points[0][1]['import_mb']:.0f} MB"
        )
        results[kind] = points
    print(f"\n(this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; {time.ctime()})")
    if args.plot:
        plot(results, args.plot)
        print(f"plot: {args.plot}")


def plot(results: dict[str, list[tuple[int, dict[str, float]]]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    for i, (kind, points) in enumerate(results.items()):
        title, xlabel, _unit, _sizes = CURVES[kind]
        xs = [units_of(kind, s) for s, _ in points]
        color = f"C{i}"
        ax.plot(xs, [r["cpu"] * 1e3 for _, r in points], "o-", color=color, label=f"{title} [x: {xlabel}]")
        ax.plot(xs, [r["first_cpu"] * 1e3 for _, r in points], "x--", color=color, alpha=0.5)
        # a slope-1 guide through the last point: linear growth runs parallel to it
        x_last, t_last = xs[-1], points[-1][1]["cpu"] * 1e3
        ax.plot([xs[0], x_last], [t_last * xs[0] / x_last, t_last], ":", color=color, alpha=0.4)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("size (chunks, KB of one chunk, or answer sentences)")
    ax.set_ylabel("CPU ms per call (warm median solid, first call dashed)")
    ax.set_title("sufficient-context scaling (dotted: linear through the last point)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
