"""Thresholds from labelled data ("automatic threshold tuning from ground truth"): the lowest sufficient threshold
whose "sufficient" verdicts reach a target precision, the highest partial threshold under which "insufficient"
verdicts reach it, and the lowest claim threshold (``min_overlap``) whose "covered" verdicts reach it. Written as a
configuration file that ``SufficientContextChecker.from_config``, ``ClaimCoverage.from_config`` and
``GroundedAnswerer.from_config`` read."""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from .metrics import BINS, ScoreHistogram
from .rows import Source
from .runner import evaluate_file
from .summary import Summary


@dataclass(frozen=True)
class Pick:
    """One chosen threshold and what it achieves on the data it was fitted on."""

    threshold: float
    precision: float
    recall: float
    reached: bool  # the target precision was reached (else: the threshold of the best precision)
    rows: int


@dataclass(frozen=True)
class Calibration:
    target_precision: float
    sufficient: Pick | None  # None: no labelled sufficiency rows
    partial: Pick | None
    min_overlap: Pick | None  # None: no labelled claim rows

    def to_config(self) -> dict[str, Any]:
        """The configuration document (only the thresholds that were fitted)."""
        out: dict[str, Any] = {}
        if self.sufficient is not None and self.partial is not None:
            out["sufficient_context"] = {
                "thresholds": {"sufficient": self.sufficient.threshold, "partial": self.partial.threshold}
            }
        if self.min_overlap is not None:
            out["claims"] = {"min_overlap": self.min_overlap.threshold}
        return out

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_config` as JSON under a comment line: YAML too, and read by every loader with or without
        PyYAML (a YAML body written where PyYAML is installed could not be read where it is missing)."""
        header = f"# thresholds fitted by sufficient-context calibrate for precision {self.target_precision}\n"
        body = json.dumps(self.to_config(), indent=2) + "\n"
        if os.path.isdir(path):  # os.replace would fail only after writing, and leave the .tmp file behind
            raise ValueError(f"path: {os.fspath(path)!r} is a folder; give the configuration file to write")
        tmp = f"{os.fspath(path)}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(header + body)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def _edges() -> Any:
    return np.arange(BINS + 1) / BINS


def _lowest_precise(positives: ScoreHistogram, negatives: ScoreHistogram, target: float) -> Pick | None:
    """The lowest t with precision(score >= t) >= target (the most recall at that precision)."""
    p_total, n_total = positives.total, negatives.total
    if p_total == 0 or n_total == 0:
        return None
    # kept[b]: rows in bins >= b, i.e. scoring at least edge b.
    kept_p = np.cumsum(positives.counts[::-1])[::-1]
    kept_n = np.cumsum(negatives.counts[::-1])[::-1]
    kept = kept_p + kept_n
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(kept > 0, kept_p / np.maximum(kept, 1), 0.0)
    ok = np.nonzero((precision >= target) & (kept > 0))[0]
    reached = ok.size > 0
    b = int(ok[0]) if reached else int(np.argmax(precision))
    return Pick(
        round(float(_edges()[b]), 3), float(precision[b]), float(kept_p[b] / p_total), reached, p_total + n_total
    )


def _highest_refusal(
    positives: ScoreHistogram, negatives: ScoreHistogram, target: float, ceiling: float
) -> Pick | None:
    """The highest t <= ceiling whose refusals (score < t) are negatives with precision >= target."""
    p_total, n_total = positives.total, negatives.total
    if p_total == 0 or n_total == 0:
        return None
    below_p = np.concatenate(([0], np.cumsum(positives.counts)))  # below_p[b]: positives scoring < edge b
    below_n = np.concatenate(([0], np.cumsum(negatives.counts)))
    below = below_p + below_n
    precision = np.where(below > 0, below_n / np.maximum(below, 1), 0.0)
    top = math.floor(ceiling * BINS + 1e-9)
    ok = np.nonzero((precision[: top + 1] >= target) & (below[: top + 1] > 0))[0]
    reached = ok.size > 0
    b = int(ok[-1]) if reached else 0
    return Pick(
        round(float(_edges()[b]), 3),
        float(precision[b]) if reached else 1.0,
        float(below_n[b] / n_total),
        reached,
        p_total + n_total,
    )


def calibrate_summary(summary: Summary, target_precision: float = 0.95) -> Calibration:
    """Thresholds from the label histograms of an evaluation summary."""
    if not (isinstance(target_precision, (int, float)) and 0.0 < target_precision <= 1.0):
        raise ValueError(f"target_precision must be in (0, 1]; got {target_precision!r}")
    s = summary.sufficiency.all
    sufficient = _lowest_precise(s.positives, s.negatives, target_precision)
    partial = None
    if sufficient is not None:
        partial = _highest_refusal(s.positives, s.negatives, target_precision, sufficient.threshold)
    c = summary.claims.all
    min_overlap = _lowest_precise(c.positives, c.negatives, target_precision)
    return Calibration(target_precision, sufficient, partial, min_overlap)


def calibrate(
    source: Source,
    target_precision: float = 0.95,
    *,
    checker: SufficientContextChecker | None = None,
    coverage: ClaimCoverage | None = None,
    threads: int | None = None,
) -> Calibration:
    """Fit the thresholds on a labelled JSONL file (rows as for ``sufficient-context eval``: sufficiency rows
    labelled sufficient / insufficient, answer rows labelled supported / unsupported).

    The scores do not depend on the thresholds, so the fitted thresholds applied to the same checker and
    ClaimCoverage settings give the precision reported here (on this data; check it on held-out data).
    """
    if not (isinstance(target_precision, (int, float)) and 0.0 < target_precision <= 1.0):
        raise ValueError(f"target_precision must be in (0, 1]; got {target_precision!r}")
    summary = evaluate_file(source, checker=checker, coverage=coverage, threads=threads, report=False)
    return calibrate_summary(summary, target_precision)
