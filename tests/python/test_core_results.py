"""Result objects the core builds itself (SufficiencyResult, AnswerCoverage) and the batch inputs it checks in one
pass: the same objects, values and errors as the Python-built ones."""

from __future__ import annotations

import dataclasses
import gc
import math
import pickle
import time
from datetime import datetime, timezone
from typing import Any

import pytest

from sufficient_context import _core
from sufficient_context.checker import Level, SufficiencyResult, SufficientContextChecker
from sufficient_context.chunks import Chunk
from sufficient_context.claims import AnswerCoverage, ClaimCoverage, ClaimResult

NOW = datetime(2025, 1, 1, tzinfo=timezone.utc)
# About 1 KiB a row: batches of a few dozen rows are spread over two threads (16 KiB of text a thread).
FILLER = "Spring rains raise the rivers of the plain, and the old dikes hold most years. " * 13


class _Str(str):
    """A str subclass: accepted everywhere, but not on the exact-type fast paths."""


def _without_time(r: SufficiencyResult) -> dict[str, Any]:
    d = r.to_dict()
    del d["elapsed_ms"]
    return d


# -- SufficiencyResult -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scoring", ["default", "reference"])
@pytest.mark.parametrize(
    "contexts",
    [
        [],
        ["The zebra grazes."],
        ["Die Straße und das Café in 日本.", "zebra \ud800 penalty"],
        [{"content": "A zebra.", "timestamp": NOW}],
        [Chunk(content="A zebra.", id="z", temperature=0.5)],
    ],
)
def test_core_built_results_are_complete_sufficiency_results(scoring: str, contexts: list[Any]) -> None:
    r = SufficientContextChecker(scoring=scoring).check_sufficiency("Where does the zebra graze?", contexts, now=NOW)
    assert type(r) is SufficiencyResult
    assert not hasattr(r, "__dict__")  # slots only, as before
    assert type(r.level) is Level
    assert r.checker_level is r.level
    assert r.decided_by == "checker"
    assert r.scoring == scoring
    assert isinstance(r.score, float)
    assert math.isfinite(r.elapsed_ms)
    assert r.elapsed_ms > 0
    again = SufficiencyResult.from_dict(r.to_dict())
    assert again == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert repr(again) == repr(r)
    assert r.is_sufficient is (r.level is Level.SUFFICIENT)


def test_result_factory_needs_three_levels() -> None:
    with pytest.raises(ValueError, match="levels must hold"):
        _core.checker.ResultFactory(SufficiencyResult, (Level.PARTIAL,), "default", time.perf_counter)


@pytest.mark.parametrize("n", [1, 2, 31, 33, 200])
@pytest.mark.parametrize("threads", [1, 2, None])
def test_batch_results_equal_one_by_one_checks(n: int, threads: int | None) -> None:
    checker = SufficientContextChecker()
    rivers = ["Amstel", "Rhône", "Ganges", "Volga", "Nile", "日本川"]
    queries = [f"When did the {rivers[i % 6]} flood in {1900 + i}?" for i in range(n)]
    contexts = [[f"The {rivers[i % 6]} flooded the valley in {1900 + i}.", FILLER] for i in range(n)]
    single = [checker.check_sufficiency(q, c, now=NOW) for q, c in zip(queries, contexts)]
    batch = checker.check_batch(queries, contexts, now=NOW, threads=threads)
    assert [_without_time(r) for r in batch] == [_without_time(r) for r in single]
    assert all(type(r) is SufficiencyResult and r.elapsed_ms > 0 for r in batch)
    assert len({id(r) for r in batch}) == n


def test_batch_adapts_only_the_entries_that_need_it() -> None:
    checker = SufficientContextChecker()
    contexts: list[Any] = [
        ["A zebra grazes.", FILLER],
        ("A zebra grazes.",),
        [{"content": "A zebra grazes.", "id": "z"}],
        [Chunk(content="A zebra grazes.", timestamp=NOW)],
        [],
        [_Str("A zebra grazes.")],
        ["A zebra \udc80 grazes."],
    ]
    queries = ["Where does the zebra graze?"] * len(contexts)
    single = [checker.check_sufficiency(q, c, now=NOW) for q, c in zip(queries, contexts)]
    for threads in (1, 2):
        batch = checker.check_batch(queries, contexts, now=NOW, threads=threads)
        assert [_without_time(r) for r in batch] == [_without_time(r) for r in single]
    assert _core.checker.not_str_lists(contexts) == [1, 2, 3, 5]


def test_not_str_lists_finds_every_entry_to_adapt() -> None:
    assert _core.checker.not_str_lists([]) == []
    assert _core.checker.not_str_lists([[], ["a"], ["日本", "\ud800"]]) == []
    assert _core.checker.not_str_lists(["ab", None, ["a", 1], [["a"]], [b"a"]]) == [0, 1, 2, 3, 4]


