"""Quality of SufficientContextChecker scoring on the shared sufficiency sets (plain Python, no C++ needed).

Runs the reference formula and the no-model default formula of python/sufficient_context/_reference_checker.py on
squad2 and hotpot, and prints AUROC (overall and answerable-vs-each-negative-kind), the level confusion matrix per
kind at the thresholds, accuracy (a row is refused when its level is "insufficient"), the share of retrieval_miss
rows at "sufficient", both halves of a 2-fold split (squad2 by article, hotpot by question), and the time per call.

    python benchmarks/quality/eval_checker.py            # from the repo root
    SC_DATASETS=/path/to/datasets python benchmarks/quality/eval_checker.py

Needs snowballstemmer (the test extra). AUROC is the Mann-Whitney statistic with ties counted half.

Default (no-model) formula, spec of ``default_score`` (constants named in _reference_checker.py):
- query terms: distinct non-stop tokens (stemmed words, numbers, identifiers), weight max(7 - zipf, 0.5), zipf from
  the packaged table (1.0 for unknown stems, numbers and identifiers).
- matching of a term in a set of context terms: whole (credit 1); else, for a rare word (zipf < 3, >= 5 code points)
  absent from the whole context, a context term one edit away (Damerau, credit 0.75); else a shared 5-prefix (0.5).
- doc coverage: best chunk, or best chunk together with one other chunk (union); relation: best sentence, or best
  sentence together with one sentence of another chunk; both are weighted shares of the query terms.
- combined = (0.35 doc + 0.65 relation) x polarity (0.5 if the query is negated and the best sentence is not, 0.85
  if the best sentence is negated and the query is not); coverage signal = combined ** 2.
- relevance = min(1, best sentence char 3-5-gram cosine / 0.5); density, count, recency as before.
- score = (weighted mean of the signals, weights coverage .6 relevance .2 density .1 count .1 recency .1) ** 2:
  the exponent puts the partial threshold 0.5 at a raw cut of 0.707, inside the accuracy plateau of both folds
  (printed below as "calibration").
"""

from __future__ import annotations

import importlib.util
import json
import os
import statistics
import sys
import time
import zlib
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("SC_DATASETS", str(ROOT.parent / "shared" / "datasets")))
THRESHOLDS = (0.8, 0.5)
LEVELS = ("sufficient", "partial", "insufficient")


def _load_checker_module() -> Any:  # the module file alone: the package's C++ core need not be built
    path = ROOT / "python" / "sufficient_context" / "_reference_checker.py"
    spec = importlib.util.spec_from_file_location("_reference_checker", path)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["_reference_checker"] = mod
    spec.loader.exec_module(mod)
    return mod


def auroc(pos: list[float], neg: list[float]) -> float:
    """P(score of a positive > score of a negative), ties half (Mann-Whitney U / (P N))."""
    if not pos or not neg:
        return float("nan")
    allv = sorted([(v, 1) for v in pos] + [(v, 0) for v in neg])
    rank_sum, i, n = 0.0, 0, len(allv)
    while i < n:
        j = i
        while j < n and allv[j][0] == allv[i][0]:
            j += 1
        avg_rank = (i + j + 1) / 2
        rank_sum += avg_rank * sum(1 for k in range(i, j) if allv[k][1])
        i = j
    p, q = len(pos), len(neg)
    return (rank_sum - p * (p + 1) / 2) / (p * q)


