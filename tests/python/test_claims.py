from __future__ import annotations

import gc
import itertools
import json
import math
import pickle
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import sufficient_context
from sufficient_context import _reference_claims as rc
from sufficient_context._core import claims as core
from sufficient_context._samples import SAMPLE_CHUNKS
from sufficient_context.checker import SufficientContextChecker, TermStatistics
from sufficient_context.chunks import Chunk
from sufficient_context.claims import (
    META_PATTERNS,
    AnswerCoverage,
    ClaimCoverage,
    ClaimResult,
    check_claim_coverage,
    validate_multi_chunk_citations,
)

DATA = Path(sufficient_context.__file__).parent / "data"
ZIPF = rc.load_zipf_table(DATA / "english_freq.tsv")
RELATIONS = rc.load_relations(DATA / "english_relations.tsv")
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "claims_sample.jsonl"  # licences: tests/data/README.md
CHUNKS = [
    {"id": "IPC_420_0", "content": "Whoever cheats shall be punished with imprisonment for a term which may extend "
     "to seven years, and shall also be liable to fine."},
    {"id": "S2", "content": "Cheating means deceiving a person fraudulently or dishonestly."},
    {"id": "S3", "content": "The weather in Paris is mild in spring."},
]  # fmt: skip


# ---------------------------------------------------------------------------------------------------------------------
# check_answer: exact results
# ---------------------------------------------------------------------------------------------------------------------
def test_check_answer_exact_report() -> None:
    answer = (
        "Based on the evidence, the following applies. Whoever cheats shall be punished with imprisonment for seven "
        "years [IPC_420_0]. Whoever cheats shall not be punished [IPC_420_0]. It rains in Paris [S3][S9]. The moon is "
        "made of cheese."
    )
    report = ClaimCoverage().check_answer(answer, CHUNKS)
    assert isinstance(report, AnswerCoverage)
    assert [c.status for c in report.claims] == ["meta", "covered", "uncovered", "uncovered", "uncovered"]
    meta, punished, negated, paris, moon = report.claims
    assert meta.is_meta
    assert meta.is_covered
    assert meta.reason.startswith("meta statement ('Based on the evidence')")
    assert punished.score == 1.0
    assert punished.citations == ("IPC_420_0",)
    assert punished.covering_chunks == ("IPC_420_0",)
    assert punished.overlaps == {"IPC_420_0": 1.0}
    assert punished.threshold == 0.3
    assert punished.reason == "covered by IPC_420_0 (support 1.00 >= 0.30)"
    assert negated.score == 0.25  # every word found, but the chunk is not negated: a contradiction
    assert "the claim is negated, IPC_420_0 is not near its words" in negated.reason
    assert paris.citations == ("S3", "S9")
    assert paris.reason.endswith("; unknown citation: S9")
    assert moon.reason == "no citation"
    assert moon.score == 0.0
    assert moon.overlaps == {}
    assert moon.citations == ()
    for c in report.claims:
        assert answer[c.start : c.end] == c.sentence
    assert report.covered_count == 1
    assert report.claim_count == 4
    assert report.uncovered == (negated, paris, moon)
    assert report.attribution_coverage == 0.75
    assert report.supported_ratio == 0.25
    assert report.unknown_citations == ("S9",)
    assert report.missing_citations == ()
    assert report.is_grounded is False
    assert report.mode == "default"


IPC_420 = [
    {"id": "IPC_420_0", "content": "Whoever cheats and thereby dishonestly induces the person deceived to deliver any "
     "property shall be punished with imprisonment for a term which may extend to seven years and shall also be "
     "liable to fine."}
]  # fmt: skip


def test_faithful_sentences_about_one_long_source_sentence_are_covered() -> None:
    cc = ClaimCoverage()
    for sentence in (
        "Whoever cheats shall be punished with imprisonment [IPC_420_0].",
        "A cheat who dishonestly gets someone to hand over property can be jailed for up to seven years and fined "
        "[IPC_420_0].",
    ):
        claim = cc.check_claim(sentence, IPC_420)
        assert claim.is_covered, (sentence, claim.reason)
        assert claim.reason.startswith("covered by IPC_420_0 (support ")
    # The demo's chunk names its section; this one does not, so "Section 420" is a missing number and name there.
    sample = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [IPC_420_0]."
    assert cc.check_claim(sample, SAMPLE_CHUNKS).is_covered
    assert not cc.check_claim(sample, IPC_420).is_covered


def test_contradictions_are_uncovered_and_rank_below_faithful_paraphrases() -> None:
    cc = ClaimCoverage()
    faithful = cc.check_claim("Cheaters can be jailed for up to seven years and fined [IPC_420_0].", IPC_420)
    ten = cc.check_claim("Cheaters can be jailed for up to ten years and fined [IPC_420_0].", IPC_420)
    negated = cc.check_claim("Whoever cheats shall not be punished [IPC_420_0].", IPC_420)
    assert faithful.is_covered
    assert faithful.score > ten.score
    assert not ten.is_covered
    assert "'ten' not in IPC_420_0, which says 'seven'" in ten.reason
    assert ten.overlaps["IPC_420_0"] < 1.0  # the plain overlap: "ten" is a content word the chunk lacks
    assert not negated.is_covered
    assert "negated" in negated.reason


def test_overlaps_are_the_plain_overlap_a_person_can_check() -> None:
    # Content words (stemmed): cheat, punish, bailable -> 2 of 3 in the chunk, whatever the support score is.
    claim = ClaimCoverage().check_claim("Cheating is punished and bailable [IPC_420_0].", IPC_420)
    assert claim.overlaps == {"IPC_420_0": pytest.approx(2 / 3)}
    assert claim.score != claim.overlaps["IPC_420_0"]
    assert "missing from IPC_420_0: 'bailable'" in claim.reason


def test_check_answer_empty_and_meta_only_answers_have_ratios_one() -> None:
    for answer in ("", "   \n  ", "In summary, here is the answer."):
        report = ClaimCoverage().check_answer(answer, CHUNKS)
        assert report.covered_count == 0
        assert report.attribution_coverage == 1.0
        assert report.supported_ratio == 1.0
        assert report.is_grounded is True
    assert ClaimCoverage().check_answer("", []).claims == ()


def test_meta_needs_no_content_found_in_chunks() -> None:
    cc = ClaimCoverage()
    chunk = ["Whoever cheats shall be punished."]
    assert cc.check_claim("In summary, cheating is punishable.", chunk).is_meta is False
    assert cc.check_claim("In summary, the rest is unclear.", chunk).is_meta is True
    assert cc.check_claim("In summary, Section 420 is unclear.", chunk).is_meta is False  # a number
    assert cc.check_claim("Overall, Smith is unclear.", chunk).is_meta is False  # a capitalised name
    custom = ClaimCoverage(meta_patterns=(*META_PATTERNS, "as per the records"))
    assert custom.check_claim("As per the records, nothing else.", chunk).is_meta is True
    assert ClaimCoverage(meta_patterns=[]).check_claim("In summary, the rest.", chunk).is_meta is False
    assert "in summary" in META_PATTERNS


