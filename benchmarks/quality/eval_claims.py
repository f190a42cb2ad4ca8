"""ClaimCoverage quality on every claim set in ../shared/datasets, at the shipped threshold.

Each row's answer is one claim, cited against the row's chunks (``answer + " [K1]"``), checked by the C++
``ClaimCoverage.check_claim`` through the public API (its ``score``; decisions from ``is_covered``) and by the
plain-Python oracle (``_reference_claims``), which must give the same scores to 1e-12. For each set it prints AUROC,
length-matched AUROC (supported vs unsupported only within one answer word-count bin), accuracy and balanced accuracy
at the threshold, per ``kind`` / ``variant`` and per generator (``model``) where the file has them, next to the
reference mode and the answer-length baseline.

Calibration: the default score maps window coverage ``COVERAGE_AT_THRESHOLD`` (0.81) to 0.3. That constant was fitted
on BEGIN (the coverage cut with the best balanced accuracy there); the "fit" lines show the cut each set would choose
on its own and the balanced accuracy each set gets at the cut fitted on the others, so the transfer is visible.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/quality/eval_claims.py [--threshold 0.3] [--sets begin,halueval]

Datasets: ../shared/datasets relative to the repo root, or $SC_DATASETS (every folder with a ``*claims*.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import sufficient_context as sc
from sufficient_context import _reference_claims as rc

REPO = Path(__file__).resolve().parents[2]
BINS = ((1, 1), (2, 2), (3, 3), (4, 5), (6, 8), (9, 12), (13, 10**9))


def datasets_dir() -> Path:
    env = os.environ.get("SC_DATASETS")
    return Path(env) if env else (REPO / ".." / "shared" / "datasets").resolve()


def claim_sets(names: Sequence[str] | None) -> dict[str, list[dict]]:
    out = {}
    for path in sorted(datasets_dir().glob("*/*claims*.jsonl")):
        name = path.parent.name
        if names and name not in names:
            continue
        out[name] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


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
        rank_sum += (i + 1 + j) / 2 * sum(1 for k in range(i, j) if allv[k][1] == 1)
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
    return num / den if den else float("nan")


def balanced(said: Sequence[bool], labels: Sequence[int]) -> tuple[float, float]:
    """(accuracy, balanced accuracy) of decisions."""
    pos = [d for d, y in zip(said, labels) if y == 1]
    neg = [not d for d, y in zip(said, labels) if y == 0]
    acc = (sum(pos) + sum(neg)) / len(labels)
    if not pos or not neg:
        return acc, float("nan")
    return acc, (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2


def row_line(
    name: str, scores: Sequence[float], said: Sequence[bool] | None, labels: Sequence[int], bins: Sequence[int]
) -> str:
    pos = [s for s, y in zip(scores, labels) if y == 1]
    neg = [s for s, y in zip(scores, labels) if y == 0]
    out = f"  {name:<34} n {len(labels):>5} ({len(pos)}/{len(neg)})  AUROC {auroc(pos, neg):.3f}"
    out += f"  len-matched {length_matched_auroc(scores, labels, bins):.3f}"
    if said is not None:
        acc, bal = balanced(said, labels)
        out += f"  acc {acc:.3f}  bal-acc {bal:.3f}"
    return out


def best_cut(values: Sequence[float], labels: Sequence[int]) -> tuple[float, float]:
    """(cut, balanced accuracy) of the best `value >= cut` rule."""
    best = (0.0, -1.0)
    for cut in sorted(set(values)):
        _, bal = balanced([v >= cut for v in values], labels)
        if bal > best[1]:
            best = (cut, bal)
    return best


# ---- main ------------------------------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--sets", help="comma-separated set names (default: every claim set)")
    args = ap.parse_args()
    data = Path(rc.__file__).parent / "data"
    zipf = rc.load_zipf_table(data / "english_freq.tsv")
    relations = rc.load_relations(data / "english_relations.tsv")
    sets = claim_sets(args.sets.split(",") if args.sets else None)
    default = sc.ClaimCoverage(min_overlap=args.threshold)
    reference = sc.ClaimCoverage(min_overlap=args.threshold, mode="reference")
    print(f"command: python3 {' '.join(sys.argv)}")
    print(f"datasets: {datasets_dir()}; threshold {args.threshold}; COVERAGE_AT_THRESHOLD {rc.COVERAGE_AT_THRESHOLD}")
    coverages: dict[str, tuple[list[float], list[int]]] = {}
    for name, rows in sets.items():
        labels = [1 if r["label"] == "supported" else 0 for r in rows]
        bins = [word_bin(r["answer"]) for r in rows]
        cpp, ref, cov, mismatches = [], [], [], 0
        for r in rows:
            cited = r["answer"] + " " + "".join(f"[{c['id']}]" for c in r["contexts"])
            got = default.check_claim(cited, r["contexts"])
            cpp.append(got)
            ref.append(reference.check_claim(cited, r["contexts"]))
            oracle = max(
                (rc.default_support(r["answer"], c["content"], zipf, relations=relations) for c in r["contexts"]),
                key=lambda s: s.score,
            )
            mismatches += abs(oracle.score - got.score) > 1e-12
            cov.append(oracle.coverage if oracle.score > 0 or oracle.coverage > 0 else 0.0)
        coverages[name] = (cov, labels)
        print(f"\n== {name}: {len(rows)} rows; C++ = oracle on {len(rows) - mismatches} of {len(rows)}")
        scored = [c.score for c in cpp]
        print(row_line("default mode", scored, [c.is_covered for c in cpp], labels, bins))
        print(row_line("reference mode", [c.score for c in ref], [c.is_covered for c in ref], labels, bins))
        print(
            row_line("length only (shorter = supported)", [-len(r["answer"].split()) for r in rows], None, labels, bins)
        )
        for field in ("kind", "variant", "model"):
            values = sorted({str(r[field]) for r in rows if field in r})
            if len(values) < 2:
                continue
            for v in values:
                idx = [i for i, r in enumerate(rows) if str(r.get(field)) == v]
                sub = [labels[i] for i in idx]
                if field in ("kind", "variant"):  # one label per kind: report the rate it is covered
                    covered = sum(cpp[i].is_covered for i in idx) / len(idx)
                    print(f"  {field} = {v:<26} n {len(idx):>5}  covered {covered:.3f}  (label {sub[0]})")
                else:
                    print(row_line(f"{field} = {v}", [scored[i] for i in idx], [cpp[i].is_covered for i in idx],
                                   sub, [bins[i] for i in idx]))  # fmt: skip
    if len(coverages) > 1:
        print("\n== calibration transfer (window coverage alone, contradictions aside):")
        print("   the best cut of each set, and every other set at that cut")
        cuts = {name: best_cut(c, y) for name, (c, y) in coverages.items()}
        for name, (cut, bal) in cuts.items():
            print(f"  fit on {name:<10} cut {cut:.3f} (bal-acc {bal:.3f} there)", end="")
            for other, (c, y) in coverages.items():
                if other != name:
                    print(f"; {other} at that cut {balanced([v >= cut for v in c], y)[1]:.3f}", end="")
            print()


if __name__ == "__main__":
    main()
