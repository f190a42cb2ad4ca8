"""The gateway under load: requests/s and latency of ``POST /v1/chat/completions`` over real HTTP, and the share of
each request spent in our checks.

Run from the repository root after a build, e.g.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_server.py [--requests 2000] [--concurrency 1 4 16]

Workload: the SQuAD 2.0 contexts of ../shared/datasets (squad2-sufficiency.jsonl) written as a docs folder, one
Markdown file per article with one paragraph per context; the questions of the same rows are asked in turn. The
gateway runs in its own process (uvicorn, one worker, access log off) with the built-in extractive answerer (no
model), the docs index and the query log (one SQLite row per request, as in production); the client is httpx with
a thread pool of `concurrency` workers on keep-alive connections.

Per concurrency level: requests/s, client latency p50 / p99, and from the ``Server-Timing`` header the time in
retrieval (FTS5 search) and in ``GroundedAnswerer.answer`` (the retrieval gate, sufficiency check, extractive answer
and claim validation: "our checks"), each as a share of the mean client latency. The rest is HTTP, JSON, the thread
pool hop and the query-log write.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from _machine import DATASETS, cpu_model

SERVER = """
import sys, uvicorn
from sufficient_context.server import ServerSettings, create_app
settings = ServerSettings(docs=sys.argv[1], port=int(sys.argv[2]))
uvicorn.run(create_app(settings), host="127.0.0.1", port=settings.port, log_level="warning", access_log=False)
"""


def write_docs(root: Path, rows: list[dict[str, object]]) -> int:
    """One Markdown file per article, each unique context one paragraph; returns the number of paragraphs."""
    articles: dict[str, dict[str, str]] = {}
    for row in rows:
        for context in row["contexts"]:  # type: ignore[attr-defined]
            title = str(context.get("title") or str(context["id"]).split("#")[0])
            articles.setdefault(title, {})[str(context["id"])] = " ".join(str(context["content"]).split())
    for title, paragraphs in articles.items():
        name = re.sub(r"[^A-Za-z0-9_-]+", "_", title)[:80] or "untitled"
        text = f"# {title}\n\n" + "\n\n".join(paragraphs.values()) + "\n"
        (root / f"{name}.md").write_text(text, encoding="utf-8")
    return sum(len(p) for p in articles.values())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def timing(header: str) -> dict[str, float]:
    out = {}
    for part in header.split(","):
        name, _, duration = part.strip().partition(";dur=")
        out[name] = float(duration)
    return out


def run(client: httpx.Client, queries: list[str], concurrency: int) -> dict[str, float]:
    def ask(query: str) -> tuple[float, dict[str, float]]:
        started = time.perf_counter()
        response = client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": query}]})
        elapsed = (time.perf_counter() - started) * 1000.0
        if response.status_code != 200:
            raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
        return elapsed, timing(response.headers["server-timing"])

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(ask, queries))
    wall = time.perf_counter() - started
    latencies = sorted(r[0] for r in results)
    mean = statistics.fmean(latencies)
    answer = statistics.fmean(r[1]["answer"] for r in results)
    retrieve = statistics.fmean(r[1]["retrieve"] for r in results)
    return {
        "rps": len(queries) / wall,
        "p50": latencies[len(latencies) // 2],
        "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        "mean": mean,
        "retrieve_ms": retrieve,
        "answer_ms": answer,
        "retrieve_share": retrieve / mean,
        "answer_share": answer / mean,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="Requests per concurrency level.")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    args = parser.parse_args()

    lines = (DATASETS / "squad2" / "squad2-sufficiency.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    queries = [str(r["query"]) for r in rows]
    queries = (queries * (args.requests // len(queries) + 1))[: args.requests]

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        paragraphs = write_docs(docs, rows)
        port = free_port()
        started = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(docs), str(port)], env=os.environ.copy())
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60,
                              limits=httpx.Limits(max_connections=max(args.concurrency))) as client:  # fmt: skip
                while True:
                    try:
                        if client.get("/healthz").status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if server.poll() is not None or time.perf_counter() - started > 120:
                        raise RuntimeError("the gateway did not start")
                    time.sleep(0.05)
                startup = time.perf_counter() - started
                run(client, queries[:100], 4)  # warm up
                results = {c: run(client, queries, c) for c in args.concurrency}
        finally:
            server.terminate()
            server.wait(30)

    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    print(f"docs: {paragraphs} SQuAD 2.0 paragraphs; startup (index build + app) {startup:.2f} s")
    print(f"{args.requests} requests per level, extractive answerer, query log on\n")
    header = (
        f"{'concurrency':>11} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'retrieve ms':>11} "
        f"{'checks ms':>9} {'retrieve %':>10} {'checks %':>8}"
    )
    print(header)
    print("-" * len(header))
    for c, r in results.items():
        print(
            f"{c:>11} {r['rps']:>8.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['mean']:>8.2f} {r['retrieve_ms']:>11.2f} "
            f"{r['answer_ms']:>9.2f} {100 * r['retrieve_share']:>9.1f}% {100 * r['answer_share']:>7.1f}%"
        )


if __name__ == "__main__":
    main()
