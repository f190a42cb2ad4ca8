"""The LlamaIndex components against the real llama-index-core, offline: a VectorStoreIndex over the sample corpus with
fixed vectors, a fixed-answer LLM, no remote model ever resolved from ``Settings``."""

from __future__ import annotations

import asyncio
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from llama_index.core import Settings, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.base.llms.types import CompletionResponse, CompletionResponseGen, LLMMetadata
from llama_index.core.base.response.schema import Response
from llama_index.core.bridge.pydantic import Field, ValidationError
from llama_index.core.evaluation import BatchEvalRunner, batch_runner
from llama_index.core.llms import CustomLLM, MockLLM
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.postprocessor import SimilarityPostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode
from tenacity import stop_after_attempt

import sufficient_context as sc
from sufficient_context._samples import (
    SAMPLE_ANSWER,
    SAMPLE_CHUNKS,
    SAMPLE_OFF_TOPIC_QUERY,
    SAMPLE_QUERY,
    SAMPLE_UNANSWERED_QUERY,
)
from sufficient_context.integrations.llamaindex import (
    METADATA_KEY,
    REFUSAL_KEY,
    ClaimCoverageEvaluator,
    GroundedQueryEngine,
    SufficiencyEvaluator,
    SufficiencyPostprocessor,
)

ROOT = Path(__file__).resolve().parents[2]
# BatchEvalRunner.__init__ itself calls the deprecated llama_index.core.async_utils.asyncio_module().
BATCH_RUNNER_DEPRECATION = "ignore:asyncio_module\\(\\) is deprecated:DeprecationWarning"

# Fixed vectors, by the first key a (lower-cased) text contains: cosine(query about cheating, IPC_420_0) = 1.0,
# (.., IPC_415_0) = 0.6, (.., CrPC_154_0) = 0.0; an off-topic query is orthogonal to every chunk.
VECTORS = (
    ("section 415", [0.6, 0.8, 0.0, 0.0]),
    ("section 420 of", [1.0, 0.0, 0.0, 0.0]),
    ("cognizable", [0.0, 0.0, 1.0, 0.0]),
    ("cheating", [1.0, 0.0, 0.0, 0.0]),
)
OFF_TOPIC = [0.0, 0.0, 0.0, 1.0]
CONTENTS = {str(c["id"]): str(c["content"]) for c in SAMPLE_CHUNKS}


class FixedEmbedding(BaseEmbedding):
    """Chosen vectors (MockEmbedding would score every pair 1.0)."""

    calls: int = 0

    def _vector(self, text: str) -> list[float]:
        self.calls += 1
        lowered = text.lower()
        return next((vector for key, vector in VECTORS if key in lowered), OFF_TOPIC)

    def _get_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._vector(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self._vector(text)


class FixedLLM(CustomLLM):
    """Answers every prompt with `answer`; records the prompts and which entry point was used."""

    answer: str = ""
    prompts: list[str] = Field(default_factory=list)
    entry_points: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="fixed")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        self.entry_points.append("complete")
        return CompletionResponse(text=self.answer)

    @llm_completion_callback()
    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        self.entry_points.append("acomplete")
        return CompletionResponse(text=self.answer)

    @llm_completion_callback()
    def stream_complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponseGen:
        yield CompletionResponse(text=self.answer, delta=self.answer)


@pytest.fixture(autouse=True)
def offline_settings() -> Iterator[FixedEmbedding]:
    """The global Settings hold a mock LLM and the fixed embedding during each test, and are restored after."""
    saved = (Settings._llm, Settings._embed_model)
    embed = FixedEmbedding()
    Settings.llm = MockLLM()
    Settings.embed_model = embed
    try:
        yield embed
    finally:
        Settings._llm, Settings._embed_model = saved


@pytest.fixture(autouse=True)
def no_batch_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """BatchEvalRunner retries a failing evaluation after 4-10 s waits: one attempt here, so that a failure shows as
    one instead of a slow pass."""
    for name in ("eval_worker", "eval_response_worker"):
        worker = getattr(batch_runner, name)
        monkeypatch.setattr(batch_runner, name, worker.retry_with(stop=stop_after_attempt(1)))


@pytest.fixture
def nodes() -> list[TextNode]:
    return [TextNode(text=str(c["content"]), id_=str(c["id"]), metadata=dict(c["metadata"])) for c in SAMPLE_CHUNKS]  # type: ignore[call-overload]


@pytest.fixture
def index(nodes: list[TextNode]) -> VectorStoreIndex:
    return VectorStoreIndex(nodes, embed_model=FixedEmbedding())


def scored(*pairs: tuple[str, float | None]) -> list[NodeWithScore]:
    return [
        NodeWithScore(node=TextNode(text=CONTENTS[i], id_=i, metadata={"statute": "IPC"}), score=s) for i, s in pairs
    ]


# -- the test harness itself ----------------------------------------------------------------------------------------


def test_the_index_scores_are_the_chosen_cosines(index: VectorStoreIndex) -> None:
    retrieved = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_QUERY)
    assert [(n.node.node_id, round(n.score or 0.0, 6)) for n in retrieved] == [
        ("IPC_420_0", 1.0),
        ("IPC_415_0", 0.6),
        ("CrPC_154_0", 0.0),
    ]
    off = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_OFF_TOPIC_QUERY)
    assert all(n.score == 0.0 for n in off)


# -- SufficiencyPostprocessor ---------------------------------------------------------------------------------------