# word (* word)^19 zzz: 19 wildcards, up to 8^18 ways per start to a plain depth-first search (it never finished).
MANY_WILDCARDS = " ".join(["* word"] * 20) + " zzz"


def test_meta_patterns_with_many_wildcards() -> None:
    chunks = [{"id": "A", "content": "word other"}]
    for mode, score in (("default", 1.0), ("reference", 0.5)):
        cc = ClaimCoverage(meta_patterns=[MANY_WILDCARDS], mode=mode)
        oracle = rc.Checker(mode=mode, meta_patterns=[MANY_WILDCARDS], zipf=ZIPF, relations=RELATIONS)
        result = cc.check_answer("word " * 50 + "[A].", chunks)
        assert [(c.is_meta, c.is_covered, c.score, c.covering_chunks) for c in result.claims] == [
            (False, True, score, ("A",))
        ]
        assert result.is_grounded
        # The pattern spans 39..172 words before its "zzz" (each wildcard 1..8 tokens).
        for words, meta in ((38, False), (39, True), (172, True), (173, False)):
            answer = "Word " + "word " * (words - 1) + "zzz, the rest is unclear."
            claim = cc.check_answer(answer, chunks).claims[0]
            assert claim.is_meta is meta, (mode, words)
            assert claim.is_covered is meta
            assert oracle.check_answer(answer, [("A", "word other")]).claims[0].is_meta is meta


@settings(max_examples=100, deadline=None)
@given(
    pattern=st.lists(st.sampled_from(["word", "zzz", "*"]), min_size=1, max_size=14).map(" ".join),
    words=st.lists(st.sampled_from(["word", "zzz", "other"]), max_size=60).map(" ".join),
)
def test_wildcard_meta_patterns_equal_oracle(pattern: str, words: str) -> None:
    answer = f"Word {words}, the rest is unclear. Word {words} [S1]."
    for mode, chunk in itertools.product(("default", "reference"), (words, "alpha beta")):  # meta: nothing supported
        got = ClaimCoverage(meta_patterns=[pattern], mode=mode).check_answer(answer, [chunk])
        oracle = rc.Checker(mode=mode, meta_patterns=[pattern], zipf=ZIPF, relations=RELATIONS)
        want = oracle.check_answer(answer, [("S1", chunk)])
        assert [(c.is_meta, c.is_covered) for c in got.claims] == [(c.is_meta, c.is_covered) for c in want.claims]
        assert [c.score for c in got.claims] == pytest.approx([c.score for c in want.claims], abs=1e-9)


def test_multi_citation_factor_and_reference_mode() -> None:
    chunks = [{"id": "S1", "content": "alpha"}, {"id": "S2", "content": "beta"}]
    ref = ClaimCoverage(mode="reference")
    both = ref.check_answer("alpha beta gamma delta [S1][S2].", chunks).claims[0]
    assert both.is_covered
    assert both.score == 0.25
    assert both.threshold == pytest.approx(0.21)
    assert both.covering_chunks == ("S1", "S2")
    assert both.overlaps == {"S1": 0.25, "S2": 0.25}
    one = ref.check_answer("alpha beta gamma delta [S1].", chunks).claims[0]
    assert not one.is_covered
    assert one.reason == "not covered: best support 0.25 (S1) < 0.30"
    assert (
        ClaimCoverage(multi_citation_factor=1.0, mode="reference")
        .check_answer("alpha beta gamma delta [S1, S2].", chunks)
        .claims[0]
        .threshold
        == 0.3
    )


def test_missing_citations_and_validate_citations() -> None:
    chunks = ["Paris is the capital of France.", "Berlin is the capital of Germany.", "Gardening tips."]
    answer = "Paris is the capital of France [S1]. Berlin is the capital of Germany."
    cc = ClaimCoverage()
    report = cc.check_answer(answer, chunks)
    assert report.missing_citations == ("S2",)
    assert report.claims[1].reason == "no citation; S2 supports it (1.00): cite it"
    assert cc.validate_citations(answer, chunks) == (False, ["S2"], "chunks used but not cited: S2")
    ok = cc.validate_citations("Paris is the capital of France [S1]. Berlin is the capital of Germany [S2].", chunks)
    assert ok == (True, [], "every chunk the answer uses is cited, and every citation names a retrieved chunk")
    assert cc.validate_citations("Paris [S7].", chunks) == (
        False,
        ["S1"],
        "chunks used but not cited: S1; citations naming no retrieved chunk: S7",
    )
    assert validate_multi_chunk_citations(answer, chunks) == (False, ["S2"], "chunks used but not cited: S2")


def test_uncited_chunks_among_many_unrelated_ones() -> None:
    # Uncited chunks are first read only for which claim words they hold: most share none and need no more, the one
    # that supports a sentence is found wherever it sits, and the cited ones are scored as always.
    unrelated = [f"Gardening tip number {i}: water the tomatoes early." for i in range(6)]
    chunks = [*unrelated[:3], "Berlin is the capital of Germany.", *unrelated[3:], "Paris is the capital of France."]
    answer = "Berlin is the capital of Germany. Paris is the capital of France [S8]. Rome is in Italy [S1]."
    report = ClaimCoverage().check_answer(answer, chunks)
    assert report.missing_citations == ("S4",)
    assert report.claims[0].reason == "no citation; S4 supports it (1.00): cite it"
    assert report.claims[1].is_covered
    assert report.claims[1].covering_chunks == ("S8",)
    assert not report.claims[2].is_covered
    assert report.claims[2].overlaps == {"S1": 0.0}
    assert report.claims[2].reason.startswith("not covered: best support 0.00 (S1) < 0.30")
    # An uncited sentence no chunk supports gets no "cite it", however many chunks there are.
    alone = ClaimCoverage().check_answer("Madrid is the capital of Spain. Paris is in France [S8].", chunks)
    assert alone.claims[0].reason == "no citation"
    assert alone.missing_citations == ()


def test_filter_unsupported_keeps_covered_and_meta_sentences() -> None:
    answer = (
        "Based on the evidence, here is the answer.\n\nCheating is punished with imprisonment [IPC_420_0]. "
        "The moon is made of cheese [S2]. Cheating means deceiving a person [S2]."
    )
    clean = ClaimCoverage().filter_unsupported(answer, CHUNKS)
    assert clean == (
        "Based on the evidence, here is the answer.\n\nCheating is punished with imprisonment [IPC_420_0]. "
        "Cheating means deceiving a person [S2]."
    )
    assert ClaimCoverage().filter_unsupported("Nothing here is supported.", CHUNKS) == ""


