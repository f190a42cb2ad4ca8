"""The C++ checker against its plain-Python oracles (_reference_checker): both scorings, hypothesis inputs."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sufficient_context import _reference_checker as rc
from sufficient_context._core import checker as core
from sufficient_context.checker import SufficientContextChecker, TermStatistics

FREQ = rc.load_freq_table()
NOW = 1_700_000_000.0

# Words that exercise every rule: stop words and negations, stems, numbers and identifiers, typo and prefix
# variants of rare words, Unicode letters (folding, Kelvin sign, dotted I, sharp s), CJK, apostrophes, and words
# with related words and antonyms in the packaged relations (increase/growth/decrease, large/big/small, win/lose).
VOCAB = [
    "the", "The", "is", "not", "never", "no", "cannot", "without", "don't", "isn\u2019t", "what", "who", "when",
    "penalty", "penalties", "cheating", "cheats", "punished", "punishment", "section", "Section", "420", "421",
    "10,000", "3.14", "1957", "IPC_420", "covid19", "zorblax", "zorblaz", "zorbalx", "photosynthesis",
    "photosynthetic", "running", "runs", "caf\u00e9", "CAF\u00c9", "Stra\u00dfe", "STRASSE", "\u212aelvin",
    "\u0130stanbul", "istanbul", "\u65e5\u672c", "na\u00efve", "r\u00e9sum\u00e9", "Arthur's", "dogs'", "x",
    "ab", "abc", "e.g.", "U.S.", "state-of-the-art", "graze", "grazes", "zebra", "zebras", "stripes",
    "increase", "increased", "growth", "decrease", "decreased", "large", "big", "small", "win", "won", "lose",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", ", ", ". ", "! ", "? ", '." ', ".) ", "\n", " \u2014 ", "; ", "\u3000", ".\u201d "]
RAW_CHARS = st.characters(blacklist_categories=("Cs",))


@st.composite
def texts(draw: Any, max_words: int = 25) -> str:
    if draw(st.integers(0, 9)) == 0:  # sometimes arbitrary Unicode
        return str(draw(st.text(RAW_CHARS, max_size=60)))
    parts = draw(st.lists(st.tuples(st.sampled_from(VOCAB), st.sampled_from(SEPARATORS)), max_size=max_words))
    return "".join(w + s for w, s in parts)


@st.composite
def chunk_lists(draw: Any, with_extras: bool) -> list[dict[str, Any]]:
    chunks = []
    for _ in range(draw(st.integers(0, 4))):
        c: dict[str, Any] = {"content": draw(texts())}
        if with_extras:
            if draw(st.booleans()):
                c["summary"] = draw(texts(max_words=5))
            if draw(st.booleans()):
                c["temperature"] = draw(st.floats(0, 120, allow_nan=False))
            if draw(st.booleans()):
                c["timestamp"] = NOW - draw(st.floats(-5e6, 9e7, allow_nan=False))
        chunks.append(c)
    return chunks


def _assert_same(got: Any, want: dict[str, Any], thresholds: tuple[float, float]) -> None:
    assert math.isclose(got.score, want["score"], rel_tol=0, abs_tol=1e-9), (got.score, want["score"])
    if all(abs(want["score"] - t) > 1e-9 for t in thresholds):
        assert got.level == want["level"]
    assert got.signals.keys() == want["signals"].keys()
    for k, v in want["signals"].items():
        assert math.isclose(got.signals[k], v, rel_tol=0, abs_tol=1e-9), k
    assert got.missing_aspects == want["missing_aspects"]
    assert got.confidence_factors == want["confidence_factors"]
    assert got.covered_terms == want["covered_terms"]
    assert got.missing_terms == want["missing_terms"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=texts(max_words=12), chunks=chunk_lists(with_extras=True), min_contexts=st.integers(1, 5))
@example(query="What is the penalty for cheating?", chunks=[{"content": "Whoever cheats shall be punished."}],
         min_contexts=1)  # fmt: skip
@example(query="\u212aELVIN caf\u00e9 \u0130stanbul tea", chunks=[{"content": "kelvin stanbul TEA", "summary": "x"}],
         min_contexts=2)  # fmt: skip
def test_reference_scoring_equals_the_original_formula(query: str, chunks: list[dict[str, Any]],
                                                       min_contexts: int) -> None:  # fmt: skip
    checker = SufficientContextChecker(scoring="reference", min_contexts=min_contexts)
    got = checker.check_sufficiency(query, chunks)
    want = rc.reference_score(query, chunks, min_contexts=min_contexts)
    _assert_same(got, want, (0.8, 0.5))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    query=texts(max_words=12),
    chunks=chunk_lists(with_extras=True),
    min_contexts=st.integers(1, 5),
    recency_days=st.sampled_from([1.0, 30.0, 365.0]),
    weights=st.sampled_from([None, {"coverage": 1.0}, {"relevance": 0.0, "recency": 0.5}]),
)
@example(query="Was zorblax photosynthesis not in Section 420?", chunks=[
    {"content": "Zorblaz and photosynthetic cells. Section 421 applies!", "timestamp": NOW - 86400.0},
    {"content": "Zorbalx was never in section 420.", "temperature": 20.0}],
    min_contexts=3, recency_days=30.0, weights=None)  # fmt: skip
@example(query="zorblax", chunks=[{"content": "zorblaz"}], min_contexts=1, recency_days=365.0, weights=None)
@example(
    query="zorblax",
    chunks=[{"content": "Zorblax."}, {"content": ""}, {"content": " \n\u3000\u2028"}],
    min_contexts=3,
    recency_days=365.0,
    weights=None,
)  # fmt: skip (blank chunks are not contexts)
@example(
    query="zorblax",
    chunks=[
        {"content": "Zorblax."},
        {"content": "Zorblax."},
        {"content": ""},
        {"content": "Zorblax. "},
        {"content": "Zorblax."},
    ],
    min_contexts=4,
    recency_days=365.0,
    weights=None,
)  # fmt: skip (a copy of an earlier chunk is not another context)
@example(
    query="Is zorblax the capital of Kenya?",
    chunks=[
        {"content": "Is zorblax the capital of Kenya?\u201d\u00a0Yes. Why?! Zorblax, the capital?"},
        {"content": "Doesn't Kenya have a capital? What about zorblax?) Kenya has zorblax. who? "},
        {"content": "Where is http://x.org/a? Kenya's capital? Is zorblax (the capital of Kenya)?"},
    ],
    min_contexts=1,
    recency_days=365.0,
    weights=None,
)  # fmt: skip (questions: not the answering sentence, nor a bridge)
@example(query="photosynthesis", chunks=[{"content": "Photosynthetic."}], min_contexts=1, recency_days=365.0,
         weights=None)  # fmt: skip
@example(query="Isn't cheating punished?", chunks=[{"content": "Cheating is punished. Not here."}],
         min_contexts=1, recency_days=365.0, weights=None)  # fmt: skip
@example(query="Did the large zebras increase?", chunks=[{"content": "Big zebras graze. Zebras decreased. Growth."},
         {"content": "Small zebras win. Zebras lose."}], min_contexts=1, recency_days=365.0, weights=None)  # fmt: skip
@example(query="Do zebras in Kenya have stripes?", chunks=[{"content": "A zebra lives in Kenya. It grazes."},
         {"content": "Kenya's zebras have stripes."}, {"content": "Stripes glow."}], min_contexts=1,
         recency_days=365.0, weights=None)  # fmt: skip
@example(
    query=" ".join(f"zeta{i}q" for i in range(600)),
    chunks=[{"content": "zeta3q and zeta550q. zeta7q!"}],
    min_contexts=1,
    recency_days=365.0,
    weights=None,
)  # fmt: skip (past the 512-key-term cap)
def test_default_scoring_equals_the_spec(
    query: str, chunks: list[dict[str, Any]], min_contexts: int, recency_days: float, weights: dict[str, float] | None
) -> None:
    checker = SufficientContextChecker(min_contexts=min_contexts, recency_days=recency_days, weights=weights)
    if not query.strip():  # an empty query is an error in default scoring (there is nothing to check)
        with pytest.raises(ValueError, match="query must not be empty or blank"):
            checker.check_sufficiency(query, chunks, now=NOW)
        return
    got = checker.check_sufficiency(query, chunks, now=NOW)
    want = rc.default_score(query, chunks, freq_table=FREQ, weights=weights, min_contexts=min_contexts,
                            recency_days=recency_days, now=NOW)  # fmt: skip
    _assert_same(got, want, (0.8, 0.5))
    if chunks:
        for k, v in want["sub_signals"].items():
            got_v = got.details[k]
            assert math.isclose(float(got_v), v, abs_tol=1e-12), k


@settings(max_examples=60, deadline=None)
@given(query=texts(max_words=8), chunks=chunk_lists(with_extras=False), seed=st.integers(0, 2**31))
def test_embedding_relevance_equals_the_oracles(query: str, chunks: list[dict[str, Any]], seed: int) -> None:
    rng = np.random.default_rng(seed)
    table: dict[str, list[float]] = {}

    def embed(batch: list[str]) -> list[list[float]]:  # deterministic per text: a fake model
        out = []
        for t in batch:
            if t not in table:
                table[t] = [float(x) for x in rng.integers(-4, 5, size=3)]
            out.append(table[t])
        return out

    for scoring, oracle in (("reference", rc.reference_score), ("default", None)):
        checker = SufficientContextChecker(embed, scoring=scoring)
        if scoring == "default" and not query.strip():  # an error in default scoring
            continue
        got = checker.check_sufficiency(query, chunks, now=NOW)
        if oracle is not None:
            want = oracle(query, chunks, embed=embed)
            _assert_same(got, want, (0.8, 0.5))
        else:
            want = rc.default_score(query, chunks, freq_table=FREQ, embed=embed, now=NOW)
            # the similarity engine computes in float32 lanes: 1e-5 on relevance
            assert math.isclose(got.score, want["score"], abs_tol=2e-5)
            if chunks:
                assert math.isclose(got.signals["relevance"], want["signals"]["relevance"], abs_tol=1e-5)


@settings(max_examples=200, deadline=None)
@given(text=texts())
def test_sentences_equal_the_regex(text: str) -> None:
    assert core._sentences(text) == rc.sentences(text)


@settings(max_examples=300, deadline=None)
@given(
    query=st.text(st.sampled_from(list("abcXYZ k_1-. \u00e9\u0130\u212a\u0307\u0661\u65e5")) | RAW_CHARS, max_size=30)
)
def test_reference_query_terms_equal_python_re(query: str) -> None:
    want = []
    for m in re.finditer(r"\b[a-zA-Z]{3,}\b", query.lower()):
        if m.group() not in rc.REFERENCE_STOP_WORDS and m.group() not in want:
            want.append(m.group())
    assert core._reference_query_terms(query) == want


@settings(max_examples=300, deadline=None)
@given(a=st.text("abc\u00e9", max_size=6), b=st.text("abc\u00e9", max_size=6))
def test_one_edit_equals_the_oracle(a: str, b: str) -> None:
    assert core._one_edit_apart(a, b) == rc._edit1(a, b)


def test_word_table_matches_this_python() -> None:
    assert core._python_word_ranges() == rc.python_word_ranges()


def test_term_statistics_from_texts_equal_a_python_count() -> None:
    texts_ = ["The cats sat on the mat.", "Cats and dogs; 42 IPC_420 caf\u00e9 CAF\u00c9s", ""]
    counts: dict[str, int] = {}
    words = 0
    for t in texts_:
        for term, kind, _low in rc.tokenize(t):
            if kind != rc.WORD:
                continue
            words += 1
            if term is not None:
                counts[term] = counts.get(term, 0) + 1
    stats = TermStatistics.from_texts(texts_)
    assert len(stats) == len(counts)
    for term, n in counts.items():
        assert stats.zipf(term) == math.log10(n * 1e9 / words)


def test_dataset_rows_are_bit_exact() -> None:
    """A fixed sample of real rows (SQuAD-like text) scores exactly as the spec."""
    rows = [
        ("When did Robert Crispin go up against the Turks?",
         "In the 1060s, Robert Crispin led the Normans of Edessa against the Turks. Roussel de Bailleul even tried "
         "to carve out an independent state in Asia Minor with support from the local population."),
        ("Who married Cnut the Great?",
         "Ethelred fled to Normandy in 1013, when he was forced from his kingdom by Sweyn Forkbeard. His stay in "
         "Normandy (until 1016) influenced him and his sons by Emma, who stayed in Normandy after Cnut the Great's "
         "conquest of the isle."),
    ]  # fmt: skip
    checker = SufficientContextChecker()
    for query, content in rows:
        got = checker.check_sufficiency(query, [content])
        want = rc.default_score(query, [{"content": content}], freq_table=FREQ)
        assert got.score == want["score"]
        assert got.missing_aspects == want["missing_aspects"]


def test_packaged_relations_read_the_same_in_cpp_and_python() -> None:
    from sufficient_context._word_relations import english_word_relations

    table = english_word_relations()
    oracle = rc.load_relations()
    assert len(table) == len(oracle) > 30_000
    for stem in ("increas", "larg", "win", "growth", "begin"):
        related, antonyms = oracle[stem]
        assert set(table.related(stem)) == related
        assert set(table.antonyms(stem)) == antonyms
    assert "decreas" in oracle["increas"][1]
    assert "small" in oracle["larg"][1]
