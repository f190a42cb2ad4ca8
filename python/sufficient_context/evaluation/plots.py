"""The report's figures (matplotlib, the ``[report]`` extra), each returned as PNG bytes."""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from .metrics import BINS, ScoreHistogram, roc_points, sweep
from .summary import CheckStats


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, never a window
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            "the evaluation report's plots need matplotlib: pip install 'sufficient-context[report]'"
        ) from None
    return plt


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    _pyplot().close(fig)
    return buffer.getvalue()


def histograms(stats: CheckStats, names: tuple[str, str], threshold: float) -> bytes:
    """Score histograms (50 bins) of the positives and the negatives, or of every row without labels."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    edges = np.linspace(0, 1, 51)
    centres = (edges[:-1] + edges[1:]) / 2

    def coarse(h: ScoreHistogram) -> Any:
        return h.counts.reshape(50, BINS // 50).sum(axis=1)

    if stats.all.positives.total + stats.all.negatives.total:
        ax.bar(centres, coarse(stats.all.positives), width=0.02, alpha=0.6, color="#2e7d32", label=names[0])
        ax.bar(centres, coarse(stats.all.negatives), width=0.02, alpha=0.6, color="#c62828", label=names[1])
    else:
        ax.bar(centres, coarse(stats.scores), width=0.02, color="#1565c0", label="all rows (no labels)")
    ax.axvline(threshold, color="black", linestyle="--", linewidth=1, label=f"threshold {threshold:g}")
    ax.set_xlabel("score")
    ax.set_ylabel("rows")
    ax.set_ylim(bottom=0)  # no rows: an empty axis from 0, not one centred on it
    ax.legend(loc="upper center", fontsize=8)
    return _png(fig)


def roc(stats: CheckStats, auc: float | None) -> bytes:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(3.6, 3.4))
    fpr, tpr = roc_points(stats.all.positives, stats.all.negatives)
    ax.plot(fpr, tpr, color="#1565c0", label=f"AUROC {auc:.3f}" if auc is not None else "AUROC n/a")
    ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("false positive rate")
    ax.set_ylabel("true positive rate")
    ax.legend(loc="lower right", fontsize=8)
    return _png(fig)


def threshold_sweep(stats: CheckStats, names: tuple[str, str], threshold: float) -> bytes:
    """What refusing below each threshold would do: the share of positives refused (wrongly) and of negatives let
    through (wrongly)."""
    plt = _pyplot()
    rows = sweep(stats.all.positives, stats.all.negatives)
    xs = [r["threshold"] for r in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    ax.plot(xs, [r["positives_refused"] for r in rows], color="#c62828", label=f"{names[0]} refused")
    ax.plot(xs, [r["negatives_let_through"] for r in rows], color="#ef6c00", label=f"{names[1]} let through")
    ax.plot(xs, [r["accuracy"] for r in rows], color="#1565c0", linestyle="--", label="accuracy")
    ax.axvline(threshold, color="black", linestyle="--", linewidth=1, label=f"shipped {threshold:g}")
    ax.set_xlabel("threshold (refuse below)")
    ax.set_ylabel("share of rows")
    ax.set_ylim(0, 1)
    ax.legend(loc="center right", fontsize=8)
    return _png(fig)