def test_postprocessor_keeps_gated_nodes_with_the_verdict_in_copied_metadata(index: VectorStoreIndex) -> None:
    retrieved = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_QUERY)
    post = SufficiencyPostprocessor(min_score=0.5, min_chunks=2)
    kept = post.postprocess_nodes(retrieved, query_str=SAMPLE_QUERY)
    assert [n.node.node_id for n in kept] == ["IPC_420_0", "IPC_415_0"]  # CrPC_154_0 (0.0) is under min_score
    assert [n.score for n in kept] == [n.score for n in retrieved[:2]]
    verdict = kept[0].node.metadata[METADATA_KEY]
    assert verdict["level"] == "sufficient"
    assert verdict["score"] == pytest.approx(post.last_result.score)  # type: ignore[union-attr]
    assert verdict["missing"] == []
    assert verdict["missing_terms"] == []
    assert verdict["retrieval_gate"] == "normal"
    assert kept[0].node.metadata["section"] == "420"  # the node's own metadata is kept
    # The verdict is hidden from the LLM prompt and from embeddings; the retriever's nodes are not mutated.
    assert "sufficiency" not in kept[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert "sufficiency" not in kept[0].node.get_content(metadata_mode=MetadataMode.EMBED)
    assert "section: 420" in kept[0].node.get_content(metadata_mode=MetadataMode.LLM)
    assert METADATA_KEY not in retrieved[0].node.metadata
    assert retrieved[0].node.excluded_llm_metadata_keys == []
    assert post.last_decision is not None
    assert post.last_decision.passing_chunks == [n.node.node_id for n in kept]  # the nodes' own ids
    assert post.last_refused is False
    assert post.last_result is not None
    assert post.last_result.level == "sufficient"


def test_copy_nodes_false_annotates_the_retrievers_nodes_in_place(index: VectorStoreIndex) -> None:
    retrieved = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_QUERY)
    kept = SufficiencyPostprocessor(min_score=0.5, copy_nodes=False).postprocess_nodes(
        retrieved, query_str=SAMPLE_QUERY
    )
    assert [n is r for n, r in zip(kept, retrieved)] == [True, True]
    assert retrieved[0].node.metadata[METADATA_KEY]["level"] == "sufficient"
    assert retrieved[0].node.excluded_llm_metadata_keys == [METADATA_KEY]
    assert METADATA_KEY not in retrieved[2].node.metadata  # dropped under min_score, left alone
    again = SufficiencyPostprocessor(min_score=0.5, copy_nodes=False).postprocess_nodes(kept, query_str=SAMPLE_QUERY)
    assert again[0].node.excluded_embed_metadata_keys == [METADATA_KEY]  # added once


def test_postprocessor_refuses_with_one_synthetic_node_when_the_gate_finds_no_evidence(index: VectorStoreIndex) -> None:
    retrieved = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_QUERY)
    post = SufficiencyPostprocessor(min_score=0.7, min_chunks=2)  # only IPC_420_0 (1.0) reaches 0.7
    out = post.postprocess_nodes(retrieved, query_str=SAMPLE_QUERY)
    assert len(out) == 1
    refusal = out[0]
    assert refusal.score is None
    assert refusal.node.metadata[REFUSAL_KEY] is True
    assert refusal.node.metadata["status"] == "no_evidence"
    text = refusal.node.get_content()
    assert text.startswith(sc.NO_EVIDENCE_MESSAGE)
    assert "Only 1 chunk(s) reach min_score 0.70" in text
    assert "min_chunks is 2" in text
    assert refusal.node.metadata["retrieval_gate"]["outcome"] == "no_evidence"
    assert refusal.node.metadata[METADATA_KEY] is None  # the check never ran
    assert refusal.node.metadata["dropped_node_ids"] == ["IPC_420_0", "IPC_415_0", "CrPC_154_0"]
    assert refusal.node.get_content(metadata_mode=MetadataMode.LLM) == text  # the model sees the message only
    assert post.last_refused is True
    assert post.last_result is None
    off = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_OFF_TOPIC_QUERY)
    out = post.postprocess_nodes(off, query_str=SAMPLE_OFF_TOPIC_QUERY)
    assert "Best similarity 0.00 is below min_score 0.70" in out[0].node.get_content()
    empty = post.postprocess_nodes([], query_str=SAMPLE_QUERY)  # nothing retrieved: still a refusal, never []
    assert empty[0].node.get_content().endswith("No chunks were retrieved.")


def test_postprocessor_refuses_insufficient_context_naming_the_missing_aspect(index: VectorStoreIndex) -> None:
    retrieved = index.as_retriever(similarity_top_k=3).retrieve(SAMPLE_UNANSWERED_QUERY)
    post = SufficiencyPostprocessor(min_score=0.5)
    out = post.postprocess_nodes(retrieved, query_bundle=QueryBundle(SAMPLE_UNANSWERED_QUERY))
    assert len(out) == 1
    assert out[0].node.metadata[REFUSAL_KEY] is True
    assert out[0].node.metadata["status"] == "insufficient_evidence"
    text = out[0].node.get_content()
    assert text.startswith("I don't have sufficient information to answer this question accurately.")
    assert "Missing: Query term 'bailable' not found in context." in text
    verdict = out[0].node.metadata[METADATA_KEY]
    assert verdict["level"] == "insufficient"
    assert verdict["missing_terms"] == ["bailable"]
    assert post.last_result is not None
    assert post.last_result.missing_terms == ["bailable"]

    passthrough = SufficiencyPostprocessor(min_score=0.5, on_insufficient="passthrough")
    kept = passthrough.postprocess_nodes(retrieved, query_str=SAMPLE_UNANSWERED_QUERY)
    assert sorted(n.node.node_id for n in kept) == ["IPC_415_0", "IPC_420_0"]
    assert all(n.node.metadata[METADATA_KEY]["level"] == "insufficient" for n in kept)
    assert passthrough.last_refused is False