def test_check_claim_and_module_level_form() -> None:
    cc = ClaimCoverage()
    result = cc.check_claim("Cheating is punished with imprisonment.", CHUNKS)
    assert isinstance(result, ClaimResult)
    assert not result.is_covered  # "No Citations - Rejected (unless meta-statement)"
    assert result.reason.startswith("no citation; IPC_420_0 supports it (")
    assert result.reason.endswith("): cite it")
    assert result.score >= 0.3
    assert result.citations == ()
    assert list(result.overlaps) == ["IPC_420_0", "S2", "S3"]  # uncited: every chunk is scored
    assert result.covering_chunks == ()
    assert (result.start, result.end) == (0, len(result.sentence))
    assert cc.check_claim("Cheating is punished with imprisonment [IPC_420_0].", CHUNKS).is_covered
    assert cc.check_claim("In summary, here is the answer.", CHUNKS).is_covered  # meta
    cited = cc.check_claim("Cheating is punished [S3].", CHUNKS)
    assert not cited.is_covered
    assert list(cited.overlaps) == ["S3"]
    assert check_claim_coverage("Cheating is punished with imprisonment.", CHUNKS) == result
    assert check_claim_coverage("Cheating is punished.", CHUNKS, min_overlap=1.0).threshold == 1.0
    assert check_claim_coverage("cheating p q r", CHUNKS, mode="reference").score == pytest.approx(1 / 4)
    assert cc.check_claim("Cheating is punished.", []).reason == "no chunks to check it against"


def test_split_and_extract_citations() -> None:
    cc = ClaimCoverage()
    text = "Cheating is punished [IPC_420_0]. See also [S1][S3] and [S1, S3]. Dr. Smith agrees."
    assert cc.split_sentences(text) == [
        "Cheating is punished [IPC_420_0].",
        "See also [S1][S3] and [S1, S3].",
        "Dr. Smith agrees.",
    ]
    assert cc.extract_citations(text) == ["IPC_420_0", "S1", "S3"]
    assert cc.extract_citations("[citation needed] and [x](http://y)") == []
    assert cc.split_sentences("") == []


def test_unicode_offsets_are_str_indices_and_surrogates_are_tolerated() -> None:
    chunks = [{"id": "K1", "content": "DER BÜRGERMEISTER VON MÜNCHEN IST GEWÄHLT"}, "東京は首都です"]
    answer = "Der Bürgermeister von München ist gewählt [K1]. 東京は首都です [S2]."
    report = ClaimCoverage().check_answer(answer, chunks)
    assert [c.sentence for c in report.claims] == [answer[c.start : c.end] for c in report.claims]
    assert report.claims[1].sentence == "東京は首都です [S2]."
    assert all(c.is_covered for c in report.claims)
    broken = "Cheating is punished \ud800 [S2]. Next \udfff."
    report = ClaimCoverage().check_answer(broken, CHUNKS)
    assert [c.sentence for c in report.claims] == ["Cheating is punished \ud800 [S2].", "Next \udfff."]
    assert ClaimCoverage().check_claim("x \ud800", ["x"]).sentence == "x \ud800"


def test_large_answer() -> None:
    one = "Cheating is punished with imprisonment [IPC_420_0]. "
    answer = one * (1_000_000 // len(one))
    for mode in ("default", "reference"):
        report = ClaimCoverage(mode=mode).check_answer(answer, CHUNKS[:1])
        assert len(report.claims) == 1_000_000 // len(one)
        assert report.is_grounded


def test_chunk_forms_are_adapted() -> None:
    class Document:  # LangChain-like, recognised by duck typing
        def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
            self.page_content = page_content
            self.metadata = metadata

    chunks = [
        Chunk(content="Whoever cheats shall be punished.", id="A"),
        Document("Cheating means deceiving.", {"id": "B"}),
        "plain text chunk",
    ]
    report = ClaimCoverage().check_answer("Cheating is punished [A]. Cheating means deceiving [B].", chunks)
    assert [c.covering_chunks for c in report.claims] == [("A",), ("B",)]
    with pytest.raises(ValueError, match=r"chunks\[1\]\.id 'A' duplicates chunks\[0\]\.id"):
        ClaimCoverage().check_answer("x", [{"id": "A", "content": "a"}, {"id": "A", "content": "b"}])
    with pytest.raises(TypeError, match=r"chunks\[0\]"):
        ClaimCoverage().check_answer("x", [42])


# ---------------------------------------------------------------------------------------------------------------------
# Configuration, bad input, pickling, threads
# ---------------------------------------------------------------------------------------------------------------------
def test_bad_input_names_the_argument() -> None:
    cc = ClaimCoverage()
    with pytest.raises(TypeError, match=r"answer must be a str or an object with \.content.*; got bytes"):
        cc.check_answer(b"x", CHUNKS)
    with pytest.raises(TypeError, match=r"sentence must be a str or an object .*; got NoneType"):
        cc.check_claim(None, CHUNKS)
    with pytest.raises(TypeError, match="text must be str"):
        cc.split_sentences(3)  # type: ignore[arg-type]
    for bad in (1.5, -0.1, math.nan):
        with pytest.raises(ValueError, match="min_overlap must be in"):
            ClaimCoverage(min_overlap=bad)
        with pytest.raises(ValueError, match="multi_citation_factor must be in"):
            ClaimCoverage(multi_citation_factor=bad)
    with pytest.raises(TypeError, match="min_overlap must be a number"):
        ClaimCoverage(min_overlap="0.3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mode must be 'default' or 'reference'; got 'strict'"):
        ClaimCoverage(mode="strict")
    with pytest.raises(TypeError, match="mode must be a str"):
        ClaimCoverage(mode=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"stopwords\[1\] must be str"):
        ClaimCoverage(stopwords=["a", 2])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="meta_patterns must be an iterable of str, not a single str"):
        ClaimCoverage(meta_patterns="in summary")
    with pytest.raises(TypeError, match="term_statistics must be a TermStatistics; got dict"):
        ClaimCoverage(term_statistics={"zebra": 2.0})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="min_overlap must be in"):
        check_claim_coverage("x", CHUNKS, min_overlap=2)
    with pytest.raises(ValueError, match="mode must be"):
        validate_multi_chunk_citations("x", CHUNKS, mode="fast")
    with pytest.raises(ValueError, match="one chunk list per answer"):
        cc.check_answers(["a", "b"], [CHUNKS])
    with pytest.raises(TypeError, match=r"answers\[1\] must be a str or an object"):
        cc.check_answers(["a", None], [CHUNKS, CHUNKS])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"threads must be an int in \[1, "):
        cc.check_answers(["a"], [CHUNKS], threads=0)


