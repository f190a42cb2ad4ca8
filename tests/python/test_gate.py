"""EvidenceSufficiencyGate (attention gate) and evaluate_retrieval (retrieval gate), API.md section 3."""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import random
import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sufficient_context import _reference_gate as ref
from sufficient_context._core import gate as core
from sufficient_context.assembly import LOW_CONFIDENCE_BANNER
from sufficient_context.chunks import Chunk
from sufficient_context.gate import (
    NO_EVIDENCE_MESSAGE,
    EvidenceSufficiencyGate,
    RetrievalDecision,
    evaluate_retrieval,
)

IPC_CHUNKS = [
    {
        "id": "IPC_302",
        "content": "Whoever commits murder shall be punished with death or imprisonment for life.",
        "score": 0.41,
        "metadata": {"statute": "IPC", "section": "302", "source_path": "laws/ipc.pdf", "page_number": 120},
    },
    {
        "id": "IPC_34",
        "content": "Acts done by several persons in furtherance of common intention.",
        "score": 0.38,
        "metadata": {"statute": "IPC", "section": "34", "heading": "Common intention", "page_number": 14},
    },
]


# -- decisions -----------------------------------------------------------------------------------------------------


def test_original_design_example_passes_with_margin() -> None:
    passes, info = EvidenceSufficiencyGate(threshold=0.5).evaluate({"IPC_302": 0.65, "IPC_34": 0.35})
    assert passes is True
    assert info["passes"] is True
    assert info["status"] == "evidence_sufficient"
    assert info["max_attention"] == 0.65
    assert info["max_chunk_id"] == "IPC_302"
    assert info["sufficiency"] == 0.65
    assert info["threshold"] == 0.5
    assert info["margin"] == 0.15  # exactly, as the original design's test asserts (0.65 - 0.5 rounded to 12 places)
    assert info["evidence_count"] == 2
    assert "refusal" not in info


def test_exactly_at_threshold_passes_but_fails_in_strict_mode() -> None:
    attention = {"a": 0.5, "b": 0.3, "c": 0.2}
    assert EvidenceSufficiencyGate(0.5).evaluate(attention)[0] is True
    passes, info = EvidenceSufficiencyGate(0.5, strict_mode=True).evaluate(attention)
    assert passes is False
    assert info["margin"] == 0.0
    assert info["refusal"]["deficit"] == 0.0
    assert info["refusal"]["reason"] == (
        "Highest attention was 50.0% but threshold is 50.0%. Strict mode requires more than the threshold."
    )
    assert EvidenceSufficiencyGate(0.5, strict_mode=True).evaluate({"a": 0.51, "b": 0.49})[0] is True


def test_weights_are_normalised_to_sum_one() -> None:
    passes, info = EvidenceSufficiencyGate(0.5).evaluate({"a": 2, "b": 2})
    assert passes is True
    assert info["max_attention"] == 0.5
    assert info["max_chunk_id"] == "a"  # first of equal weights
    passes, info = EvidenceSufficiencyGate(0.5).evaluate([30.0, 10.0, 10.0])
    assert info["max_attention"] == 0.6
    assert info["max_chunk_id"] == "S1"
    passes, info = EvidenceSufficiencyGate(0.5).evaluate(np.array([1, 3], dtype=np.int32))
    assert info["max_attention"] == 0.75
    assert info["max_chunk_id"] == "S2"


def test_sequence_maps_to_chunk_ids_or_positions() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    assert gate.evaluate([0.2, 0.8])[1]["max_chunk_id"] == "S2"
    assert gate.evaluate(np.array([0.2, 0.8]), IPC_CHUNKS)[1]["max_chunk_id"] == "IPC_34"
    assert gate.evaluate((0.9, 0.1), ["plain text chunk", "another"])[1]["max_chunk_id"] == "S1"
    with pytest.raises(ValueError, match="attention_distribution has 3 weights but evidence_chunks has 2 chunks"):
        gate.evaluate([0.2, 0.3, 0.5], IPC_CHUNKS)