def test_passthrough_lets_too_few_nodes_through_but_never_returns_an_empty_list() -> None:
    post = SufficiencyPostprocessor(min_score=0.5, min_chunks=2, on_insufficient="passthrough")
    one = post.postprocess_nodes(scored(("IPC_420_0", 0.9), ("CrPC_154_0", 0.1)), query_str=SAMPLE_QUERY)
    assert [n.node.node_id for n in one] == ["IPC_420_0"]
    assert one[0].node.metadata[METADATA_KEY]["retrieval_gate"] == "no_evidence"
    none = post.postprocess_nodes(scored(("CrPC_154_0", 0.1)), query_str=SAMPLE_QUERY)
    assert none[0].node.metadata[REFUSAL_KEY] is True
    assert none[0].node.metadata["status"] == "no_evidence"


def test_gate_only_mode_and_a_disabled_checker_need_no_query() -> None:
    nodes = scored(("IPC_420_0", 0.9), ("IPC_415_0", 0.4), ("CrPC_154_0", 0.1))
    gate_only = SufficiencyPostprocessor(min_score=0.3, check_sufficiency=False)
    kept = gate_only.postprocess_nodes(nodes)
    assert [n.node.node_id for n in kept] == ["IPC_420_0", "IPC_415_0"]
    assert kept[0].node.metadata[METADATA_KEY] == {
        "score": None, "level": None, "missing": [], "missing_terms": [], "retrieval_gate": "normal",
    }  # fmt: skip
    assert gate_only.last_result is None
    disabled = SufficiencyPostprocessor(min_score=0.3, checker=sc.SufficientContextChecker(enabled=False))
    assert len(disabled.postprocess_nodes(nodes)) == 2
    with pytest.raises(ValueError, match="pass query_bundle or query_str"):
        SufficiencyPostprocessor().postprocess_nodes(nodes)


def test_unscored_signed_and_partly_scored_nodes() -> None:
    post = SufficiencyPostprocessor(check_sufficiency=False)
    unscored = post.postprocess_nodes(scored(("IPC_420_0", None), ("IPC_415_0", None)))
    assert len(unscored) == 2  # a keyword retriever: only the count is gated
    assert "without retrieval scores" in post.last_decision.reason  # type: ignore[union-attr]
    lone = post.postprocess_nodes(scored(("IPC_420_0", None)))
    assert lone[0].node.metadata[REFUSAL_KEY] is True  # 1 < min_chunks 2
    mixed = post.postprocess_nodes(scored(("IPC_420_0", 0.9), ("IPC_415_0", None), ("CrPC_154_0", 0.3)))
    assert [n.node.node_id for n in mixed] == ["IPC_420_0", "CrPC_154_0"]  # as SimilarityPostprocessor drops it
    signed = SufficiencyPostprocessor(min_score=-0.2, check_sufficiency=False)
    kept = signed.postprocess_nodes(scored(("IPC_420_0", -0.1), ("IPC_415_0", -0.15), ("CrPC_154_0", -0.6)))
    assert [n.node.node_id for n in kept] == ["IPC_420_0", "IPC_415_0"]
    assert signed.last_decision is not None
    assert signed.last_decision.max_score == -0.1


def test_a_node_retrieved_twice_is_one_node_to_the_gate_and_the_check() -> None:
    # A hybrid retriever's merged lists can hold one node twice; it must not make up min_chunks=2 alone (it did, and
    # the postprocessor passed one node as two), nor min_contexts.
    node = scored(("IPC_420_0", 0.9))[0]
    post = SufficiencyPostprocessor(min_score=0.5, min_chunks=2)
    refused = post.postprocess_nodes([node, node], query_str=SAMPLE_QUERY)
    assert refused[0].node.metadata[REFUSAL_KEY] is True
    assert post.last_decision is not None
    assert post.last_decision.chunk_count == 1
    assert post.last_decision.max_score == 0.9
    assert post.last_decision.passing_chunks == ["IPC_420_0"]  # the node's id, once
    unscored = scored(("IPC_420_0", None))[0]
    gate_only = SufficiencyPostprocessor(check_sufficiency=False)
    assert gate_only.postprocess_nodes([unscored, unscored])[0].node.metadata[REFUSAL_KEY] is True
    both = SufficiencyPostprocessor(min_score=0.5, min_chunks=2, on_insufficient="passthrough")
    kept = both.postprocess_nodes([node, node, *scored(("IPC_415_0", 0.8))], query_str=SAMPLE_QUERY)
    assert [n.node.node_id for n in kept] == ["IPC_420_0", "IPC_420_0", "IPC_415_0"]  # nothing dropped
    assert both.last_decision is not None
    assert both.last_decision.chunk_count == 2
    assert both.last_decision.passing_chunks == ["IPC_420_0", "IPC_415_0"]
    checker = sc.SufficientContextChecker(min_contexts=2)
    strict = SufficiencyPostprocessor(min_score=0.5, min_chunks=1, checker=checker, on_insufficient="passthrough")
    strict.postprocess_nodes([node, node], query_str=SAMPLE_QUERY)
    assert strict.last_result is not None
    assert strict.last_result.missing_aspects[-1] == "Only 1 distinct context(s), need 2 (1 repeated)"


