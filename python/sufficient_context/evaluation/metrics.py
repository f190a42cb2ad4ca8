"""Score/label metrics in constant memory: scores are binned to 0.001, so a summary of any number of rows is a few
fixed-size histograms that add up across files, processes and Ray workers (AUROC from bins counts a tie within a
bin as half, an error of at most the share of pairs that fall in one bin)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

BINS = 1000
SWEEP = tuple(round(0.01 * i, 2) for i in range(101))


def bin_of(score: float) -> int:
    return min(BINS - 1, max(0, int(score * BINS)))


class ScoreHistogram:
    """Counts of scores in [0, 1] by 0.001 bin, for one group of rows (e.g. the positives of one kind)."""

    __slots__ = ("counts",)

    def __init__(self, counts: NDArray[np.int64] | None = None) -> None:
        self.counts = np.zeros(BINS, dtype=np.int64) if counts is None else counts

    def add(self, score: float) -> None:
        self.counts[bin_of(score)] += 1

    def merge(self, other: ScoreHistogram) -> None:
        self.counts += other.counts

    @property
    def total(self) -> int:
        return int(self.counts.sum())

    def mean(self) -> float | None:
        n = self.total
        if n == 0:
            return None
        centres = (np.arange(BINS) + 0.5) / BINS
        return float((self.counts * centres).sum() / n)

    def quantile(self, q: float) -> float | None:
        n = self.total
        if n == 0:
            return None
        cumulative = np.cumsum(self.counts)
        return float(np.searchsorted(cumulative, q * n, side="left") / BINS)

    def coarse(self, bins: int = 20) -> list[int]:
        return [int(x) for x in self.counts.reshape(bins, BINS // bins).sum(axis=1)]

    def at_or_above(self, threshold: float) -> int:
        return int(self.counts[bin_of(threshold) :].sum()) if threshold <= 1.0 else 0


def auroc(positives: ScoreHistogram, negatives: ScoreHistogram) -> float | None:
    """P(a positive scores above a negative), ties in one bin counted half; None without both classes."""
    p, n = positives.total, negatives.total
    if p == 0 or n == 0:
        return None
    below = np.concatenate(([0], np.cumsum(negatives.counts)[:-1]))
    wins = (positives.counts * (below + 0.5 * negatives.counts)).sum()
    return float(wins / (p * n))


def roc_points(positives: ScoreHistogram, negatives: ScoreHistogram) -> tuple[list[float], list[float]]:
    """(false positive rates, true positive rates) for a threshold at every bin edge, from 1 down to 0."""
    tp = np.concatenate(([0], np.cumsum(positives.counts[::-1])))
    fp = np.concatenate(([0], np.cumsum(negatives.counts[::-1])))
    p, n = max(positives.total, 1), max(negatives.total, 1)
    return [float(x) for x in fp / n], [float(x) for x in tp / p]


def sweep(positives: ScoreHistogram, negatives: ScoreHistogram) -> list[dict[str, Any]]:
    """For each threshold of SWEEP: what refusing below it would refuse (of the positives: wrongly) and let through
    (of the negatives: wrongly), and the accuracy."""
    p, n = positives.total, negatives.total
    rows = []
    for t in SWEEP:
        kept_pos = positives.at_or_above(t)
        kept_neg = negatives.at_or_above(t)
        rows.append(
            {
                "threshold": t,
                "positives_refused": (p - kept_pos) / p if p else None,
                "negatives_let_through": kept_neg / n if n else None,
                "accuracy": (kept_pos + n - kept_neg) / (p + n) if p + n else None,
            }
        )
    return rows


class Confusion:
    """Predicted vs labelled counts at the shipped thresholds."""

    __slots__ = ("fn", "fp", "tn", "tp")

    def __init__(self) -> None:
        self.tp = self.fp = self.tn = self.fn = 0

    def add(self, predicted: bool, label: bool) -> None:
        if predicted and label:
            self.tp += 1
        elif predicted:
            self.fp += 1
        elif label:
            self.fn += 1
        else:
            self.tn += 1

    def merge(self, other: Confusion) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.tn += other.tn
        self.fn += other.fn

    @property
    def total(self) -> int:
        return self.tp + self.fp + self.tn + self.fn

    def to_dict(self) -> dict[str, Any]:
        n = self.total
        pos, neg = self.tp + self.fn, self.tn + self.fp
        balanced = None
        if pos and neg:
            balanced = (self.tp / pos + self.tn / neg) / 2
        return {
            "tp": self.tp,
            "fp": self.fp,
            "tn": self.tn,
            "fn": self.fn,
            "accuracy": (self.tp + self.tn) / n if n else None,
            "balanced_accuracy": balanced,
            "precision": self.tp / (self.tp + self.fp) if self.tp + self.fp else None,
            "recall": self.tp / pos if pos else None,
        }