def test_mapping_with_chunks_leaves_out_chunks_as_zero_and_rejects_unknown_ids() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    passes, info = gate.evaluate({"IPC_34": 1.0}, IPC_CHUNKS)
    assert passes is True
    assert info["max_chunk_id"] == "IPC_34"
    assert info["max_attention"] == 1.0
    assert info["evidence_count"] == 2
    with pytest.raises(ValueError, match=r"names 1 id\(s\) that are not evidence chunk ids: \['IPC_420'\]"):
        gate.evaluate({"IPC_302": 0.5, "IPC_420": 0.5}, IPC_CHUNKS)
    with pytest.raises(ValueError, match=r"evidence_chunks\[1\]\.id 'X' duplicates evidence_chunks\[0\]\.id"):
        gate.evaluate({"X": 1.0}, [{"id": "X", "content": "a"}, {"id": "X", "content": "b"}])
    # Integer keys match string ids.
    assert (
        gate.evaluate({1: 0.9, 2: 0.1}, [{"id": 1, "content": "a"}, {"id": 2, "content": "b"}])[1]["max_chunk_id"]
        == "1"
    )


def test_generators_and_positional_ids() -> None:
    passes, info = EvidenceSufficiencyGate(0.5).evaluate(w for w in [0.1, 0.2, 0.7])
    assert (passes, info["max_chunk_id"]) == (True, "S3")
    _, info = EvidenceSufficiencyGate(0.99).evaluate(np.arange(12, dtype=float))
    assert [e["chunk_id"] for e in info["refusal"]["evidence_summary"]] == ["S12", "S11", "S10", "S9", "S8"]
    decision = evaluate_retrieval(np.linspace(0.0, 1.0, 11))
    assert decision.passing_chunks == [f"S{i}" for i in range(3, 12)]  # 0.2 itself passes


def test_array_input_is_not_modified_and_gate_is_not_mutated() -> None:
    weights = np.array([0.1, 0.7, 0.2])
    gate = EvidenceSufficiencyGate(0.5, mode="top_k_sum", top_k=2)
    before = repr(gate)
    gate.evaluate(weights, query="q", answer="a")
    np.testing.assert_array_equal(weights, [0.1, 0.7, 0.2])
    assert repr(gate) == before


def test_thousand_chunks_in_one_call_matches_reference() -> None:
    rng = np.random.default_rng(3)
    weights = rng.random(1000)
    weights[417] = 400.0
    chunks = [Chunk(content=f"chunk {i}", id=f"C{i}") for i in range(1000)]
    passes, info = EvidenceSufficiencyGate(0.5).evaluate(weights, chunks)
    expected = ref.attention_gate(weights.tolist(), 0.5)
    assert info["max_chunk_id"] == "C417"
    assert (passes, info["max_attention"], info["sufficiency"]) == (
        expected.passes,
        expected.max_attention,
        expected.sufficiency,
    )


def test_top_k_sum_mode_and_reason_names_the_mass() -> None:
    attention = {"a": 0.3, "b": 0.25, "c": 0.25, "d": 0.2}
    passes, info = EvidenceSufficiencyGate(0.6, mode="top_k_sum", top_k=2).evaluate(attention)
    assert passes is False
    assert info["sufficiency"] == pytest.approx(0.55, abs=1e-12)
    assert info["max_attention"] == pytest.approx(0.3, abs=1e-12)
    assert info["top_k"] == 2
    assert info["mode"] == "top_k_sum"
    assert info["refusal"]["reason"] == "Top-2 attention mass was 55.0% but threshold is 60.0%."
    assert info["refusal"]["deficit"] == pytest.approx(0.05, abs=1e-12)
    assert "top 2 evidence chunks together received 55.0%" in info["refusal"]["explanation"]
    passes, info = EvidenceSufficiencyGate(0.75, mode="top_k_sum", top_k=3).evaluate(attention)
    assert passes is True
    assert info["sufficiency"] == pytest.approx(0.8, abs=1e-12)
    # top_k >= n covers all the attention: exactly 1.
    assert EvidenceSufficiencyGate(1.0, mode="top_k_sum", top_k=9).evaluate([0.1, 0.2, 0.3])[1]["sufficiency"] == 1.0