def test_node_embeddings_serve_relevance_only_with_a_matching_query_embedding() -> None:
    nodes = [
        NodeWithScore(node=TextNode(text=CONTENTS[i], id_=i, embedding=e), score=s)
        for i, e, s in (("IPC_420_0", [1.0, 0.0], 0.9), ("IPC_415_0", [0.6, 0.8], 0.6))
    ]
    post = SufficiencyPostprocessor()
    post.postprocess_nodes(nodes, query_bundle=QueryBundle(SAMPLE_QUERY, embedding=[1.0, 0.0]))
    assert post.last_result is not None
    assert post.last_result.relevance_source == "embedding"
    post.postprocess_nodes(nodes, query_bundle=QueryBundle(SAMPLE_QUERY))  # no query vector: the texts only
    assert post.last_result is not None
    assert post.last_result.relevance_source == "lexical"
    post.postprocess_nodes(nodes, query_bundle=QueryBundle(SAMPLE_QUERY, embedding=[1.0, 0.0, 0.0]))
    assert post.last_result is not None
    assert post.last_result.relevance_source == "lexical"


def test_postprocessor_is_a_validated_pydantic_component() -> None:
    post = SufficiencyPostprocessor(min_score=0.3, min_chunks=1, on_insufficient="passthrough")
    assert SufficiencyPostprocessor.class_name() == "SufficiencyPostprocessor"
    dumped = post.to_dict()
    assert dumped["min_score"] == 0.3
    assert dumped["on_insufficient"] == "passthrough"
    assert "checker" not in dumped
    for bad in ({"min_chunks": 0}, {"min_chunks": 1.5}, {"on_insufficient": "ignore"}, {"min_score": float("nan")},
                {"checker": "not a checker"}):  # fmt: skip
        with pytest.raises(ValidationError):
            SufficiencyPostprocessor(**bad)


def test_in_a_retriever_query_engine_the_model_sees_only_the_refusal(index: VectorStoreIndex) -> None:
    llm = MockLLM()  # echoes its prompt: the response shows exactly what the model was given
    engine = index.as_query_engine(llm=llm, similarity_top_k=3, node_postprocessors=[SufficiencyPostprocessor()])
    refused = engine.query(SAMPLE_UNANSWERED_QUERY)
    assert "Missing: Query term 'bailable' not found in context." in str(refused)
    assert "seven years" not in str(refused)  # no retrieved chunk reached the prompt
    assert refused.source_nodes[0].node.metadata[REFUSAL_KEY] is True
    answered = asyncio.run(engine.aquery(SAMPLE_QUERY))  # the async path (apostprocess_nodes)
    assert "seven years" in str(answered)
    assert "sufficiency" not in str(answered)  # the verdict stays out of the prompt
    assert [n.node.metadata[METADATA_KEY]["level"] for n in answered.source_nodes] == ["sufficient", "sufficient"]


def test_gate_only_mode_agrees_with_similarity_postprocessor() -> None:
    nodes = scored(("IPC_420_0", 0.9), ("IPC_415_0", 0.45), ("CrPC_154_0", 0.2))
    ours = SufficiencyPostprocessor(min_score=0.45, min_chunks=1, check_sufficiency=False).postprocess_nodes(nodes)
    theirs = SimilarityPostprocessor(similarity_cutoff=0.45).postprocess_nodes(nodes)
    assert [n.node.node_id for n in ours] == [n.node.node_id for n in theirs]


# -- evaluators -----------------------------------------------------------------------------------------------------

SAMPLE_TEXTS = [str(c["content"]) for c in SAMPLE_CHUNKS]


def test_sufficiency_evaluator_passes_and_fails_with_feedback() -> None:
    evaluator = SufficiencyEvaluator()
    good = evaluator.evaluate(query=SAMPLE_QUERY, contexts=SAMPLE_TEXTS)
    assert good.passing is True
    assert good.score is not None
    assert good.score >= 0.8
    assert good.feedback is not None
    assert good.feedback.startswith("Context is sufficient")
    bad = evaluator.evaluate(query=SAMPLE_UNANSWERED_QUERY, contexts=SAMPLE_TEXTS)
    assert bad.passing is False
    assert bad.score is not None
    assert bad.score < 0.5
    assert bad.feedback is not None
    assert "Missing terms: 'bailable'." in bad.feedback
    assert "Query term 'bailable' not found in context" in bad.feedback
    assert bad.contexts == SAMPLE_TEXTS
    assert bad.query == SAMPLE_UNANSWERED_QUERY
    partial_query = "What does the Indian Penal Code say about cheating and property?"
    assert evaluator.evaluate(query=partial_query, contexts=SAMPLE_TEXTS).passing is False
    assert SufficiencyEvaluator(accept_partial=True).evaluate(query=partial_query, contexts=SAMPLE_TEXTS).passing
    as_nodes = evaluator.evaluate(query=SAMPLE_QUERY, contexts=scored(("IPC_420_0", 0.9)))
    assert as_nodes.contexts == [CONTENTS["IPC_420_0"]]
    assert asyncio.run(evaluator.aevaluate(query=SAMPLE_QUERY, contexts=SAMPLE_TEXTS)).score == good.score
    with pytest.raises(ValueError, match="needs a query and contexts"):
        evaluator.evaluate(query=SAMPLE_QUERY)
    assert evaluator.get_prompts() == {}


