"""SufficientContextChecker and SufficiencyResult: the public surface of API.md section 2."""

from __future__ import annotations

import json
import math
import pickle
import threading
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from typing import Any

import numpy as np
import pytest

from sufficient_context.checker import Level, SufficiencyResult, SufficientContextChecker, TermStatistics
from sufficient_context.chunks import Chunk

CHEAT = "Whoever cheats shall be punished with imprisonment."  # 51 characters
NOW = datetime(2025, 1, 1, tzinfo=timezone.utc)


# -- exact values --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["default", "reference"])
def test_no_contexts_scores_zero(scoring: str) -> None:
    r = SufficientContextChecker(scoring=scoring).check_sufficiency("What is the penalty?", [])
    assert r.score == 0.0
    assert r.level is Level.INSUFFICIENT
    assert r.missing_aspects == ["No relevant context found"]
    assert r.signals == {}
    assert r.confidence_factors == []
    assert r.covered_terms == r.missing_terms == []


def test_reference_scoring_by_hand() -> None:
    r = SufficientContextChecker(scoring="reference").check_sufficiency("What is the penalty for cheating?", [CHEAT])
    density = (51 / 1000 + 37 / 50) / 2
    assert r.signals == {"coverage": 0.0, "relevance": 0.5, "density": density, "count": 1.0}
    assert r.score == 0.4 * 0.0 + 0.3 * 0.5 + 0.2 * density + 0.1 * 1.0
    assert r.level == "insufficient"
    assert r.missing_terms == ["penalty", "cheating"]
    assert r.missing_aspects == [
        "Query term 'penalty' not found in context",
        "Query term 'cheating' not found in context",
        "Retrieved context lacks detailed information",
    ]
    assert r.scoring == "reference"
    assert r.relevance_source == "constant"
    assert r.details == {}


def test_default_scoring_by_hand() -> None:
    stats = TermStatistics.from_mapping({})  # every term unknown: weights play no part
    r = SufficientContextChecker(term_statistics=stats).check_sufficiency("Zebra?", ["zebras."])
    # " zebra " and " zebras " share 9 of 12 and 15 character n-grams
    relevance = min(1.0, 9 / (math.sqrt(12) * math.sqrt(15)) / 0.5)
    density = (1 / 50 + min(1.0, 1 / 0.4)) / 2
    assert r.signals == {"coverage": 1.0, "relevance": relevance, "density": density, "count": 1.0}
    mean = (0.6 * 1.0 + 0.2 * relevance + 0.1 * density + 0.1 * 1.0) / (0.6 + 0.2 + 0.1 + 0.1)
    assert r.score == pytest.approx(mean**2, abs=1e-12)
    assert r.level is Level.SUFFICIENT
    assert r.covered_terms == ["zebra"]
    assert r.details == {"doc_coverage": 1.0, "relation": 1.0, "polarity_ok": True}
    assert r.relevance_source == "lexical"


def test_default_explains_missing_numbers_and_identifiers() -> None:
    r = SufficientContextChecker().check_sufficiency(
        "What does IPC_420 say about Section 420 cheating?", ["Cheating is punished under section 421."]
    )
    assert r.covered_terms == ["section", "cheating"]
    assert r.missing_terms == ["ipc_420", "say", "420"]  # query order
    assert "Number '420' from the query not found in context" in r.missing_aspects
    assert "Identifier 'ipc_420' from the query not found in context" in r.missing_aspects


def test_default_credits_related_words_and_flags_antonyms() -> None:
    checker = SufficientContextChecker()
    related = checker.check_sufficiency("How large was the growth of exports?", ["Exports saw a big increase."])
    plain = checker.check_sufficiency("How large was the growth of exports?", ["Exports saw a plain rally."])
    assert "Query term 'growth' only matched by a related word in context" in related.missing_aspects
    assert "Query term 'large' only matched by a related word in context" in related.missing_aspects
    assert related.signals["coverage"] > plain.signals["coverage"]
    assert related.missing_terms == ["large", "growth"]  # terms themselves are still missing

    contradicted = checker.check_sufficiency("Did exports increase in 2020?", ["Exports decreased in 2020."])
    neutral = checker.check_sufficiency("Did exports increase in 2020?", ["Exports rallied in 2020."])
    assert "Best supporting sentence holds an antonym of query term 'increase'" in contradicted.missing_aspects
    assert contradicted.signals["coverage"] == pytest.approx(neutral.signals["coverage"] * 0.5**2)
    # Asking about both directions is no contradiction.
    both = checker.check_sufficiency("Did exports increase or decrease?", ["Exports decreased."])
    assert not any("antonym" in a for a in both.missing_aspects)


