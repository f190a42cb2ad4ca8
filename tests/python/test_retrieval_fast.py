"""The retrieval gate's one-call C path (`_core.gate.retrieval_decision`) and the decision's lazily made texts: the
same decisions, reasons and errors as the general path, for every input the C path takes and every one it hands
back."""

from __future__ import annotations

import copy
import dataclasses
import math
import pickle
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llama_index.core.schema import ImageNode, NodeWithScore, TextNode

from sufficient_context import _reference_gate as ref
from sufficient_context._core import gate as core
from sufficient_context.assembly import LOW_CONFIDENCE_BANNER
from sufficient_context.chunks import check_unique_ids
from sufficient_context.gate import (
    NO_EVIDENCE_MESSAGE,
    EvidenceSufficiencyGate,
    RetrievalDecision,
    evaluate_retrieval,
)


def expected(
    scores: list[float],
    ids: list[str] | None = None,
    min_score: float = 0.2,
    min_chunks: int = 2,
    weak: float | None = None,
) -> RetrievalDecision:
    """The decision as the gate built it before the C path, texts formatted eagerly (the oracle for the lazy ones)."""
    ids = ids if ids is not None else [f"S{i + 1}" for i in range(len(scores))]
    want = ref.retrieval_gate(scores, min_score, min_chunks, weak)
    passing = [ids[i] for i in want.passing]
    best, outcome = want.max_score, want.outcome
    if outcome == "no_evidence":
        message = NO_EVIDENCE_MESSAGE
        if not ids:
            reason = "No chunks were retrieved."
        elif not passing:
            reason = f"Best similarity {best:.2f} is below min_score {min_score:.2f}."
        else:
            reason = (
                f"Only {len(passing)} chunk(s) reach min_score {min_score:.2f} (best similarity {best:.2f}); "
                f"min_chunks is {min_chunks}."
            )
    elif outcome == "weak_evidence":
        assert weak is not None
        message = LOW_CONFIDENCE_BANNER
        reason = (
            f"{len(passing)} chunk(s) reach min_score {min_score:.2f}, but the best similarity {best:.2f} is below "
            f"weak_score {weak:.2f}: answer under the low-confidence banner."
        )
    else:
        message = ""
        reason = f"{len(passing)} chunk(s) reach min_score {min_score:.2f} (best similarity {best:.2f})."
    return RetrievalDecision(
        outcome, message, best, passing, reason, min_score, min_chunks, weak, len(ids), outcome, gating_enabled=True
    )


def fast(obj: Any, min_score: Any = 0.2, min_chunks: Any = 2, weak: Any = None) -> RetrievalDecision | None:
    return core.retrieval_decision(RetrievalDecision, obj, min_score, min_chunks, weak)


def nodes(scores: list[Any], ids: list[str] | None = None) -> list[NodeWithScore]:
    ids = ids if ids is not None else [f"n{i}" for i in range(len(scores))]
    return [NodeWithScore(node=TextNode(text=f"t{i}", id_=ids[i]), score=s) for i, s in enumerate(scores)]


def assigned(values: list[Any]) -> list[NodeWithScore]:
    """Nodes whose scores were set after validation (pydantic does not check assignments), so any type gets in."""
    out = nodes([0.1] * len(values))
    for node, value in zip(out, values):
        node.score = value
    return out


def error_of(call: Callable[[], Any]) -> str:
    try:
        call()
    except Exception as exc:  # the test compares whatever is raised
        return f"{type(exc).__name__}: {exc}"
    return "no error"


SCORES = st.lists(st.floats(min_value=-1.0, max_value=1.0, width=32), max_size=25)
PARAMS = st.tuples(
    st.floats(min_value=-0.5, max_value=1.0),
    st.integers(min_value=1, max_value=5),
    st.one_of(st.none(), st.floats(min_value=0.0, max_value=1.0)),
)


