"""Regression tests for bad input found by the adversarial probe (hardening issue): each was a wrong answer."""

from __future__ import annotations

import json
import math
import os
import pickle
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sufficient_context as sc


def test_a_negative_temperature_cannot_make_a_missing_term_query_sufficient() -> None:
    checker = sc.SufficientContextChecker()
    query = "what is the punishment for theft"
    plain = checker.check_sufficiency(query, [{"content": "Theft is stealing."}])
    for temperature in (-1000.0, -1e308, 1e308, 0.0):
        result = checker.check_sufficiency(query, [{"content": "Theft is stealing.", "temperature": temperature}])
        assert result.level is not sc.Level.SUFFICIENT
        assert 0.0 <= result.score <= 1.0
        assert result.signals["density"] >= 0.0
    negative = checker.check_sufficiency(query, [{"content": "Theft is stealing.", "temperature": -1000.0}])
    assert negative.score <= plain.score + 0.05


@settings(max_examples=150, deadline=None)
@given(
    temperature=st.floats(allow_nan=False, allow_infinity=False),
    score=st.floats(allow_nan=False, allow_infinity=False),
    weight=st.floats(min_value=0.0, allow_nan=False, allow_infinity=False),
)
def test_scores_stay_in_the_unit_interval_over_the_whole_float_range(
    temperature: float, score: float, weight: float
) -> None:
    chunks = [{"content": "Theft is stealing property.", "temperature": temperature, "score": score}]
    if not math.isfinite(weight + 1.0):  # the other default weights sum to 0.5 (recency included: 0.6)
        with pytest.raises(ValueError, match="weights must sum to a finite number"):
            sc.SufficientContextChecker(weights={"coverage": weight})
        return
    checker = sc.SufficientContextChecker(weights={"coverage": weight})
    result = checker.check_sufficiency("punishment for theft", chunks)
    assert 0.0 <= result.score <= 1.0
    assert all(0.0 <= v <= 1.0 for v in result.signals.values())
    json.loads(json.dumps(result.to_dict(), allow_nan=False))


def test_weights_that_are_all_zero_or_overflow_are_refused() -> None:
    with pytest.raises(ValueError, match="must not all be zero"):
        sc.SufficientContextChecker(weights={"coverage": 0, "relevance": 0, "density": 0, "count": 0})
    with pytest.raises(ValueError, match="must sum to a finite number"):
        sc.SufficientContextChecker(weights={"coverage": 1e308, "relevance": 1e308})
    huge = sc.SufficientContextChecker(weights={"coverage": 1e300, "relevance": 1e300})
    result = huge.check_sufficiency("theft", [{"content": "Theft is stealing."}])
    assert math.isfinite(result.score)


