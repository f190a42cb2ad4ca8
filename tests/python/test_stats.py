"""EvidenceGatingStats: thread-safe counters, bounded recent failures, Prometheus exposition."""

from __future__ import annotations

import enum
import math
import pickle
import re
import sys
import threading

import numpy as np
import pytest

import sufficient_context as sc
from sufficient_context.gate import EvidenceSufficiencyGate
from sufficient_context.stats import LATENCY_BUCKETS_SECONDS, EvidenceGatingStats


def test_fresh_stats() -> None:
    assert EvidenceGatingStats().get_stats() == {
        "total_evaluations": 0,
        "passed": 0,
        "failed": 0,
        "pass_rate": 0.0,
        "avg_max_attention": 0.0,
        "min_max_attention": 0.0,
        "max_max_attention": 0.0,
        "recent_failures": [],
    }


def test_records_give_exact_figures() -> None:
    stats = EvidenceGatingStats()
    stats.record(True, 0.65, "What is murder?")
    stats.record(False, 0.35, "What is theft?")
    stats.record(np.bool_(True), np.float64(0.8))
    stats.record(False, 0.2)
    got = stats.get_stats()
    failures = got.pop("recent_failures")
    assert got == {
        "total_evaluations": 4,
        "passed": 2,
        "failed": 2,
        "pass_rate": 0.5,
        "avg_max_attention": pytest.approx(0.5),
        "min_max_attention": 0.2,
        "max_max_attention": 0.8,
    }
    assert [(f["query"], f["max_attention"]) for f in failures] == [("What is theft?", 0.35), (None, 0.2)]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", f["timestamp"]) for f in failures)


def test_records_straight_from_the_gate() -> None:
    gate, stats = EvidenceSufficiencyGate(0.5), EvidenceGatingStats()
    for attention in ({"a": 0.65, "b": 0.35}, {"a": 0.35, "b": 0.33, "c": 0.32}):
        passes, info = gate.evaluate(attention)
        stats.record(passes, info["max_attention"], query="q")
    assert stats.get_stats()["passed"] == 1
    assert stats.get_stats()["recent_failures"][0]["max_attention"] == 0.35


def test_recent_failures_are_bounded_keeping_the_latest() -> None:
    stats = EvidenceGatingStats(recent_failures_limit=3)
    for i in range(5):
        stats.record(False, 0.1, f"q{i}")
        stats.record(True, 0.9, "ok")
    assert [f["query"] for f in stats.get_stats()["recent_failures"]] == ["q2", "q3", "q4"]
    assert stats.get_stats()["failed"] == 5
    assert EvidenceGatingStats(recent_failures_limit=0).get_stats()["recent_failures"] == []
    assert len(EvidenceGatingStats().get_stats()["recent_failures"]) == 0
    assert EvidenceGatingStats().recent_failures_limit == 100


def test_get_stats_returns_a_copy() -> None:
    stats = EvidenceGatingStats()
    stats.record(False, 0.1, "q")
    stats.get_stats()["recent_failures"][0]["query"] = "changed"
    assert stats.get_stats()["recent_failures"][0]["query"] == "q"


def test_reset() -> None:
    stats = EvidenceGatingStats(recent_failures_limit=7)
    stats.record(False, 0.3, "q", level="insufficient", latency_ms=2.0)
    stats.reset()
    assert stats.get_stats() == EvidenceGatingStats().get_stats()
    assert "sufficient_context_latency_seconds_count 0" in stats.to_prometheus()
    assert stats.recent_failures_limit == 7