# -- what the C path takes -------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(scores=SCORES, params=PARAMS)
def test_bare_scores_decide_and_read_as_before(scores: list[float], params: tuple[float, int, float | None]) -> None:
    min_score, min_chunks, extra = params
    weak = None if extra is None else min_score + extra
    want = expected(scores, None, min_score, min_chunks, weak)
    for obj in (scores, tuple(scores), np.array(scores), np.array(scores, dtype=np.float32)):
        decision = fast(obj, min_score, min_chunks, weak)
        assert decision is not None  # taken by the C path
        assert decision == want
        assert evaluate_retrieval(obj, min_score, min_chunks, weak) == want


@settings(max_examples=100, deadline=None)
@given(scores=SCORES, params=PARAMS)
def test_nodes_decide_as_dict_chunks_do(scores: list[float], params: tuple[float, int, float | None]) -> None:
    min_score, min_chunks, extra = params
    weak = None if extra is None else min_score + extra
    ids = [f"n{i}" for i in range(len(scores))]
    as_dicts = [{"id": i, "content": "x", "score": s} for i, s in zip(ids, scores)]  # the general path
    want = evaluate_retrieval(as_dicts, min_score, min_chunks, weak)
    assert want == expected(scores, ids, min_score, min_chunks, weak)
    if scores:
        assert fast(nodes(scores), min_score, min_chunks, weak) == want
    assert evaluate_retrieval(nodes(scores), min_score, min_chunks, weak) == want


def test_arrays_of_every_layout() -> None:
    values = [0.9, -0.2, 0.35, 0.2, 0.05, 0.7]
    base = np.array(values)
    for array in (base[::2], base[::-1], base[::-3], np.asfortranarray(base), np.array(values, dtype=np.float32)[::2]):
        assert fast(array) == expected([float(x) for x in array.astype(np.float64)])
    one_float64_element = np.zeros(1, dtype=[("pad", "u1"), ("x", "<f8")])["x"]  # not aligned
    assert fast(one_float64_element) is None
    assert evaluate_retrieval(one_float64_element) == expected([0.0])
    for other in (np.array(values, dtype=">f8"), np.array(values, dtype=np.float16), np.array(values, np.longdouble)):
        assert fast(other) is None  # the general path converts them
        assert evaluate_retrieval(other) == expected([float(x) for x in other.astype(np.float64)])
    assert fast(np.array([1, 0, 2])) is None
    assert evaluate_retrieval(np.array([1, 0, 2])) == expected([1.0, 0.0, 2.0])


def test_empty_one_and_many_scores() -> None:
    for empty in ([], (), np.zeros(0)):
        decision = fast(empty)
        assert decision == expected([])
        assert (decision.max_score, decision.passing_chunks, decision.reason) == (0.0, [], "No chunks were retrieved.")
    assert fast([0.82]) == expected([0.82])
    assert fast([1, 0, 0.5, 3], 0, 1) == expected([1.0, 0.0, 0.5, 3.0], None, 0.0, 1)  # exact ints are numbers
    many = np.linspace(-1.0, 1.0, 1500)  # above the size that releases the GIL
    decision = fast(many)
    assert decision == expected(many.tolist())
    assert decision.passing_chunks[-1] == "S1500"


def test_nodes_with_unicode_ids_mixed_node_classes_tuples_and_generators() -> None:
    ids = ["é", "🙂", "\ud800", "plain"]  # a lone surrogate is a valid str id: nothing is encoded
    scored = nodes([0.5, 0.6, 0.1, 0.3], ids)
    assert fast(scored) == expected([0.5, 0.6, 0.1, 0.3], ids)
    assert fast(tuple(scored)) == expected([0.5, 0.6, 0.1, 0.3], ids)
    assert evaluate_retrieval(iter(scored)) == expected([0.5, 0.6, 0.1, 0.3], ids)
    mixed = [*nodes([0.5, 0.6]), NodeWithScore(node=ImageNode(text="i", id_="img"), score=0.9)]
    assert fast(mixed) == expected([0.5, 0.6, 0.9], ["n0", "n1", "img"])


