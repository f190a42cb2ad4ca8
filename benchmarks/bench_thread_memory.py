"""Memory the checker keeps per thread: 32 threads checking varied real text, under the shared cache budget.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_thread_memory.py

Each case runs in a fresh subprocess. 32 Python threads stay alive (a thread pool's workers do); each checks every
context in ../shared/datasets (SQuAD 2.0, HotpotQA, HaluEval, BEGIN), 40 contexts per check, starting at its own
offset, so every thread's word cache fills with the whole corpus's words. The unlimited budget is the baseline: what
threads kept before the budget existed. Reported: resident memory with the 32 threads idle after their work, the
caches' accounted bytes, and throughput (checks per second, wall and CPU). The claims cases do the same with
ClaimCoverage().check_answer: each thread checks 1,500 rows of the four datasets (the answer, or else the query,
citing [S1], against the row's contexts), starting at its own offset, so its claim workspace and word memos fill.
A last case checks one 100 MB context on a thread that then stays alive, to show the scratch given back.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from _machine import DATASETS, cpu_model

CASE = r"""
import json, os, resource, sys, threading, time
import sufficient_context as sc

def rss_mb():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6

def run_threads(work, n_threads, done, leave, checks):
    # Starts n_threads threads on work(t); measures once all are done (still alive, holding their caches).
    threads = [threading.Thread(target=work, args=(t,)) for t in range(n_threads)]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for t in threads:
        t.start()
    done.wait()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    usage = sc.cache_usage()
    out.update(idle_mb=rss_mb(), held_mb=usage["held_bytes"] / 1e6, cache_threads=usage["threads"],
               checks=sum(checks), per_s_wall=sum(checks) / wall, per_s_cpu=sum(checks) / cpu)
    leave.set()
    for t in threads:
        t.join()
    out["after_exit_mb"] = rss_mb()

kind, budget, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
texts = []
for path in paths:
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        for c in row.get("contexts", []):
            texts.append(c["content"] if isinstance(c, dict) else c)
        for key in ("knowledge", "context", "evidence"):
            if isinstance(row.get(key), str):
                texts.append(row[key])
texts = list(dict.fromkeys(texts))
sc.set_cache_budget(budget)
checker = sc.SufficientContextChecker()
base = rss_mb()
out = {"texts": len(texts), "base_mb": base}
if kind == "threads":
    n_threads = 32
    done = threading.Barrier(n_threads + 1)
    leave = threading.Event()
    checks = [0] * n_threads
    def work(t):
        shift = t * len(texts) // n_threads
        mine = texts[shift:] + texts[:shift]
        for i in range(0, len(mine), 40):
            checker.check_sufficiency("Who founded the Normans and where did they settle?", mine[i : i + 40])
            checks[t] += 1
        done.wait()
        leave.wait()
    run_threads(work, n_threads, done, leave, checks)
elif kind == "claims":
    rows = []
    for path in paths:
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            contexts = [c["content"] if isinstance(c, dict) else c for c in row.get("contexts", [])]
            said = row.get("answer") or row.get("query")
            if contexts and isinstance(said, str):
                chunks = [{"id": f"S{k + 1}", "content": c} for k, c in enumerate(contexts)]
                rows.append((said.strip().rstrip(".") + " [S1].", chunks))
    coverage = sc.ClaimCoverage()
    n_threads, per_thread = 32, 1500
    done = threading.Barrier(n_threads + 1)
    leave = threading.Event()
    checks = [0] * n_threads
    def work(t):
        shift = t * len(rows) // n_threads
        for i in range(per_thread):
            coverage.check_answer(*rows[(shift + i) % len(rows)])
            checks[t] += 1
        done.wait()
        leave.wait()
    run_threads(work, n_threads, done, leave, checks)
else:  # one 100 MB context on a thread that stays alive
    corpus = " ".join(texts)
    big = ((corpus + " ") * (100_000_000 // len(corpus) + 1))[:100_000_000]
    checked, leave = threading.Event(), threading.Event()
    def work():
        checker.check_sufficiency("Who founded the Normans and where did they settle?", [big])
        checked.set()
        leave.wait()
    thread = threading.Thread(target=work)
    thread.start()
    checked.wait()
    del big, corpus
    out.update(idle_mb=rss_mb(), held_mb=sc.cache_usage()["held_bytes"] / 1e6,
               peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3)
    leave.set()
    thread.join()
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--kinds", nargs="+", choices=("threads", "claims", "large"), default=["threads", "claims", "large"]
    )
    kinds = parser.parse_args().kinds
    paths = [
        str(DATASETS / "squad2" / "squad2-sufficiency.jsonl"),
        str(DATASETS / "hotpot" / "hotpot-sufficiency.jsonl"),
        str(DATASETS / "halueval" / "halueval-qa-claims.jsonl"),
        str(DATASETS / "begin" / "begin-claims.jsonl"),
    ]
    print(f"{cpu_model()}, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    unlimited = 2**62
    cases = [
        ("threads", unlimited, "32 threads, budget unlimited (baseline)"),
        ("threads", 256 * 2**20, "32 threads, budget 256 MiB (default)"),
        ("threads", 32 * 2**20, "32 threads, budget 32 MiB"),
        ("threads", 4 * 2**20, "32 threads, budget 4 MiB"),
        ("claims", unlimited, "32 threads, check_answer, budget unlimited (baseline)"),
        ("claims", 256 * 2**20, "32 threads, check_answer, budget 256 MiB (default)"),
        ("claims", 32 * 2**20, "32 threads, check_answer, budget 32 MiB"),
        ("claims", 4 * 2**20, "32 threads, check_answer, budget 4 MiB"),
        ("claims", 0, "32 threads, check_answer, budget 0"),
        ("large", 256 * 2**20, "one 100 MB context, thread kept alive (default budget)"),
    ]
    print("| case | RSS idle MB (over start) | caches held MB | checks/s wall | checks/s CPU |")
    print("|---|---:|---:|---:|---:|")
    for kind, budget, label in cases:
        if kind not in kinds:
            continue
        proc = subprocess.run(
            [sys.executable, "-c", CASE, kind, str(budget), *paths], capture_output=True, text=True, check=True
        )
        r = json.loads(proc.stdout)
        grown = r["idle_mb"] - r["base_mb"]
        if kind in ("threads", "claims"):
            print(
                f"| {label} | {grown:.0f} | {r['held_mb']:.1f} | {r['per_s_wall']:.0f} | {r['per_s_cpu']:.0f} |",
                flush=True,
            )
        else:
            print(f"| {label} (peak {r['peak_mb']:.0f} MB) | {grown:.0f} | {r['held_mb']:.1f} | | |", flush=True)


if __name__ == "__main__":
    main()
