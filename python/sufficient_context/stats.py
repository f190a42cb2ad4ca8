"""Thread-safe statistics of gate decisions and sufficiency checks, exposed through prometheus_client for /metrics."""

from __future__ import annotations

import math
import operator
import re
import threading
from collections import deque
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from typing import Any

from ._args import as_float, bool_types

__all__ = ["LATENCY_BUCKETS_SECONDS", "LEVELS", "EvidenceGatingStats", "SufficiencyStats"]

LEVELS = ("sufficient", "partial", "insufficient")
# Histogram upper bounds in seconds (Prometheus convention); a gate check is sub-millisecond, a full request is not.
LATENCY_BUCKETS_SECONDS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def _real(value: Any, name: str) -> float:
    if isinstance(value, bool) or (not isinstance(value, (int, float)) and not hasattr(value, "__float__")):
        raise TypeError(f"{name} must be a number; got {type(value).__name__}")
    return as_float(value, name)


def _level_name(level: Any) -> str:
    name = getattr(level, "value", level)  # accepts an enum such as sc.Level
    if name not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}; got {level!r}")
    return str(name)


def _check_namespace(namespace: Any) -> None:
    if not isinstance(namespace, str) or not _METRIC_NAME.fullmatch(namespace):
        raise ValueError(f"namespace must be a Prometheus metric name prefix; got {namespace!r}")


def _prometheus_core() -> Any:
    """prometheus_client.core, imported on first use (the ``metrics`` extra)."""
    try:
        from prometheus_client import core
    except ImportError:
        raise ImportError(
            "Prometheus exposition needs prometheus_client: pip install 'sufficient-context[metrics]'"
        ) from None
    return core


class _Collector:
    """A prometheus_client custom collector: yields the families its callback builds at each scrape."""

    def __init__(self, families: Callable[[], list[Any]]) -> None:
        self._families = families

    def collect(self) -> Iterator[Any]:
        yield from self._families()


def _exposition(collector: _Collector) -> str:
    _prometheus_core()  # the clear ImportError first
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    return generate_latest(registry).decode("utf-8")


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
        if not isinstance(passes, bool_types()):
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
        """Prometheus text exposition (format 0.0.4, written by ``prometheus_client``) for a gateway's /metrics.

        Serve it with content type ``text/plain; version=0.0.4; charset=utf-8``, or register :meth:`collector` in
        your own ``CollectorRegistry``. Needs the ``metrics`` extra (``prometheus_client``).
        """
        return _exposition(self.collector(namespace))

    def collector(self, namespace: str = "sufficient_context") -> Any:
        """A ``prometheus_client`` collector reading these statistics at each scrape:
        ``registry.register(stats.collector())``. Metrics: ``<ns>_gate_evaluations_total``, ``_gate_passed_total``,
        ``_gate_failed_total`` (counters), ``_gate_pass_rate``, ``_gate_avg_max_attention``,
        ``_gate_min_max_attention``, ``_gate_max_max_attention`` (gauges), ``_sufficiency_level_total{level}`` and
        the ``_latency_seconds`` histogram."""
        _check_namespace(namespace)
        return _Collector(lambda: self._families(namespace))

    def _families(self, namespace: str) -> list[Any]:
        core = _prometheus_core()
        with self._lock:
            total, passed = self._total, self._passed
            avg = self._sum_attention / total if total else 0.0
            low = self._min_attention if total else 0.0
            high = self._max_attention if total else 0.0
            levels = dict(self._levels)
            buckets = list(self._latency_buckets)
            latency_count, latency_sum = self._latency_count, self._latency_sum
        n = namespace
        families = [
            core.CounterMetricFamily(f"{n}_gate_evaluations", "Evidence-gate evaluations recorded.", value=total),
            core.CounterMetricFamily(f"{n}_gate_passed", "Evaluations that passed the evidence gate.", value=passed),
            core.CounterMetricFamily(
                f"{n}_gate_failed", "Evaluations refused for insufficient evidence.", value=total - passed
            ),
            core.GaugeMetricFamily(
                f"{n}_gate_pass_rate",
                "Fraction of evaluations that passed (0 before any).",
                value=passed / total if total else 0.0,
            ),
            core.GaugeMetricFamily(
                f"{n}_gate_avg_max_attention", "Average top attention weight: the gate's score average.", value=avg
            ),
            core.GaugeMetricFamily(f"{n}_gate_min_max_attention", "Lowest top attention weight recorded.", value=low),
            core.GaugeMetricFamily(f"{n}_gate_max_max_attention", "Highest top attention weight recorded.", value=high),
        ]
        per_level = core.CounterMetricFamily(
            f"{n}_sufficiency_level", "Requests per sufficiency level.", labels=["level"]
        )
        for name in LEVELS:
            per_level.add_metric([name], levels[name])
        families.append(per_level)
        cumulative = 0
        histogram: list[tuple[str, float]] = []
        for bound, count in zip(LATENCY_BUCKETS_SECONDS, buckets):
            cumulative += count
            histogram.append((repr(bound), cumulative))
        histogram.append(("+Inf", latency_count))
        families.append(
            core.HistogramMetricFamily(
                f"{n}_latency_seconds",
                "Latency of the checks recorded with latency_ms.",
                buckets=histogram,
                sum_value=latency_sum,
            )
        )
        return families

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