@pytest.mark.parametrize("attention", [{}, [], np.zeros(0), [0.0, 0.0], {"a": 0.0}])
def test_empty_or_all_zero_fails_whatever_the_threshold(attention: object) -> None:
    passes, info = EvidenceSufficiencyGate(threshold=0.0).evaluate(attention)
    assert passes is False
    assert info["max_chunk_id"] is None
    assert info["max_attention"] == 0.0
    assert info["sufficiency"] == 0.0
    refusal = info["refusal"]
    assert refusal["reason"] == (
        "Highest attention was 0.0% but threshold is 0.0%. The attention distribution is empty or all zero."
    )
    assert "gives no weight to any evidence chunk" in refusal["suggestions"][0]
    assert len(refusal["suggestions"]) >= 3


def test_disabled_gate_always_passes_and_says_what_it_would_do() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    gate.disable()
    assert gate.is_enabled() is False
    passes, info = gate.evaluate({"a": 0.35, "b": 0.33, "c": 0.32})
    assert passes is True
    assert info["passes"] is True
    assert info["status"] == "gating_disabled"
    assert info["would_pass"] is False
    assert "refusal" not in info
    assert gate.evaluate({"a": 0.9, "b": 0.1})[1]["would_pass"] is True
    gate.enable()
    assert gate.is_enabled() is True
    assert gate.evaluate({"a": 0.35, "b": 0.33, "c": 0.32})[0] is False
    assert EvidenceSufficiencyGate(enabled=False).is_enabled() is False


# -- refusal -------------------------------------------------------------------------------------------------------


def test_refusal_structure() -> None:
    gate = EvidenceSufficiencyGate(0.6)
    passes, info = gate.evaluate({"IPC_302": 0.35, "IPC_34": 0.3}, IPC_CHUNKS, query="What is the punishment?")
    assert passes is False
    refusal = info["refusal"]
    assert set(refusal) >= {
        "status",
        "reason",
        "max_attention",
        "required_threshold",
        "deficit",
        "evidence_count",
        "evidence_summary",
        "suggestions",
        "explanation",
    }
    assert refusal["status"] == "insufficient_evidence"
    s = 0.35 / (0.35 + 0.3)
    assert refusal["max_attention"] == pytest.approx(s, abs=1e-15)
    assert refusal["required_threshold"] == 0.6
    assert refusal["deficit"] == round(0.6 - s, 12)
    assert refusal["evidence_count"] == 2
    assert refusal["reason"] == "Highest attention was 53.8% but threshold is 60.0%."
    assert refusal["evidence_summary"] == [
        {
            "chunk_id": "IPC_302",
            "attention": info["max_attention"],
            "statute": "IPC",
            "section": "302",
            "source_path": "laws/ipc.pdf",
            "page": 120,
            "score": 0.41,
        },
        {
            "chunk_id": "IPC_34",
            "attention": pytest.approx(0.3 / 0.65, abs=1e-15),
            "statute": "IPC",
            "section": "34",
            "heading": "Common intention",
            "page": 14,
            "score": 0.38,
        },
    ]
    assert len(refusal["suggestions"]) >= 3
    assert json.loads(json.dumps(info)) == info  # JSON-serialisable as is


def test_reason_states_both_percentages_exactly() -> None:
    _, info = EvidenceSufficiencyGate(0.5).evaluate({"IPC_302": 0.35, "a": 0.33, "b": 0.32})
    assert info["refusal"]["reason"] == "Highest attention was 35.0% but threshold is 50.0%."
    # Close numbers get more digits rather than reading the same.
    _, info = EvidenceSufficiencyGate(0.5).evaluate({"a": 0.4996, "b": 0.2502, "c": 0.2502})
    assert info["refusal"]["reason"] == "Highest attention was 49.96% but threshold is 50.00%."


