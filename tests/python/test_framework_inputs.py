"""Framework values go in as they come: (Document, score) and (node, score) tuples, NodeWithScore, documents without
scores, AIMessage / Response answers, signed cosine scores, and metadata that flows into the Sources list. Built with
the real langchain-core and llama-index-core objects."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.messages import AIMessage
from llama_index.core.base.response.schema import Response
from llama_index.core.schema import NodeWithScore, TextNode

import sufficient_context as sc
from sufficient_context import chunks as chunks_module

THEFT = "Whoever commits theft shall be punished with imprisonment for up to three years."


def test_document_and_node_score_tuples_become_scored_chunks() -> None:
    doc = Document(page_content=THEFT, metadata={"source": "ipc.pdf", "page": 3, "score": 0.1})
    node = TextNode(text="Cheating is punished with seven years.", id_="n2", metadata={"file_name": "ipc.txt"})
    chunks = sc.as_chunks([(doc, 0.82), (node, -0.25), NodeWithScore(node=TextNode(text="x", id_="n3"), score=0.4)])
    assert [c.score for c in chunks] == [0.82, -0.25, 0.4]  # the tuple's score wins over the metadata's
    assert [c.id for c in chunks] == ["S1", "n2", "n3"]
    assert chunks[0].metadata["source"] == "ipc.pdf"
    with pytest.raises(TypeError, match=r"chunks\[0\] is a tuple: it must be \(chunk, score\)"):
        sc.as_chunks([(doc, "high")])
    with pytest.raises(ValueError, match=r"chunks\[0\]\.score must be finite"):
        sc.as_chunks([(doc, float("nan"))])


def test_the_retrieval_gate_takes_signed_scores_and_documents_without_scores() -> None:
    signed = sc.evaluate_retrieval([(Document(page_content=THEFT), 0.31), (Document(page_content="far"), -0.4)],
                                   min_score=-0.5)  # fmt: skip
    assert signed.outcome == "normal"
    assert signed.max_score == 0.31
    unscored = sc.evaluate_retrieval([Document(page_content=THEFT), Document(page_content="more")])
    assert unscored.outcome == "normal"
    assert unscored.max_score is None
    assert "without retrieval scores" in unscored.reason
    assert sc.evaluate_retrieval([Document(page_content=THEFT)]).outcome == "no_evidence"  # 1 < min_chunks 2
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\].*has no score but chunks_or_scores\[0\] has one"):
        sc.evaluate_retrieval([(Document(page_content=THEFT), 0.9), Document(page_content="unscored")])
    with pytest.raises(ValueError, match="non-negative"):  # attention weights stay non-negative
        sc.EvidenceSufficiencyGate().evaluate([-0.2, 0.7])


def test_answers_from_frameworks_are_read_as_text() -> None:
    chunks = [Document(page_content=THEFT, id="ipc379")]
    coverage = sc.ClaimCoverage()
    text = "Theft is punished with imprisonment for up to three years [ipc379]."
    for answer in (
        AIMessage(content=text),
        AIMessage(content=[{"type": "text", "text": text}]),
        Response(response=text),
    ):
        report = coverage.check_answer(answer, chunks)
        assert report.is_grounded
        assert report.answer == text
    assert coverage.filter_unsupported(AIMessage(content=text + " The moon is cheese [ipc379]."), chunks) == text
    assert coverage.check_answers([Response(response=text)], [chunks])[0].is_grounded
    with pytest.raises(TypeError, match=r"answer must be a str or an object with \.content / \.response"):
        coverage.check_answer(Response(response=None), chunks)


def test_framework_metadata_flows_into_sources() -> None:
    docs = [(Document(page_content=THEFT, metadata={"source": "statutes/ipc.pdf", "page": 112}), 0.9),
            (TextNode(text="Cheating is punished.", id_="n1", metadata={"file_name": "crpc.txt", "page_label": "iv"}),
             0.7)]  # fmt: skip
    result = sc.GroundedAnswerer().answer("What is the punishment for theft?", docs)
    assert result.status in ("answered", "answered_with_caveat")
    where = {s["id"]: (s["document"], s["page"]) for s in result.sources}
    assert where["S1"] == ("ipc.pdf", "112")
    text = sc.format_sources(sc.as_chunks(docs))
    assert "ipc.pdf" in text
    assert "crpc.txt" in text
    assert "iv" in text


def test_the_gate_reads_node_scores_directly_with_the_same_decisions_and_errors() -> None:
    scores = [0.9, 0.15, 0.45, -0.2, 0.3]
    nodes = [NodeWithScore(node=TextNode(text=f"t{i}", id_=f"n{i}"), score=s) for i, s in enumerate(scores)]
    as_dicts = [{"id": f"n{i}", "content": f"t{i}", "score": s} for i, s in enumerate(scores)]
    for kwargs in ({}, {"min_score": 0.4}, {"min_chunks": 4}, {"min_score": 0.2, "weak_score": 0.95}):
        assert sc.evaluate_retrieval(nodes, **kwargs) == sc.evaluate_retrieval(as_dicts, **kwargs)
    unscored = [NodeWithScore(node=TextNode(text="a", id_="a")), NodeWithScore(node=TextNode(text="b", id_="b"))]
    assert sc.evaluate_retrieval(unscored).max_score is None
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\]\.id 'n0' duplicates chunks_or_scores\[0\]\.id"):
        sc.evaluate_retrieval([nodes[0], NodeWithScore(node=TextNode(text="x", id_="n0"), score=0.5)])
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\]\.score must be finite"):
        sc.evaluate_retrieval([nodes[0], NodeWithScore(node=TextNode(text="x", id_="x"), score=float("nan"))])
    with pytest.raises(ValueError, match=r"chunks_or_scores\[1\] \(id 'x'\) has no score"):
        sc.evaluate_retrieval([nodes[0], NodeWithScore(node=TextNode(text="x", id_="x"))])


def test_framework_objects_with_plain_fields_are_read_as_their_chunks_would_be(monkeypatch: pytest.MonkeyPatch) -> None:
    # Documents and nodes whose fields need no conversion are read straight into the checks' (ids, contents), without
    # a Chunk each; anything else (a summary or timestamp in the metadata, an embedding, a score that is no plain
    # number, an int id) takes as_chunks. On random lists both readings give the same ids, contents, results and
    # errors as when every object went through as_chunks.
    rng = random.Random(9)
    checker, claims = sc.SufficientContextChecker(), sc.ClaimCoverage()
    texts = [THEFT, "Cheating is punished with seven years.", "Paris is the capital of France.", ""]
    for _ in range(600):
        items: list[object] = []
        for i in range(rng.randint(1, 4)):
            text = rng.choice(texts)
            chunk_id = rng.choice([None, "", f"d{i}", f"d{rng.randint(0, 1)}", 7, True])
            metadata = rng.choice(
                [{}, {"source": "a.md"}, {"id": f"m{i}"}, {"score": rng.choice([0.5, math.nan, 2, True])},
                 {"summary": "s"}, {"timestamp": "2024-01-01"}, {"timestamp": "not a date"}]
            )  # fmt: skip
            score = rng.choice([None, 0.75, 1, math.nan, math.inf, True, 10**400])
            if rng.random() < 0.5:
                doc_id = chunk_id if isinstance(chunk_id, str) else None
                items.append(Document(page_content=text, id=doc_id, metadata=metadata))
            else:
                node = TextNode(text=text, id_=f"n{rng.randint(0, 3)}", metadata={"file_name": "a.md"})
                if rng.random() < 0.2:
                    node.embedding = [0.5, 0.25]
                items.append(NodeWithScore.model_construct(node=node, score=score))
            if rng.random() < 0.3:  # as similarity_search_with_score returns them
                items[-1] = (items[-1], rng.choice([0.5, 1, math.nan, True, "0.5", 10**400]))
        fast = _outcome(checker, claims, items)
        with monkeypatch.context() as patch:  # every object through as_chunks, as before the fast reading
            patch.setattr(chunks_module, "_plain_framework_fields", lambda obj: None)
            assert fast == _outcome(checker, claims, items)


def _outcome(checker: sc.SufficientContextChecker, claims: sc.ClaimCoverage, items: list[Any]) -> tuple[object, ...]:
    """Both checks' results (elapsed time left out), or the error."""
    try:
        result = checker.check_sufficiency("What is the punishment for cheating?", items)
        coverage = claims.check_answer("Cheating is punished with seven years [d0].", items)
    except (TypeError, ValueError) as exc:
        return ("error", type(exc).__name__, str(exc))
    fields = {k: v for k, v in result.to_dict().items() if k != "elapsed_ms"}
    return ("ok", json.dumps(fields, sort_keys=True, default=str), repr(coverage))