def test_batch_query_errors_name_the_first_offender() -> None:
    checker = SufficientContextChecker()
    with pytest.raises(ValueError, match=r"queries\[1\] must not be empty or blank"):
        checker.check_batch(["ok", " \t", 3], [["x"], ["y"], ["z"]])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"queries\[1\] must be a str; got int"):
        checker.check_batch(["ok", 3, ""], [["x"], ["y"], ["z"]])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"queries\[0\] must be a str; got NoneType"):
        checker.check_batch([None], [["x"]])  # type: ignore[list-item]
    # Reference scoring reproduces the original, which took blank queries.
    reference = SufficientContextChecker(scoring="reference")
    assert [r.score for r in reference.check_batch(["", " "], [["x"], []])] == [
        reference.check_sufficiency("", ["x"]).score,
        0.0,
    ]
    # str subclasses and lone surrogates are queries like any other.
    queries = [_Str("Where does the zebra graze?"), "zebra \ud800 graze", "日本の川"]
    batch = checker.check_batch(queries, [["A zebra grazes."]] * 3, now=NOW)
    assert [_without_time(r) for r in batch] == [
        _without_time(checker.check_sufficiency(q, ["A zebra grazes."], now=NOW)) for q in queries
    ]


def test_batch_escalates_plain_entries_with_their_chunks() -> None:
    seen: list[list[Chunk]] = []

    def judge(query: str, chunks: list[Chunk]) -> bool:
        seen.append(chunks)
        return True

    checker = SufficientContextChecker(escalate=judge, escalate_band=(0.0, 1.0))
    batch = checker.check_batch(["zebra", "zebra"], [["A zebra."], [{"content": "A zebra.", "id": "z"}]])
    assert [r.decided_by for r in batch] == ["escalation", "escalation"]
    assert [[(c.id, c.content) for c in chunks] for chunks in seen] == [[("S1", "A zebra.")], [("z", "A zebra.")]]


# -- AnswerCoverage --------------------------------------------------------------------------------------------------

CHUNKS = ["Whoever cheats shall be punished with imprisonment.", "Paris is the capital of France."]


def _rebuilt(report: AnswerCoverage) -> AnswerCoverage:
    """The same report through the dataclass's own constructor."""
    fields = {f.name: getattr(report, f.name) for f in dataclasses.fields(report) if f.init}
    return AnswerCoverage(**fields)


@pytest.mark.parametrize("mode", ["default", "reference"])
@pytest.mark.parametrize(
    "answer",
    [
        "",
        "Cheating is punished with imprisonment [S1].",
        "Cheating is punished [S1]. Paris is in France [S2]. The moon is cheese [S9]. Uncited claim.",
        "In summary, 日本 is far [S2].",
    ],
)
def test_core_built_answer_coverage_is_the_dataclass(mode: str, answer: str) -> None:
    report = ClaimCoverage(mode=mode).check_answer(answer, CHUNKS)
    assert type(report) is AnswerCoverage
    assert type(report.claims) is tuple
    assert all(type(c) is ClaimResult for c in report.claims)
    assert report.mode == mode
    assert report.answer is answer
    assert report.uncovered == tuple(c for c in report.claims if not c.is_covered)
    assert report == _rebuilt(report)
    assert repr(report) == repr(_rebuilt(report))
    assert pickle.loads(pickle.dumps(report)) == report
    assert dataclasses.asdict(report) == dataclasses.asdict(_rebuilt(report))
    assert dataclasses.replace(report, answer="other").answer == "other"
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.answer = "x"  # type: ignore[misc]


def test_plain_str_chunks_get_positional_ids() -> None:
    cc = ClaimCoverage()
    many = [f"Fact number {i} is about topic {i}." for i in range(300)]
    report = cc.check_answer("Fact number 299 is about topic 299 [S300]. Fact number 2 [S3].", many)
    assert [c.covering_chunks for c in report.claims] == [("S300",), ("S3",)]
    assert report == cc.check_answer(report.answer, [{"id": f"S{i + 1}", "content": t} for i, t in enumerate(many)])
    assert cc.check_answer("Fact number 0 [S1].", []).unknown_citations == ("S1",)
    assert cc.check_claim("Fact number 5 is about topic 5 [S6].", many).covering_chunks == ("S6",)