def test_suggestions_follow_what_went_wrong() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    # Two chunks (too few), weak similarity (best 0.41) and nearly even attention: all three specific suggestions.
    _, info = EvidenceSufficiencyGate(0.9).evaluate([0.55, 0.45], IPC_CHUNKS)
    suggestions = info["refusal"]["suggestions"]
    assert suggestions[0].startswith("Retrieve more evidence: only 2 chunk(s)")
    assert "spread almost evenly over 2 chunks (top chunk 55.0%, 50.0% each if uniform)" in suggestions[1]
    assert "match the question weakly (best similarity 0.41)" in suggestions[2]
    assert len(suggestions) == 3

    # Many chunks with a clear but insufficient peak and good similarity: only generic suggestions.
    chunks = [{"content": f"text {i}", "score": 0.9} for i in range(10)]
    _, info = gate.evaluate([0.4] + [0.6 / 9] * 9, chunks)
    suggestions = info["refusal"]["suggestions"]
    assert len(suggestions) == 3
    assert not any("Retrieve more" in s or "evenly" in s or "weakly" in s for s in suggestions)

    # Flat attention over many chunks.
    _, info = gate.evaluate(np.ones(20), query="q")
    assert (
        "spread almost evenly over 20 chunks (top chunk 5.0%, 5.0% each if uniform)"
        in info["refusal"]["suggestions"][0]
    )
    assert len(info["refusal"]["suggestions"]) >= 3


def test_explanation_mentions_source_query_and_answer() -> None:
    gate = EvidenceSufficiencyGate(0.6)
    _, info = gate.evaluate([0.3, 0.35], IPC_CHUNKS, query="What is murder?")
    assert info["refusal"]["explanation"] == (
        "The evidence gate declined to answer 'What is murder?': the strongest evidence chunk, IPC_34 (IPC, 34), "
        "received 53.8% of the model's attention, below the required 60.0%. An answer resting on evidence this thin "
        "is likely to be ungrounded, so the system declines instead of guessing."
    )
    assert info["refusal"]["query"] == "What is murder?"
    _, info = gate.evaluate([0.35, 0.3], IPC_CHUNKS, query="What is murder?", answer="Murder is ...")
    assert info["refusal"]["explanation"].startswith(
        "The evidence gate withheld the generated answer to 'What is murder?': the strongest evidence chunk, "
        "IPC_302 (IPC, 302), received 53.8%"
    )
    _, info = gate.evaluate([0.5, 0.5, 0.0])
    assert info["refusal"]["explanation"].startswith("The evidence gate declined to answer: the strongest evidence")


def test_evidence_summary_is_capped_and_ordered_by_attention() -> None:
    weights = np.arange(1, 21, dtype=float)  # C20 gets the most attention
    chunks = [{"id": f"C{i + 1}", "content": "x"} for i in range(20)]
    _, info = EvidenceSufficiencyGate(0.5).evaluate(weights, chunks)
    summary = info["refusal"]["evidence_summary"]
    assert [e["chunk_id"] for e in summary] == ["C20", "C19", "C18", "C17", "C16"]
    assert summary[0]["attention"] == info["max_attention"]
    assert info["refusal"]["evidence_count"] == 20


# -- errors --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attention", "message"),
    [
        ([0.5, -0.25], r"attention_distribution\[1\] is -0.25: weights must be finite and non-negative"),
        ([math.nan, 1.0], r"attention_distribution\[0\] is nan"),
        (np.array([1.0, 2.0, np.inf]), r"attention_distribution\[2\] is inf"),
        ({"IPC_302": 0.5, "IPC_34": -0.1}, r"attention_distribution\['IPC_34'\] is -0.1"),
        ({"a": math.nan}, r"attention_distribution\['a'\] is nan"),
        (np.ones((2, 2)), r"attention_distribution must be 1-D; got shape \(2, 2\)"),
    ],
)
def test_bad_weights_raise_value_error_naming_them(attention: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EvidenceSufficiencyGate().evaluate(attention)


def test_bad_weight_in_mapping_with_chunks_names_the_id() -> None:
    with pytest.raises(ValueError, match=r"attention_distribution\['IPC_34'\] is -1.0"):
        EvidenceSufficiencyGate().evaluate({"IPC_34": -1.0}, IPC_CHUNKS)


@pytest.mark.parametrize(
    ("attention", "message"),
    [
        ("0.5", "got str"),
        (None, "got NoneType"),
        (0.7, "got float"),
        (["0.5", "0.5"], "must hold numbers"),
        ({"a": "0.5"}, r"attention_distribution\['a'\] must be a number; got str"),
        ({"a": True}, r"attention_distribution\['a'\] must be a number; got bool"),
        ({("a",): 1.0}, "keys must be chunk ids"),
        ([True, False], "must hold numbers"),
        ({"a": 0.5, "b": True}, r"attention_distribution\['b'\] must be a number; got bool"),
        ({"a": 0.5, "b": None}, r"attention_distribution\['b'\] must be a number; got NoneType"),
        ({"a": 0.5, "b": [0.1, 0.2]}, r"attention_distribution\['b'\] must be a number; got list"),
        ([0.5, [0.1, 0.2]], "must be a 1-D sequence of numbers"),
    ],
)
def test_wrong_types_raise_type_error(attention: object, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        EvidenceSufficiencyGate().evaluate(attention)


def test_query_and_answer_must_be_strings() -> None:
    with pytest.raises(TypeError, match="query must be a str"):
        EvidenceSufficiencyGate().evaluate([1.0], query=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="answer must be a str"):
        EvidenceSufficiencyGate().evaluate([1.0], answer=3)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-0.01, 1.5, math.nan, math.inf])
