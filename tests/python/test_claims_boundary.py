"""ClaimCoverage.check_answer reads plain chunk lists in C++ (`_core.claims.check_answer_chunks`): the same results and
the same errors as adapting the chunks in Python first, for every accepted chunk form and for bad ones."""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
import threading
from typing import Any

import pytest

from sufficient_context import _core
from sufficient_context._args import replace_surrogates
from sufficient_context.chunks import Chunk
from sufficient_context.claims import (
    AnswerCoverage,
    ClaimCoverage,
    ClaimResult,
    _chunk_lists,
    _clean_all,
    _clean_ids,
    _with_sentences_of,
)

TEXTS = [
    "Cheating on the exam is punished with up to two years of imprisonment.",
    "Paris is the capital and most populous city of France.",
    "The river floods the plain every spring.",
]
ANSWER = "Cheating is punished with imprisonment [S1]. Paris is the capital [S2]. It floods. In summary, fine [X]."


class _Str(str):
    """A str subclass: accepted, but read by the Python adaptation."""


class _Dict(dict):  # type: ignore[type-arg]
    """A dict subclass: accepted, but read by the Python adaptation."""


class _Document:
    """What LangChain's Document looks like to `as_chunks`."""

    def __init__(self, page_content: str, doc_id: str) -> None:
        self.page_content = page_content
        self.metadata: dict[str, Any] = {}
        self.id = doc_id


def _general(cc: ClaimCoverage, answer: str, chunks: Any) -> AnswerCoverage:
    """check_answer with the chunks adapted in Python, then checked by the core (the path before the C++ reader)."""
    ids, texts = _chunk_lists(chunks, "chunks")
    result: AnswerCoverage = _core.claims.check_answer(cc._config, answer, ids, texts, ClaimResult, AnswerCoverage)
    return result


def _same(a: AnswerCoverage, b: AnswerCoverage) -> None:
    assert type(a) is type(b) is AnswerCoverage
    assert a == b
    assert repr(a) == repr(b)
    assert a.to_dict() == b.to_dict()
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    assert list(vars(a)) == list(vars(b))
    assert {k: type(v) for k, v in vars(a).items()} == {k: type(v) for k, v in vars(b).items()}
    assert [type(c) for c in a.claims] == [ClaimResult] * len(b.claims)
    assert [tuple(map(type, c)) for c in a.claims] == [tuple(map(type, c)) for c in b.claims]
    assert a.uncovered == b.uncovered
    assert pickle.loads(pickle.dumps(a)) == b


def _forms() -> list[Any]:
    ids = ["S1", "S2", "k"]
    return [
        list(TEXTS),
        [{"id": i, "content": t} for i, t in zip(ids, TEXTS)],
        [{"content": t} for t in TEXTS],
        [{"id": None, "content": t, "score": s, "title": "x"} for t, s in zip(TEXTS, (0.5, 1, None))],
        [TEXTS[0], {"id": "S2", "content": TEXTS[1]}, {"content": TEXTS[2]}],
        [Chunk(content=t, id=i) for i, t in zip(ids, TEXTS)],
        [TEXTS[0], Chunk(content=TEXTS[1]), {"id": "k", "content": TEXTS[2]}],
        [_Document(t, i) for i, t in zip(ids, TEXTS)],
        tuple(TEXTS),
        [_Dict(id=i, content=t) for i, t in zip(ids, TEXTS)],
        [{"id": i, "content": _Str(t)} for i, t in zip(ids, TEXTS)],
        [{"id": "日本", "content": "日本 is a country [S1]."}, "Ünïcödé façade"],
        [],
        [{"id": "S1", "content": ""}],
    ]


@pytest.mark.parametrize("mode", ["default", "reference"])
@pytest.mark.parametrize("form", range(len(_forms())))
def test_every_chunk_form_gives_the_general_paths_result(mode: str, form: int) -> None:
    cc = ClaimCoverage(mode=mode)
    chunks = _forms()[form]
    for answer in (ANSWER, "", "No citation here.", "日本 is a country [日本]. Ünïcödé [S2].", _Str("A [S1].")):
        _same(cc.check_answer(answer, chunks), _general(cc, answer, chunks))


def test_plain_lists_are_read_in_cpp_and_the_others_left_to_python() -> None:
    config = ClaimCoverage()._config
    read = _core.claims.check_answer_chunks
    forms = _forms()
    plain = [0, 1, 2, 3, 4, 11, 12, 13]
    for i, chunks in enumerate(forms):
        result = read(config, ANSWER, chunks, ClaimResult, AnswerCoverage)
        assert (result is not None) == (i in plain), i
    # A slow key beside the three read ones, or beside content alone: the Python adaptation reads it.
    for slow in ({"id": "S1", "content": "a", "score": 0.5, "metadata": {}}, {"content": "a", "summary": "b"}):
        assert read(config, ANSWER, [slow], ClaimResult, AnswerCoverage) is None
    # Not plain: left to Python before the answer is read, so a lone surrogate in it raises nothing here.
    assert read(config, "A \ud800 [S1].", forms[5], ClaimResult, AnswerCoverage) is None
    with pytest.raises(UnicodeEncodeError):
        read(config, "A \ud800 [S1].", forms[1], ClaimResult, AnswerCoverage)
    with pytest.raises(UnicodeEncodeError):
        read(config, "A [S1].", [{"id": "S1", "content": "\udfff"}], ClaimResult, AnswerCoverage)
    record = read(config, "A [S1].", ["A"])
    assert record is not None
    assert record[0][0][5] == ("S1",)  # the plain tuple form without classes