def test_thresholds_set_the_level() -> None:
    r = SufficientContextChecker().check_sufficiency("zebra", ["zebra"])
    for thresholds, level in (((0.99, 0.5), "partial"), ((1.0, 0.99), "insufficient"), ((r.score, 0.0), "sufficient")):
        got = SufficientContextChecker(thresholds=thresholds).check_sufficiency("zebra", ["zebra"])
        assert got.score == r.score
        assert got.level == level
        assert got.level is Level(level)
    assert str(Level.PARTIAL) == "partial"


def test_min_contexts_and_recency_days_per_check() -> None:
    checker = SufficientContextChecker(min_contexts=1)
    r = checker.check_sufficiency("zebra", ["zebra", "a zebra"], min_contexts=4)
    assert r.signals["count"] == 0.5
    assert r.missing_aspects[-1] == "Only 2 context(s), need 4"
    chunks = [{"content": "zebra", "timestamp": NOW - timedelta(days=5)}]
    assert checker.check_sufficiency("zebra", chunks, recency_days=10, now=NOW).signals["recency"] == 0.5
    assert checker.min_contexts == 1  # the checker is not changed by per-check values


def test_recency_from_every_timestamp_form() -> None:
    checker = SufficientContextChecker(recency_days=10)
    chunks = [
        {"content": "zebra", "timestamp": NOW},
        {"content": "zebra", "timestamp": (NOW - timedelta(days=5)).isoformat()},
        {"content": "zebra", "timestamp": (NOW - timedelta(days=20)).timestamp()},
        {"content": "zebra"},
    ]
    r = checker.check_sufficiency("zebra", chunks, now=NOW)
    assert r.signals["recency"] == pytest.approx((1.0 + 0.5 + 0.0) / 3, abs=1e-12)
    assert checker.check_sufficiency("zebra", chunks, now=NOW.timestamp()).signals["recency"] == r.signals["recency"]
    assert "recency" not in checker.check_sufficiency("zebra", ["zebra"]).signals


def test_temperature_enters_density_only_when_given() -> None:
    checker = SufficientContextChecker()
    base = checker.check_sufficiency("zebra", [{"content": "zebra stripes"}]).signals["density"]
    hot = checker.check_sufficiency("zebra", [{"content": "zebra stripes", "temperature": 25}]).signals["density"]
    assert hot == pytest.approx((base * 2 + 0.5) / 3, abs=1e-12)


def test_custom_term_statistics_change_weights() -> None:
    query, context = "section zebra", ["The section is long."]
    english = SufficientContextChecker().check_sufficiency(query, context)
    # A legal corpus: "section" everywhere (400 of 3,602 words), "zebra" once.
    corpus = TermStatistics.from_texts(["This section covers the law of contracts and torts."] * 400 + ["A zebra."])
    local = SufficientContextChecker(term_statistics=corpus).check_sufficiency(query, context)
    assert local.details["doc_coverage"] < english.details["doc_coverage"]
    assert corpus.zipf("section") == math.log10(400 * 1e9 / 3602)
    assert corpus.zipf("zebra") == math.log10(1 * 1e9 / 3602)
    assert "zebra" in corpus
    assert "the" not in corpus  # stop words are counted as words but are never terms
    assert len(corpus) == 6  # section, cover, law, contract, tort, zebra
    assert TermStatistics.english() is TermStatistics.english()
    assert len(TermStatistics.english()) > 20000
    assert TermStatistics.english().zipf("the") is not None


# -- inputs --------------------------------------------------------------------------------------------------------


class _Document:  # LangChain Document, duck-typed
    def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
        self.page_content = page_content
        self.metadata = metadata