def test_thresholds_outside_unit_interval_raise(bad: float) -> None:
    with pytest.raises(ValueError, match=r"threshold must be a number in \[0, 1\]; got"):
        EvidenceSufficiencyGate(threshold=bad)
    gate = EvidenceSufficiencyGate(0.6)
    with pytest.raises(ValueError, match="threshold"):
        gate.set_threshold(bad)
    assert gate.get_threshold() == 0.6  # a failed set leaves the gate as it was


def test_set_threshold_changes_the_decision() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    attention = {"a": 0.65, "b": 0.35}
    assert gate.evaluate(attention)[0] is True
    gate.set_threshold(0.7)
    assert gate.get_threshold() == 0.7
    assert gate.evaluate(attention)[0] is False
    gate.set_threshold(1)
    assert gate.get_threshold() == 1.0
    assert isinstance(gate.get_threshold(), float)


def test_bad_configuration() -> None:
    with pytest.raises(ValueError, match="mode must be 'max' or 'top_k_sum'; got 'mean'"):
        EvidenceSufficiencyGate(mode="mean")
    with pytest.raises(ValueError, match=r"top_k must be an int in \[1, 2147483647\]; got 0"):
        EvidenceSufficiencyGate(top_k=0)
    with pytest.raises(ValueError, match=r"top_k must be an int in \[1, 2147483647\]; got -3"):
        EvidenceSufficiencyGate(top_k=-3)
    with pytest.raises(TypeError, match="top_k must be an int; got float"):
        EvidenceSufficiencyGate(top_k=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="threshold must be a number; got str"):
        EvidenceSufficiencyGate(threshold="0.5")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="threshold must be a number; got bool"):
        EvidenceSufficiencyGate().set_threshold(True)
    with pytest.raises(TypeError, match="strict_mode must be a bool"):
        EvidenceSufficiencyGate(strict_mode="yes")  # type: ignore[arg-type]


def test_core_threshold_check() -> None:
    core.check_threshold(0.0)
    core.check_threshold(1.0)
    with pytest.raises(ValueError, match=r"min_score must be a number in \[0, 1\]; got 2$"):
        core.check_threshold(2.0, "min_score")


# -- objects -------------------------------------------------------------------------------------------------------


def test_repr_shows_configuration() -> None:
    gate = EvidenceSufficiencyGate(0.7, strict_mode=True, mode="top_k_sum", top_k=3)
    assert (
        repr(gate)
        == "EvidenceSufficiencyGate(threshold=0.7, strict_mode=True, mode='top_k_sum', top_k=3, enabled=True)"
    )
    gate.disable()
    assert repr(gate).endswith("enabled=False)")
    assert (gate.threshold, gate.strict_mode, gate.mode, gate.top_k) == (0.7, True, "top_k_sum", 3)


def test_gate_pickles_its_configuration() -> None:
    gate = EvidenceSufficiencyGate(0.7, strict_mode=True, mode="top_k_sum", top_k=3)
    gate.disable()
    clone = pickle.loads(pickle.dumps(gate))
    assert repr(clone) == repr(gate)
    attention = [0.3, 0.3, 0.2, 0.2]
    assert clone.evaluate(attention) == gate.evaluate(attention)
    clone.enable()  # the clone has its own lock and state
    assert gate.is_enabled() is False