def test_nodes_without_scores_gate_only_their_count() -> None:
    decision = fast(nodes([None, None, None]))
    assert decision is not None
    assert (decision.outcome, decision.max_score, decision.passing_chunks) == ("normal", None, ["n0", "n1", "n2"])
    assert decision.reason == "3 chunk(s) without retrieval scores: only their count is gated (min_chunks 2)."
    one = evaluate_retrieval(nodes([None]))
    assert (one.outcome, one.message) == ("no_evidence", NO_EVIDENCE_MESSAGE)
    assert one == evaluate_retrieval([{"id": "n0", "content": "t0"}])
    # Unscored nodes never needed min_score's value, so a NaN one is not refused (as before).
    assert evaluate_retrieval(nodes([None, None]), min_score=math.nan).outcome == "normal"


def test_node_scores_of_other_types() -> None:
    ints = assigned([1, 0, 2])
    assert fast(ints, 0.2, 1) == expected([1.0, 0.0, 2.0], ["n0", "n1", "n2"], 0.2, 1)
    with pytest.raises(ValueError, match=r"chunks_or_scores\[0\]\.score must be finite; got an integer too large"):
        evaluate_retrieval(assigned([10**400, 0.5]))  # named by the general path (a bare OverflowError before)
    for values in ([True, 0.5], [np.float64(0.5), 0.3], ["0.5", 0.2], [0.5, None], [0.5, math.nan]):
        assert fast(assigned(values)) is None  # the general path checks them and names the problem
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\] \(id 'n1'\) has no score"):
        evaluate_retrieval(assigned([0.5, None]))
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\]\.score must be finite"):
        evaluate_retrieval(assigned([0.5, math.nan]))


def test_duplicate_node_ids_raise_the_general_rule_first() -> None:
    for ids in (["a", "b", "a"], ["é", "\ud800", "\ud800"], ["🙂", "x", "🙂"]):
        with pytest.raises(ValueError, match="chunk ids must be unique") as rule:
            check_unique_ids(ids, "chunks_or_scores")
        assert error_of(lambda ids=ids: evaluate_retrieval(nodes([0.5, 0.6, 0.7], ids))) == f"ValueError: {rule.value}"
    # Before the scores and the parameters' values are looked at, as before.
    duplicated = nodes([0.5, math.nan, None], ["a", "b", "a"])
    for kwargs in ({}, {"min_score": math.nan}, {"weak_score": 0.1}):
        assert "duplicates chunks_or_scores[0].id" in error_of(lambda kw=kwargs: evaluate_retrieval(duplicated, **kw))


# -- parameters -------------------------------------------------------------------------------------------------------


def test_parameters_of_other_number_types_give_the_same_decision() -> None:
    scores = [0.9, 0.3, 0.25]
    assert fast(scores, 0, 1) == expected(scores, None, 0.0, 1)
    assert type(fast(scores, 0, 1).min_score) is float  # type: ignore[union-attr]
    assert fast(scores, 0.2, 1, 1) == expected(scores, None, 0.2, 1, 1.0)
    for min_score, min_chunks in ((np.float64(0.2), 2), (0.2, np.int64(2)), (np.float32(0.25), 2)):
        assert fast(scores, min_score, min_chunks) is None  # converted by the general path, then decided in C
        assert evaluate_retrieval(nodes(scores), min_score, min_chunks) == expected(
            scores, ["n0", "n1", "n2"], float(min_score), int(min_chunks)
        )


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"min_score": True}, "TypeError: min_score must be a number; got bool"),
        ({"min_score": "0.2"}, "TypeError: min_score must be a number; got str"),
        ({"min_chunks": True}, "TypeError: min_chunks must be an int; got bool"),
        ({"min_chunks": 2.0}, "TypeError: min_chunks must be an int; got float"),
        ({"min_chunks": 0}, "ValueError: min_chunks must be an int in [1, 2147483647]; got 0"),
        ({"min_chunks": 2**31}, "ValueError: min_chunks must be an int in [1, 2147483647]; got 2147483648"),
        ({"min_score": math.nan}, "ValueError: min_score must be a finite number; got nan"),
        ({"min_score": -math.inf}, "ValueError: min_score must be a finite number; got -inf"),
        ({"min_score": 10**400}, "ValueError: min_score must be finite; got an integer too large for a float"),
        ({"weak_score": 0.1}, "ValueError: weak_score must be >= min_score (0.2); got 0.1"),
        ({"weak_score": math.nan}, "ValueError: weak_score must be a finite number; got nan"),
        ({"weak_score": "x"}, "TypeError: weak_score must be a number; got str"),
    ],
)
def test_bad_parameters_raise_as_before(kwargs: dict[str, Any], error: str) -> None:
    for obj in ([0.5, 0.6], np.array([0.5, 0.6]), nodes([0.5, 0.6])):
        assert error_of(lambda obj=obj: evaluate_retrieval(obj, **kwargs)) == error
        assert error_of(lambda obj=obj: EvidenceSufficiencyGate().evaluate_retrieval(obj, **kwargs)) == error