def test_configuration_repr_pickle_and_equality() -> None:
    cc = ClaimCoverage(0.4, 0.5, stopwords=["the"], meta_patterns=["in summary"], mode="reference")
    assert repr(cc) == (
        "ClaimCoverage(min_overlap=0.4, multi_citation_factor=0.5, stopwords=['the'], "
        "meta_patterns=['in summary'], mode='reference')"
    )
    assert repr(ClaimCoverage()) == "ClaimCoverage(min_overlap=0.3, multi_citation_factor=0.7, mode='default')"
    clone = pickle.loads(pickle.dumps(cc))
    assert clone == cc
    assert repr(clone) == repr(cc)
    assert hash(clone) == hash(cc)
    assert clone.check_answer("the cat [S1].", ["cat"]) == cc.check_answer("the cat [S1].", ["cat"])
    assert ClaimCoverage() != cc
    assert (cc.min_overlap, cc.multi_citation_factor, cc.mode) == (0.4, 0.5, "reference")
    assert cc.stopwords == ("the",)
    assert cc.meta_patterns == ("in summary",)
    assert ClaimCoverage().stopwords is None
    assert ClaimCoverage().meta_patterns == META_PATTERNS
    # Custom stop words change what counts: "cat" is no longer a word to check.
    assert ClaimCoverage(stopwords=["cat"], mode="reference").check_claim("cat dog", ["dog"]).score == 1.0
    report = cc.check_answer("the cat [S1].", ["cat"])
    assert pickle.loads(pickle.dumps(report)) == report
    # One English table per process, parsed once, whatever the mode.
    assert ClaimCoverage().term_statistics is ClaimCoverage(mode="reference").term_statistics
    # Custom term statistics: in repr and state, equal (by content) after a round trip.
    custom = ClaimCoverage(term_statistics=TermStatistics.from_mapping({"zebra": 5.0}))
    assert repr(custom) == (
        "ClaimCoverage(min_overlap=0.3, multi_citation_factor=0.7, mode='default', "
        "term_statistics=TermStatistics(<1 terms>))"
    )
    custom_clone = pickle.loads(pickle.dumps(custom))
    assert custom_clone == custom
    assert hash(custom_clone) == hash(custom)
    assert custom_clone.term_statistics.to_dict() == {"zebra": 5.0}
    assert custom != ClaimCoverage()
    assert pickle.loads(pickle.dumps(ClaimCoverage())).term_statistics is TermStatistics.english()


def test_custom_term_statistics_change_weights_and_default_is_the_shared_english_table() -> None:
    # "zebra" is rare in English (weight ~4.4) but everywhere in this corpus (weight 3, the floor), while the
    # corpus never has "eat" or "grass" (unknown: weight 6 each), so the matched share of the claim drops.
    claim, chunk = "Zebras eat grass.", "Zebras live in Africa."
    corpus = TermStatistics.from_texts(["Zebras and more zebras roam the plains."] * 10)
    assert corpus.zipf("zebra") > 4.0 > (TermStatistics.english().zipf("zebra") or 1.0)
    english = ClaimCoverage().check_claim(claim, [chunk]).score
    local = ClaimCoverage(term_statistics=corpus).check_claim(claim, [chunk]).score
    assert local < english
    assert english == rc.default_support(claim, chunk, ZIPF, relations=RELATIONS).score
    assert local == rc.default_support(claim, chunk, corpus.to_dict(), relations=RELATIONS).score
    # Default ClaimCoverage and SufficientContextChecker hold the same English table object, in Python and in C++.
    english_table = TermStatistics.english()
    assert ClaimCoverage().term_statistics is english_table
    assert SufficientContextChecker().term_statistics is english_table
    assert ClaimCoverage()._config.statistics is english_table._core
    assert ClaimCoverage(term_statistics=corpus)._config.statistics is corpus._core


def test_one_object_serves_many_threads() -> None:
    cc = ClaimCoverage()
    answers = [f"Cheating is punished [IPC_420_0]. Paris is mild number {i} [S3]." for i in range(40)]
    expected = [cc.check_answer(a, CHUNKS) for a in answers]
    results: list[list[AnswerCoverage]] = [[] for _ in range(4)]

    def work(k: int) -> None:
        results[k] = [cc.check_answer(a, CHUNKS) for a in answers]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == expected for r in results)


def test_check_answers_equals_sequential_calls() -> None:
    cc = ClaimCoverage()
    answers = [
        "",
        "Cheating is punished [IPC_420_0].",
        "Cheating means deceiving \ud800 [S2]. Paris [S9].",
        "Based on the evidence, here is the answer.",
        "Whoever cheats shall be punished.",
    ] * 5
    chunk_lists = [CHUNKS, CHUNKS[:1], ["a", "b"], CHUNKS, [Chunk(content="x", id="S1")]] * 5
    sequential = [cc.check_answer(a, c) for a, c in zip(answers, chunk_lists)]
    for threads in (None, 1, 2, 7):
        assert cc.check_answers(answers, chunk_lists, threads=threads) == sequential
    assert cc.check_answers([], []) == []
    with pytest.raises(ValueError, match=r"chunks_per_answer\[2\]\[1\]\.id 'S1' duplicates"):
        cc.check_answers(["a", "b", "c"], [["x"], ["x"], ["y", {"id": "S1", "content": "x"}]])