def test_concurrent_evaluations_and_setters_never_mix_configurations() -> None:
    gate = EvidenceSufficiencyGate(0.5)
    attention = np.array([0.6, 0.4])
    errors: list[str] = []
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            gate.set_threshold(0.7)
            gate.set_threshold(0.5)

    def check() -> None:
        for _ in range(2000):
            passes, info = gate.evaluate(attention)
            if passes != (info["sufficiency"] >= info["threshold"]) or info["threshold"] not in (0.5, 0.7):
                errors.append(repr(info))

    flipper = threading.Thread(target=flip)
    flipper.start()
    checkers = [threading.Thread(target=check) for _ in range(4)]
    for t in checkers:
        t.start()
    for t in checkers:
        t.join()
    stop.set()
    flipper.join()
    assert errors == []


# -- C++ == reference ------------------------------------------------------------------------------------------------

_weights = st.lists(
    st.one_of(
        st.floats(min_value=0.0, max_value=1e6, allow_nan=False, allow_infinity=False),
        st.just(0.0),
        st.floats(min_value=1e300, max_value=1.7e308),
        st.floats(min_value=0.0, max_value=1e-300),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    weights=_weights,
    threshold=st.floats(min_value=0.0, max_value=1.0),
    strict=st.booleans(),
    mode=st.sampled_from(["max", "top_k_sum"]),
    top_k=st.integers(min_value=1, max_value=45),
)
def test_core_matches_reference_bit_for_bit(
    weights: list[float], threshold: float, strict: bool, mode: str, top_k: int
) -> None:
    got = core.evaluate_attention(
        np.array(weights, dtype=np.float64), core.AttentionConfig(threshold, strict, mode, top_k)
    )
    want = ref.attention_gate(weights, threshold, strict, mode, top_k)
    assert (got.passes, got.empty, got.max_attention, got.argmax, got.sufficiency, got.margin) == tuple(want)


@settings(max_examples=200, deadline=None)
@given(
    weights=_weights,
    threshold=st.floats(min_value=0.0, max_value=1.0),
    strict=st.booleans(),
)
def test_public_gate_matches_reference(weights: list[float], threshold: float, strict: bool) -> None:
    passes, info = EvidenceSufficiencyGate(threshold, strict_mode=strict).evaluate(weights)
    want = ref.attention_gate(weights, threshold, strict)
    assert passes == want.passes
    assert info["max_attention"] == want.max_attention
    assert info["margin"] == round(want.margin, 12)  # reported rounded; the decision used the exact value
    assert info["max_chunk_id"] == (None if want.argmax is None else f"S{want.argmax + 1}")


@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(st.floats(min_value=-1.0, max_value=1.0), max_size=30),
    min_score=st.floats(min_value=-0.5, max_value=1.0),
    min_chunks=st.integers(min_value=1, max_value=5),
    weak_extra=st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0)),
)
def test_retrieval_core_matches_reference(
    scores: list[float], min_score: float, min_chunks: int, weak_extra: float | None
) -> None:
    weak = None if weak_extra is None else min_score + weak_extra
    got = core.evaluate_retrieval(np.array(scores, dtype=np.float64), min_score, min_chunks, weak)
    want = ref.retrieval_gate(scores, min_score, min_chunks, weak)
    assert (got.outcome, got.max_score, got.passing.tolist()) == (want.outcome, want.max_score, want.passing)


def test_reference_rejects_what_core_rejects() -> None:
    for bad in ([-1.0], [math.nan], [math.inf]):
        with pytest.raises(ValueError, match=r"attention_distribution\[0\]"):
            ref.attention_gate(bad)
        with pytest.raises(ValueError, match=r"attention_distribution\[0\]"):
            core.evaluate_attention(np.array(bad), core.AttentionConfig())


# -- retrieval gate --------------------------------------------------------------------------------------------------