def load(name: str) -> list[dict[str, Any]]:
    files = {"squad2": "squad2/squad2-sufficiency.jsonl", "hotpot": "hotpot/hotpot-sufficiency.jsonl"}
    with open(DATASETS / files[name], encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def fold_of(name: str, row: dict[str, Any]) -> int:
    """2-fold split: squad2 by article (all kinds of an article together), hotpot by question."""
    key = row["contexts"][0]["id"].split("#")[0] if name == "squad2" else row["id"].rsplit("-", 1)[0]
    return zlib.crc32(key.encode("utf-8")) % 2


def report(name: str, rows: list[dict[str, Any]], scores: list[float], levels: list[str], title: str) -> dict:
    kinds = sorted({r["kind"] for r in rows if r["label"] != "sufficient"})
    pos = [s for s, r in zip(scores, rows) if r["label"] == "sufficient"]
    neg = [s for s, r in zip(scores, rows) if r["label"] != "sufficient"]
    out: dict[str, Any] = {"auroc": auroc(pos, neg)}
    for k in kinds:
        out[f"auroc_vs_{k}"] = auroc(pos, [s for s, r in zip(scores, rows) if r["kind"] == k])
    correct = sum((lv != "insufficient") == (r["label"] == "sufficient") for lv, r in zip(levels, rows))
    out["accuracy"] = correct / len(rows)
    if name == "squad2":
        miss = [lv for lv, r in zip(levels, rows) if r["kind"] == "retrieval_miss"]
        out["retrieval_miss_at_sufficient"] = sum(lv == "sufficient" for lv in miss) / max(1, len(miss))
    print(f"  {title}: n={len(rows)} " + "  ".join(f"{k}={v:.3f}" for k, v in out.items()))
    return out


def confusion(rows: list[dict[str, Any]], levels: list[str]) -> None:
    kinds = sorted({r["kind"] for r in rows}, key=lambda k: (k not in ("answerable", "all_paragraphs"), k))
    print(f"    {'kind':<16}" + "".join(f"{lv:>14}" for lv in LEVELS) + f"{'n':>7}")
    for k in kinds:
        c = Counter(lv for lv, r in zip(levels, rows) if r["kind"] == k)
        n = sum(c.values())
        print(f"    {k:<16}" + "".join(f"{c[lv]:>7} ({c[lv] / n:4.0%})" for lv in LEVELS) + f"{n:>7}")


def timing(rc: Any, freq: dict[str, float]) -> None:
    """Median time per call: a ~12-word query against 5 chunks of ~1,000 characters (squad2 paragraphs)."""
    rows = load("squad2")
    paras = sorted({c["content"] for r in rows for c in r["contexts"] if 900 <= len(c["content"]) <= 1100})[:50]
    queries = [r["query"] for r in rows if len(r["query"].split()) == 12][:20]
    cases = [(q, [{"content": p} for p in paras[i * 5 % 45 : i * 5 % 45 + 5]]) for i, q in enumerate(queries)]
    fns: dict[str, Callable[[str, list[dict[str, Any]]], Any]] = {
        "reference": lambda q, cs: rc.reference_score(q, cs),
        "default": lambda q, cs: rc.default_score(q, cs, freq_table=freq),
    }
    for name, fn in fns.items():
        for q, cs in cases:  # warm caches (stems, n-gram hashes) as a long-running process would have
            fn(q, cs)
        times = []
        for _ in range(5):
            for q, cs in cases:
                t0 = time.perf_counter()
                fn(q, cs)
                times.append(time.perf_counter() - t0)
        chars = statistics.mean(sum(len(c["content"]) for c in cs) for _, cs in cases)
        print(f"  {name:<9}: median {statistics.median(times) * 1e6:8.0f} us per call ({chars:.0f} chars of context)")


def calibration(rows: list[dict[str, Any]], scores: list[float], name: str) -> None:
    """Accuracy if the partial threshold sat at each cut, per fold (refused = below the cut)."""
    print("    calibration (accuracy at partial cut t: all / fold 0 / fold 1)")
    for t in (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65):
        accs = []
        for f in (None, 0, 1):
            sub = [
                (s >= t) == (r["label"] == "sufficient") for s, r in zip(scores, rows) if f in (None, fold_of(name, r))
            ]
            accs.append(sum(sub) / len(sub))
        print(f"      t={t:.2f}: " + " / ".join(f"{a:.3f}" for a in accs))


def main() -> None:
    rc = _load_checker_module()
    freq = rc.load_freq_table()
    for name in ("squad2", "hotpot"):
        rows = load(name)
        for method in ("reference", "default"):
            if method == "reference":
                res = [rc.reference_score(r["query"], r["contexts"], thresholds=THRESHOLDS) for r in rows]
            else:
                res = [
                    rc.default_score(r["query"], r["contexts"], freq_table=freq, thresholds=THRESHOLDS) for r in rows
                ]
            scores = [x["score"] for x in res]
            levels = [x["level"] for x in res]
            print(f"\n== {name} / {method} (thresholds sufficient>={THRESHOLDS[0]}, partial>={THRESHOLDS[1]})")
            report(name, rows, scores, levels, "all   ")
            for f in (0, 1):
                idx = [i for i, r in enumerate(rows) if fold_of(name, r) == f]
                report(name, [rows[i] for i in idx], [scores[i] for i in idx], [levels[i] for i in idx], f"fold {f}")
            confusion(rows, levels)
            if method == "default":
                calibration(rows, scores, name)
    print("\n== time per call (pure Python)")
    timing(rc, freq)


if __name__ == "__main__":
    main()
