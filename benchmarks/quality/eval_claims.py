"""ClaimCoverage quality on the HaluEval QA claim set: reference vs default support score vs length baseline.

Each row's answer is one claim sentence checked against its single chunk K1 (the query is not used). Scored twice:
by the plain-Python oracle (``_reference_claims``: ``reference``, ``default``) and, when the package is built, by the
C++ ``ClaimCoverage`` through the public API (``ClaimCoverage(mode=...).check_claim(answer, row["contexts"])``,
its ``score``; accuracy from ``is_covered``), which must give the same table.
Prints AUROC, length-matched AUROC (supported vs unsupported compared only within the same answer word-count bin,
averaged weighted by pairs), accuracy / balanced accuracy / confusion matrix at the threshold, overall and for the
2-fold split by item index (even / odd items).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/quality/eval_claims.py [--threshold 0.3] [--freq PATH]

Datasets: ../shared/datasets relative to the repo root, or $SC_DATASETS. Word frequencies: --freq PATH, else
python/sufficient_context/data/english_freq.tsv if present, else generated in memory from PyPI ``wordfreq``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BINS = ((1, 1), (2, 2), (3, 3), (4, 5), (6, 8), (9, 12), (13, 10**9))


def _load_oracle():  # type: ignore[no-untyped-def]
    # The plain-Python modules need neither the compiled core nor the package __init__: load them by path
    # under a stand-in package (a real one when `sufficient_context` is importable).
    try:
        import sufficient_context._reference_claims as mod

        return mod
    except ImportError:
        pass
    import types

    pkg_dir = REPO / "python" / "sufficient_context"
    pkg = types.ModuleType("sufficient_context")
    pkg.__path__ = [str(pkg_dir)]
    sys.modules["sufficient_context"] = pkg
    for name in ("_reference", "_reference_sentences", "_reference_claims"):
        spec = importlib.util.spec_from_file_location(f"sufficient_context.{name}", pkg_dir / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[f"sufficient_context.{name}"] = mod
        spec.loader.exec_module(mod)
    return mod


rc = _load_oracle()


def datasets_dir() -> Path:
    env = os.environ.get("SC_DATASETS")
    return Path(env) if env else (REPO / ".." / "shared" / "datasets").resolve()


def load_rows() -> list[dict]:
    path = datasets_dir() / "halueval" / "halueval-qa-claims.jsonl"
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def wordfreq_table(n: int = 50_000) -> dict[str, float]:
    """Fallback when data/english_freq.tsv is absent, built like it (make_freq_table.py): wordfreq 'en' top-n words
    (letters and apostrophes only), frequencies summed by Porter2 stem, zipf to 0.1."""
    import math

    import wordfreq

    agg: dict[str, float] = {}
    for w in wordfreq.top_n_list("en", n, wordlist="large"):
        if w.replace("'", "").isalpha():
            key = rc.stem(rc._word_base(w.lower()))
            agg[key] = agg.get(key, 0.0) + wordfreq.word_frequency(w, "en", wordlist="large")
    return {k: round(math.log10(f * 1e9), 1) for k, f in agg.items() if f > 0}


def get_zipf(path: str | None) -> tuple[dict[str, float], str]:
    shipped = REPO / "python" / "sufficient_context" / "data" / "english_freq.tsv"
    if path:
        return rc.load_zipf_table(path), path
    if shipped.exists():
        return rc.load_zipf_table(shipped), str(shipped)
    return wordfreq_table(), "wordfreq top 50,000 (in memory)"


# ---- metrics ---------------------------------------------------------------------------------------------------------
def auroc(pos: Sequence[float], neg: Sequence[float]) -> float:
    """Mann-Whitney AUROC with ties counted half."""
    if not pos or not neg:
        return float("nan")
    allv = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum, i = 0.0, 0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j][0] == allv[i][0]:
            j += 1
        avg_rank = (i + 1 + j) / 2
        rank_sum += avg_rank * sum(1 for k in range(i, j) if allv[k][1] == 1)
        i = j
    return (rank_sum - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))


def word_bin(answer: str) -> int:
    n = len(answer.split())
    return next(i for i, (lo, hi) in enumerate(BINS) if lo <= n <= hi)


def length_matched_auroc(scores: Sequence[float], labels: Sequence[int], bins: Sequence[int]) -> float:
    num = den = 0.0
    for b in set(bins):
        pos = [s for s, y, bb in zip(scores, labels, bins) if bb == b and y == 1]
        neg = [s for s, y, bb in zip(scores, labels, bins) if bb == b and y == 0]
        if pos and neg:
            num += auroc(pos, neg) * len(pos) * len(neg)
            den += len(pos) * len(neg)
    return num / den


def report(
    name: str,
    scores: Sequence[float],
    labels: Sequence[int],
    bins: Sequence[int],
    thr: float | None,
    decisions: Sequence[bool] | None = None,
) -> str:
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    out = f"{name:<28} AUROC {auroc(pos, neg):.3f}  len-matched {length_matched_auroc(scores, labels, bins):.3f}"
    if thr is not None:
        said = decisions if decisions is not None else [s >= thr for s in scores]
        tp = sum(d for d, y in zip(said, labels) if y == 1)
        tn = sum(not d for d, y in zip(said, labels) if y == 0)
        fn, fp = len(pos) - tp, len(neg) - tn
        acc = (tp + tn) / len(scores)
        bal = (tp / len(pos) + tn / len(neg)) / 2
        out += f"  acc@{thr:g} {acc:.3f}  bal-acc {bal:.3f}  [TP {tp} FN {fn} | FP {fp} TN {tn}]"
    return out


Scorer = Callable[[dict], "float | tuple[float, bool]"]


def evaluate(rows: list[dict], scorers: dict[str, tuple[Scorer, float | None]]) -> None:
    """Scorers return a score, or (score, decision) when the decision is the checker's own (``is_covered``)."""
    labels = [1 if r["label"] == "supported" else 0 for r in rows]
    bins = [word_bin(r["answer"]) for r in rows]
    raw = {name: [fn(r) for r in rows] for name, (fn, _) in scorers.items()}
    scored = {name: [v[0] if isinstance(v, tuple) else v for v in vals] for name, vals in raw.items()}
    decided = {name: [v[1] for v in vals] for name, vals in raw.items() if vals and isinstance(vals[0], tuple)}
    for subset, keep in (
        ("all", lambda r: True),
        ("even items", lambda r: r["item"] % 2 == 0),
        ("odd items", lambda r: r["item"] % 2 == 1),
    ):
        idx = [i for i, r in enumerate(rows) if keep(r)]
        print(f"-- {subset} ({len(idx)} rows)")
        for name, (_, thr) in scorers.items():
            s = [scored[name][i] for i in idx]
            d = [decided[name][i] for i in idx] if name in decided else None
            print("  " + report(name, s, [labels[i] for i in idx], [bins[i] for i in idx], thr, d))
    # per length bin, default score
    print("-- per word-count bin (default): n_pos / n_neg / AUROC")
    for b, (lo, hi) in enumerate(BINS):
        pos = [scored["default"][i] for i in range(len(rows)) if bins[i] == b and labels[i] == 1]
        neg = [scored["default"][i] for i in range(len(rows)) if bins[i] == b and labels[i] == 0]
        print(f"  {lo}-{hi if hi < 10**9 else '+'}: {len(pos)} / {len(neg)} / {auroc(pos, neg):.3f}")


