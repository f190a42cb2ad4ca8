from __future__ import annotations

import math
import pickle
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np
import pytest

from sufficient_context.chunks import Chunk, as_chunks


@dataclass
class FakeDocument:  # LangChain's Document shape
    page_content: str
    metadata: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass
class FakeTextNode:  # LlamaIndex's TextNode shape
    text: str
    node_id: str
    metadata: dict[str, Any] = field(default_factory=dict)
    embedding: list[float] | None = None

    def get_content(self) -> str:
        return self.text


@dataclass
class FakeNodeWithScore:
    node: FakeTextNode
    score: float | None


def test_strings_get_positional_ids() -> None:
    chunks = as_chunks(["alpha", "beta"])
    assert [c.id for c in chunks] == ["S1", "S2"]
    assert [c.content for c in chunks] == ["alpha", "beta"]


def test_mapping_fields_are_kept_and_normalised() -> None:
    (chunk,) = as_chunks(
        [
            {
                "id": "IPC_420_0",
                "content": "Cheating is punished.",
                "summary": "s",
                "score": 0.83,
                "embedding": [1, 0, 0],
                "timestamp": "2024-05-01T10:00:00Z",
                "temperature": 40,
                "metadata": {"source_path": "a/b.pdf"},
                "title": "extra keys are ignored",
            }
        ]
    )
    assert chunk.id == "IPC_420_0"
    assert chunk.score == pytest.approx(0.83)
    assert chunk.embedding is not None
    assert chunk.embedding.dtype == np.float32
    assert chunk.embedding.tolist() == [1.0, 0.0, 0.0]
    assert chunk.timestamp == datetime(2024, 5, 1, 10, tzinfo=timezone.utc)
    assert chunk.temperature == 40.0
    assert chunk.metadata["source_path"] == "a/b.pdf"


def test_timestamps_from_posix_seconds_and_naive_datetimes_are_utc() -> None:
    a, b = as_chunks([{"content": "x", "timestamp": 0}, {"content": "y", "timestamp": datetime(2020, 1, 1)}])
    assert a.timestamp == datetime(1970, 1, 1, tzinfo=timezone.utc)
    assert b.timestamp is not None
    assert b.timestamp.tzinfo is timezone.utc


def test_langchain_and_llamaindex_objects_by_duck_typing() -> None:
    doc = FakeDocument("doc text", {"source_path": "x.md", "score": 0.5}, id="D1")
    node = FakeTextNode("node text", "node-7", {"page_number": 3}, embedding=[0.5, 0.5])
    other = FakeTextNode("other text", "node-8", {}, embedding=[0.5, 0.5])
    chunks = as_chunks([doc, FakeNodeWithScore(node, 0.9), other, FakeDocument("no id")])
    assert [c.id for c in chunks] == ["D1", "node-7", "node-8", "S4"]
    assert chunks[0].score == 0.5
    assert chunks[1].score == pytest.approx(0.9)
    assert chunks[1].metadata["page_number"] == 3
    assert chunks[2].embedding is not None


