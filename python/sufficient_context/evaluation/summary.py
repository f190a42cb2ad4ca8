"""What an evaluation run adds up: per check (sufficiency, claims) the level counts, the score distribution, and,
for labelled rows, AUROC, the confusion matrix at the shipped thresholds and a threshold sweep, overall and per
``kind``. Everything is a fixed-size accumulator that merges, so the summary of a file does not grow with it: at most
MAX_KINDS kinds are kept by name (the first in sorted order, whatever the order of rows and merges), the rest pooled."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from .metrics import Confusion, ScoreHistogram, auroc, sweep


class KindStats:
    __slots__ = ("confusion", "negatives", "positives", "rows")

    def __init__(self) -> None:
        self.rows = 0
        self.positives = ScoreHistogram()
        self.negatives = ScoreHistogram()
        self.confusion = Confusion()

    def add(self, score: float, predicted: bool, label: bool | None) -> None:
        self.rows += 1
        if label is None:
            return
        (self.positives if label else self.negatives).add(score)
        self.confusion.add(predicted, label)

    def merge(self, other: KindStats) -> None:
        self.rows += other.rows
        self.positives.merge(other.positives)
        self.negatives.merge(other.negatives)
        self.confusion.merge(other.confusion)


class CheckStats:
    """One check's accumulators. `outcomes` counts levels (sufficiency) or grounded / not grounded (claims)."""

    # Each kind keeps two 1,000-bin histograms: a column of distinct values used as `kind` (an id, say) took 368 MB
    # and a report table 412,000 px tall at 10,000 kinds. Past this many, the kinds after them in sorted order are
    # pooled; keeping the smallest names makes the split the same in any order of rows and merges.
    MAX_KINDS = 100

    def __init__(self) -> None:
        self.all = KindStats()
        self.scores = ScoreHistogram()
        self.outcomes: Counter[str] = Counter()
        self.by_kind: dict[str, KindStats] = {}
        self.other_kinds = KindStats()  # the rows of kinds past MAX_KINDS
        self._largest: str | None = None  # max(by_kind) once it is full
        # Exact sums: the same total in any order of rows and merges (local runner, Ray workers).
        self.attribution_sum = Fraction(0)
        self.attribution_rows = 0
        self.supported_sum = Fraction(0)

    def add(self, score: float, outcome: str, predicted: bool, label: bool | None, kind: str | None) -> None:
        self.scores.add(score)
        self.outcomes[outcome] += 1
        self.all.add(score, predicted, label)
        if kind is not None:
            stats = self.by_kind.get(kind)
            if stats is None:  # not setdefault: a KindStats per row costs more than the rest of the row
                if self._largest is not None and kind > self._largest:
                    stats = self.other_kinds
                else:
                    stats = self.by_kind[kind] = KindStats()
                    self._pool_past_max()
            stats.add(score, predicted, label)

    def _pool_past_max(self) -> None:
        """Moves the kinds past the first MAX_KINDS (in sorted order) into `other_kinds`."""
        if len(self.by_kind) < self.MAX_KINDS:
            return
        for kind in sorted(self.by_kind)[self.MAX_KINDS :]:
            self.other_kinds.merge(self.by_kind.pop(kind))
        self._largest = max(self.by_kind)

    def merge(self, other: CheckStats) -> None:
        self.all.merge(other.all)
        self.scores.merge(other.scores)
        self.outcomes.update(other.outcomes)
        for kind, stats in other.by_kind.items():
            self.by_kind.setdefault(kind, KindStats()).merge(stats)
        self.other_kinds.merge(other.other_kinds)
        self._largest = None
        self._pool_past_max()
        self.attribution_sum += other.attribution_sum
        self.attribution_rows += other.attribution_rows
        self.supported_sum += other.supported_sum

    def kind_auroc(self, kind: KindStats) -> float | None:
        # A kind holding one class only is scored against the other class of every kind ("vs unanswerable").
        positives = kind.positives if kind.positives.total else self.all.positives
        negatives = kind.negatives if kind.negatives.total else self.all.negatives
        if kind.positives.total == 0 and kind.negatives.total == 0:
            return None
        return auroc(positives, negatives)

    def to_dict(self, claims: bool) -> dict[str, Any]:
        labelled = self.all.positives.total + self.all.negatives.total
        out: dict[str, Any] = {
            "rows": self.all.rows,
            ("grounded" if claims else "levels"): dict(sorted(self.outcomes.items())),
            "score": {
                "mean": self.scores.mean(),
                "p10": self.scores.quantile(0.1),
                "p50": self.scores.quantile(0.5),
                "p90": self.scores.quantile(0.9),
                "histogram_20_bins": self.scores.coarse(20),
            },
            "labelled": labelled,
        }
        if claims:
            out["attribution_coverage_mean"] = (
                float(self.attribution_sum / self.attribution_rows) if self.attribution_rows else None
            )
            out["rows_with_citations"] = self.attribution_rows
            out["supported_ratio_mean"] = float(self.supported_sum / self.all.rows) if self.all.rows else None
        if labelled:
            out["auroc"] = auroc(self.all.positives, self.all.negatives)
            out["confusion"] = self.all.confusion.to_dict()
            out["sweep"] = sweep(self.all.positives, self.all.negatives)
        if self.by_kind:
            out["by_kind"] = {
                kind: {
                    "rows": stats.rows,
                    "labelled": stats.positives.total + stats.negatives.total,
                    "auroc": self.kind_auroc(stats),
                    "confusion": stats.confusion.to_dict(),
                }
                for kind, stats in sorted(self.by_kind.items())
            }
        if self.other_kinds.rows:
            pooled = self.other_kinds
            out["other_kinds"] = {
                "rows": pooled.rows,
                "labelled": pooled.positives.total + pooled.negatives.total,
                "auroc": self.kind_auroc(pooled),
                "confusion": pooled.confusion.to_dict(),
            }
        return out


class Summary:
    """The whole run: both checks, the bad rows (the first 20 quoted), the thresholds used."""

    MAX_EXAMPLES = 20
    MAX_ERROR_CHARS = 300  # a message can quote the row (a 1 MB label): summary.json and the report stay small

    def __init__(self, thresholds: dict[str, float]) -> None:
        self.thresholds = thresholds
        self.sufficiency = CheckStats()
        self.claims = CheckStats()
        self.rows = 0
        self.bad_rows = 0
        self.bad_examples: list[dict[str, Any]] = []

    def bad(self, line: int, message: str) -> None:
        self.bad_rows += 1
        if len(self.bad_examples) < self.MAX_EXAMPLES:
            if len(message) > self.MAX_ERROR_CHARS:
                message = message[: self.MAX_ERROR_CHARS - 1] + "…"
            self.bad_examples.append({"line": line, "error": message})

    def merge(self, other: Summary) -> None:
        self.sufficiency.merge(other.sufficiency)
        self.claims.merge(other.claims)
        self.rows += other.rows
        self.bad_rows += other.bad_rows
        room = self.MAX_EXAMPLES - len(self.bad_examples)
        self.bad_examples.extend(other.bad_examples[:room])

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rows": self.rows,
            "bad_rows": self.bad_rows,
            "bad_row_examples": self.bad_examples,
            "thresholds": self.thresholds,
            "sufficiency": self.sufficiency.to_dict(claims=False),
        }
        if self.claims.all.rows:
            out["claims"] = self.claims.to_dict(claims=True)
        return out