def test_claim_coverage_evaluator_lists_unsupported_sentences_with_reasons() -> None:
    evaluator = ClaimCoverageEvaluator()
    grounded = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."
    ok = evaluator.evaluate(query=SAMPLE_QUERY, response=grounded, contexts=SAMPLE_TEXTS)
    assert ok.passing is True
    assert ok.score == 1.0
    assert ok.feedback == "1/1 claim sentence(s) supported; attribution coverage 100%; grounded."
    answer = SAMPLE_ANSWER.replace("IPC_420_0", "S1")
    bad = evaluator.evaluate(query=SAMPLE_QUERY, response=answer, contexts=SAMPLE_TEXTS)
    assert bad.passing is False
    assert bad.score == 0.5
    assert bad.feedback is not None
    assert "1/2 claim sentence(s) supported" in bad.feedback
    assert "- Unsupported (score 0.03): 'The offence is bailable and punishable with up to ten years [S1].'" in (
        bad.feedback
    )
    assert "'ten' not in S1, which says 'seven'" in bad.feedback
    unknown = evaluator.evaluate(response=grounded.replace("[S1]", "[S9]"), contexts=SAMPLE_TEXTS)
    assert unknown.passing is False
    assert "Unknown citations (no such context): S9" in (unknown.feedback or "")
    # Numbered citations, as CitationQueryEngine writes them, point at the contexts by position from 1.
    numbered = evaluator.evaluate(response=grounded.replace("[S1]", "[1]"), contexts=SAMPLE_TEXTS)
    assert numbered.passing is True
    # Chunk-likes keep their own ids: SAMPLE_ANSWER cites IPC_420_0 itself.
    by_id = evaluator.evaluate(response=SAMPLE_ANSWER, contexts=scored(("IPC_420_0", 0.9)))
    assert by_id.passing is False
    assert "ten years [IPC_420_0]" in (by_id.feedback or "")
    with pytest.raises(ValueError, match="needs a response and contexts"):
        evaluator.evaluate(query=SAMPLE_QUERY, contexts=SAMPLE_TEXTS)


def test_claim_coverage_evaluator_reads_framing_refusals_and_empty_responses() -> None:
    evaluator = ClaimCoverageEvaluator()
    claim = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."
    framed = f"{sc.LOW_CONFIDENCE_BANNER}\n{claim}\n\n{sc.CAVEAT}"
    result = evaluator.evaluate(response=framed, contexts=SAMPLE_TEXTS)
    assert result.passing is True
    assert result.response == framed
    for refusal in (sc.NOT_IN_DOCUMENTATION_ANSWER, sc.NO_EVIDENCE_MESSAGE,
                    sc.DECLINE_TEMPLATE.format(missing="Query term 'bailable' not found in context")):  # fmt: skip
        declined = evaluator.evaluate(response=refusal, contexts=[])
        assert declined.passing is True
        assert declined.score == 1.0
        assert declined.feedback == "The response declines to answer and makes no claim to check; it passes."
    strict = ClaimCoverageEvaluator(refusals_pass=False).evaluate(response=sc.NO_EVIDENCE_MESSAGE, contexts=[])
    assert strict.passing is False
    assert strict.score == 0.0
    for empty in ("Empty Response", "   "):
        invalid = evaluator.evaluate(response=empty, contexts=SAMPLE_TEXTS)
        assert invalid.invalid_result is True
        assert invalid.passing is False
        assert invalid.score is None
    from_response = evaluator.evaluate(response=Response(response=claim), contexts=SAMPLE_TEXTS)
    assert from_response.passing is True
    assert from_response.response == claim


@pytest.mark.filterwarnings(BATCH_RUNNER_DEPRECATION)
def test_both_evaluators_run_in_a_batch_eval_runner(nodes: list[TextNode]) -> None:
    runner = BatchEvalRunner({"sufficiency": SufficiencyEvaluator(), "claims": ClaimCoverageEvaluator()}, workers=2)
    claim = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."
    responses = [
        Response(response=claim, source_nodes=[NodeWithScore(node=nodes[0], score=1.0)]),
        Response(response=SAMPLE_ANSWER.replace("IPC_420_0", "S1"), source_nodes=[NodeWithScore(node=nodes[0])]),
        Response(response=sc.NO_EVIDENCE_MESSAGE, source_nodes=[]),
    ]
    queries = [SAMPLE_QUERY, SAMPLE_UNANSWERED_QUERY, SAMPLE_OFF_TOPIC_QUERY]
    # The sync runner runs on asyncio.get_event_loop(), which makes a loop and never closes it: give it one to close
    # (left open, it was a ResourceWarning, and this test failed when it ran alone).
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        results = runner.evaluate_responses(queries=queries, responses=responses)
    finally:
        asyncio.set_event_loop(None)
        loop.close()
    assert [r.passing for r in results["sufficiency"]] == [True, False, False]
    assert [r.passing for r in results["claims"]] == [True, False, True]
    assert "ten years" in (results["claims"][1].feedback or "")
    assert results["sufficiency"][0].contexts == [CONTENTS["IPC_420_0"]]
    # A runner's semaphore belongs to the first event loop that used it (a second loop would make its workers
    # fail and retry after tenacity's 4 s waits): a fresh runner for the next loop.
    runner = BatchEvalRunner({"sufficiency": SufficiencyEvaluator(), "claims": ClaimCoverageEvaluator()}, workers=2)
    strs = asyncio.run(
        runner.aevaluate_response_strs(queries=queries[:2], response_strs=[claim, claim],
                                       contexts_list=[SAMPLE_TEXTS, SAMPLE_TEXTS[2:]])
    )  # fmt: skip
    assert [r.passing for r in strs["sufficiency"]] == [True, False]
    assert [r.passing for r in strs["claims"]] == [True, False]  # [S1] is the CrPC chunk in the second


# -- GroundedQueryEngine --------------------------------------------------------------------------------------------