# ---------------------------------------------------------------------------------------------------------------------
# Results: to_dict, HTML
# ---------------------------------------------------------------------------------------------------------------------
class _Spans(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.spans: list[dict[str, str]] = []
        self.text: list[str] = []
        self._in_answer = 0
        self._depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if self._in_answer:
            self._depth += 1
        if a.get("class") == "sc-answer":
            self._in_answer, self._depth = 1, 0
        if tag == "span" and "sc-claim" in a.get("class", ""):
            self.spans.append({**a, "text": ""})

    def handle_endtag(self, tag: str) -> None:
        if self._in_answer:
            if self._depth == 0:
                self._in_answer = 0
            else:
                self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._in_answer:
            self.text.append(data)
            if self.spans and self._depth == 1:
                self.spans[-1]["text"] += data


def test_to_dict_is_json_and_html_marks_every_sentence() -> None:
    answer = (
        "Based on the evidence, here is <the> answer. Whoever cheats shall be punished [IPC_420_0].  Moon & cheese "
        "[S9]."
    )
    report = ClaimCoverage().check_answer(answer, CHUNKS)
    data = json.loads(json.dumps(report.to_dict()))
    assert data["uncovered"] == ["Moon & cheese [S9]."]
    assert data["unknown_citations"] == ["S9"]
    assert data["claims"][1] == {
        "sentence": "Whoever cheats shall be punished [IPC_420_0].",
        "status": "covered",
        "score": 1.0,
        "is_covered": True,
        "is_meta": False,
        "citations": ["IPC_420_0"],
        "covering_chunks": ["IPC_420_0"],
        "overlaps": {"IPC_420_0": 1.0},
        "threshold": 0.3,
        "reason": "covered by IPC_420_0 (support 1.00 >= 0.30)",
        "start": 45,
        "end": 90,
    }
    parser = _Spans()
    parser.feed(report._repr_html_())
    assert [s["data-status"] for s in parser.spans] == ["meta", "covered", "uncovered"]
    assert [s["text"] for s in parser.spans] == [c.sentence for c in report.claims]
    assert [s["data-citations"] for s in parser.spans] == ["", "IPC_420_0", "S9"]
    assert parser.spans[2]["title"] == report.claims[2].reason
    assert "".join(parser.text) == answer  # the whole answer, escaped and restored
    assert "not grounded" in report._repr_html_()
    one = _Spans()
    one.feed(report.claims[1]._repr_html_())
    assert [s["class"] for s in one.spans] == ["sc-claim sc-covered"]
    assert json.loads(json.dumps(report.claims[0].to_dict()))["is_meta"] is True


# ---------------------------------------------------------------------------------------------------------------------
# C++ == the plain-Python oracle (hypothesis)
# ---------------------------------------------------------------------------------------------------------------------
VOCAB = [
    *(  # noqa: SIM905
        "punish punished punishment punishable cheat cheats cheating court courts year years imprisonment fine fined "
        "the a is was of in to and not never no nor without isn't don't it's cannot Arthur's students' "
        "state-of-the-art IPC_420 covid19 19th 1840s 10,000 3.14 420 1999 1,2 Smith NASA Mumbai Paris PARIS yes Yes "
        "München MÜNCHEN Über naïve café e-mail U.S. 3.5mm x y z weather mild deceive deceiving person What Is did "
        "Who"
    ).split(),
    "don\u2019t",  # typographic apostrophe
    "Jones\u2019s",
    "\u017f",  # long s: lowercase, yet case folding changes it
    "\u00b5",  # micro sign, likewise
    "\u6771\u4eac",  # Tokyo: one token per ideograph
    "\u9996\u90fd",
    "\u306f",
]
SEPARATORS = [" ", " ", " ", ", ", "; ", ": ", " (", ") ", ' "', '" ', " \u201c", "\u201d ", "-", "/", " [S1] ",
              " [S2, S3] ", "[S1][S9]", "\t", "\u00a0", ". ", "? ", "\u2003"]  # fmt: skip


@st.composite
def texts(draw: st.DrawFn, max_words: int = 14) -> str:
    words = draw(st.lists(st.sampled_from(VOCAB), max_size=max_words))
    out = ""
    for w in words:
        out += w + draw(st.sampled_from(SEPARATORS))
    return out


def _lower_safe(c: str) -> bool:
    """Characters whose str.lower() the C++ reference mode reproduces (see claims.py's module docstring)."""
    expected = rc.reference_fold(c) if rc._is_upper(c) else c
    return c.lower() == expected and c not in "\u03a3"


SAFE_ALPHABET = "".join(
    c for c in map(chr, [*range(0x20, 0x7F), *range(0xA0, 0x180), *range(0x391, 0x3CA), *range(0x410, 0x450),
                         0x4E00, 0x4EAC, 0x3042, 0x2003, 0x3000, 0x2019, 0x201C, 0x201D, 0x0A, 0x09])
    if _lower_safe(c)
)  # fmt: skip

DEFAULT = rc.Checker(zipf=ZIPF, relations=RELATIONS)
REFERENCE = rc.Checker(mode="reference")


def oracle_domain(text: str) -> str:
    """`text` with each lone line break made a space: the oracle's sentence splitter models paragraphs split by blank
    lines, not the core's line rules (a period ending a line ends a sentence: "ab.\nu" is two sentences to the core,
    one to the oracle; see _reference_sentences.py)."""
    return re.sub(r"(?<!\n)\n(?!\n)", " ", text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claim=texts(), chunk=texts(40))
@example(claim="Smith cheated in court.", chunk="Did Smith cheat in court? He was fined.")  # question, no answer
@example(claim="Smith cheated in court.", chunk="Did Smith cheat? Smith cheated in court.")  # question, then answer
@example(claim="The fine is 420.", chunk="What is the fine? 420 [S1]. Is it? What?")  # pair with an answer
@example(claim="The fine is 420.", chunk="Is the fine 420 [S2.1]? Who knows. What is it (a fine)?")  # markers
@example(claim="Smith was fined.", chunk="Who was fined? Was Smith fined?")  # two questions: no pair
@example(claim="Smith was fined.", chunk="Smith was fined. Who was fined?")  # an answer before the question
@example(claim="cheat", chunk="is cheating?! fine. what cheat.")  # the first mark after the words decides: "?"
def test_support_equals_oracle_on_vocabulary(claim: str, chunk: str) -> None:
    for cc, oracle in ((ClaimCoverage(), DEFAULT), (ClaimCoverage(mode="reference"), REFERENCE)):
        got = core.support_scores(cc._config, claim, [chunk])[0]
        assert got == pytest.approx(oracle.support(claim, chunk), abs=1e-9), (cc.mode, claim, chunk)


@settings(max_examples=200, deadline=None)
@given(
    claim=st.text(SAFE_ALPHABET, max_size=60).map(oracle_domain),
    chunk=st.text(SAFE_ALPHABET, max_size=120).map(oracle_domain),
)
@example(claim="A:U", chunk="\u00aa.\n\nu")  # found with a lone line break ("\u00aa.\nu"): outside the oracle's domain
def test_support_equals_oracle_on_random_text(claim: str, chunk: str) -> None:
    for cc, oracle in ((ClaimCoverage(), DEFAULT), (ClaimCoverage(mode="reference"), REFERENCE)):
        got = core.support_scores(cc._config, claim, [chunk])[0]
        assert got == pytest.approx(oracle.support(claim, chunk), abs=1e-9), (cc.mode, claim, chunk)


@st.composite
def answers(draw: st.DrawFn) -> str:
    """Answers of the oracle splitter's domain: sentences opening with a capital, ending in '.', no line breaks."""
    sentences = []
    for _ in range(draw(st.integers(0, 5))):
        # List labels ("1. ", "2) ", "(3) ") open some, and a number that is no label one.
        opener = draw(st.sampled_from(["Cheating", "Paris", "Based on the evidence,", "In summary,", "Smith",
                                       "Courts", "Yes,", "The", "Here is", "1. Cheating", "2) Smith", "(3) The",
                                       "10. In summary,", "420 Courts"]))  # fmt: skip
        body = " ".join(draw(st.lists(st.sampled_from([w for w in VOCAB if w not in ("U.S.", "\u017f")]), max_size=8)))
        cite = draw(st.sampled_from(["", " [S1]", " [S2]", " [S1][S2]", " [S3, S9]", " [S9]"]))
        sentences.append(f"{opener} {body}{cite}.")
    return " ".join(sentences)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answer=answers(), chunk_texts=st.lists(texts(30), min_size=0, max_size=3))
@example(answer="1. Smith was fined [S1]. 2) Courts punish cheating [S1].", chunk_texts=["Smith was fined. Courts "
         "punish cheating."])  # fmt: skip