def test_retrieval_no_evidence_cases() -> None:
    gate = EvidenceSufficiencyGate()
    empty = gate.evaluate_retrieval([])
    assert empty.outcome == "no_evidence"
    assert empty.message == "No supporting documentation found in indexed sources."
    assert empty.message == NO_EVIDENCE_MESSAGE
    assert empty.max_score == 0.0
    assert empty.passing_chunks == []
    assert empty.reason == "No chunks were retrieved."
    assert empty.allows_answer is False

    low = gate.evaluate_retrieval([0.19, 0.05])
    assert low.outcome == "no_evidence"
    assert low.max_score == 0.19
    assert low.reason == "Best similarity 0.19 is below min_score 0.20."

    few = gate.evaluate_retrieval(
        [{"id": "A", "content": "x", "score": 0.9}, {"id": "B", "content": "y", "score": 0.1}]
    )
    assert few.outcome == "no_evidence"
    assert few.message == NO_EVIDENCE_MESSAGE
    assert few.passing_chunks == ["A"]
    assert few.reason == "Only 1 chunk(s) reach min_score 0.20 (best similarity 0.90); min_chunks is 2."


def test_retrieval_normal_passing_chunks_in_input_order() -> None:
    chunks = [
        {"id": "c", "content": "x", "score": 0.3},
        {"id": "a", "content": "x", "score": 0.1},
        {"id": "b", "content": "x", "score": 0.83},
        {"id": "d", "content": "x", "score": 0.2},
    ]
    decision = evaluate_retrieval(chunks)
    assert decision.outcome == "normal"
    assert decision.message == ""
    assert decision.max_score == 0.83
    assert decision.passing_chunks == ["c", "b", "d"]
    assert decision.chunk_count == 4
    assert decision.allows_answer is True
    assert decision.reason == "3 chunk(s) reach min_score 0.20 (best similarity 0.83)."


def test_retrieval_weak_score() -> None:
    decision = evaluate_retrieval([0.3, 0.25], weak_score=0.5)
    assert decision.outcome == "weak_evidence"
    assert decision.message == LOW_CONFIDENCE_BANNER
    assert decision.allows_answer is True
    assert decision.passing_chunks == ["S1", "S2"]
    assert evaluate_retrieval([0.5, 0.25], weak_score=0.5).outcome == "normal"
    assert evaluate_retrieval([0.3], weak_score=0.5).outcome == "no_evidence"
    with pytest.raises(ValueError, match=r"weak_score must be >= min_score \(0.2\); got 0.1"):
        evaluate_retrieval([0.3], weak_score=0.1)


def test_retrieval_accepts_arrays_documents_and_nodes() -> None:
    assert evaluate_retrieval(np.array([0.9, 0.8, 0.1], dtype=np.float32)).passing_chunks == ["S1", "S2"]

    class Document:  # LangChain-like
        def __init__(self, text: str, score: float) -> None:
            self.page_content = text
            self.metadata = {"score": score}

    assert evaluate_retrieval([Document("a", 0.4), Document("b", 0.5)], min_chunks=2).outcome == "normal"
    assert evaluate_retrieval([Chunk("x", id="Z", score=0.7)], min_chunks=1).passing_chunks == ["Z"]


def test_retrieval_errors() -> None:
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\] is nan: scores must be finite"):
        evaluate_retrieval([0.5, math.nan])
    with pytest.raises(ValueError, match=r"chunks_or_scores\[0\] is inf"):
        evaluate_retrieval(np.array([np.inf]))
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\] \(id 'S2'\) has no score"):
        evaluate_retrieval([{"content": "a", "score": 0.5}, {"content": "b"}])
    with pytest.raises(ValueError, match=r"chunks_or_scores\[0\].score must be finite"):
        evaluate_retrieval([{"content": "a", "score": math.nan}])
    with pytest.raises(TypeError, match=r"chunks_or_scores\[1\] must be a number"):
        evaluate_retrieval([0.5, "0.4"])
    with pytest.raises(ValueError, match=r"min_chunks must be an int in \[1, 2147483647\]; got 0"):
        evaluate_retrieval([0.5], min_chunks=0)
    with pytest.raises(ValueError, match="min_score must be a finite number; got nan"):
        evaluate_retrieval([0.5], min_score=math.nan)
    with pytest.raises(TypeError, match="got dict"):
        evaluate_retrieval({"content": "a", "score": 0.5})