def test_grounded_engine_answers_with_the_cited_nodes_renumbered(index: VectorStoreIndex) -> None:
    # The model cites only the second chunk it was shown: the response calls it [S1], its first source node.
    llm = FixedLLM(answer="Section 415 defines cheating [S2]. Cheating is punished with death [S2].")
    engine = GroundedQueryEngine(index.as_retriever(similarity_top_k=3), llm=llm)
    response = engine.query(SAMPLE_QUERY)
    assert isinstance(response, Response)
    assert response.response == "Section 415 defines cheating [S1]."  # the unsupported sentence is removed
    assert [n.node.node_id for n in response.source_nodes] == ["IPC_415_0"]
    assert response.source_nodes[0].score == pytest.approx(0.6)
    envelope = response.metadata
    assert envelope is not None
    assert envelope["status"] == "answered"
    assert envelope["answer"] == "Section 415 defines cheating [S2]."  # the envelope keeps the model's labels
    assert envelope["sources"][0]["label"] == "S2"
    assert envelope["sources"][0]["id"] == "IPC_415_0"
    assert envelope["removed_sentences"] == ["Cheating is punished with death [S2]."]
    assert envelope["checks"]["generator"] == "llamaindex"
    assert envelope["sufficiency"]["level"] == "sufficient"
    assert len(llm.prompts) == 1
    assert "[S1]" in llm.prompts[0]
    assert "[S2]" in llm.prompts[0]
    assert "Question: " + SAMPLE_QUERY in llm.prompts[0]
    assert "CrPC" not in llm.prompts[0]  # under the gate's min_score, never shown to the model
    assert engine.retrieve(QueryBundle(SAMPLE_QUERY))[0].node.node_id == "IPC_420_0"
    assert ClaimCoverageEvaluator().evaluate_response(query=SAMPLE_QUERY, response=response).passing is True


def test_grounded_engine_refuses_without_calling_the_model(index: VectorStoreIndex) -> None:
    llm = FixedLLM(answer="Paris [S1].")
    engine = GroundedQueryEngine(index.as_retriever(similarity_top_k=3), llm=llm)
    off_topic = engine.query(SAMPLE_OFF_TOPIC_QUERY)
    assert off_topic.response is not None
    assert off_topic.response.startswith(sc.NO_EVIDENCE_MESSAGE)  # then the gate's reason
    assert off_topic.source_nodes == []
    assert off_topic.metadata is not None
    assert off_topic.metadata["status"] == "no_evidence"
    unanswerable = engine.query(SAMPLE_UNANSWERED_QUERY)
    assert unanswerable.metadata is not None
    assert unanswerable.metadata["status"] == "insufficient_evidence"
    assert "bailable" in str(unanswerable)
    assert llm.prompts == []


def test_grounded_engine_async_awaits_acomplete(index: VectorStoreIndex) -> None:
    llm = FixedLLM(answer="Cheating is punished with imprisonment for up to seven years and a fine [S1].")
    engine = GroundedQueryEngine(index.as_retriever(similarity_top_k=3), llm=llm)
    response = asyncio.run(engine.aquery(SAMPLE_QUERY))
    assert response.response == llm.answer
    assert [n.node.node_id for n in response.source_nodes] == ["IPC_420_0"]
    assert llm.entry_points == ["acomplete"]
    assert engine.query(SAMPLE_QUERY).response == llm.answer
    assert llm.entry_points == ["acomplete", "complete"]

    async def both() -> tuple[Response, Response]:
        return await asyncio.gather(engine.aquery(SAMPLE_QUERY), engine.aquery(SAMPLE_OFF_TOPIC_QUERY))

    answered, refused = asyncio.run(both())  # concurrent queries on one engine
    assert (answered.metadata or {}).get("status") == "answered"
    assert (refused.metadata or {}).get("status") == "no_evidence"


class ThreadedLLM(FixedLLM):
    """``acomplete`` runs the sync ``complete`` in the loop's default executor, as async wrappers of sync clients do."""

    @llm_completion_callback()
    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        return await asyncio.to_thread(self.complete, prompt)


def test_fifty_concurrent_aqueries_with_a_threaded_acomplete_match_the_sequential_answers(
    index: VectorStoreIndex,
) -> None:
    # The pipeline's worker threads once came from the loop's default executor (6 threads on 2 cores): with more
    # concurrent queries than that, every thread waited for an acomplete queued behind them, and aquery hung.
    llm = ThreadedLLM(answer="Cheating is punished with imprisonment for up to seven years and a fine [S1].")
    engine = GroundedQueryEngine(index.as_retriever(similarity_top_k=3), llm=llm)
    queries = [SAMPLE_QUERY, SAMPLE_OFF_TOPIC_QUERY, SAMPLE_UNANSWERED_QUERY] * 17
    sequential = [(r.response, r.metadata["status"]) for r in map(engine.query, queries[:50])]  # type: ignore[index]

    async def concurrent() -> list[Response]:
        return await asyncio.gather(*(engine.aquery(q) for q in queries[:50]))

    answered = [(r.response, r.metadata["status"]) for r in asyncio.run(concurrent())]  # type: ignore[index]
    assert answered == sequential
    assert {status for _, status in answered} == {"answered", "no_evidence", "insufficient_evidence"}


class HangingLLM(FixedLLM):
    """An ``acomplete`` that waits until released (a model that does not answer); notes its cancellation."""

    release: Any = None
    cancelled: Any = None

    async def acomplete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return CompletionResponse(text=self.answer)