@example(answer="(3) In summary, the fine is 420 [S1]. 12. Paris.", chunk_texts=["The fine is 420."])
def test_check_answer_equals_oracle(answer: str, chunk_texts: list[str]) -> None:
    pairs = [(f"S{i + 1}", t) for i, t in enumerate(chunk_texts)]
    for cc, oracle in ((ClaimCoverage(), DEFAULT), (ClaimCoverage(mode="reference"), REFERENCE)):
        got = cc.check_answer(answer, chunk_texts)
        want = oracle.check_answer(answer, pairs)
        assert len(got.claims) == len(want.claims), answer
        for g, w in zip(got.claims, want.claims):
            assert (g.start, g.end) == (w.start, w.end)
            assert g.score == pytest.approx(w.score, abs=1e-9)
            assert (g.is_covered, g.is_meta, g.threshold) == (w.is_covered, w.is_meta, w.threshold), (cc.mode, g)
            assert list(g.citations) == w.citations
            assert list(g.covering_chunks) == w.covering_chunks
            assert g.overlaps == pytest.approx(w.overlaps, abs=1e-9)
        assert list(got.unknown_citations) == want.unknown_citations
        assert list(got.missing_citations) == want.missing_citations, (cc.mode, answer, chunk_texts)
        assert got.covered_count == want.covered_count
        assert got.attribution_coverage == want.attribution_coverage
        assert got.supported_ratio == want.supported_ratio
        assert got.is_grounded == want.is_grounded


def test_dataset_sample_scores_equal_the_oracle() -> None:
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    assert {r["set"] for r in rows} == {"halueval", "begin"}
    default, reference = ClaimCoverage(), ClaimCoverage(mode="reference")
    for row in rows:
        chunk = row["contexts"][0]["content"]
        cited = row["answer"] + " [K]"
        want = rc.default_support(row["answer"], chunk, ZIPF, relations=RELATIONS)
        got = default.check_claim(cited, [{"id": "K", "content": chunk}])
        assert got.score == pytest.approx(want.score, abs=1e-12), row["id"]
        assert got.overlaps["K"] == pytest.approx(want.overlap, abs=1e-12), row["id"]
        assert reference.check_claim(cited, [{"id": "K", "content": chunk}]).score == pytest.approx(
            rc.reference_overlap(row["answer"], chunk), abs=1e-12
        )


def test_dataset_sample_separates_supported_from_unsupported_at_the_shipped_threshold() -> None:
    # A smoke check of calibration on the committed sample; the full measurement is benchmarks/quality/eval_claims.py.
    rows = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    cc = ClaimCoverage()
    for name in ("halueval", "begin"):
        part = [r for r in rows if r["set"] == name]
        said = [
            cc.check_claim(r["answer"] + " [K]", [{"id": "K", "content": r["contexts"][0]["content"]}]) for r in part
        ]
        pos = [c.is_covered for c, r in zip(said, part) if r["label"] == "supported"]
        neg = [not c.is_covered for c, r in zip(said, part) if r["label"] == "unsupported"]
        balanced = (sum(pos) / len(pos) + sum(neg) / len(neg)) / 2
        assert balanced >= 0.75, (name, balanced)


def test_a_score_just_under_the_threshold_is_not_printed_as_the_threshold() -> None:
    # 0.2991 printed with two decimals read "best support 0.30 (S1) < 0.30" in the reason a pipeline shows.
    chunk = [{"id": "S1", "content": "Whoever cheats shall be punished with imprisonment up to seven years, and "
                                     "shall also be liable to fine."}]  # fmt: skip
    claim = "Whoever cheats shall be punished with imprisonment up to seven years s1"
    cc = ClaimCoverage()
    cited = cc.check_answer(f"{claim} [S1].", chunk).claims[0]
    assert cited.score == pytest.approx(0.2991, abs=1e-4)
    assert cited.reason == "not covered: best support 0.299 (S1) < 0.300; missing from S1: 's1'"
    uncited = cc.check_claim(f"{claim}.", chunk)
    assert uncited.reason.startswith("no citation, and no chunk supports it: best support 0.299 (S1) < 0.300;")
    chunks = [*chunk, {"id": "S2", "content": "Cheating is an offence."}]
    result = sufficient_context.GroundedAnswerer().answer(
        "What is the punishment for cheating?", chunks, lambda system, user: f"{claim} [S1]."
    )
    assert result.claims[0]["reason"] == cited.reason
    # far from the threshold: two decimals as before
    assert (
        cc.check_answer("Cheating is bailable [S1].", chunk)
        .claims[0]
        .reason.startswith("not covered: best support 0.12 (S1) < 0.30")
    )


@pytest.mark.parametrize("label", ["1. ", "2) ", "(3) ", "10. ", "  4. "])
def test_a_numbered_lists_labels_are_no_numbers_the_claim_states(label: str) -> None:
    # "1. Whoever cheats ... [S1]." copied from the source scored 0.10: "'1' not in S1". Numbered lists are how models
    # write answers; the label is formatting, as a bullet is.
    chunk = [{"id": "S1", "content": "Whoever cheats shall be punished with imprisonment for a term which may extend "
                                     "to seven years, and shall also be liable to fine."}]  # fmt: skip
    cc = ClaimCoverage()
    listed = cc.check_answer(f"{label}Whoever cheats shall be liable to fine [S1].", chunk)
    assert listed.is_grounded
    plain = cc.check_answer("Whoever cheats shall be liable to fine [S1].", chunk)
    assert listed.claims[0].score == plain.claims[0].score
    # A number the claim does state still counts, in a list item too.
    wrong = cc.check_answer(f"{label}Whoever cheats is punished for 9 years [S1].", chunk).claims[0]
    assert not wrong.is_covered
    assert "'9' not in S1" in wrong.reason
    # Not labels: a number that starts the claim's words, a number after the first token, a decimal.
    for claim in ("4 years is the term for cheats [S1].", "Term 1. Whoever cheats is fined [S1].",
                  "1.5 years is the term for cheats [S1]."):  # fmt: skip
        assert not cc.check_answer(claim, chunk).claims[0].is_covered, claim
    # The reference mode (the original formula) reads the label as a word.
    assert ClaimCoverage(mode="reference").check_answer(f"{label}Whoever cheats [S1].", chunk).claims[0].score < 1.0


@pytest.mark.parametrize(
    ("chunk", "used"),
    [
        ("SMITH CHEATED THE COURT.", True),  # capitals
        ("Smith's cheating of the court-house.", True),  # possessive, inflection, hyphen
        ("Smith deceived the court.", True),  # a related word stands in for "cheated"
        ("\uff33\uff4d\uff49\uff54\uff48 cheated the court.", True),  # full-width letters fold to ASCII
        ("Smith [S1] cheated the court", True),  # a citation marker inside
        ("Smith cheered the court.", False),  # one word short
        ("The weather in Paris is mild in spring.", False),
    ],
)
def test_an_uncited_chunk_is_reported_used_exactly_as_the_oracle_says(chunk: str, used: bool) -> None:
    # Chunks no sentence cites are first read as bytes (a chunk lacking the claim's heaviest words is settled without
    # its analysis): every form a word can take there must still count.
    answer = "Smith cheated the court [S1]."
    chunks = [{"id": "S1", "content": "Paris is mild."}, {"id": "S2", "content": chunk}]
    got = ClaimCoverage().check_answer(answer, chunks)
    want = DEFAULT.check_answer(answer, [(c["id"], c["content"]) for c in chunks])
    assert list(got.missing_citations) == want.missing_citations
    assert list(got.missing_citations) == (["S2"] if used else [])