def test_a_chunk_is_valid_by_construction() -> None:
    with pytest.raises(ValueError, match=r"Chunk\.score must be finite"):
        sc.Chunk(content="x", id="a", score=float("nan"))
    with pytest.raises(ValueError, match=r"Chunk\.temperature must be finite"):
        sc.Chunk(content="x", id="a", temperature=float("inf"))
    with pytest.raises(TypeError, match=r"Chunk\.content must be str"):
        sc.Chunk(content=b"x", id="a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"Chunk\.embedding\[1\] is nan"):
        sc.Chunk(content="x", id="a", embedding=np.array([1.0, np.nan], dtype=np.float32))
    chunk = sc.Chunk(content="x", id=7, timestamp="2026-01-01", embedding=[1, 2])  # type: ignore[arg-type]
    assert chunk.id == "7"
    assert chunk.timestamp is not None
    assert chunk.timestamp.tzinfo is not None
    assert chunk.embedding is not None
    assert chunk.embedding.dtype == np.float32
    assert not chunk.embedding.flags.writeable
    # A valid Chunk passes through as_chunks untouched; a Chunk can no longer smuggle NaN into the gate.
    assert sc.as_chunks([chunk])[0] is chunk


def test_out_of_range_timestamps_name_the_chunk_and_field() -> None:
    with pytest.raises(ValueError, match=r"chunks\[1\]\.timestamp is out of range"):
        sc.as_chunks([{"content": "a"}, {"content": "b", "timestamp": 1e20}])
    with pytest.raises(ValueError, match=r"Chunk\.timestamp is out of range"):
        sc.Chunk(content="x", timestamp=-1e18)
    assert sc.Chunk(content="x", timestamp=datetime(2026, 1, 1)).timestamp is not None


def test_configuration_files_that_are_not_files_or_not_yaml_are_named(tmp_path: Path) -> None:
    fifo = tmp_path / "gateway.yaml"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is not a regular file"):
        sc.SufficientContextChecker.from_config(str(fifo))
    with pytest.raises(ValueError, match="is not a regular file"):
        sc.GroundedAnswerer.from_config(str(fifo))
    broken = tmp_path / "broken.yaml"
    broken.write_text("sufficient_context:\n  thresholds: {sufficient: 0.8\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"broken\.yaml' is not valid YAML at line \d+, column \d+"):
        sc.SufficientContextChecker.from_config(str(broken))
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        sc.GroundedAnswerer.from_config(str(binary))
    with pytest.raises(ValueError, match="cannot read configuration"):
        sc.GroundedAnswerer.from_config(str(tmp_path / "missing.yaml"))


def test_an_empty_query_is_an_error_and_one_without_key_terms_says_so() -> None:
    checker = sc.SufficientContextChecker()
    for query in ("", "   \n\t"):
        with pytest.raises(ValueError, match="query must not be empty or blank"):
            checker.check_sufficiency(query, ["Theft is stealing."])
    with pytest.raises(ValueError, match=r"queries\[1\] must not be empty"):
        checker.check_batch(["theft", ""], [["Theft is stealing."], ["x"]])
    result = checker.check_sufficiency("what is it?", ["Theft is stealing property from its owner."])
    assert result.level is sc.Level.INSUFFICIENT
    assert "The query has no key terms to look for (only stop words or punctuation)" in result.missing_aspects
    assert result.signals["coverage"] == 0.0


def test_blank_chunks_do_not_make_up_min_contexts() -> None:
    # An empty retrieved page is accepted (a retriever can return one) but holds no context: with one chunk of
    # text and two blank ones, min_contexts=3 is not met, and the reason says why.
    fact = "The Eiffel Tower is 330 metres tall."
    checker = sc.SufficientContextChecker(min_contexts=3)
    padded = checker.check_sufficiency("How tall is the Eiffel Tower?", [fact, "", " \n\t\u3000"])
    alone = checker.check_sufficiency("How tall is the Eiffel Tower?", [fact])
    assert padded.signals["count"] == alone.signals["count"] == pytest.approx(1 / 3)
    assert padded.score == pytest.approx(alone.score)
    assert padded.missing_aspects[-1] == "Only 1 context(s) with text, need 3 (2 blank)"
    assert alone.missing_aspects[-1] == "Only 1 context(s), need 3"
    blank = checker.check_sufficiency("How tall is the Eiffel Tower?", ["", "  "])
    assert blank.level is sc.Level.INSUFFICIENT
    assert blank.signals["count"] == 0.0
    assert blank.missing_aspects[-1] == "Only 0 context(s) with text, need 3 (2 blank)"
    # Reference scoring reproduces the original design, which counts every chunk.
    reference = sc.SufficientContextChecker(min_contexts=3, scoring="reference")
    assert reference.check_sufficiency("How tall is the Eiffel Tower?", [fact, "", " "]).signals["count"] == 1.0


def test_copies_of_a_chunk_do_not_make_up_min_contexts() -> None:
    # A document indexed twice, or a node a hybrid retriever returns twice, is one piece of evidence: a copy of a
    # chunk is read once, so three copies score as one chunk and do not meet min_contexts=3 (they did, and the check
    # said "sufficient": the copies also raised density). Equal means byte for byte.
    fact = "The Eiffel Tower is 330 metres tall."
    question = "How tall is the Eiffel Tower?"
    checker = sc.SufficientContextChecker(min_contexts=3)
    copies = checker.check_sufficiency(question, [fact, fact, {"content": fact, "id": "again"}])
    alone = checker.check_sufficiency(question, [fact])
    assert copies.signals["count"] == alone.signals["count"] == pytest.approx(1 / 3)
    assert copies.score == alone.score
    assert copies.signals == alone.signals
    assert alone.level is copies.level is sc.Level.PARTIAL
    assert copies.missing_aspects[-1] == "Only 1 distinct context(s), need 3 (2 repeated)"
    mixed = checker.check_sufficiency(question, [fact, "", fact, "It was built in 1889."])
    assert mixed.signals["count"] == pytest.approx(2 / 3)
    assert mixed.missing_aspects[-1] == "Only 2 distinct context(s) with text, need 3 (1 blank, 1 repeated)"
    distinct = checker.check_sufficiency(question, [fact, fact + " ", fact.upper()])
    assert distinct.signals["count"] == 1.0
    assert not any(a.startswith("Only") for a in distinct.missing_aspects)
    # The batch form runs the same core; per-check min_contexts too; with min_contexts=1 a copy changes nothing.
    batch = checker.check_batch([question], [[fact, fact, fact]])[0]
    assert batch.missing_aspects == copies.missing_aspects
    twice = sc.SufficientContextChecker().check_sufficiency(question, [fact, fact])
    assert twice.score == sc.SufficientContextChecker().check_sufficiency(question, [fact]).score
    assert not any(a.startswith("Only") for a in twice.missing_aspects)
    # Blank copies stay blank.
    assert checker.check_sufficiency(question, [fact, "", ""]).missing_aspects[-1] == (
        "Only 1 context(s) with text, need 3 (2 blank)"
    )
    # Reference scoring reproduces the original design, which counts every chunk.
    reference = sc.SufficientContextChecker(min_contexts=3, scoring="reference")
    assert reference.check_sufficiency(question, [fact, fact, fact]).signals["count"] == 1.0


def test_a_context_that_only_asks_the_question_is_not_sufficient() -> None:
    # A retriever often returns the question without its answer (a forum post, a "people also ask" list). A
    # question asserts nothing: it scored "sufficient" (0.89) for the same question, and for one that holds the
    # answer's words ("Is Canberra the capital?").
    checker = sc.SufficientContextChecker()
    question = "What is the capital of Australia?"
    for asked in (
        "What is the capital of Australia?",
        "Is Canberra the capital of Australia?",
        "how is australia's capital called ?  ",
    ):
        result = checker.check_sufficiency(question, [asked])
        assert result.level is sc.Level.INSUFFICIENT, asked
        assert result.details["relation"] == 0.0
    assert (
        "The best match in the context is a question, which answers nothing"
        in checker.check_sufficiency(question, ["Is Canberra the capital of Australia?"]).missing_aspects
    )
    # Not questions: statements, a "?" inside a tag or title that is not asked, and Q&A pairs, whose answer
    # sentence takes the question's topic.
    for stated in (
        "The capital of Australia is Canberra.",
        "The capital of Australia is Canberra.[citation needed?] It lies inland.",
        "Canberra, capital of Australia, hosted 'Who Wants to Be a Millionaire?' in 1999.",
        "What is the capital of Australia? Canberra is the capital.",
        "Q: What is the capital of Australia? A: Canberra is.",
    ):
        assert checker.check_sufficiency(question, [stated]).level is sc.Level.SUFFICIENT, stated
    # A question beside an answering chunk changes nothing.
    both = checker.check_sufficiency(
        question, ["What is the capital of Australia?", "Canberra is the capital of Australia."]
    )
    assert both.level is sc.Level.SUFFICIENT


def test_a_chunk_that_only_asks_does_not_support_a_claim() -> None:
    # "Is Canberra the capital of Australia?" asserts nothing, yet it covered "Canberra is the capital of Australia
    # [S1]." at support 1.00, and "Did you see the suspect?" covered "I saw the suspect [S1].": a hallucination
    # passed as grounded. A question now supports a claim only beside a sentence that holds some of it.
    coverage = sc.ClaimCoverage()
    claim = "Canberra is the capital of Australia [S1]."
    for asked in (
        "Is Canberra the capital of Australia?",
        "Is Canberra the capital of Australia? Nobody here knows.",
        "Why is Canberra the capital of Australia [S2]? Who decided?",
    ):
        report = coverage.check_answer(claim, [asked])
        assert not report.is_grounded, asked
        assert report.claims[0].score == 0.0
    reason = coverage.check_answer(claim, ["Is Canberra the capital of Australia?"]).claims[0].reason
    assert reason.endswith("; S1 only asks about 'Canberra', 'capital'")
    assert not coverage.check_answer("I saw the suspect [S1].", ["Did I see the suspect?"]).is_grounded
    # Statements, and a question beside the answer that completes it, still support it.
    for stated in (
        "Canberra is the capital of Australia.",
        "What is the capital of Australia? Canberra is the capital.",
        "Which city is the capital of Australia? Canberra.",
        "Canberra, the capital of Australia, hosted 'Who Wants to Be a Millionaire?' in 1999.",
    ):
        assert coverage.check_answer(claim, [stated]).is_grounded, stated
    penalty = coverage.check_answer(
        "The penalty for theft is imprisonment up to three years [S1].",
        ["What is the penalty for theft? Imprisonment up to three years."],
    )
    assert penalty.is_grounded


@pytest.mark.parametrize("value", [2**70, -(2**70), 2**31])
def test_integers_too_wide_for_the_core_are_named(value: int) -> None:
    with pytest.raises(ValueError, match=r"min_contexts must be an int in \[1, 2147483647\]"):
        sc.SufficientContextChecker(min_contexts=value)
    with pytest.raises(ValueError, match=r"top_k must be an int in \[1, "):
        sc.EvidenceSufficiencyGate(top_k=value)
    with pytest.raises(ValueError, match=r"min_chunks must be an int in \[1, "):
        sc.evaluate_retrieval([0.5, 0.6], min_chunks=value)
    with pytest.raises(ValueError, match=r"threads must be an int in \[1, "):
        sc.SufficientContextChecker().check_batch(["q"], [["x"]], threads=value)


def test_numpy_integers_are_accepted_wherever_ints_are() -> None:
    answers = sc.ClaimCoverage().check_answers(
        ["Theft is stealing [S1]."], [["Theft is stealing."]], threads=np.int64(2)
    )
    assert answers[0].is_grounded
    results = sc.SufficientContextChecker().check_batch(["theft"], [["Theft is stealing."]], threads=np.int32(1))
    assert len(results) == 1


def test_from_dict_and_unpickling_refuse_impossible_results() -> None:
    good = sc.SufficientContextChecker().check_sufficiency("theft", ["Theft is stealing."]).to_dict()
    assert sc.SufficiencyResult.from_dict(good).score == good["score"]
    for bad, message in (
        ({**good, "score": float("nan")}, "score must be a finite number"),
        ({**good, "score": float("inf")}, "score must be a finite number"),
        ({**good, "score": 1.5}, r"score must be in \[0, 1\] in default scoring"),
        ({**good, "level": "great"}, "level must be one of"),
        ({**good, "checker_level": "great"}, "checker_level must be one of"),
        ({k: v for k, v in good.items() if k != "level"}, "data has no 'level'"),
        ({k: v for k, v in good.items() if k != "score"}, "data has no 'score'"),
        ({**good, "signals": {"coverage": float("nan")}}, r"signals\['coverage'\] must be a finite number"),
        ({**good, "signals": {"coverage": 7.0}}, r"signals\['coverage'\] must be in \[0, 1\]"),
        ({**good, "signals": {"vibes": 0.5}}, "unknown signal 'vibes'"),
        ({**good, "details": {"relation": float("nan")}}, r"details\['relation'\] must be finite"),
        ({**good, "elapsed_ms": -1.0}, "elapsed_ms must be a finite number >= 0"),
        ({**good, "elapsed_ms": float("nan")}, "elapsed_ms must be a finite number >= 0"),
        ({**good, "scoring": "magic"}, "scoring must be 'default' or 'reference'"),
        ({**good, "relevance_source": "oracle"}, "relevance_source must be one of"),
        ({**good, "decided_by": "me"}, "decided_by must be 'checker' or 'escalation'"),
    ):
        with pytest.raises(ValueError, match=message):
            sc.SufficiencyResult.from_dict(bad)
    for bad, message in (
        ([good], "data must be a mapping"),
        ({**good, "signals": "x"}, "signals must be a mapping"),
        ({**good, "covered_terms": "abc"}, "covered_terms must be a list of str; got str"),
        ({**good, "missing_aspects": [1]}, r"missing_aspects\[0\] must be a str; got int"),
        ({**good, "details": [1]}, "details must be a mapping"),
    ):
        with pytest.raises(TypeError, match=message):
            sc.SufficiencyResult.from_dict(bad)  # type: ignore[arg-type]
    # absent or None lists read as empty, as to_dict() of an empty result has them
    assert sc.SufficiencyResult.from_dict({**good, "missing_aspects": None}).missing_aspects == []


def test_sixteen_threads_on_shared_objects_give_the_sequential_results() -> None:
    import threading

    checker, gate, claims = sc.SufficientContextChecker(), sc.EvidenceSufficiencyGate(), sc.ClaimCoverage()
    gate_stats, check_stats = sc.EvidenceGatingStats(), sc.SufficiencyStats()
    cases = [
        (f"punishment for offence {i}", [f"Offence {i} is punished with {i} years.", "Unrelated text about rain."],
         f"Offence {i} is punished with {i} years [S1].", {"S1": 0.3 + i % 5 / 10, "S2": 0.2})
        for i in range(40)
    ]  # fmt: skip

    def run(case: tuple[str, list[str], str, dict[str, float]]) -> tuple[object, ...]:
        query, chunks, answer, attention = case
        result = checker.check_sufficiency(query, chunks)
        passes, info = gate.evaluate(attention)
        coverage = claims.check_answer(answer, chunks)
        gate_stats.record(passes, info["max_attention"])
        check_stats.record(result)
        return (result.score, result.level, passes, info["margin"], coverage.supported_ratio, coverage.is_grounded)

    want = [run(case) for case in cases]
    gate_stats.reset()
    check_stats.reset()
    got: list[list[tuple[object, ...]]] = [[] for _ in range(16)]
    barrier = threading.Barrier(16)

    def work(t: int) -> None:
        barrier.wait()
        got[t] = [run(case) for case in cases]

    threads = [threading.Thread(target=work, args=(t,)) for t in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results == want for results in got)
    assert gate_stats.get_stats()["total_evaluations"] == 16 * len(cases)
    assert check_stats.get_stats()["total_checks"] == 16 * len(cases)


def test_core_error_messages_keep_what_follows_a_nul(tmp_path: Path) -> None:
    table = tmp_path / "terms.tsv"
    table.write_text("ab\x00cd tail\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"got 'ab\\x00cd tail'$"):
        sc.TermStatistics.from_tsv(str(table))


_WORDS = [
    "café",
    "naïve",
    "Straße",
    "Ålborg",
    "résumé",
    "coöperate",
    "Zürich",
    "São",
    "Δελτα",
    "ﬁnal",
    "\uff21\uff22\uff23",
]


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5), form=st.sampled_from(["NFD", "NFKD", "NFC"]))
def test_matching_is_equal_across_unicode_normal_forms(words: list[str], form: str) -> None:
    import unicodedata

    query = " ".join(words) + " history"
    chunk = "The history of " + " and ".join(words) + "."
    other = unicodedata.normalize(form, query)
    checker = sc.SufficientContextChecker()
    want = checker.check_sufficiency(query, [chunk])
    got = checker.check_sufficiency(other, [unicodedata.normalize(form, chunk)])
    assert (got.score, got.level) == (want.score, want.level)
    mixed = checker.check_sufficiency(other, [chunk])  # query in one form, context in another
    assert (mixed.score, mixed.level) == (want.score, want.level)
    claim = unicodedata.normalize(form, f"The history of {words[0]} [S1].")
    covered = sc.ClaimCoverage().check_claim(claim, [chunk])
    assert covered.is_covered, covered.reason


def test_nfd_fullwidth_and_ligature_texts_match_their_plain_forms() -> None:
    checker = sc.SufficientContextChecker()
    nfc = checker.check_sufficiency("café prices", ["Café prices rose in Paris."])
    nfd = checker.check_sufficiency("cafe\u0301 prices", ["Café prices rose in Paris."])
    assert nfd.score == nfc.score
    assert nfd.level is nfc.level is sc.Level.SUFFICIENT
    assert sc.text.terms("\uff30\uff25\uff2e\uff21\uff2c\uff34\uff39 ﬁnes") == sc.text.terms("penalty fines")
    claim = sc.ClaimCoverage().check_claim("The ﬁne is \uff34\uff25\uff2e dollars [S1].", ["The fine is ten dollars."])
    assert claim.is_covered


_ANY_FLOAT = st.floats()  # the whole range: NaN, infinities, subnormals, huge values


def _outcome(call: Callable[[], Any]) -> Any:
    """What `call` returns, or the ValueError it raises."""
    try:
        return call()
    except ValueError as exc:
        return exc


@settings(max_examples=200, deadline=None)
@given(score=_ANY_FLOAT, temperature=_ANY_FLOAT, timestamp=_ANY_FLOAT)
def test_chunk_numbers_over_the_whole_float_range(score: float, temperature: float, timestamp: float) -> None:
    chunk = {"content": "Theft is stealing property.", "score": score, "temperature": temperature,
             "timestamp": timestamp}  # fmt: skip
    outcome = _outcome(lambda: sc.as_chunks([chunk, {"content": "Other.", "score": 0.5}]))
    if isinstance(outcome, ValueError):  # NaN, infinities and dates out of range are refused, by field
        assert "chunks[0]." in str(outcome)
        return
    converted = outcome
    result = sc.SufficientContextChecker().check_sufficiency("punishment for theft", converted)
    assert 0.0 <= result.score <= 1.0
    decision = sc.evaluate_retrieval(converted)
    assert decision.outcome in ("no_evidence", "weak_evidence", "normal")


@settings(max_examples=200, deadline=None)
@given(threshold=_ANY_FLOAT, weights=st.lists(_ANY_FLOAT, min_size=1, max_size=4), min_score=_ANY_FLOAT)
def test_gate_numbers_over_the_whole_float_range(threshold: float, weights: list[float], min_score: float) -> None:
    try:
        gate = sc.EvidenceSufficiencyGate(threshold=threshold)
    except ValueError:
        assert not 0.0 <= threshold <= 1.0  # only out-of-range or NaN thresholds are refused
        return
    try:
        passes, info = gate.evaluate(weights)
    except ValueError:
        assert any(not (w >= 0.0) or math.isinf(w) for w in weights)
        return
    assert math.isfinite(info["margin"])
    # All-zero attention fails the gate whatever the threshold (API contract); otherwise S >= threshold decides.
    assert passes is (any(w > 0 for w in weights) and info["sufficiency"] >= threshold)
    try:
        decision = sc.evaluate_retrieval([0.5, 0.7], min_score=min_score)
    except ValueError:
        assert not math.isfinite(min_score)
        return
    assert decision.outcome in ("no_evidence", "weak_evidence", "normal")


@settings(max_examples=150, deadline=None)
@given(sufficient=_ANY_FLOAT, partial=_ANY_FLOAT, recency=_ANY_FLOAT, min_score=_ANY_FLOAT)
def test_configuration_numbers_over_the_whole_float_range(
    sufficient: float, partial: float, recency: float, min_score: float
) -> None:
    document = {
        "sufficient_context": {"thresholds": {"sufficient": sufficient, "partial": partial}, "recency_days": recency},
        "retrieval": {"min_score": min_score},
    }
    answerer = _outcome(lambda: sc.GroundedAnswerer.from_config(document))
    if isinstance(answerer, ValueError):
        assert any(name in str(answerer) for name in ("thresholds", "recency_days", "min_score"))
        return
    assert 0.0 <= partial <= sufficient <= 1.0
    assert math.isfinite(answerer.min_score)


def test_a_query_is_scored_on_its_first_512_key_terms_and_says_so() -> None:
    query = " ".join(f"zeta{i}q" for i in range(600))
    result = sc.SufficientContextChecker().check_sufficiency(query, ["zeta3q and zeta550q."])
    assert result.covered_terms == ["zeta3q"]  # zeta550q is past the cap: not looked for
    assert len(result.covered_terms) + len(result.missing_terms) == 512
    assert "The query has more than 512 key terms; only the first 512 were looked for" in result.missing_aspects
    assert result.level == "insufficient"


def test_an_answer_past_max_sentences_is_refused_before_any_work() -> None:
    answer = " ".join(f"A{i} [S1]." for i in range(1_001))
    chunks = [{"id": "S1", "content": "A1 is here."}]
    with pytest.raises(ValueError, match=r"answer has 1001 sentences, more than max_sentences=1000"):
        sc.ClaimCoverage(max_sentences=1_000).check_answer(answer, chunks)
    with pytest.raises(ValueError, match=r"answers\[1\]: answer has 1001 sentences"):
        sc.ClaimCoverage(max_sentences=1_000).check_answers(["A1 [S1].", answer], [chunks, chunks])
    assert sc.ClaimCoverage().max_sentences == 100_000
    unbounded = sc.ClaimCoverage(max_sentences=None)
    assert unbounded.check_answer(answer, chunks).claim_count == 1_001
    assert pickle.loads(pickle.dumps(unbounded)) == unbounded
    with pytest.raises(ValueError, match="max_sentences"):
        sc.ClaimCoverage(max_sentences=0)


def test_a_claim_and_chunk_of_many_numbers_are_read_in_linear_time() -> None:
    # The reason's "which says ..." compared every chunk number with every claim item: 200,000 numbers
    # on each side took minutes. Now sets: well under a second (a hang fails CI; no timing assert).
    n = 200_000
    chunks = [{"id": "S1", "content": "Fines are " + " ".join(str(2 * i + 1) for i in range(n)) + " rupees."}]
    answer = "Fines are " + " ".join(str(2 * i) for i in range(n)) + " rupees [S1]."
    reason = sc.ClaimCoverage().check_answer(answer, chunks).claims[0].reason
    assert "'0', '2', '4', ... not in S1, which says '1', '3', '399995', ..." in reason


def test_an_answer_citing_many_unknown_ids_is_read_in_linear_time() -> None:
    # Each unknown id was looked for in the list of those seen: 400,000 took minutes.
    n = 400_000
    answer = "Fines are 5 rupees [" + ", ".join(f"X{i}" for i in range(n)) + "]. More [X7][S1]."
    report = sc.ClaimCoverage().check_answer(answer, [{"id": "S1", "content": "Fines are 5 rupees."}])
    assert report.unknown_citations == tuple(f"X{i}" for i in range(n))  # each once, first-seen order
    assert not report.is_grounded


HUGE = 10**400  # an int no float holds


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: sc.as_chunks([{"content": "x", "score": HUGE}]), r"chunks\[0\]\.score"),
        (lambda: sc.as_chunks([{"content": "x", "temperature": HUGE}]), r"chunks\[0\]\.temperature"),
        (lambda: sc.as_chunks([{"content": "x", "timestamp": HUGE}]), r"chunks\[0\]\.timestamp"),
        (lambda: sc.SufficientContextChecker(recency_days=HUGE), "recency_days"),
        (lambda: sc.SufficientContextChecker(weights={"coverage": HUGE}), r"weights\['coverage'\]"),
        (lambda: sc.SufficientContextChecker(thresholds=(HUGE, 0.1)), r"thresholds\[0\] \(sufficient\)"),
        (lambda: sc.SufficientContextChecker().check_sufficiency("tea", ["tea"], now=HUGE), "now"),
        (lambda: sc.ClaimCoverage(min_overlap=HUGE), "min_overlap"),
        (lambda: sc.EvidenceSufficiencyGate(threshold=HUGE), "threshold"),
        (lambda: sc.evaluate_retrieval([0.5], min_score=HUGE), "min_score"),
        (lambda: sc.GroundedAnswerer(min_score=HUGE), "min_score"),
    ],
)
def test_an_integer_too_large_for_a_float_is_named(call: Any, name: str) -> None:
    with pytest.raises(ValueError, match=name + " must be finite; got an integer too large for a float"):
        call()