def test_a_cancelled_aquery_cancels_its_model_call_and_logs_nothing(index: VectorStoreIndex, tmp_path: Path) -> None:
    # Cancelling aquery once left the model call running and a worker thread waiting for it, for good when the model
    # never answers; a few such timeouts took every thread of the pool.
    log = sc.QueryLog(tmp_path / "log.db")
    llm = HangingLLM(answer="Cheating is punished with imprisonment for up to seven years and a fine [S1].")
    engine = GroundedQueryEngine(
        index.as_retriever(similarity_top_k=3), llm=llm, answerer=sc.GroundedAnswerer(query_log=log)
    )

    async def scenario() -> Response:
        llm.release, llm.cancelled = asyncio.Event(), asyncio.Event()
        task = asyncio.ensure_future(engine.aquery(SAMPLE_QUERY))
        while not llm.prompts and not task.done():  # until the model is called
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.wait_for(llm.cancelled.wait(), 60)  # the model call itself was cancelled
        llm.release.set()
        return await engine.aquery(SAMPLE_QUERY)

    assert asyncio.run(scenario()).metadata["status"] == "answered"  # type: ignore[index]
    assert [row["decision"] for row in log.rows(10)] == ["answered"]  # the cancelled call wrote no row
    log.close()


def test_grounded_engine_without_llm_answers_extractively_with_banner_and_caveat(index: VectorStoreIndex) -> None:
    engine = GroundedQueryEngine(index.as_retriever(similarity_top_k=3))
    assert engine.llm is None
    response = engine.query(SAMPLE_QUERY)
    assert response.metadata is not None
    assert response.metadata["checks"]["generator"] == "extractive"
    assert response.response is not None
    assert "seven years" in response.response
    weak = GroundedQueryEngine(index.as_retriever(similarity_top_k=3), answerer=sc.GroundedAnswerer(weak_score=1.5))
    banner = weak.query(SAMPLE_QUERY)
    assert banner.response is not None
    assert banner.response.startswith(sc.LOW_CONFIDENCE_BANNER + "\n")
    assert banner.metadata is not None
    assert banner.metadata["status"] == "answered_with_caveat"
    assert ClaimCoverageEvaluator().evaluate_response(response=banner).passing is True


def test_grounded_engine_returns_a_postprocessor_refusal_as_it_is(index: VectorStoreIndex) -> None:
    llm = FixedLLM(answer="Anything [S1].")
    engine = GroundedQueryEngine(
        index.as_retriever(similarity_top_k=3), llm=llm, node_postprocessors=[SufficiencyPostprocessor(min_score=0.7)]
    )
    response = engine.query(SAMPLE_QUERY)
    assert response.response is not None
    assert response.response.startswith(sc.NO_EVIDENCE_MESSAGE)
    assert response.metadata is not None
    assert response.metadata["status"] == "no_evidence"
    assert response.metadata["checks"]["refused_by"] == "SufficiencyPostprocessor"
    assert response.source_nodes == []
    refused = asyncio.run(engine.aquery(SAMPLE_UNANSWERED_QUERY))
    assert refused.metadata is not None
    assert refused.metadata["status"] in ("no_evidence", "insufficient_evidence")
    assert llm.prompts == []


def test_grounded_engine_rejects_what_is_not_a_retriever() -> None:
    with pytest.raises(TypeError, match="retriever must be a LlamaIndex retriever"):
        GroundedQueryEngine(object())
    with pytest.raises(TypeError, match="answerer must be a GroundedAnswerer"):
        GroundedQueryEngine(VectorStoreIndex([], embed_model=FixedEmbedding()).as_retriever(), answerer="x")  # type: ignore[arg-type]


# -- never a remote model -------------------------------------------------------------------------------------------


@pytest.mark.filterwarnings(BATCH_RUNNER_DEPRECATION)
def test_no_component_asks_settings_for_a_model(monkeypatch: pytest.MonkeyPatch, nodes: list[TextNode]) -> None:
    """With the globals empty and resolving them made an error, every component still runs: none of them falls back
    to LlamaIndex's default (remote) LLM or embedding model."""
    import llama_index.core.settings as settings_module

    def no_default(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a component asked Settings for a default model")

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setattr(settings_module, "resolve_llm", no_default)
    monkeypatch.setattr(settings_module, "resolve_embed_model", no_default)
    monkeypatch.setattr(Settings, "_llm", None)
    monkeypatch.setattr(Settings, "_embed_model", None)
    embed = FixedEmbedding()
    retriever = VectorStoreIndex(nodes, embed_model=embed).as_retriever(similarity_top_k=3)
    llm = FixedLLM(answer="Cheating is punished with imprisonment for up to seven years and a fine [S1].")
    post = SufficiencyPostprocessor()
    engine = GroundedQueryEngine(retriever, llm=llm, node_postprocessors=[post])
    response = engine.query(SAMPLE_QUERY)
    assert response.metadata is not None
    assert response.metadata["status"] == "answered"
    assert asyncio.run(engine.aquery(SAMPLE_OFF_TOPIC_QUERY)).metadata["status"] == "no_evidence"  # type: ignore[index]
    assert GroundedQueryEngine(retriever).query(SAMPLE_QUERY).metadata["status"] == "answered"  # type: ignore[index]
    runner = BatchEvalRunner({"s": SufficiencyEvaluator(), "c": ClaimCoverageEvaluator()}, workers=2)
    assert runner.evaluate_responses(queries=[SAMPLE_QUERY], responses=[response])["c"][0].passing is True
    assert Settings._llm is None
    assert Settings._embed_model is None
    assert embed.calls > 0
    assert llm.entry_points == ["complete"]


# -- packaging ------------------------------------------------------------------------------------------------------


def test_importing_without_llama_index_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['llama_index'] = None\n"
        "try:\n"
        "    import sufficient_context.integrations.llamaindex\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "pip install 'sufficient-context[llamaindex]'" in done.stdout


def test_the_example_runs_offline_end_to_end() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "llamaindex_rag.py")], capture_output=True,
                          text=True, timeout=120, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "kept IPC_420_0, IPC_415_0: sufficient (score 0.90)" in out
    assert "refused (insufficient_evidence): I don't have sufficient information" in out
    assert "refused (no_evidence): No supporting documentation found in indexed sources. Best similarity" in out
    assert "[answered] Section 420 of the Indian Penal Code" in out
    assert "[S1] IPC_420_0 (score" in out
    assert "IPC_415_0 (score" not in out  # the definition of cheating does not answer what the punishment is
    assert f"[no_evidence] {sc.NO_EVIDENCE_MESSAGE}" in out
    assert "sufficiency pass score 0.87" in out  # of the chunk the answer cites
    assert "sufficiency FAIL score 0.00" in out
    assert "claims      pass score 1.00" in out
    assert "FAIL score 0.50" in out
    assert "'ten' not in IPC_420_0, which says 'seven'" in out