def test_uncited_chunks_read_or_analyzed_report_what_the_oracle_says() -> None:
    # Chunks holding a claim's words but another year are analyzed all the same after their bytes are read, so a
    # check stops reading once most of its readings were of such chunks: the chunks after them (a supporting one, an
    # unrelated one), and the "cite it" search, which skips the chunks every sentence was ruled out for, must still
    # report what the oracle says.
    answer = "Smith cheated the court in Paris in 1999. Courts punish cheating [S1]. The weather in Lyon is mild."
    years = [f"Smith cheated the court in Paris in {2000 + i}." for i in range(6)]
    texts = [
        "Courts punish cheating.",
        "Rain fell on Oslo.",
        *years,
        "Snow fell.",
        "Smith cheated the court in Paris in 1999.",
    ]
    chunks = [{"id": f"S{i + 1}", "content": text} for i, text in enumerate(texts)]
    got = ClaimCoverage().check_answer(answer, chunks)
    want = DEFAULT.check_answer(answer, [(c["id"], c["content"]) for c in chunks])
    assert list(got.missing_citations) == want.missing_citations == ["S10"]
    assert [c.score for c in got.claims] == pytest.approx([c.score for c in want.claims])
    assert got.claims[0].reason.endswith("; S10 supports it (1.00): cite it")
    assert "cite it" not in got.claims[2].reason


def test_kept_results_leave_their_id_tuples_to_the_garbage_collector_untracked() -> None:
    # A caller keeping thousands of results (a list, a DataFrame) had the collector walk every tuple of each; the core
    # untracks the tuples that hold nothing a cycle could ever run through (str only). The records hold their mutable
    # `overlaps` dict and stay tracked, and so do the tuples of records.
    cc = ClaimCoverage()
    answer = "Smith was fined [S1]. Paris is mild [S9]. Courts punish cheating."
    chunks = [{"id": "S1", "content": "Smith was fined."}, {"id": "S2", "content": "Courts punish cheating."}]
    for result in (cc.check_answer(answer, chunks), cc.check_answers([answer], [chunks])[0]):
        assert gc.is_tracked(result)  # the frozen dataclass itself
        held = [result.missing_citations, result.unknown_citations]
        for claim in result.claims:
            held += [claim.citations, claim.covering_chunks]
        assert [type(x).__name__ for x in held if gc.is_tracked(x)] == []
        assert all(gc.is_tracked(x) for x in (result.claims, result.uncovered, *result.claims))
        assert result.missing_citations == ("S2",)
        assert result.unknown_citations == ("S9",)
        assert [c.is_covered for c in result.claims] == [True, False, False]
        assert pickle.loads(pickle.dumps(result)) == result
    claim = cc.check_claim("Smith was fined [S1].", chunks)
    assert gc.is_tracked(claim)
    assert not gc.is_tracked(claim.citations)
    assert claim.is_covered
    gc.collect()  # and a collection over them stays sound
    assert result.claims[0].overlaps == {"S1": 1.0}


def test_an_answers_claims_are_built_when_first_read_and_equal_the_eager_records() -> None:
    # The core hands back the verdict with the claims pending (one C++ result); `claims` and `uncovered` are built on
    # first read, from any thread, and are what the eager record path builds.
    cc = ClaimCoverage()
    answer = "Smith was fined 500 euros [S1]. Paris is mild, très doux [S9]. Courts punish cheating. In summary, yes."
    chunks = [{"id": "S1", "content": "Smith was fined 300 euros."}, {"id": "S2", "content": "Courts punish cheating."}]
    eager = core.check_answer(cc._config, answer, ["S1", "S2"], [c["content"] for c in chunks], ClaimResult)
    for result in (cc.check_answer(answer, chunks), cc.check_answers([answer], [chunks])[0]):
        assert "claims" not in vars(result)
        assert "uncovered" not in vars(result)
        assert (result.is_grounded, result.covered_count, result.missing_citations) == (False, 0, ("S2",))
        with ThreadPoolExecutor(4) as pool:
            seen = list(pool.map(lambda r: r.claims, [result] * 4))
        assert len(seen) == 4
        assert all(claims is seen[0] for claims in seen)  # built once
        assert result.claims == tuple(eager[0])
        assert result.uncovered == tuple(c for c in result.claims if not c.is_covered)
        assert result.claim_count == 3
        assert [c.is_meta for c in result.claims] == [False, False, False, True]
        assert "'500' not in S1, which says '300'" in result.claims[0].reason
        assert "_pending_claims" not in vars(result)
    # Equality, repr, pickle and copy before any read see the claims too.
    first, second = cc.check_answer(answer, chunks), cc.check_answer(answer, chunks)
    assert pickle.loads(pickle.dumps(first)) == second
    assert "claims=(ClaimResult(sentence='Smith was fined 500 euros [S1].'" in repr(cc.check_answer(answer, chunks))
    with pytest.raises(AttributeError, match="'AnswerCoverage' object has no attribute 'claimz'"):
        _ = first.claimz  # type: ignore[attr-defined]


def test_an_unread_answer_keeps_no_chunk_text_alive_and_its_reasons_quote_the_chunks_all_the_same() -> None:
    # The pending claims kept every chunk's text alive until read: a caller keeping results of chunks it had let go
    # held them all (5,000 results of 5 chunks of 4 KB: 125 MB instead of 30). The numbers a reason quotes from a
    # chunk are copied instead.
    cc = ClaimCoverage()
    content = "".join(["The ticket costs ", "300 euros, the museum opened in 1889."])
    before = sys.getrefcount(content)
    chunks = [{"id": "S1", "content": content}, {"id": "S2", "content": "Paris is the capital of France."}]
    results = [
        cc.check_answer("The ticket costs 500 euros [S1]. Paris is the capital [S2].", chunks),
        cc.check_answers(["The ticket costs 500 euros [S1]. Paris is the capital [S2]."], [chunks])[0],
    ]
    del chunks
    assert sys.getrefcount(content) == before
    del content
    gc.collect()
    _ = ["".join(["The ticket costs ", f"{i:03} euros, the museum opened in 1889."]) for i in range(1000)]
    for result in results:
        assert (
            result.claims[0].reason == "not covered: best support 0.06 (S1) < 0.30; '500' not in S1, which says '300'"
        )
        assert result.claims[1].is_covered