class _Node:  # LlamaIndex TextNode, duck-typed
    def __init__(self, text: str, node_id: str) -> None:
        self.text = text
        self.node_id = node_id
        self.metadata: dict[str, Any] = {}

    def get_content(self) -> str:
        return self.text


def test_every_chunk_kind_scores_the_same() -> None:
    checker = SufficientContextChecker()
    want = checker.check_sufficiency("zebra stripes", ["A zebra has stripes."])
    for chunk in (
        {"content": "A zebra has stripes.", "id": "a", "score": 0.4, "title": "extra keys are ignored"},
        Chunk(content="A zebra has stripes."),
        _Document("A zebra has stripes.", {"source": "x"}),
        _Node("A zebra has stripes.", "n1"),
    ):
        got = checker.check_sufficiency("zebra stripes", [chunk])
        assert got == want
    assert checker.check_sufficiency("zebra stripes", ("A zebra has stripes." for _ in range(1))) == want


def test_bad_inputs_raise_naming_the_problem() -> None:
    checker = SufficientContextChecker()
    with pytest.raises(TypeError, match="query must be a str"):
        checker.check_sufficiency(b"zebra", ["zebra"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="retrieved_contexts must be a sequence"):
        checker.check_sufficiency("zebra", "zebra")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"retrieved_contexts\[1\] has no 'content'"):
        checker.check_sufficiency("zebra", ["ok", {"id": "x"}])
    with pytest.raises(TypeError, match=r"retrieved_contexts\[0\].content must be str"):
        checker.check_sufficiency("zebra", [{"content": 3}])
    with pytest.raises(ValueError, match=r"retrieved_contexts\[0\].score must be finite"):
        checker.check_sufficiency("zebra", [{"content": "a", "score": float("nan")}])
    with pytest.raises(ValueError, match=r"min_contexts must be an int in \[1, "):
        checker.check_sufficiency("zebra", ["zebra"], min_contexts=0)
    with pytest.raises(TypeError, match="min_contexts must be an int"):
        checker.check_sufficiency("zebra", ["zebra"], min_contexts=True)
    with pytest.raises(ValueError, match="recency_days must be a finite number > 0"):
        checker.check_sufficiency("zebra", ["zebra"], recency_days=0)
    with pytest.raises(TypeError, match="now must be a datetime"):
        checker.check_sufficiency("zebra", ["zebra"], now="today")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"weights": {"coverge": 1.0}}, ValueError, "unknown weight name 'coverge'"),
        ({"weights": {"count": -0.5}}, ValueError, r"weights\['count'\] must be a finite number >= 0"),
        ({"weights": {"count": "high"}}, TypeError, r"weights\['count'\] must be a number"),
        ({"weights": [("count", 1.0)]}, TypeError, "weights must be a mapping"),
        # the floats as Python's repr shows them, not to 17 digits (0.80000000000000004)
        ({"thresholds": (0.5, 0.8)}, ValueError, r"0 <= partial <= sufficient <= 1; got \(0\.5, 0\.8\) as"),
        ({"thresholds": (1.2, 0.5)}, ValueError, "0 <= partial <= sufficient <= 1"),
        ({"thresholds": (0.8, -0.1)}, ValueError, "0 <= partial <= sufficient <= 1"),
        ({"thresholds": (0.8, float("nan"))}, ValueError, "0 <= partial <= sufficient <= 1"),
        ({"thresholds": (0.8,)}, TypeError, "thresholds must be a"),
        ({"min_contexts": 0}, ValueError, r"min_contexts must be an int in \[1, "),
        ({"min_contexts": 1.5}, TypeError, "min_contexts must be an int"),
        ({"recency_days": 0}, ValueError, "recency_days must be a finite number > 0"),
        ({"recency_days": -3.0}, ValueError, "recency_days must be a finite number > 0; got -3.0$"),
        ({"recency_days": 1e-300 * -1}, ValueError, "got -1e-300$"),
        ({"scoring": "fancy"}, ValueError, "scoring must be 'default' or 'reference'; got 'fancy'"),
        ({"scoring": None}, TypeError, "scoring must be a str"),
        ({"require_embeddings": True}, ValueError, "require_embeddings=True needs an embedding_model"),
        ({"escalate_band": (0.7, 0.3)}, ValueError, "0 <= low <= high <= 1"),
        ({"escalate": "judge"}, TypeError, "escalate must be callable"),
        ({"term_statistics": {"a": 1.0}}, TypeError, "term_statistics must be a TermStatistics"),
    ],
)
def test_bad_configuration_raises(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        SufficientContextChecker(**kwargs)


def test_weights_are_partial_overrides() -> None:
    checker = SufficientContextChecker(weights={"coverage": 1.0})
    assert checker.weights == {"coverage": 1.0, "relevance": 0.2, "density": 0.1, "count": 0.1, "recency": 0.1}
    reference = SufficientContextChecker(scoring="reference", weights={"relevance": 0.0})
    assert reference.weights == {"coverage": 0.4, "relevance": 0.0, "density": 0.2, "count": 0.1, "recency": 0.0}
    r = reference.check_sufficiency("What is the penalty for cheating?", [CHEAT])
    assert r.score == 0.2 * ((51 / 1000 + 37 / 50) / 2) + 0.1  # relevance no longer counts


def test_unicode_and_lone_surrogates() -> None:
    checker = SufficientContextChecker()
    r = checker.check_sufficiency("Straße café 日本", ["Die Straße und das Café in 日本."])
    assert r.covered_terms == ["straße", "café", "日", "本"]
    # A lone surrogate has no UTF-8; it is read as U+FFFD (neither is a letter).
    assert checker.check_sufficiency("zebra\ud800x", ["zebra\udfff x"]) == checker.check_sufficiency(
        "zebra\ufffdx", ["zebra\ufffd x"]
    )
    reference = SufficientContextChecker(scoring="reference")
    assert reference.check_sufficiency("abc\ud800def", ["abc"]).covered_terms == ["abc"]


def test_megabyte_context() -> None:
    text = "The striped zebra grazes on savanna grass near the river. " * 20000  # ~1.2 MB
    r = SufficientContextChecker().check_sufficiency("Where do zebras graze?", [text, "Lions hunt."])
    assert r.signals["coverage"] == 1.0
    assert r.level is Level.SUFFICIENT


# -- results -------------------------------------------------------------------------------------------------------


def test_result_to_dict_json_pickle_and_equality() -> None:
    r = SufficientContextChecker().check_sufficiency("zebra penalty", [{"content": "A zebra.", "timestamp": NOW}])
    d = r.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert set(d) == {"score", "level", "missing_aspects", "confidence_factors", "signals", "covered_terms",
                      "missing_terms", "elapsed_ms", "scoring", "relevance_source", "decided_by", "checker_level",
                      "details"}  # fmt: skip
    assert d["level"] == r.level.value
    assert type(d["level"]) is str
    assert d["elapsed_ms"] > 0
    again = pickle.loads(pickle.dumps(r))
    assert again == r
    assert again.to_dict() == d
    assert SufficiencyResult.from_dict(d) == r
    other = SufficientContextChecker().check_sufficiency("zebra", ["A zebra."])
    assert other != r
    assert "SufficiencyResult(score=" in repr(r)
    with pytest.raises(TypeError):
        SufficiencyResult()


class _HtmlParts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.classes: list[tuple[str, str]] = []  # (class, text)
        self._open: list[str] = []
        self.signals: list[str] = []
        self.fills: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self._open.append(a.get("class") or "")
        if a.get("data-signal"):
            self.signals.append(str(a["data-signal"]))
        if a.get("class") == "sc-bar-fill":
            self.fills.append(str(a.get("style")))

    def handle_endtag(self, tag: str) -> None:
        self._open.pop()

    def handle_data(self, data: str) -> None:
        for cls in self._open:
            if cls:
                self.classes.append((cls, data))


def test_html_has_badge_bars_and_terms() -> None:
    r = SufficientContextChecker().check_sufficiency(
        "zebra <script> penalty", [{"content": "A zebra <b>x</b>.", "timestamp": NOW}], now=NOW
    )
    parser = _HtmlParts()
    parser.feed(r._repr_html_())
    badge = [text for cls, text in parser.classes if cls.startswith("sc-badge")]
    assert badge == [r.level.value]
    assert parser.signals == list(r.signals)  # one bar per signal, recency included
    assert len(parser.fills) == len(r.signals)
    assert "width:100.0%" in parser.fills[parser.signals.index("recency")]
    covered = [text for cls, text in parser.classes if cls == "sc-term sc-covered-term"]
    missing = [text for cls, text in parser.classes if cls == "sc-term sc-missing-term"]
    assert covered == r.covered_terms == ["zebra"]
    assert missing == r.missing_terms == ["script", "penalty"]
    assert "<script>" not in r._repr_html_()  # user text is escaped
    aspects = [text for cls, text in parser.classes if cls == "sc-aspects"]
    assert aspects == r.missing_aspects


# -- batch, threads, pickling ----------------------------------------------------------------------------------------


def _batch_inputs() -> tuple[list[str], list[list[Any]]]:
    queries = [f"zebra {i} stripes section {i * 7}" for i in range(40)] + ["the", "What is the penalty?"]
    contexts: list[list[Any]] = [
        [f"Zebra number {i} has stripes.", {"content": f"Section {i * 7} text.", "timestamp": NOW - timedelta(days=i)}]
        for i in range(40)
    ]
    contexts += [[], [Chunk(content=CHEAT, temperature=60.0)]]
    return queries, contexts


@pytest.mark.parametrize("scoring", ["default", "reference"])
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_check_batch_equals_sequential(scoring: str, threads: int | None) -> None:
    checker = SufficientContextChecker(scoring=scoring)
    queries, contexts = _batch_inputs()
    batch = checker.check_batch(queries, contexts, now=NOW, threads=threads, min_contexts=2)
    assert len(batch) == len(queries)
    for q, c, got in zip(queries, contexts, batch):
        assert got == checker.check_sufficiency(q, c, now=NOW, min_contexts=2)
    assert checker.check_batch([], []) == []


def test_check_batch_errors_name_the_query() -> None:
    checker = SufficientContextChecker()
    with pytest.raises(ValueError, match="contexts_per_query has 1 entries for 2 queries"):
        checker.check_batch(["a", "b"], [["x"]])
    with pytest.raises(TypeError, match=r"queries\[1\] must be a str"):
        checker.check_batch(["a", 2], [["x"], ["y"]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"contexts_per_query\[1\]\[0\] has no 'content'"):
        checker.check_batch(["a", "b"], [["x"], [{"id": 1}]])
    with pytest.raises(TypeError, match="queries must be a sequence"):
        checker.check_batch("ab", [["x"], ["y"]])
    with pytest.raises(ValueError, match=r"threads must be an int in \[1, "):
        checker.check_batch(["a"], [["x"]], threads=0)


def test_checker_pickles_repr_and_is_not_mutated() -> None:
    stats = TermStatistics.from_mapping({"zebra": 2.5})
    checker = SufficientContextChecker(weights={"coverage": 0.9}, thresholds=(0.7, 0.4), min_contexts=2,
                                       recency_days=30, term_statistics=stats)  # fmt: skip
    text = repr(checker)
    assert "'coverage': 0.9" in text
    assert "thresholds=(0.7, 0.4)" in text
    assert "min_contexts=2" in text
    assert "scoring='default'" in text
    clone = pickle.loads(pickle.dumps(checker))
    assert repr(clone) == text
    assert clone.term_statistics.to_dict() == {"zebra": 2.5}
    before = repr(checker)
    r1 = checker.check_sufficiency("zebra stripes", ["A zebra."], min_contexts=5, recency_days=2)
    assert repr(checker) == before
    assert clone.check_sufficiency("zebra stripes", ["A zebra."], min_contexts=5, recency_days=2) == r1
    english = pickle.loads(pickle.dumps(SufficientContextChecker()))
    assert english.term_statistics is TermStatistics.english()


def test_one_checker_serves_many_threads() -> None:
    checker = SufficientContextChecker()
    queries, contexts = _batch_inputs()
    want = [checker.check_sufficiency(q, c, now=NOW) for q, c in zip(queries, contexts)]
    errors: list[str] = []

    def work() -> None:
        for _ in range(3):
            for i, (q, c) in enumerate(zip(queries, contexts)):
                if checker.check_sufficiency(q, c, now=NOW) != want[i]:
                    errors.append(q)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# -- escalation and policy -------------------------------------------------------------------------------------------


def test_escalation_only_inside_the_band() -> None:
    calls: list[tuple[str, list[Chunk]]] = []

    def judge(query: str, chunks: list[Chunk]) -> bool:
        calls.append((query, chunks))
        return True

    plain = SufficientContextChecker()
    score = plain.check_sufficiency("zebra penalty", ["A zebra."]).score
    inside = SufficientContextChecker(escalate=judge, escalate_band=(score - 0.01, score + 0.01))
    r = inside.check_sufficiency("zebra penalty", ["A zebra."])
    assert len(calls) == 1
    assert calls[0][0] == "zebra penalty"
    assert [c.content for c in calls[0][1]] == ["A zebra."]
    assert r.decided_by == "escalation"
    assert r.level is Level.SUFFICIENT
    assert r.checker_level == plain.check_sufficiency("zebra penalty", ["A zebra."]).level
    assert r.score == score
    assert r.to_dict()["decided_by"] == "escalation"
    outside = SufficientContextChecker(escalate=judge, escalate_band=(score + 0.01, 1.0))
    assert outside.check_sufficiency("zebra penalty", ["A zebra."]).decided_by == "checker"
    assert len(calls) == 1
    batch = inside.check_batch(["zebra penalty", "zebra"], [["A zebra."], ["zebra"]])
    assert [b.decided_by for b in batch] == ["escalation", "checker"]
    assert len(calls) == 2


@pytest.mark.parametrize(("verdict", "level"), [(False, "insufficient"), ("partial", "partial"),
                                                (Level.SUFFICIENT, "sufficient")])  # fmt: skip
def test_escalation_verdicts(verdict: Any, level: str) -> None:
    checker = SufficientContextChecker(escalate=lambda q, c: verdict, escalate_band=(0.0, 1.0))
    assert checker.check_sufficiency("zebra", ["zebra"]).level == level


def test_escalation_rejects_unknown_verdicts() -> None:
    checker = SufficientContextChecker(escalate=lambda q, c: 0.9, escalate_band=(0.0, 1.0))
    with pytest.raises(ValueError, match="escalate must return True/False or a level"):
        checker.check_sufficiency("zebra", ["zebra"])


def test_should_decline_follows_policy_flags() -> None:
    insufficient = SufficientContextChecker().check_sufficiency("zebra", [])
    assert SufficientContextChecker(decline_insufficient=True).should_decline(insufficient)
    assert not SufficientContextChecker().should_decline(insufficient)
    assert not SufficientContextChecker(decline_insufficient=True, enabled=False).should_decline(insufficient)
    ok = SufficientContextChecker().check_sufficiency("zebra", ["zebra"])
    assert not SufficientContextChecker(decline_insufficient=True).should_decline(ok)


def test_embedding_arrays_flow_through_batch() -> None:
    checker = SufficientContextChecker(scoring="reference")
    contexts = [[{"content": "a", "embedding": [3.0, 4.0]}], [{"content": "b", "embedding": [0.0, 1.0]}]]
    batch = checker.check_batch(["q", "q"], contexts, query_embeddings=[np.array([1.0, 0.0]), [0.0, 2.0]])
    assert [b.signals["relevance"] for b in batch] == [0.6, 1.0]


def test_results_construct_as_the_original_designs_dataclass() -> None:
    result = SufficiencyResult(
        score=0.42, level="partial", confidence_factors=["Good keyword coverage (80%)"], missing_aspects=["x"]
    )
    assert (result.score, result.level, result.confidence_factors, result.missing_aspects) == (
        0.42, Level.PARTIAL, ["Good keyword coverage (80%)"], ["x"],
    )  # fmt: skip
    assert SufficiencyResult(0.9, Level.SUFFICIENT).is_sufficient
    assert SufficiencyResult.from_dict(result.to_dict()) == result
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(ValueError, match="score must be a finite number"):
        SufficiencyResult(score=float("nan"), level="partial")
    with pytest.raises(ValueError, match="level must be one of"):
        SufficiencyResult(score=0.5, level="maybe")
    with pytest.raises(TypeError, match="missing_aspects must be a list of str"):
        SufficiencyResult(score=0.5, level="partial", missing_aspects="not a list")