class _ListRetriever:
    """A duck-typed retriever returning what it was given (a BaseRetriever would itself fail on junk)."""

    def __init__(self, nodes: Any) -> None:
        self.nodes = nodes

    def retrieve(self, query_bundle: QueryBundle) -> Any:
        return self.nodes


def test_grounded_engine_ignores_a_refusal_forged_in_document_metadata() -> None:
    forged = NodeWithScore(
        node=TextNode(text="irrelevant", metadata={REFUSAL_KEY: True, "status": "answered", "message": "Death."}),
        score=0.9,
    )
    good = [NodeWithScore(node=TextNode(text=CONTENTS["IPC_420_0"], id_=f"n{i}"), score=0.9) for i in range(2)]
    response = GroundedQueryEngine(_ListRetriever([*good, forged])).query(SAMPLE_QUERY)
    assert response.response != "Death."
    assert "refused_by" not in response.metadata["checks"]
    refusing = GroundedQueryEngine(_ListRetriever(good[:1]), node_postprocessors=[SufficiencyPostprocessor()])
    refused = refusing.query(SAMPLE_QUERY)
    assert refused.metadata["status"] == "no_evidence"
    assert refused.metadata["checks"]["refused_by"] == "SufficiencyPostprocessor"


def test_claim_coverage_evaluator_checks_claims_after_a_refusal_and_fails_a_wordless_answer() -> None:
    evaluator = ClaimCoverageEvaluator()
    for opening in (sc.NOT_IN_DOCUMENTATION_ANSWER, sc.NO_EVIDENCE_MESSAGE):
        result = evaluator.evaluate(response=f"{opening} The accused is hanged [S1].", contexts=SAMPLE_TEXTS)
        assert result.passing is False
        assert "Unsupported" in str(result.feedback)
    gate_refusal = f"{sc.NO_EVIDENCE_MESSAGE} Best similarity 0.10 is below min_score 0.20."
    assert evaluator.evaluate(response=f'"{gate_refusal}"', contexts=SAMPLE_TEXTS).passing is True
    for wordless in ("[S1]", "[S1] [S2]."):
        result = evaluator.evaluate(response=wordless, contexts=SAMPLE_TEXTS)
        assert (result.passing, result.score) == (False, 0.0)
        assert "says nothing" in str(result.feedback)


def test_evaluators_and_engine_name_malformed_inputs() -> None:
    for evaluator in (SufficiencyEvaluator(), ClaimCoverageEvaluator()):
        for contexts in (CONTENTS["IPC_420_0"], {"a": CONTENTS["IPC_420_0"]}):
            with pytest.raises(TypeError, match="contexts must be a list"):
                evaluator.evaluate(query=SAMPLE_QUERY, response="x [S1].", contexts=contexts)
    node = NodeWithScore(node=TextNode(text=CONTENTS["IPC_420_0"]), score=0.9)
    processor = SufficiencyPostprocessor()
    with pytest.raises(TypeError, match="query_bundle must be a QueryBundle"):
        processor.postprocess_nodes([node, node], query_bundle=SAMPLE_QUERY)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"nodes\[0\] must be a NodeWithScore"):
        processor.postprocess_nodes([node.node, node.node], query_str=SAMPLE_QUERY)  # type: ignore[list-item]
    huge = NodeWithScore.model_construct(node=TextNode(text=CONTENTS["IPC_420_0"]), score=10**400)
    with pytest.raises(ValueError, match=r"nodes\[0\]\.score must be finite; got an integer too large for a float"):
        processor.postprocess_nodes([huge, node], query_str=SAMPLE_QUERY)
    for junk in (None, [node.node]):
        with pytest.raises(TypeError, match=r"retriever\.retrieve"):
            GroundedQueryEngine(_ListRetriever(junk)).query(SAMPLE_QUERY)


def test_a_node_score_that_is_no_number_is_named_as_the_caller_gave_it() -> None:
    # The gate counts scored, distinct nodes; an error must still name the node the caller passed. A bool is no score:
    # True read as 1.0 would pass any gate.
    good = scored(("IPC_420_0", 0.9), ("IPC_415_0", 0.8))
    bad_nan = NodeWithScore.model_construct(node=TextNode(text="x", id_="n3"), score=math.nan)
    post = SufficiencyPostprocessor(check_sufficiency=False)
    with pytest.raises(ValueError, match=r"nodes\[3\]\.score must be finite; got nan"):
        post.postprocess_nodes([*good, good[0], bad_nan])  # a repeat before it: still nodes[3]
    flag = NodeWithScore.model_construct(node=TextNode(text="x", id_="n4"), score=True)
    with pytest.raises(TypeError, match=r"nodes\[2\]\.score must be a number or None; got bool"):
        post.postprocess_nodes([*good, flag])
