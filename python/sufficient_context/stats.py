"""Thread-safe statistics of gate decisions, with a Prometheus text exposition for a gateway's /metrics."""

from __future__ import annotations

import math
import operator
import re
import threading
from collections import deque
from datetime import datetime, timezone
from typing import Any

import numpy as np

__all__ = ["LATENCY_BUCKETS_SECONDS", "LEVELS", "EvidenceGatingStats"]

LEVELS = ("sufficient", "partial", "insufficient")
# Histogram upper bounds in seconds (Prometheus convention); a gate check is sub-millisecond, a full request is not.
LATENCY_BUCKETS_SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def _real(value: Any, name: str) -> float:
    if isinstance(value, bool) or (not isinstance(value, (int, float)) and not hasattr(value, "__float__")):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    return float(value)


def _level_name(level: Any) -> str:
    name = getattr(level, "value", level)  # accepts an enum such as sc.Level
    if name not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}; got {level!r}")
    return str(name)


def _sample(value: float) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value))


class EvidenceGatingStats:
    """Counters and running figures of evidence-gate decisions; safe to update from many threads.

    Parameters
    ----------
    recent_failures_limit : int
        How many of the latest failures `get_stats()["recent_failures"]` keeps (oldest dropped first).
    """

    def __init__(self, recent_failures_limit: int = 100) -> None:
        if isinstance(recent_failures_limit, bool):
            raise TypeError("recent_failures_limit must be an int; got bool")
        limit = operator.index(recent_failures_limit)
        if limit < 0:
            raise ValueError(f"recent_failures_limit must be >= 0; got {limit}")
        self._limit = limit
        self._lock = threading.Lock()
        self._reset_unlocked()

    def _reset_unlocked(self) -> None:
        self._total = 0
        self._passed = 0
        self._sum_attention = 0.0
        self._min_attention = math.inf
        self._max_attention = -math.inf
        self._recent: deque[dict[str, Any]] = deque(maxlen=self._limit)
        self._levels = dict.fromkeys(LEVELS, 0)
        self._latency_buckets = [0] * len(LATENCY_BUCKETS_SECONDS)
        self._latency_count = 0
        self._latency_sum = 0.0

    @property
    def recent_failures_limit(self) -> int:
        return self._limit

    def record(
        self,
        passes: bool,
        max_attention: float,
        query: str | None = None,
        *,
        level: Any = None,
        latency_ms: float | None = None,
    ) -> None:
        """Record one gate decision.

        Parameters
        ----------
        passes : bool
            The gate's decision.
        max_attention : float
            The top normalised attention weight, in [0, 1].
        query : str, optional
            Kept with the decision in `recent_failures` when it failed.
        level : {"sufficient", "partial", "insufficient"}, optional
            The sufficiency level of the same request (a str or `sc.Level`), counted per level.
        latency_ms : float, optional
            How long the request's check took, for the latency histogram.
        """
        if not isinstance(passes, (bool, np.bool_)):
            raise TypeError(f"passes must be a bool; got {type(passes).__name__}")
        attention = _real(max_attention, "max_attention")
        if not 0.0 <= attention <= 1.0:
            raise ValueError(f"max_attention must be a number in [0, 1]; got {attention!r}")
        if query is not None and not isinstance(query, str):
            raise TypeError(f"query must be a str or None; got {type(query).__name__}")
        level_name = None if level is None else _level_name(level)
        seconds = None
        if latency_ms is not None:
            latency = _real(latency_ms, "latency_ms")
            if not (latency >= 0.0 and math.isfinite(latency)):
                raise ValueError(f"latency_ms must be finite and >= 0; got {latency!r}")
            seconds = latency / 1000.0
        failure = None
        if not passes:
            failure = {
                "query": query,
                "max_attention": attention,
                "timestamp": datetime.now(timezone.utc).isoformat(),
            }
            if level_name is not None:
                failure["level"] = level_name
        with self._lock:
            self._total += 1
            self._passed += 1 if passes else 0
            self._sum_attention += attention
            self._min_attention = min(self._min_attention, attention)
            self._max_attention = max(self._max_attention, attention)
            if failure is not None:
                self._recent.append(failure)
            if level_name is not None:
                self._levels[level_name] += 1
            if seconds is not None:
                self._latency_count += 1
                self._latency_sum += seconds
                for i, bound in enumerate(LATENCY_BUCKETS_SECONDS):
                    if seconds <= bound:
                        self._latency_buckets[i] += 1
                        break

    def get_stats(self) -> dict[str, Any]:
        """total_evaluations, passed, failed, pass_rate, avg/min/max_max_attention (0.0 before any record),
        recent_failures (oldest first)."""
        with self._lock:
            total, passed = self._total, self._passed
            return {
                "total_evaluations": total,
                "passed": passed,
                "failed": total - passed,
                "pass_rate": passed / total if total else 0.0,
                "avg_max_attention": self._sum_attention / total if total else 0.0,
                "min_max_attention": self._min_attention if total else 0.0,
                "max_max_attention": self._max_attention if total else 0.0,
                "recent_failures": [dict(f) for f in self._recent],
            }

    def reset(self) -> None:
        """Forget every recorded decision (the configuration stays)."""
        with self._lock:
            self._reset_unlocked()

    def to_prometheus(self, namespace: str = "sufficient_context") -> str:
        """Prometheus text exposition (format 0.0.4) of the statistics, for a gateway's /metrics endpoint.

        Serve it with content type ``text/plain; version=0.0.4; charset=utf-8``.
        """
        if not isinstance(namespace, str) or not _METRIC_NAME.fullmatch(namespace):
            raise ValueError(f"namespace must be a Prometheus metric name prefix; got {namespace!r}")
        with self._lock:
            total, passed = self._total, self._passed
            avg = self._sum_attention / total if total else 0.0
            low = self._min_attention if total else 0.0
            high = self._max_attention if total else 0.0
            levels = dict(self._levels)
            buckets = list(self._latency_buckets)
            latency_count, latency_sum = self._latency_count, self._latency_sum
        lines: list[str] = []

        def metric(name: str, kind: str, help_text: str, samples: list[tuple[str, str, float]]) -> None:
            full = f"{namespace}_{name}"
            lines.append(f"# HELP {full} {help_text}")
            lines.append(f"# TYPE {full} {kind}")
            for suffix, labels, value in samples:
                lines.append(f"{full}{suffix}{labels} {_sample(value) if isinstance(value, float) else value}")

        metric("gate_evaluations_total", "counter", "Evidence-gate evaluations recorded.", [("", "", total)])
        metric("gate_passed_total", "counter", "Evaluations that passed the evidence gate.", [("", "", passed)])
        metric("gate_failed_total", "counter", "Evaluations refused for insufficient evidence.",
               [("", "", total - passed)])  # fmt: skip
        metric("gate_pass_rate", "gauge", "Fraction of evaluations that passed (0 before any).",
               [("", "", passed / total if total else 0.0)])  # fmt: skip
        metric("gate_avg_max_attention", "gauge", "Average top attention weight: the gate's score average.",
               [("", "", avg)])  # fmt: skip
        metric("gate_min_max_attention", "gauge", "Lowest top attention weight recorded.", [("", "", low)])
        metric("gate_max_max_attention", "gauge", "Highest top attention weight recorded.", [("", "", high)])
        metric("sufficiency_level_total", "counter", "Requests per sufficiency level.",
               [("", f'{{level="{name}"}}', levels[name]) for name in LEVELS])  # fmt: skip
        cumulative = 0
        samples: list[tuple[str, str, float]] = []
        for bound, count in zip(LATENCY_BUCKETS_SECONDS, buckets):
            cumulative += count
            samples.append(("_bucket", f'{{le="{_sample(bound)}"}}', cumulative))
        samples += [("_bucket", '{le="+Inf"}', latency_count), ("_sum", "", latency_sum), ("_count", "", latency_count)]
        metric("latency_seconds", "histogram", "Latency of the checks recorded with latency_ms.", samples)
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"EvidenceGatingStats(recent_failures_limit={self._limit!r})"

    def __getstate__(self) -> dict[str, Any]:
        # A snapshot of the counts travels with the configuration, so workers' stats can be shipped back.
        with self._lock:
            state = {k: v for k, v in self.__dict__.items() if k != "_lock"}
            state["_recent"] = list(self._recent)
            state["_levels"] = dict(self._levels)
            state["_latency_buckets"] = list(self._latency_buckets)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._recent = deque(state["_recent"], maxlen=self._limit)
        self._lock = threading.Lock()