def test_check_answers_mixes_plain_and_adapted_chunk_lists() -> None:
    cc = ClaimCoverage()
    answers: list[Any] = [
        "Cheating is punished with imprisonment [S1].",
        "Cheating is punished [a].",
        "Paris is the capital \ud800 [S2].",
        _Str("Paris is the capital of France [S1]."),
        "",
    ]
    chunk_lists: list[Any] = [
        CHUNKS,
        [{"id": "a", "content": CHUNKS[0]}],
        ["x", "Paris is the capital \udfff of France."],
        (CHUNKS[1],),
        [],
    ]
    sequential = [cc.check_answer(a, c) for a, c in zip(answers, chunk_lists)]
    for threads in (None, 1, 2):
        assert cc.check_answers(answers, chunk_lists, threads=threads) == sequential
    assert sequential[2].claims[0].sentence == "Paris is the capital \ud800 [S2]."
    assert sequential[2].answer == answers[2]


def test_core_check_answer_answer_type_needs_a_class() -> None:
    config = ClaimCoverage()._config
    with pytest.raises(TypeError, match="answer_type must be a class"):
        _core.claims.check_answer(config, "a", None, ["a"], ClaimResult, 3)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="ids must be a list"):
        _core.claims.check_answer(config, "a", ("S1",), ["a"], ClaimResult)  # type: ignore[call-overload]
    record = _core.claims.check_answer(config, "a [S1].", None, ["a"])
    assert record[0][0][5] == ("S1",)  # covering_chunks of a plain tuple claim


def test_plain_chunk_lists_reads_what_the_python_fast_path_reads() -> None:
    read = _core.claims.plain_chunk_lists
    assert read([]) == ([], [], [])
    plain = ["a", "b"]
    ids, texts, slow = read([plain, [], [{"content": "c", "id": "x", "score": 1, "title": "t"}, "d"]])
    assert ids == [None, None, ["x", "S2"]]
    assert texts[0] is plain
    assert texts[1:] == [[], ["c", "d"]]
    assert slow == []
    entries: list[Any] = [
        ("a",),  # not a list
        [{"content": "a", "summary": "s"}],  # a key the Python path adapts
        [{"content": "a", "id": 7}],  # an int id
        [{"content": "a", "score": True}],  # a bool is no score here
        [{"content": "a", "score": math.nan}],
        [{"content": "a", "score": 10**400}],  # too large for a float: a ValueError naming it, in order
        [{"content": "a", "id": "S2"}, "b"],  # duplicate ids
        [{"content": _Str("a")}],
        [{"id": "x"}],
        [Chunk(content="a")],
        [None],
        ["a", {"content": "\ud800", "id": "日本", "score": 0.5}],
    ]
    ids, texts, slow = read(entries)
    assert slow == list(range(len(entries) - 1))
    assert ids[-1] == ["S1", "日本"]
    assert texts[-1] == ["a", "\ud800"]


def test_check_answers_reads_chunks_as_check_answer_does() -> None:
    cc = ClaimCoverage()
    answer = "Cheating is punished with imprisonment [k]."
    good: list[Any] = [
        [{"content": CHUNKS[0], "id": "k", "score": 0.5, "title": "IPC"}],
        [{"content": CHUNKS[0], "id": 7}, {"content": CHUNKS[0], "id": "k"}],
        [{"content": CHUNKS[0], "id": "k", "timestamp": NOW}],
        ["x", {"content": CHUNKS[0], "id": "k", "score": 2}],
    ]
    assert cc.check_answers([answer] * len(good), good) == [cc.check_answer(answer, c) for c in good]
    with pytest.raises(ValueError, match=r"chunks_per_answer\[1\]\[1\]\.id 'S2' duplicates"):
        cc.check_answers([answer] * 2, [good[0], [{"content": "a", "id": "S2"}, "b"]])
    with pytest.raises(ValueError, match=r"chunks_per_answer\[0\]\[0\]\.score"):
        cc.check_answers([answer] * 2, [[{"content": "a", "score": math.nan}], [{"content": "a", "score": 10**400}]])
    with pytest.raises(ValueError, match=r"chunks_per_answer\[0\]\[0\]\.score must be finite; got an integer too"):
        cc.check_answers([answer], [[{"content": "a", "score": 10**400}]])


def test_batches_leave_the_garbage_collector_as_they_found_it() -> None:
    checker = SufficientContextChecker()
    cc = ClaimCoverage()
    queries = [f"When did the river {i} flood?" for i in range(80)]
    contexts = [[f"The river {i} flooded in {1900 + i}.", FILLER] for i in range(80)]
    assert gc.isenabled()
    checker.check_batch(queries, contexts, threads=2)
    cc.check_answers([f"River {i} flooded [S1]." for i in range(80)], contexts, threads=2)
    assert gc.isenabled()
    gc.disable()
    try:
        checker.check_batch(queries, contexts, threads=2)
        cc.check_answers([f"River {i} flooded [S1]." for i in range(80)], contexts, threads=2)
        assert not gc.isenabled()
    finally:
        gc.enable()