def test_numpy_being_imported_by_another_thread_is_not_read_half_made() -> None:
    # While another thread imports NumPy, sys.modules holds a module that lacks its names yet; a number check then
    # must not raise AttributeError (it used to: "partially initialized module 'numpy' has no attribute 'integer'").
    code = textwrap.dedent(
        """
        import sys, types
        sys.modules["numpy"] = types.ModuleType("numpy")  # what a half-imported NumPy looks like
        import sufficient_context as sc
        from sufficient_context import _args
        assert _args.real_types() == (int, float) and _args.bool_types() == (bool,)
        sc.EvidenceSufficiencyGate().set_threshold(0.5)
        del sys.modules["numpy"]
        import numpy as np
        assert np.integer in _args.real_types() and np.bool_ in _args.bool_types()
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_texts_dropped_by_another_thread_during_a_sentence_search_stay_readable() -> None:
    # The core reads the texts' UTF-8 with the GIL released; the list alone kept the str objects alive, so another
    # thread clearing it freed them mid-read (a crash: large strings are unmapped when freed).
    code = textwrap.dedent(
        """
        import threading, time
        from sufficient_context._core import sentences
        texts = [("Paris is the capital of France number %d. " % i) * 50000 for i in range(6)]
        started = threading.Event()
        def clear():
            started.wait()
            time.sleep(0.002)
            texts.clear()
        thread = threading.Thread(target=clear)
        thread.start()
        started.set()
        hits = sentences.query_hits("paris capital france", texts)
        thread.join()
        assert len(hits) == 6 * 50000 and texts == [], (len(hits), len(texts))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("values", "dtype"),
    [(np.array([1 + 1j, 2.0, 3.0]), "complex128"), (["1", "0", "0"], "<U1"), ([True, False, True], "bool"),
     ([HUGE, 1, 1], "object")],
)  # fmt: skip
def test_embeddings_a_cast_would_change_are_refused(values: Any, dtype: str) -> None:
    # complex numbers would lose their imaginary part, strings and booleans would be read as numbers
    message = rf"must be an array of real numbers; got {re.escape(dtype)} values"
    with pytest.raises(TypeError, match=r"chunks\[0\]\.embedding " + message):
        sc.as_chunks([{"content": "x", "embedding": values}])
    checker = sc.SufficientContextChecker()
    with pytest.raises(TypeError, match="query_embedding " + message):
        checker.check_sufficiency("tea", [{"content": "tea", "embedding": [1.0, 0.0, 0.0]}], query_embedding=values)
    model = sc.SufficientContextChecker(embedding_model=lambda texts: [values] * len(texts))
    with pytest.raises(ValueError, match=r"the embedding model's output \(callable\) " + message):
        model.check_sufficiency("tea", ["tea"])
    assert sc.as_chunks([{"content": "x", "embedding": np.array([1, 2, 3], dtype=np.int8)}])[0].embedding is not None


def test_an_eval_row_with_an_integer_past_the_digit_limit_is_one_bad_row() -> None:
    from sufficient_context.evaluation.rows import RowError, parse_line

    bad = parse_line(3, b'{"query": "q", "contexts": [{"content": "a", "score": ' + b"9" * 5000 + b"}]}")
    assert isinstance(bad, RowError)
    assert str(bad).startswith("line 3: not valid here: Exceeds the limit (4300 digits)")


def test_text_blocks_of_a_message_are_separate_sentences() -> None:
    from langchain_core.messages import AIMessage

    chunk = "Whoever cheats shall be punished with imprisonment of up to seven years."
    blocks = [{"type": "text", "text": "Cheating is punished with up to seven years [S1]."},
              {"type": "text", "text": "The accused is hanged."}]  # fmt: skip
    result = sc.ClaimCoverage().check_answer(AIMessage(content=blocks), [chunk])
    # joined without a break, the unsupported second sentence rode on the first one's support
    assert [c.sentence for c in result.claims] == [b["text"] for b in blocks]
    assert [c.is_covered for c in result.claims] == [True, False]