class SufficiencyStats:
    """Counters and running figures of sufficiency checks, beside the gate's; safe to update from many threads.

    The Prometheus exposition carries the original design's metric names: ``sufficient_context_score_avg``,
    ``sufficient_context_insufficient_count``, ``sufficient_context_partial_count``,
    ``sufficient_context_latency_ms`` (average check latency in milliseconds), plus
    ``sufficient_context_sufficient_count`` and ``sufficient_context_checks`` (all gauges, so the names appear
    exactly as written).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reset_unlocked()

    def _reset_unlocked(self) -> None:
        self._levels = dict.fromkeys(LEVELS, 0)
        self._score_sum = 0.0
        self._score_min = math.inf
        self._score_max = -math.inf
        self._latency_sum = 0.0
        self._latency_count = 0

    def record(self, result: Any, score: float | None = None, latency_ms: float | None = None) -> None:
        """Record one check: a `SufficiencyResult` (its level, score and elapsed_ms), or a level with `score`.

        Raises ValueError for an unknown level, a score outside [0, 1] or NaN, a negative or non-finite latency.
        """
        level = getattr(result, "level", result)
        name = _level_name(level)
        if score is None:
            score = getattr(result, "score", None)
        if score is None:
            raise ValueError("score is required when the result is a level name")
        value = _real(score, "score")
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"score must be a number in [0, 1]; got {value!r}")
        if latency_ms is None:
            latency_ms = getattr(result, "elapsed_ms", None)
        latency = None
        if latency_ms is not None:
            latency = _real(latency_ms, "latency_ms")
            if not (latency >= 0.0 and math.isfinite(latency)):
                raise ValueError(f"latency_ms must be finite and >= 0; got {latency!r}")
        with self._lock:
            self._levels[name] += 1
            self._score_sum += value
            self._score_min = min(self._score_min, value)
            self._score_max = max(self._score_max, value)
            if latency is not None:
                self._latency_sum += latency
                self._latency_count += 1

    def get_stats(self) -> dict[str, Any]:
        """total_checks, count per level (sufficient, partial, insufficient), score_avg / score_min / score_max and
        latency_ms_avg (0.0 before any record)."""
        with self._lock:
            total = sum(self._levels.values())
            return {
                "total_checks": total,
                **self._levels,
                "score_avg": self._score_sum / total if total else 0.0,
                "score_min": self._score_min if total else 0.0,
                "score_max": self._score_max if total else 0.0,
                "latency_ms_avg": self._latency_sum / self._latency_count if self._latency_count else 0.0,
            }

    def reset(self) -> None:
        """Forget every recorded check."""
        with self._lock:
            self._reset_unlocked()

    def to_prometheus(self, namespace: str = "sufficient_context") -> str:
        """Prometheus text exposition (written by ``prometheus_client``; needs the ``metrics`` extra)."""
        return _exposition(self.collector(namespace))

    def collector(self, namespace: str = "sufficient_context") -> Any:
        """A ``prometheus_client`` collector reading these statistics at each scrape."""
        _check_namespace(namespace)
        return _Collector(lambda: self._families(namespace))

    def _families(self, namespace: str) -> list[Any]:
        core = _prometheus_core()
        stats = self.get_stats()
        n = namespace
        gauges = (
            ("score_avg", "Average sufficiency score.", stats["score_avg"]),
            ("insufficient_count", "Checks rated insufficient.", stats["insufficient"]),
            ("partial_count", "Checks rated partial.", stats["partial"]),
            ("sufficient_count", "Checks rated sufficient.", stats["sufficient"]),
            ("latency_ms", "Average sufficiency-check latency in milliseconds.", stats["latency_ms_avg"]),
            ("checks", "Sufficiency checks recorded.", stats["total_checks"]),
        )
        return [core.GaugeMetricFamily(f"{n}_{name}", text, value=value) for name, text, value in gauges]

    def __repr__(self) -> str:
        return "SufficiencyStats()"

    def __getstate__(self) -> dict[str, Any]:
        with self._lock:
            state = {k: v for k, v in self.__dict__.items() if k != "_lock"}
            state["_levels"] = dict(self._levels)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