def test_input_errors_come_before_parameter_value_errors() -> None:
    assert error_of(lambda: evaluate_retrieval([0.5, "x"], min_score=math.nan)).startswith(
        "TypeError: chunks_or_scores[1] must be a number"
    )
    assert error_of(lambda: evaluate_retrieval([0.5, math.nan])) == (
        "ValueError: chunks_or_scores[1] is nan: scores must be finite"
    )
    assert error_of(lambda: evaluate_retrieval(np.array([np.inf]))) == (
        "ValueError: chunks_or_scores[0] is inf: scores must be finite"
    )
    assert error_of(lambda: evaluate_retrieval([0.5, 10**400])) == (
        "ValueError: chunks_or_scores[1] must be finite; got an integer too large for a float"
    )
    # a node built without validation (pydantic's model_construct) can hold one too: the C path hands it over
    huge = NodeWithScore.model_construct(node=TextNode(text="b", id_="b"), score=10**400)
    assert error_of(lambda: evaluate_retrieval([*nodes([0.5]), huge])) == (
        "ValueError: chunks_or_scores[1].score must be finite; got an integer too large for a float"
    )
    assert error_of(lambda: evaluate_retrieval(np.zeros((2, 2)))) == (
        "ValueError: chunks_or_scores must be 1-D; got shape (2, 2)"
    )


# -- objects that only look like LlamaIndex nodes --------------------------------------------------------------------


class _Inner:
    def __init__(self, chunk_id: str) -> None:
        self.id_ = chunk_id


def _named(body: dict[str, Any]) -> type:
    return type("NodeWithScore", (), body)  # recognised by its name, as LlamaIndex is optional


def _init(self: Any, chunk_id: str, score: float) -> None:
    self.node = _Inner(chunk_id)
    self._score = score


def test_look_alike_nodes_read_through_getattr() -> None:
    plain = _named({"__init__": lambda self, i, s: (_init(self, i, s), setattr(self, "score", s))[0]})
    prop = _named({"__init__": _init, "score": property(lambda self: self._score)})
    slotted = _named(
        {
            "__slots__": ("node", "score"),
            "__init__": lambda self, i, s: (setattr(self, "node", _Inner(i)), setattr(self, "score", s))[0],
        }
    )
    fallback = _named({"__init__": _init, "__getattr__": lambda self, name: self._score})  # no score attribute
    for kind in (plain, prop, slotted, fallback):
        items = [kind("a", 0.5), kind("b", 0.1), kind("c", 0.7)]
        assert fast(items) == expected([0.5, 0.1, 0.7], ["a", "b", "c"])


def test_look_alike_nodes_without_the_attributes_or_raising() -> None:
    missing = _named({"__init__": _init})
    assert fast([missing("a", 0.5)]) is None  # an AttributeError: the general path decides
    raising = _named({"__init__": _init, "score": property(lambda self: 1 / 0)})
    with pytest.raises(ZeroDivisionError):
        evaluate_retrieval([raising("a", 0.5)])


def test_a_property_that_changes_the_list_does_not_change_what_is_read() -> None:
    items: list[Any] = []

    def score(self: Any) -> float:
        if len(items) < 50:
            items.extend(object() for _ in range(10))  # grows the list being read
        return float(self._score)

    growing = _named({"__init__": _init, "score": property(score)})
    items.extend([growing("a", 0.5), growing("b", 0.7)])
    assert evaluate_retrieval(items) == expected([0.5, 0.7], ["a", "b"])  # the items as they were when called