def test_chunk_without_id_gets_position_id_and_is_not_mutated() -> None:
    original = Chunk(content="text")
    (converted,) = as_chunks([original])
    assert converted.id == "S1"
    assert original.id is None


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        ([{"id": "a"}], ValueError, r"chunks\[0\] has no 'content'"),
        (["ok", {"content": 3}], TypeError, r"chunks\[1\]\.content must be str"),
        ([{"content": "x", "embedding": [1.0, float("nan")]}], ValueError, r"chunks\[0\]\.embedding\[1\] is nan"),
        ([{"content": "x", "embedding": [[1.0]]}], ValueError, r"chunks\[0\]\.embedding must be a non-empty 1-D"),
        ([{"content": "x", "score": float("inf")}], ValueError, r"chunks\[0\]\.score must be finite"),
        ([{"content": "x", "score": "high"}], TypeError, r"chunks\[0\]\.score must be a number"),
        ([{"content": "x", "timestamp": "yesterday"}], ValueError, r"chunks\[0\]\.timestamp is not an ISO-8601"),
        ([{"content": "x", "metadata": [1]}], TypeError, r"chunks\[0\]\.metadata must be a mapping"),
        ([42], TypeError, r"chunks\[0\] must be a str"),
        ("a single string", TypeError, r"chunks must be a sequence of chunks, not a single str"),
        (None, TypeError, r"chunks must be a sequence of chunks; got NoneType"),
    ],
)
def test_bad_input_names_the_index_and_field(bad: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        as_chunks(bad)


def test_argument_name_is_used_in_messages() -> None:
    with pytest.raises(ValueError, match=r"retrieved_contexts\[0\] has no 'content'"):
        as_chunks([{}], argument="retrieved_contexts")


def test_empty_and_unicode() -> None:
    assert as_chunks([]) == []
    (chunk,) = as_chunks(["Zürich — 東京 🚀"])
    assert chunk.content == "Zürich — 東京 🚀"


def test_embedding_is_read_only_copy() -> None:
    source = np.array([1.0, 2.0], dtype=np.float32)
    (chunk,) = as_chunks([{"content": "x", "embedding": source}])
    source[0] = 9.0
    assert chunk.embedding is not None
    assert chunk.embedding[0] == 1.0
    with pytest.raises(ValueError, match="read-only"):
        chunk.embedding[0] = 5.0


def test_chunks_pickle_and_serialise() -> None:
    (chunk,) = as_chunks([{"content": "x", "id": "A", "embedding": [1.0], "timestamp": 0, "metadata": {"k": 1}}])
    clone = pickle.loads(pickle.dumps(chunk))
    assert clone == chunk
    assert clone.to_dict() == {
        "id": "A",
        "content": "x",
        "embedding": [1.0],
        "timestamp": "1970-01-01T00:00:00+00:00",
        "metadata": {"k": 1},
    }


def test_duplicate_ids_are_refused_everywhere_naming_both_indexes() -> None:
    import sufficient_context as sc

    dup = [{"id": "a", "content": "x", "score": 0.5}, {"id": "b", "content": "y", "score": 0.4},
           {"id": "a", "content": "z", "score": 0.3}]  # fmt: skip
    message = r"chunks\[2\]\.id 'a' duplicates chunks\[0\]\.id: chunk ids must be unique"
    with pytest.raises(ValueError, match=message):
        as_chunks(dup)
    with pytest.raises(ValueError, match=r"retrieved_contexts\[2\]\.id 'a' duplicates"):
        sc.SufficientContextChecker().check_sufficiency("x", dup)
    with pytest.raises(ValueError, match=r"chunks_or_scores\[2\]\.id 'a' duplicates chunks_or_scores\[0\]\.id"):
        sc.evaluate_retrieval(dup)
    with pytest.raises(ValueError, match=message):
        sc.format_sources(dup)
    with pytest.raises(ValueError, match=message):
        sc.ClaimCoverage().check_answer("x [a].", dup)
    with pytest.raises(ValueError, match=r"chunks\[1\]\.id 'a' duplicates chunks\[0\]\.id"):
        sc.QueryLog(":memory:").record("q", [("a", 0.5), ("a", 0.4)], "normal")
    with pytest.raises(ValueError, match=r"chunks\[1\]\.id 'S2' duplicates|chunks\[1\]\.id 'S1' duplicates"):
        as_chunks([{"id": "S2", "content": "x"}, "second gets S2 by position"])


@pytest.mark.parametrize(
    "given",
    [
        {"content": "Paris is the capital.", "id": "d1", "score": 0.75},
        {"content": "Paris is the capital.", "score": 1},  # an int score is stored as a float
        {"content": "é 北京 \U0001f600", "id": "d2", "title": "ignored", "rank": 3},
        {"content": "", "id": None, "score": None},
    ],
)
def test_plain_dicts_make_the_chunk_the_general_path_makes(given: dict[str, Any]) -> None:
    # as_chunks builds plain {"content", "id"?, "score"?} dicts without the general checks; the result must be the
    # Chunk the constructor makes from the same fields, field for field and in the same order (repr, pickle).
    fast = as_chunks([{"content": "first"}, given])[1]
    fields = {k: given[k] for k in ("content", "id", "score") if k in given}
    slow = Chunk(**{**fields, "id": given.get("id") or "S2"})
    assert fast == slow
    assert repr(fast) == repr(slow)
    assert list(vars(fast)) == list(vars(slow))
    assert vars(fast) == vars(slow)
    assert type(fast.score) is (float if given.get("score") is not None else type(None))
    assert pickle.loads(pickle.dumps(fast)) == fast
    assert fast.metadata == {}
    assert fast.metadata is not as_chunks([given])[0].metadata


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        ({"content": "x", "score": True}, TypeError, r"chunks\[0\]\.score must be a number or None; got bool"),
        ({"content": "x", "score": math.nan}, ValueError, r"chunks\[0\]\.score must be finite"),
        ({"content": "x", "score": 2**60}, None, ""),  # beyond the fast path's exact ints: the general path reads it
        ({"content": 3}, TypeError, r"chunks\[0\]\.content must be str; got int"),
        ({"content": "x", "id": 7}, None, ""),  # an int id is made a str by the general path
    ],
)
def test_plain_dicts_the_fast_path_cannot_take_get_the_general_checks(
    given: dict[str, Any], error: type[Exception] | None, message: str
) -> None:
    if error is None:
        chunk = as_chunks([given])[0]
        assert chunk == Chunk(**{"id": "S1", **given})
        assert isinstance(chunk.id, str)
    else:
        with pytest.raises(error, match=message):
            as_chunks([given])


def test_duck_typing_is_asked_per_object_outside_the_frameworks() -> None:
    # LangChain's and LlamaIndex's classes are recognised once per class (their fields are fixed); any other class is
    # asked every time, so two objects of one class with different attributes are each read as what they are.
    class Loose:
        pass

    document, node = Loose(), Loose()
    document.page_content = "Paris is the capital."  # type: ignore[attr-defined]
    document.metadata = {"source": "a.md"}  # type: ignore[attr-defined]
    node.node_id = "n1"  # type: ignore[attr-defined]
    node.text = "Lyon is a city."  # type: ignore[attr-defined]
    chunks = as_chunks([document, node])
    assert [(c.id, c.content) for c in chunks] == [("S1", "Paris is the capital."), ("n1", "Lyon is a city.")]
    with pytest.raises(TypeError, match=r"chunks\[0\] must be a str, a mapping"):
        as_chunks([Loose()])