def test_retrieval_decision_object() -> None:
    decision = evaluate_retrieval([0.9, 0.3], weak_score=0.95)
    assert isinstance(decision, RetrievalDecision)
    data = decision.to_dict()
    assert data["outcome"] == "weak_evidence"
    assert data["passing_chunks"] == ["S1", "S2"]
    assert json.loads(json.dumps(data)) == data
    assert data == dataclasses.asdict(decision)  # every field, the lazy reason and message too
    assert data["passing_chunks"] is not decision.passing_chunks  # a copy: editing it leaves the decision alone
    assert pickle.loads(pickle.dumps(decision)) == decision
    assert "RetrievalDecision(outcome='weak_evidence'" in repr(decision)
    assert "<table>" in decision._repr_html_()


def test_disabled_gate_lets_retrieval_through_and_keeps_its_decision() -> None:
    gate = EvidenceSufficiencyGate(enabled=False)
    decision = gate.evaluate_retrieval([0.1])
    assert decision.outcome == "normal"
    assert decision.message == ""
    assert decision.would_outcome == "no_evidence"
    assert decision.gating_enabled is False
    assert decision.reason.startswith("Gating disabled; the retrieval gate would have decided no_evidence: ")
    normal = gate.evaluate_retrieval([0.5, 0.6])
    assert (normal.outcome, normal.would_outcome, normal.gating_enabled) == ("normal", "normal", False)
    enabled = EvidenceSufficiencyGate().evaluate_retrieval([0.1])
    assert (enabled.outcome, enabled.would_outcome, enabled.gating_enabled) == ("no_evidence", "no_evidence", True)


@pytest.mark.parametrize(
    ("weights", "threshold", "margin"),
    [
        ({"a": 0.65, "b": 0.35}, 0.5, 0.15),
        ({"a": 0.7, "b": 0.3}, 0.6, 0.1),
        ({"a": 0.3, "b": 0.3, "c": 0.4}, 0.5, -0.1),
    ],
)
def test_margin_and_deficit_are_exact_for_decimal_inputs(
    weights: dict[str, float], threshold: float, margin: float
) -> None:
    passes, info = EvidenceSufficiencyGate(threshold=threshold).evaluate(weights)
    assert info["margin"] == margin
    assert passes is (margin >= 0)
    if not passes:
        assert info["refusal"]["deficit"] == -margin


def test_a_decision_subclass_keeps_its_own_fields_in_to_dict() -> None:
    @dataclasses.dataclass(frozen=True)
    class Tagged(RetrievalDecision):
        tag: str = "mine"

    decision = evaluate_retrieval([0.9, 0.3])
    tagged = Tagged(**{f.name: getattr(decision, f.name) for f in dataclasses.fields(decision)})
    assert tagged.to_dict() == {**decision.to_dict(), "tag": "mine"} == dataclasses.asdict(tagged)


def test_a_list_of_chunks_is_decided_as_any_other_sequence_of_them() -> None:
    # Validated Chunks that all carry a score (what the pipeline passes on every request) take a fast path; a tuple
    # of the same chunks takes the general one. Both give the same decision, or the same error, on random lists.
    rng = random.Random(5)
    for _ in range(3000):
        chunks = [
            Chunk(
                content="x",
                id=f"d{rng.randint(0, 5) if rng.random() < 0.2 else 10 + i}",
                score=rng.choice([None, 0.1, 0.2, 0.5, 0.95, -0.3, 0.19999, 1.0, 1e300]),
            )
            for i in range(rng.randint(1, 6))
        ]
        if rng.random() < 0.7:
            chunks = [c if c.score is not None else dataclasses.replace(c, score=0.4) for c in chunks]
        arguments = (rng.choice([0.2, 0.5, -1.0]), rng.choice([1, 2, 3]), rng.choice([None, 0.9, 2.0]))

        assert _outcome(chunks, arguments) == _outcome(tuple(chunks), arguments)


def _outcome(given: Any, arguments: tuple[Any, ...]) -> Any:
    """The decision as a dict, or the error's text."""
    try:
        decision = evaluate_retrieval(given, *arguments)
    except ValueError as exc:
        return str(exc)
    return dataclasses.asdict(decision)