def test_a_framework_dict_subclass_is_read_as_a_mapping() -> None:
    # LangChain's AddableDict (what runnables stream) is a dict subclass from langchain_core: the checks' fast reading
    # once took its class for a framework object that is no chunk, and every reading refused it from then on.
    from langchain_core.runnables.utils import AddableDict

    items = [AddableDict(content=THEFT, id="ipc379"), {"content": "Cheating is punished.", "id": "c"}]
    plain = [dict(item) for item in items]
    checker, claims = sc.SufficientContextChecker(), sc.ClaimCoverage()
    assert _outcome(checker, claims, items) == _outcome(checker, claims, plain)
    assert sc.as_chunks(items) == sc.as_chunks(plain)


def test_a_document_missing_its_fields_does_not_change_how_other_documents_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The kind of each framework class is remembered once; a Document built by model_construct without page_content
    # (or a NodeWithScore without its node) is no chunk, and must not make its class unreadable for the process.
    monkeypatch.setattr(chunks_module, "_DUCK_KINDS", {})  # as in a fresh process
    checker = sc.SufficientContextChecker()
    for broken in (Document.model_construct(metadata={}), NodeWithScore.model_construct(score=0.5)):
        with pytest.raises(TypeError, match=r"retrieved_contexts\[0\] must be a str, a mapping with 'content'"):
            checker.check_sufficiency("What is the punishment for theft?", [broken])
    good = [Document(page_content=THEFT, id="d"), NodeWithScore(node=TextNode(text=THEFT, id_="n"), score=0.5)]
    assert [c.id for c in sc.as_chunks(good)] == ["d", "n"]
    query = "What is the punishment for theft?"
    assert checker.check_sufficiency(query, good) == checker.check_sufficiency(query, [THEFT, THEFT])
