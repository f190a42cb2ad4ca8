"""EvidenceGateCompressor vs LangChain's EmbeddingsFilter: the same documents, the same stored vectors, one process.

Needs LangChain's filter, which lives outside langchain-core:

    pip install langchain-classic langchain-community   # EmbeddingsFilter and the cosine it calls
    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/bench_langchain.py [--rounds 31] [--dim 384]

Both compressors get one `Embeddings` object that returns stored vectors (a dict lookup), so embedding costs the same
for both and the table shows what each compressor adds around it: turning the vectors into arrays, the cosines, the
threshold, and the output documents (ours: copies carrying ``metadata["similarity"]``; LangChain's: stateful
document wrappers carrying ``state["query_similarity_score"]``). EmbeddingsFilter runs in threshold mode
(``k=N`` so nothing is capped, ``similarity_threshold=T``), ours with ``min_chunks=1``: the same decision but
at the boundary (theirs keeps cosine > T, ours >= T; no cosine here is within 1e-6 of T, and the script checks both
keep the same documents; theirs orders them by similarity, ours keeps retrieval order).

Documents: N = 10, 100, 1000 at d = 384 (float32 standard normal, mixed with the query in random proportions so
their cosines spread over [-0.3, 1]); T = 0.5. Timing: each sample is a batch of consecutive calls of one
compressor (enough calls for >= 5 ms), samples of the two alternate, `--rounds` samples each; the table gives the
median per-call wall time (perf_counter) and CPU time (process_time), and EmbeddingsFilter / ours for each.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from _machine import cpu_model
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from sufficient_context.integrations.langchain import EvidenceGateCompressor
from sufficient_context.similarity import simd_path

try:
    from langchain_classic.retrievers.document_compressors import EmbeddingsFilter
except ImportError:
    try:
        from langchain.retrievers.document_compressors import EmbeddingsFilter  # langchain < 1.0
    except ImportError:
        sys.exit(
            "bench_langchain.py needs LangChain's EmbeddingsFilter: pip install langchain-classic langchain-community"
        )

SIZES = (10, 100, 1000)
THRESHOLD = 0.5
MIN_SAMPLE_SECONDS = 0.005


class StoredEmbeddings(Embeddings):
    """Vectors looked up by text: what both compressors pay for embedding is the same dict lookup."""

    def __init__(self, query: list[float], vectors: dict[str, list[float]]) -> None:
        self.query = query
        self.vectors = vectors

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vectors[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.query


def make_data(n: int, dim: int, seed: int) -> tuple[StoredEmbeddings, list[Document]]:
    rng = np.random.default_rng(seed)
    query = rng.standard_normal(dim).astype(np.float32)
    query /= np.linalg.norm(query)
    noise = rng.standard_normal((n, dim)).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    mix = rng.uniform(-0.3, 1.0, size=(n, 1)).astype(np.float32)
    matrix = mix * query + np.sqrt(1 - np.minimum(mix**2, 1)) * noise
    texts = [f"document {i}" for i in range(n)]
    vectors = {t: row.tolist() for t, row in zip(texts, matrix)}  # lists, as an Embeddings returns them
    docs = [Document(page_content=t, id=str(i), metadata={"source": f"doc{i}.txt"}) for i, t in enumerate(texts)]
    return StoredEmbeddings(query.tolist(), vectors), docs


def boundary_margin(embeddings: StoredEmbeddings, docs: Sequence[Document]) -> float:
    q = np.asarray(embeddings.query, dtype=np.float64)
    m = np.asarray([embeddings.vectors[d.page_content] for d in docs], dtype=np.float64)
    cosines = m @ q / (np.linalg.norm(m, axis=1) * np.linalg.norm(q))
    return float(np.min(np.abs(cosines - THRESHOLD)))


def calls_per_sample(call: Callable[[], object]) -> int:
    """Consecutive calls that take at least MIN_SAMPLE_SECONDS (after one warm-up call)."""
    call()
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            call()
        if time.perf_counter() - start >= MIN_SAMPLE_SECONDS:
            return calls
        calls *= 2


def sample(call: Callable[[], object], calls: int) -> tuple[float, float]:
    """(wall, CPU) seconds per call over `calls` consecutive calls."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        call()
    return (time.perf_counter() - wall) / calls, (time.process_time() - cpu) / calls


def microseconds(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31, help="samples per compressor and size (default 31)")
    parser.add_argument("--dim", type=int, default=384, help="embedding dimension (default 384)")
    args = parser.parse_args(argv)

    rows = []
    for n in SIZES:
        embeddings, docs = make_data(n, args.dim, seed=n)
        if boundary_margin(embeddings, docs) < 1e-6:
            raise SystemExit(f"N={n}: a cosine lies within 1e-6 of the threshold; > and >= could disagree")
        ours = EvidenceGateCompressor(embeddings=embeddings, similarity_threshold=THRESHOLD)
        # k=n, not k=None: EmbeddingsFilter(k=None) keeps its default k=20 (langchain-classic 1.0.8).
        theirs = EmbeddingsFilter(embeddings=embeddings, similarity_threshold=THRESHOLD, k=n)
        kept_ours = [d.page_content for d in ours.compress_documents(docs, "query")]
        kept_theirs = [d.page_content for d in theirs.compress_documents(docs, "query")]
        # EmbeddingsFilter orders what it keeps by similarity; ours keeps input (retrieval) order.
        if sorted(kept_ours) != sorted(kept_theirs):
            raise SystemExit(
                f"N={n}: the compressors keep different documents ({len(kept_ours)} vs {len(kept_theirs)})"
            )

        def call_ours(docs: list[Document] = docs, ours: EvidenceGateCompressor = ours) -> object:
            return ours.compress_documents(docs, "query")

        def call_theirs(docs: list[Document] = docs, theirs: EmbeddingsFilter = theirs) -> object:
            return theirs.compress_documents(docs, "query")

        batch_ours, batch_theirs = calls_per_sample(call_ours), calls_per_sample(call_theirs)
        ours_samples, theirs_samples = [], []
        for _ in range(args.rounds):
            ours_samples.append(sample(call_ours, batch_ours))
            theirs_samples.append(sample(call_theirs, batch_theirs))
        ow, oc = (statistics.median(s[i] for s in ours_samples) for i in (0, 1))
        tw, tc = (statistics.median(s[i] for s in theirs_samples) for i in (0, 1))
        rows.append((n, len(kept_ours), tw, ow, tc, oc))

    import langchain_core

    print(f"CPU: {cpu_model()}; Python {platform.python_version()}; numpy {np.__version__}; "
          f"langchain-core {langchain_core.__version__}; our cosine kernel: {simd_path()}; d = {args.dim}; "
          f"threshold {THRESHOLD}; {args.rounds} samples each")  # fmt: skip
    print()
    print("| N docs | kept | EmbeddingsFilter wall (µs) | ours wall (µs) | wall ratio | EmbeddingsFilter CPU (µs) "
          "| ours CPU (µs) | CPU ratio |")  # fmt: skip
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, kept, tw, ow, tc, oc in rows:
        print(f"| {n:,} | {kept} | {microseconds(tw)} | {microseconds(ow)} | {tw / ow:.2f}x | {microseconds(tc)} | "
              f"{microseconds(oc)} | {tc / oc:.2f}x |")  # fmt: skip
    print()
    print("ratio = EmbeddingsFilter time / ours (> 1: ours is faster); medians per call")


if __name__ == "__main__":
    main()