def test_bad_records_raise_and_leave_stats_unchanged() -> None:
    stats = EvidenceGatingStats()
    with pytest.raises(ValueError, match=r"max_attention must be a number in \[0, 1\]; got 1.5"):
        stats.record(True, 1.5)
    with pytest.raises(ValueError, match=r"max_attention must be a number in \[0, 1\]; got nan"):
        stats.record(True, math.nan)
    with pytest.raises(TypeError, match="passes must be a bool; got str"):
        stats.record("yes", 0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_attention must be a number; got str"):
        stats.record(True, "0.5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="level must be one of sufficient, partial, insufficient; got 'great'"):
        stats.record(True, 0.5, level="great")
    with pytest.raises(ValueError, match=r"latency_ms must be finite and >= 0; got -1\.0"):
        stats.record(True, 0.5, latency_ms=-1)
    with pytest.raises(TypeError, match="query must be a str or None"):
        stats.record(True, 0.5, query=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="recent_failures_limit must be >= 0"):
        EvidenceGatingStats(recent_failures_limit=-1)
    assert stats.get_stats()["total_evaluations"] == 0


def test_concurrent_records_give_exact_totals() -> None:
    stats = EvidenceGatingStats(recent_failures_limit=50)
    threads, per_thread = 8, 2500
    barrier = threading.Barrier(threads)

    def work(seed: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            passes = (i + seed) % 4 != 0
            stats.record(passes, 0.75 if passes else 0.25, f"t{seed}-{i}", level="partial", latency_ms=1.0)

    workers = [threading.Thread(target=work, args=(s,)) for s in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    got = stats.get_stats()
    total = threads * per_thread
    assert got["total_evaluations"] == total
    assert got["failed"] == total // 4
    assert got["passed"] == total - total // 4
    assert got["avg_max_attention"] == pytest.approx(0.75 * 0.75 + 0.25 * 0.25)
    assert (got["min_max_attention"], got["max_max_attention"]) == (0.25, 0.75)
    assert len(got["recent_failures"]) == 50
    metrics = _parse(stats.to_prometheus())
    assert metrics[("sufficient_context_sufficiency_level_total", (("level", "partial"),))] == total
    assert metrics[("sufficient_context_latency_seconds_count", ())] == total


# -- Prometheus exposition -------------------------------------------------------------------------------------------

_SAMPLE = re.compile(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def _parse(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """A strict parser of the text format 0.0.4: HELP and TYPE precede each family's samples, values are floats."""
    assert text.endswith("\n")
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    types: dict[str, str] = {}
    helped: set[str] = set()
    for line in text.splitlines():
        if line.startswith("# HELP "):
            helped.add(line.split(" ")[2])
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert name in helped, f"TYPE before HELP for {name}"
            assert kind in ("counter", "gauge", "histogram", "summary", "untyped")
            assert name not in types, f"{name} typed twice"
            types[name] = kind
            continue
        match = _SAMPLE.fullmatch(line)
        assert match, f"not a sample line: {line!r}"
        name, labels, value = match.groups()
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert family in types, f"sample {name} before its TYPE line"
        label_pairs = tuple(_LABEL.findall(labels[1:-1])) if labels else ()
        key = (name, label_pairs)
        assert key not in samples, f"duplicate sample {key}"
        samples[key] = float(value)
    return samples


def test_prometheus_exposition_has_every_metric_with_values() -> None:
    stats = EvidenceGatingStats()
    stats.record(True, 0.65, level="sufficient", latency_ms=0.3)
    stats.record(False, 0.35, level="insufficient", latency_ms=7.0)
    stats.record(False, 0.45, level="partial", latency_ms=20_000.0)  # beyond every finite bucket
    stats.record(True, 0.9, level="insufficient")
    text = stats.to_prometheus()
    metrics = _parse(text)
    assert metrics[("sufficient_context_gate_evaluations_total", ())] == 4
    assert metrics[("sufficient_context_gate_passed_total", ())] == 2
    assert metrics[("sufficient_context_gate_failed_total", ())] == 2
    assert metrics[("sufficient_context_gate_pass_rate", ())] == 0.5
    assert metrics[("sufficient_context_gate_avg_max_attention", ())] == pytest.approx(0.5875)
    assert metrics[("sufficient_context_gate_min_max_attention", ())] == 0.35
    assert metrics[("sufficient_context_gate_max_max_attention", ())] == 0.9
    levels = {
        dict(labels)["level"]: v for (name, labels), v in metrics.items() if name.endswith("sufficiency_level_total")
    }
    assert levels == {"sufficient": 1.0, "partial": 1.0, "insufficient": 2.0}
    buckets = [
        (dict(labels)["le"], v) for (name, labels), v in metrics.items() if name.endswith("latency_seconds_bucket")
    ]
    assert [le for le, _ in buckets] == [repr(b) for b in LATENCY_BUCKETS_SECONDS] + ["+Inf"]
    counts = [v for _, v in buckets]
    assert counts == sorted(counts)  # cumulative
    assert dict(buckets)["0.0005"] == 1  # 0.3 ms
    assert dict(buckets)["0.005"] == 1  # 7 ms is above 5 ms
    assert dict(buckets)["0.01"] == 2
    assert dict(buckets)["10.0"] == 2  # 20 s only in +Inf
    assert dict(buckets)["+Inf"] == 3
    assert metrics[("sufficient_context_latency_seconds_count", ())] == 3
    assert metrics[("sufficient_context_latency_seconds_sum", ())] == pytest.approx(20.0073)
    assert "# TYPE sufficient_context_gate_evaluations_total counter" in text
    assert "# TYPE sufficient_context_gate_avg_max_attention gauge" in text
    assert "# TYPE sufficient_context_latency_seconds histogram" in text
    assert all(name.startswith("sufficient_context_") for name, _ in metrics)


def test_prometheus_on_empty_stats_and_custom_namespace() -> None:
    metrics = _parse(EvidenceGatingStats().to_prometheus(namespace="rag_gateway"))
    assert metrics[("rag_gateway_gate_evaluations_total", ())] == 0
    assert metrics[("rag_gateway_gate_avg_max_attention", ())] == 0.0
    assert metrics[("rag_gateway_latency_seconds_bucket", (("le", "+Inf"),))] == 0
    with pytest.raises(ValueError, match="namespace must be a Prometheus metric name prefix"):
        EvidenceGatingStats().to_prometheus(namespace="bad name")


def test_level_accepts_an_enum() -> None:
    class Level(str, enum.Enum):
        SUFFICIENT = "sufficient"
        PARTIAL = "partial"

    stats = EvidenceGatingStats()
    stats.record(False, 0.4, level=Level.PARTIAL)
    metrics = _parse(stats.to_prometheus())
    assert metrics[("sufficient_context_sufficiency_level_total", (("level", "partial"),))] == 1
    assert stats.get_stats()["recent_failures"][0]["level"] == "partial"


def test_repr_and_pickle_keep_configuration_and_counts() -> None:
    stats = EvidenceGatingStats(recent_failures_limit=2)
    assert repr(stats) == "EvidenceGatingStats(recent_failures_limit=2)"
    for i in range(3):
        stats.record(False, 0.1 * (i + 1), f"q{i}", level="insufficient", latency_ms=1.0)
    clone = pickle.loads(pickle.dumps(stats))
    assert clone.get_stats() == stats.get_stats()
    assert clone.to_prometheus() == stats.to_prometheus()
    clone.record(False, 0.9, "q3")
    assert [f["query"] for f in clone.get_stats()["recent_failures"]] == ["q2", "q3"]  # still bounded
    assert stats.get_stats()["total_evaluations"] == 3


# ---------------------------------------------------------------------------------------------------------------------
# SufficiencyStats: the checker's statistics with the original design's metric names
# ---------------------------------------------------------------------------------------------------------------------
def _families(text: str) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    return {s.name: s.value for family in text_string_to_metric_families(text) for s in family.samples}


def test_sufficiency_stats_expose_the_original_metric_names() -> None:
    checker = sc.SufficientContextChecker()
    chunks = [{"id": "IPC_420_0", "content": "Whoever cheats shall be punished with imprisonment for seven years."}]
    stats = sc.SufficiencyStats()
    real = checker.check_sufficiency("punishment for cheating", chunks)
    stats.record(real)
    stats.record("partial", score=0.6, latency_ms=2.0)
    stats.record(sc.Level.INSUFFICIENT, score=0.1, latency_ms=4.0)
    text = stats.to_prometheus()
    values = _families(text)
    assert values["sufficient_context_score_avg"] == pytest.approx((real.score + 0.6 + 0.1) / 3)
    assert values["sufficient_context_insufficient_count"] == 1 + (real.level.value == "insufficient")
    assert values["sufficient_context_partial_count"] == 1 + (real.level.value == "partial")
    assert values["sufficient_context_latency_ms"] == pytest.approx((real.elapsed_ms + 2.0 + 4.0) / 3)
    assert values["sufficient_context_checks"] == 3
    for name in ("score_avg", "insufficient_count", "partial_count", "latency_ms"):
        assert f"# TYPE sufficient_context_{name} gauge" in text
    assert stats.get_stats()["total_checks"] == 3
    stats.reset()
    assert _families(stats.to_prometheus())["sufficient_context_checks"] == 0


def test_sufficiency_stats_are_thread_safe_and_reject_bad_values() -> None:
    stats = sc.SufficiencyStats()

    def work() -> None:
        for _ in range(500):
            stats.record("sufficient", score=1.0, latency_ms=1.0)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert stats.get_stats()["sufficient"] == 4000
    with pytest.raises(ValueError, match="score must be a number in"):
        stats.record("partial", score=float("nan"))
    with pytest.raises(ValueError, match="latency_ms must be finite"):
        stats.record("partial", score=0.5, latency_ms=-1)
    with pytest.raises(ValueError, match="level must be one of"):
        stats.record("maybe", score=0.5)
    assert stats.get_stats()["total_checks"] == 4000
    assert pickle.loads(pickle.dumps(stats)).get_stats() == stats.get_stats()


def test_collectors_register_in_a_users_registry() -> None:
    from prometheus_client import CollectorRegistry, generate_latest

    registry = CollectorRegistry()
    gate, checks = EvidenceGatingStats(), sc.SufficiencyStats()
    registry.register(gate.collector())
    registry.register(checks.collector())
    gate.record(True, 0.8)
    checks.record("partial", score=0.5)
    values = _families(generate_latest(registry).decode())
    assert values["sufficient_context_gate_evaluations_total"] == 1
    assert values["sufficient_context_partial_count"] == 1


def test_a_missing_metrics_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "prometheus_client", None)
    with pytest.raises(ImportError, match=r"pip install 'sufficient-context\[metrics\]'"):
        sc.SufficiencyStats().to_prometheus()
    stats = sc.SufficiencyStats()
    stats.record("partial", score=0.5)  # recording needs no extra
    assert stats.get_stats()["partial"] == 1


def test_the_pipeline_feeds_the_checker_stats() -> None:
    from sufficient_context._samples import SAMPLE_CHUNKS, SAMPLE_QUERY

    stats = sc.SufficiencyStats()
    scored = [dict(c, score=0.8) for c in SAMPLE_CHUNKS]
    sc.GroundedAnswerer(stats=stats).answer(SAMPLE_QUERY, scored)
    assert stats.get_stats()["total_checks"] == 1