# -- the decision object ----------------------------------------------------------------------------------------------


def test_reason_and_message_are_made_on_first_read_and_kept() -> None:
    decision = evaluate_retrieval([0.9, 0.3], weak_score=0.95)
    assert "reason" not in decision.__dict__
    assert "message" not in decision.__dict__
    assert decision.message == LOW_CONFIDENCE_BANNER
    assert decision.reason == (
        "2 chunk(s) reach min_score 0.20, but the best similarity 0.90 is below weak_score 0.95: answer under the "
        "low-confidence banner."
    )
    assert decision.__dict__["reason"] is decision.reason  # formatted once
    with pytest.raises(AttributeError, match="'RetrievalDecision' object has no attribute 'nope'"):
        decision.nope  # noqa: B018
    assert not hasattr(decision, "nope")


def test_lazy_decisions_compare_copy_replace_and_pickle_like_eager_ones() -> None:
    want = expected([0.9, 0.3], None, 0.2, 2, 0.95)
    for make in (lambda: evaluate_retrieval([0.9, 0.3], weak_score=0.95), lambda: fast([0.9, 0.3], 0.2, 2, 0.95)):
        assert make() == want
        assert repr(make()) == repr(want)
        assert make().to_dict() == want.to_dict()
        assert dataclasses.asdict(make()) == dataclasses.asdict(want)
        assert dataclasses.replace(make(), min_score=0.5) == dataclasses.replace(want, min_score=0.5)
        assert copy.copy(make()) == want
        assert copy.deepcopy(make()) == want
        state = pickle.loads(pickle.dumps(make())).__dict__
        assert state["reason"] == want.reason  # pickles carry the text itself
        assert state["message"] == want.message
        assert pickle.loads(pickle.dumps(make())) == want


def test_a_disabled_gate_reports_every_outcome_as_before() -> None:
    gate = EvidenceSufficiencyGate(enabled=False)
    for scores, weak in (([0.1], None), ([0.3, 0.25], 0.5), ([0.5, 0.6], None), ([], None)):
        want = expected(scores, None, 0.2, 2, weak)
        decision = gate.evaluate_retrieval(scores, weak_score=weak)
        assert decision.would_outcome == want.outcome
        assert (decision.outcome, decision.gating_enabled) == ("normal", False)
        if want.outcome == "normal":
            assert (decision.message, decision.reason) == ("", want.reason)
        else:
            assert decision.message == ""
            assert decision.reason == (
                f"Gating disabled; the retrieval gate would have decided {want.outcome}: {want.reason}"
            )
    unscored = gate.evaluate_retrieval(nodes([None]))
    assert unscored.reason == (
        "Gating disabled; the retrieval gate would have decided no_evidence: 1 chunk(s) without retrieval scores: "
        "only their count is gated (min_chunks 2)."
    )


def test_threads_share_the_c_path() -> None:
    many = np.linspace(-1.0, 1.0, 2000)
    scored = nodes([float(x) for x in np.linspace(-1.0, 1.0, 300)])
    want_many, want_nodes = evaluate_retrieval(many), evaluate_retrieval(scored)
    results: list[bool] = []

    def work() -> None:
        for _ in range(50):
            results.append(evaluate_retrieval(many) == want_many and evaluate_retrieval(scored) == want_nodes)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [True] * 200


def test_the_c_entry_point_checks_its_own_arguments() -> None:
    with pytest.raises(TypeError, match="takes 5 positional arguments; got 2"):
        core.retrieval_decision(RetrievalDecision, [0.5])  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="cls must be a class"):
        core.retrieval_decision(object(), [0.5], 0.2, 2, None)  # type: ignore[arg-type]
    for unusual in ({"content": "a", "score": 0.5}, "abc", None, 5, (x for x in [0.5]), [object()]):
        assert fast(unusual) is None
