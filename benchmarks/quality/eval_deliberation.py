"""Precision, recall and F1 of the deliberation meta-discussion detector on tests/data/deliberation_contributions.jsonl.

Each row is one expert contribution (a sentence or several) labelled ``meta`` (talk about missing context) or not;
``hard_negative`` marks substantive rows that use the vocabulary of meta-discussion ("It depends on the load: at 10k
rps use Kafka"). The detector is ``is_context_insufficient_discussion`` with the shipped phrase lists.

Honest numbers: rows with an even ``id`` are the fit half, odd ids the held-out half. The contribution threshold is
fitted on the fit half (best F1 over a grid); both halves are reported at the fitted threshold and at the shipped
default (0.5). The phrase lists were written before the labelled set and adjusted only on errors of the fit half.

    PYTHONPATH=build/dev-NAME/pkg python3 benchmarks/quality/eval_deliberation.py [--errors]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sufficient_context.deliberation import is_context_insufficient_discussion

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "deliberation_contributions.jsonl"
GRID = tuple(i / 20 for i in range(20))  # 0.0 .. 0.95: "meta" is score > threshold


def load(path: Path = DATA) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def prf(rows: Sequence[dict[str, Any]], scores: Sequence[float], threshold: float) -> tuple[float, float, float]:
    tp = sum(1 for r, s in zip(rows, scores) if r["meta"] and s > threshold)
    fp = sum(1 for r, s in zip(rows, scores) if not r["meta"] and s > threshold)
    fn = sum(1 for r, s in zip(rows, scores) if r["meta"] and s <= threshold)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def evaluate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Scores every row; fits the threshold on the even ids; P/R/F1 per half at the fitted and default thresholds."""
    scores = [is_context_insufficient_discussion(r["text"]).score for r in rows]
    halves = {"fit": [i for i, r in enumerate(rows) if r["id"] % 2 == 0]}
    halves["held_out"] = [i for i, r in enumerate(rows) if r["id"] % 2 == 1]
    halves["all"] = list(range(len(rows)))

    def on(name: str, threshold: float) -> tuple[float, float, float]:
        idx = halves[name]
        return prf([rows[i] for i in idx], [scores[i] for i in idx], threshold)

    fitted = max(GRID, key=lambda t: (on("fit", t)[2], -abs(t - 0.5)))
    hard = [s for r, s in zip(rows, scores) if r.get("hard_negative")]
    return {
        "rows": len(rows),
        "meta_rows": sum(1 for r in rows if r["meta"]),
        "fitted_threshold": fitted,
        "results": {(name, t): on(name, t) for name in halves for t in (fitted, 0.5)},
        "hard_negatives": len(hard),
        "hard_negative_false_positives": sum(1 for s in hard if s > 0.5),
        "scores": scores,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list the misclassified rows of the fit half")
    args = parser.parse_args(argv)
    rows = load()
    report = evaluate(rows)
    print(
        f"{report['rows']} rows ({report['meta_rows']} meta); threshold fitted on the even ids: "
        f"{report['fitted_threshold']:.2f}"
    )
    print(f"{'half':<10} {'threshold':>9} {'precision':>9} {'recall':>7} {'F1':>6}")
    for (name, threshold), (p, r, f1) in report["results"].items():
        print(f"{name:<10} {threshold:>9.2f} {p:>9.3f} {r:>7.3f} {f1:>6.3f}")
    print(f"hard negatives scored meta at 0.5: {report['hard_negative_false_positives']} of {report['hard_negatives']}")
    if args.errors:
        for row, score in zip(rows, report["scores"]):
            if row["id"] % 2 == 0 and (score > 0.5) != row["meta"]:
                print(f"  id {row['id']:>3} label {'meta' if row['meta'] else 'sub '} score {score:.2f}: {row['text']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