ODD: list[Any] = [
    [{"id": "S1", "content": "a"}, {"id": "S1", "content": "b"}],
    ["a", {"id": "S1", "content": "b"}],
    [{"id": f"S{i % 9}", "content": str(i)} for i in range(12)],  # a repeat past the pairwise check
    [{"id": 3, "content": "a"}],
    [{"id": True, "content": "a"}],
    [{"id": "S1", "content": 5}],
    [{"id": "S1", "content": None}],
    [{"id": "S1"}],
    [{"id": "S1", "page_content": "a"}],
    [{"id": "S1", "content": "a", "score": math.nan}],
    [{"id": "S1", "content": "a", "score": -math.inf}],
    [{"id": "S1", "content": "a", "score": 10**400}],
    [{"id": "S1", "content": "a", "score": True}],
    [{"id": "S1", "content": "a", "score": "0.5"}],
    [{"id": "S1", "content": "a", "summary": 3}],
    [{"id": "S1", "content": "a", "timestamp": "yesterday"}],
    [{"id": "S1", "content": "a", "score": 0.5, "metadata": {"page": 3}}],  # a slow key beside all three
    [{"content": "a", "id": None, "embedding": [0.1]}],
    [5],
    ["a", None],
    [("a", "b")],
    [Chunk(content="a", id="S2"), Chunk(content="b")],
    None,
    "abc",
    {"id": "S1", "content": "a"},
    7,
]


@pytest.mark.parametrize("answer", ["A [S1].", "A \ud800 [S1]."])
@pytest.mark.parametrize("odd", range(len(ODD)))
def test_odd_chunks_give_the_python_adaptations_result_or_error(answer: str, odd: int) -> None:
    chunks = ODD[odd]
    cc = ClaimCoverage()
    try:
        ids, _texts = _chunk_lists(chunks, "chunks")
    except (TypeError, ValueError, OverflowError) as error:
        expected = error
    else:
        expected = None
    if expected is not None:
        with pytest.raises(type(expected)) as got:
            cc.check_answer(answer, chunks)
        assert str(got.value) == str(expected)
        return
    report = cc.check_answer(answer, chunks)
    assert report.answer == answer
    assert report.claims[0].citations == ("S1",)
    assert report.unknown_citations == (() if "S1" in ids else ("S1",))


def test_random_plain_lists_match_the_general_path() -> None:
    rng = random.Random(15)
    words = ["fox", "river", "Paris", "capital", "two", "years", "日本", "ünï", "the", "is", "floods", "S1"]
    cc = ClaimCoverage()
    for _ in range(300):
        chunks: list[Any] = []
        for _k in range(rng.randrange(0, 12)):
            text = " ".join(rng.choice(words) for _w in range(rng.randrange(0, 15)))
            kind = rng.randrange(4)
            if kind == 0:
                chunks.append(text)
            elif kind == 1:
                chunks.append({"content": text})
            elif kind == 2:
                chunks.append({"id": f"S{rng.randrange(1, 14)}", "content": text, "score": rng.random()})
            else:
                chunks.append({"id": rng.choice(words), "content": text, "extra": 1})
        answer = " ".join(
            " ".join(rng.choice(words) for _w in range(rng.randrange(1, 9))) + f" [S{rng.randrange(1, 5)}]."
            for _s in range(rng.randrange(0, 4))
        )
        ids = [None if type(c) is str else c.get("id") for c in chunks]
        named = [f"S{i + 1}" if c is None else c for i, c in enumerate(ids)]
        if len(set(named)) < len(named):
            with pytest.raises(ValueError, match="duplicates"):
                cc.check_answer(answer, chunks)
            continue
        _same(cc.check_answer(answer, chunks), _general(cc, answer, chunks))


def test_lone_surrogates_are_checked_as_before() -> None:
    cc = ClaimCoverage()
    for answer, chunks in (
        ("Paris is the capital \ud800 [S1].", [{"id": "S1", "content": TEXTS[1]}]),
        ("Paris is the capital [S1].", [{"id": "S1", "content": "Paris \udfff is the capital"}]),
        ("Paris is the capital [S\ud801].", [{"id": "S\ud801", "content": TEXTS[1]}]),
        ("Paris is the capital [S1].", ["Paris \udfff is the capital"]),
    ):
        report = cc.check_answer(answer, chunks)
        assert report.answer == answer
        assert report.claims[0].sentence == answer
        assert report == cc.check_answers([answer], [chunks])[0]
        # Checked as U+FFFD, the sentences cut from the original answer.
        ids, texts = _chunk_lists(chunks, "chunks")
        raw = _core.claims.check_answer(
            cc._config, replace_surrogates(answer), _clean_ids(ids), _clean_all(texts), ClaimResult
        )
        _same(report, cc._coverage(answer, _with_sentences_of(answer, raw)))


def test_threads_get_the_serial_results() -> None:
    cc = ClaimCoverage()
    rows = [
        (
            f"Fact {i} is about topic {i % 7} [S{i % 3 + 1}].",
            [{"id": f"S{k + 1}", "content": f"Fact {i + k}"} for k in range(3)],
        )
        for i in range(200)
    ]
    serial = [cc.check_answer(a, c) for a, c in rows]
    got: list[AnswerCoverage | None] = [None] * len(rows)

    def work(first: int) -> None:
        for i in range(first, len(rows), 4):
            got[i] = cc.check_answer(*rows[i])

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == serial