def test_an_answers_claims_read_again_while_they_are_built_are_built_once() -> None:
    # Building the claims allocates, so a collection may run a gc callback or finalizer (or let another thread run)
    # that reads the same result: that read built and set them, then the first one deleted the pending result again
    # (AttributeError out of `result.claims`). The first build to finish stays and both reads return it.
    cc = ClaimCoverage()
    chunks = [{"id": f"S{i}", "content": f"Paris is the capital of France {i}."} for i in range(1, 20)]
    answer = " ".join(f"Paris is the capital of France [S{i}]." for i in range(1, 20))
    result = cc.check_answer(answer, chunks)
    inner: list[tuple[ClaimResult, ...]] = []

    def read_inside(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and not inner:
            inner.append(result.claims)

    threshold = gc.get_threshold()
    gc.set_threshold(1)
    gc.callbacks.append(read_inside)
    try:
        assert core.materialize_claims(result)
    finally:
        gc.callbacks.remove(read_inside)
        gc.set_threshold(*threshold)
    assert len(inner) == 1
    assert result.claims is inner[0]
    assert result.uncovered == tuple(c for c in inner[0] if not c.is_covered)
    assert "_pending_claims" not in vars(result)

    # A read that misses them just after another one built them (materialize_claims then finds nothing pending).
    racing = cc.check_answer(answer, chunks)
    materialize = core.materialize_claims

    def another_read_first(answer: object) -> bool:
        materialize(racing)
        return materialize(answer)

    core.materialize_claims = another_read_first
    try:
        assert racing.claims == result.claims
    finally:
        core.materialize_claims = materialize


def test_a_cycle_through_a_results_overlaps_is_collected() -> None:
    # `overlaps` is a dict: holding str and float only it is untracked, but it is mutable, so a record holding it must
    # stay tracked (as CPython keeps any tuple holding a dict): else a cycle run through it is never collected.
    cc = ClaimCoverage()
    chunks = [{"id": "S1", "content": "Smith was fined."}]

    class Node:
        record: Any = None

    def collected(make: Callable[[], ClaimResult]) -> bool:
        record = make()
        node = Node()
        alive = weakref.ref(node)
        record.overlaps["node"] = node  # type: ignore[assignment]
        node.record = record
        del record, node
        gc.collect()
        return alive() is None

    assert collected(lambda: cc.check_claim("Smith was fined [S1].", chunks))
    assert collected(lambda: cc.check_claim("Smith was fined.", chunks))
    assert collected(lambda: cc.check_answer("Smith was fined [S1].", chunks).claims[0])
    assert collected(lambda: cc.check_answer("Paris is mild [S1].", chunks).uncovered[0])
    assert collected(lambda: cc.check_answers(["Smith was fined [S1]."], [chunks])[0].claims[0])


def _ticks_of_another_thread_inside(call: Callable[[], object]) -> tuple[int, float]:
    """(clock readings another Python thread made during `call`, away from its ends where the interpreter may switch
    threads around a call that held the GIL; the call's duration)."""
    seen: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            seen.append(time.perf_counter())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)
    thread = threading.Thread(target=tick)
    thread.start()
    try:
        while not seen:
            pass
        start = time.perf_counter()
        call()
        end = time.perf_counter()
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    margin = 0.002
    return len([t for t in seen if start + margin < t < end - margin]), end - start


def test_a_long_check_releases_the_gil_and_a_short_one_returns_the_same_result_holding_it() -> None:
    # check_answer keeps the GIL below 4 KiB of text (releasing it is ~2% of a short check) and releases it above, so
    # other Python threads run while a long answer is checked.
    cc = ClaimCoverage()
    text = " ".join(["Smith was fined by the court in Paris for cheating in 1999."] * 16000)  # ~1 MB: ~15 ms
    answer = "Smith was fined for cheating [S1]. The court in Paris fined Smith in 1999 [S1]."
    results = []
    inside, seconds = _ticks_of_another_thread_inside(lambda: results.append(cc.check_answer(answer, [text])))
    assert seconds > 0.008
    assert inside > 100, (inside, seconds)
    short = cc.check_answer(answer, [text[:3000]])
    assert [c.is_covered for c in results[0].claims] == [c.is_covered for c in short.claims]
    assert results[0].claims[0].is_covered


def test_the_undispatched_check_answer_raises_what_the_bound_function_raises() -> None:
    # core.check_answer_chunks skips pybind11's dispatcher; every call it cannot take (arguments, errors) goes to the
    # bound function, so callers see one set of errors.
    cc = ClaimCoverage()
    chunks = [{"id": "S1", "content": "Paris is nice."}]
    fast, bound = core.check_answer_chunks, core._check_answer_chunks
    ok = fast(cc._config, "Paris is nice [S1].", chunks, ClaimResult, AnswerCoverage)
    assert ok == bound(cc._config, "Paris is nice [S1].", chunks, ClaimResult, AnswerCoverage)
    assert ok.claims[0].reason == "covered by S1 (support 1.00 >= 0.30)"
    assert fast(cc._config, "x", [{"content": 3}], ClaimResult, AnswerCoverage) is None  # not plain: adapt it
    bad: list[tuple[Any, ...]] = [
        (),
        (cc._config, "x", chunks, ClaimResult, AnswerCoverage, None),
        ("not a config", "x", chunks, ClaimResult, AnswerCoverage),
        (cc._config, b"x", chunks, ClaimResult, AnswerCoverage),
        (cc._config, "x", chunks, int, AnswerCoverage),
        (cc._config, "x\ud800", chunks, ClaimResult, AnswerCoverage),
        (
            ClaimCoverage(max_sentences=1)._config,
            "Alpha beta gamma. Cold delta here.",
            chunks,
            ClaimResult,
            AnswerCoverage,
        ),
    ]
    for args in bad:
        errors = []
        for function in (fast, bound):
            with pytest.raises(Exception) as caught:  # noqa: PT011 - compared with the bound function's below
                function(*args)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1], args
    assert errors[0] == (ValueError, "answer has 2 sentences, more than max_sentences=1")
    # Keyword arguments go to the bound function too: taken as before, or refused as it refuses them.
    kwargs = {"claim_type": ClaimResult, "answer_type": AnswerCoverage}
    assert fast(cc._config, "Paris is nice [S1].", chunks, **kwargs) == ok
    assert fast(config=cc._config, answer="Paris is nice [S1].", chunks=chunks, **kwargs) == ok
    assert fast(cc._config, "Paris is nice [S1].", chunks, ClaimResult, answer_type=AnswerCoverage) == ok
    for keywords in ({"answer": "x"}, {"nope": 1}):
        refusals = []
        for function in (fast, bound):
            with pytest.raises(TypeError) as refused:
                function(cc._config, "x", chunks, ClaimResult, AnswerCoverage, **keywords)
            refusals.append(str(refused.value))
        assert refusals[0] == refusals[1]


def test_a_check_of_many_small_chunks_releases_the_gil() -> None:
    # Under 4 KiB of text, but 20,000 chunks against 200 sentences: tens of milliseconds that held the GIL when only
    # text bytes counted (every chunk costs the check its id and a pass per sentence, whatever its size).
    cc = ClaimCoverage()
    answer = "Smith was fined. " * 200
    for chunks in ([""] * 20000, [{"id": f"c{i}", "content": ""} for i in range(20000)]):
        inside, seconds = _ticks_of_another_thread_inside(lambda chunks=chunks: cc.check_answer(answer, chunks))
        assert seconds > 0.008
        assert inside > 100, (inside, seconds)