def time_default(zipf: dict[str, float], repeats: int = 7) -> float:
    """Median seconds of default_support for a 10-sentence answer vs 10 chunks of ~1,000 chars (100 pairs)."""
    rows = load_rows()
    chunks = []
    text = " ".join(r["contexts"][0]["content"] for r in rows[::2][:40])
    for i in range(10):
        chunks.append(text[i * 1000 : (i + 1) * 1000])
    sentences = [r["answer"] for r in rows if r["label"] == "unsupported"][:10]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for s in sentences:
            max(rc.default_support(s, c, zipf).score for c in chunks)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--freq", help="word<TAB>zipf table")
    ap.add_argument("--time", action="store_true", help="also time the pure-Python default_support")
    args = ap.parse_args()
    zipf, source = get_zipf(args.freq)
    rows = load_rows()
    print(f"{len(rows)} rows from {datasets_dir()}; word frequencies: {source} ({len(zipf)} words)")

    def chunk(r: dict) -> str:
        return str(r["contexts"][0]["content"])

    scorers: dict[str, tuple[Scorer, float | None]] = {
        "reference": (lambda r: rc.reference_overlap(r["answer"], chunk(r)), args.threshold),
        "default": (lambda r: rc.default_support(r["answer"], chunk(r), zipf).score, args.threshold),
    }
    try:
        from sufficient_context.claims import ClaimCoverage
    except ImportError as exc:
        print(f"(C++ ClaimCoverage not evaluated: {exc}; build it and set PYTHONPATH=build/dev-NAME/pkg)")
    else:
        if args.freq:
            print("(the C++ rows use the shipped frequency table, not --freq)")
        for mode in ("reference", "default"):
            checker = ClaimCoverage(min_overlap=args.threshold, mode=mode)

            def check(r: dict, checker: ClaimCoverage = checker) -> tuple[float, bool]:
                claim = checker.check_claim(r["answer"], r["contexts"])
                return claim.score, claim.is_covered

            scorers[f"C++ {mode} (check_claim)"] = (check, args.threshold)
    scorers["length only (-words)"] = (lambda r: -float(len(r["answer"].split())), None)
    evaluate(rows, scorers)
    if args.time:
        print(
            f"pure-Python default_support, 10 sentences x 10 chunks of 1,000 chars: "
            f"median {time_default(zipf) * 1e3:.1f} ms"
        )


if __name__ == "__main__":
    main()
