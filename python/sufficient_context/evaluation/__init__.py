"""Evaluation of RAG turns at scale with the package's own checks: stream a JSONL file, write per-row results, a
summary (level counts, score distribution, AUROC / accuracy / confusion per ``kind``) and an HTML report with plots;
fit thresholds from labels (:func:`calibrate`). The CLI's ``eval`` and ``calibrate`` commands call these."""

from __future__ import annotations

from .calibrate import Calibration, Pick, calibrate, calibrate_summary
from .rows import Row, RowError, read_rows
from .runner import evaluate_file, evaluate_rows
from .summary import Summary

__all__ = [
    "Calibration",
    "Pick",
    "Row",
    "RowError",
    "Summary",
    "calibrate",
    "calibrate_summary",
    "evaluate_file",
    "evaluate_rows",
    "read_rows",
]
