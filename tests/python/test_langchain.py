"""The LangChain components against the real langchain-core, offline: in-memory vector store, fake embeddings and a
fake chat model. Async paths run under ``asyncio.run`` (no async test plugin needed), except in LangChain's standard
retriever suite, whose own async test needs pytest-asyncio (a dependency of langchain-tests)."""

from __future__ import annotations

import asyncio
import importlib.util
import math
import os
import pickle
import subprocess
import sys
from operator import itemgetter
from pathlib import Path
from typing import Any
from uuid import UUID

import numpy as np
import pytest
from langchain_core.callbacks import BaseCallbackHandler, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import LLMResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_tests.integration_tests import RetrieversIntegrationTests
from pydantic import ValidationError

import sufficient_context as sc
from sufficient_context._samples import SAMPLE_ANSWER, SAMPLE_CHUNKS, SAMPLE_OFF_TOPIC_QUERY, SAMPLE_QUERY
from sufficient_context.integrations.langchain import (
    METADATA_KEY,
    EvidenceGateCompressor,
    GroundedAnswererRunnable,
    InsufficientContextError,
    SufficiencyCallbackHandler,
    SufficiencyGuardRetriever,
    claim_validator,
)

REPO = Path(__file__).resolve().parents[2]


def _example() -> Any:
    """examples/langchain_rag.py as a module: its toy embedding and scored retriever serve these tests too."""
    spec = importlib.util.spec_from_file_location("langchain_rag_example", REPO / "examples" / "langchain_rag.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # pydantic resolves the retriever's annotations through it
    spec.loader.exec_module(module)
    return module


_EXAMPLE = _example()
# Hashed content-word counts: deterministic, and similar texts get similar vectors (DeterministicFakeEmbedding's
# vectors are random per text, so its cosines carry no meaning).
KeywordEmbeddings = _EXAMPLE.BagOfWordsEmbeddings
ScoredRetriever = _EXAMPLE.ScoredRetriever  # the store's top-k with each cosine in metadata["score"]
SUPPORTED = "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]."
UNSUPPORTED = "The offence is bailable and punishable with up to ten years [S1]."


# -- fixtures and fakes ------------------------------------------------------------------------------------------------
def statute_documents() -> list[Document]:
    return [
        Document(page_content=str(c["content"]), metadata=dict(c["metadata"]), id=str(c["id"])) for c in SAMPLE_CHUNKS
    ]


class FixedEmbeddings(Embeddings):
    """Stored vectors by text; counts the calls."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [self.vectors[t] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self.vectors[text]


class StaticRetriever(BaseRetriever):
    """Always the same documents."""

    documents: list[Document]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return list(self.documents)


@pytest.fixture
def fake_store() -> InMemoryVectorStore:
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    store.add_documents(statute_documents())
    return store


@pytest.fixture
def keyword_store() -> InMemoryVectorStore:
    store = InMemoryVectorStore(KeywordEmbeddings())
    store.add_documents(statute_documents())
    return store


def fake_model(*answers: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(answers))


# -- import ----------------------------------------------------------------------------------------------------------
def test_import_without_langchain_core_names_the_extra() -> None:
    code = "import sys; sys.modules['langchain_core'] = None; import sufficient_context.integrations.langchain"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode != 0
    assert "ImportError" in proc.stderr
    assert "pip install 'sufficient-context[langchain]'" in proc.stderr


# -- SufficiencyGuardRetriever ---------------------------------------------------------------------------------------
def test_guard_passes_sufficient_context_and_annotates_copies(fake_store: InMemoryVectorStore) -> None:
    guard = SufficiencyGuardRetriever(retriever=fake_store.as_retriever(search_kwargs={"k": 3}))
    for docs in (guard.invoke(SAMPLE_QUERY), asyncio.run(guard.ainvoke(SAMPLE_QUERY))):
        assert sorted(str(d.id) for d in docs) == ["CrPC_154_0", "IPC_415_0", "IPC_420_0"]
        info = docs[0].metadata[METADATA_KEY]
        assert set(info) == {"score", "level", "missing", "missing_terms", "retrieval_gate", "refused"}
        assert info["level"] == "sufficient"
        assert info["refused"] is False
        assert info["retrieval_gate"] is None  # a plain vector-store retriever gives no scores: the gate does not run
        assert all(d.metadata[METADATA_KEY] == info for d in docs)
        assert guard.last_result is not None
        assert guard.last_result.level is sc.Level.SUFFICIENT
        assert info["score"] == guard.last_result.score
        assert guard.last_decision is None
        assert guard.last_refusal is None
    stored = fake_store.get_by_ids(["IPC_420_0"])[0]
    assert METADATA_KEY not in stored.metadata  # the store's documents are not modified


def test_guard_raise_carries_the_result(fake_store: InMemoryVectorStore) -> None:
    guard = SufficiencyGuardRetriever(retriever=fake_store.as_retriever(search_kwargs={"k": 3}))
    for call in (
        lambda: guard.invoke(SAMPLE_OFF_TOPIC_QUERY),
        lambda: asyncio.run(guard.ainvoke(SAMPLE_OFF_TOPIC_QUERY)),
    ):
        with pytest.raises(InsufficientContextError, match=r"Refused 'What is the capital of France\?'") as info:
            call()
        error = info.value
        assert error.query == SAMPLE_OFF_TOPIC_QUERY
        assert error.result.level is sc.Level.INSUFFICIENT
        assert "france" in error.result.missing_terms
        assert error.decision is None
        assert error.reasons == ("insufficient",)
        assert len(error.documents) == 3
        assert all(d.metadata[METADATA_KEY]["refused"] for d in error.documents)
        assert guard.last_refusal is error
        assert guard.last_result is error.result
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error)
    assert copy.result == error.result


def test_guard_return_refusal_returns_nothing(fake_store: InMemoryVectorStore) -> None:
    guard = SufficiencyGuardRetriever(
        retriever=fake_store.as_retriever(search_kwargs={"k": 3}), on_insufficient="return_refusal"
    )
    assert guard.invoke(SAMPLE_OFF_TOPIC_QUERY) == []
    assert guard.last_refusal is not None
    assert guard.last_refusal.reasons == ("insufficient",)
    assert guard.last_result is guard.last_refusal.result
    assert len(guard.invoke(SAMPLE_QUERY)) == 3
    assert guard.last_refusal is None  # a call that was not refused clears it
    assert asyncio.run(guard.ainvoke(SAMPLE_OFF_TOPIC_QUERY)) == []
    assert guard.last_refusal is not None
    assert guard.last_refusal.result.level is sc.Level.INSUFFICIENT


def test_guard_passthrough_adds_metadata(fake_store: InMemoryVectorStore) -> None:
    guard = SufficiencyGuardRetriever(
        retriever=fake_store.as_retriever(search_kwargs={"k": 3}), on_insufficient="passthrough"
    )
    docs = guard.invoke(SAMPLE_OFF_TOPIC_QUERY)
    assert len(docs) == 3
    assert {d.metadata[METADATA_KEY]["level"] for d in docs} == {"insufficient"}
    assert {d.metadata[METADATA_KEY]["refused"] for d in docs} == {True}
    assert guard.last_refusal is not None  # what the guard would have refused
    batched = guard.batch([SAMPLE_QUERY, SAMPLE_OFF_TOPIC_QUERY])
    assert [b[0].metadata[METADATA_KEY]["refused"] for b in batched] == [False, True]
    abatched = asyncio.run(guard.abatch([SAMPLE_QUERY, SAMPLE_OFF_TOPIC_QUERY]))
    assert [b[0].metadata[METADATA_KEY]["level"] for b in abatched] == ["sufficient", "insufficient"]


def test_guard_gates_scored_documents(keyword_store: InMemoryVectorStore) -> None:
    scored = ScoredRetriever(store=keyword_store)
    # The context answers the question, but only one document reaches cosine 0.3: the gate says no_evidence.
    strict = SufficiencyGuardRetriever(retriever=scored, gate_min_score=0.3)
    with pytest.raises(InsufficientContextError, match="retrieval gate found no evidence") as info:
        strict.invoke(SAMPLE_QUERY)
    assert info.value.reasons == ("no_evidence",)
    assert info.value.result.level is sc.Level.SUFFICIENT
    assert info.value.decision is not None
    assert info.value.decision.outcome == "no_evidence"
    assert info.value.decision.passing_chunks == ["IPC_420_0"]  # the documents' own ids
    # Signed cosine thresholds, a weak band, and a disabled gate.
    lenient = SufficiencyGuardRetriever(retriever=scored, gate_min_score=0.1, gate_weak_score=0.5)
    docs = asyncio.run(lenient.ainvoke(SAMPLE_QUERY))
    assert docs[0].metadata[METADATA_KEY]["retrieval_gate"] == "weak_evidence"
    assert docs[0].metadata["score"] > 0.3  # the retriever's own score is kept
    assert lenient.last_decision is not None
    assert lenient.last_decision.min_score == 0.1
    negative = SufficiencyGuardRetriever(retriever=scored, gate_min_score=-0.5, gate_min_chunks=3)
    assert len(negative.invoke(SAMPLE_QUERY)) == 3
    disabled = SufficiencyGuardRetriever(
        retriever=scored, gate=sc.EvidenceSufficiencyGate(enabled=False), gate_min_score=0.3
    )
    assert len(disabled.invoke(SAMPLE_QUERY)) == 3
    assert disabled.last_decision is not None
    assert disabled.last_decision.would_outcome == "no_evidence"
    # Off topic: both the check and the gate refuse.
    with pytest.raises(InsufficientContextError) as off:
        lenient.invoke(SAMPLE_OFF_TOPIC_QUERY)
    assert off.value.reasons == ("insufficient", "no_evidence")


def test_guard_reads_the_score_under_score_key_and_survives_repeated_ids() -> None:
    ipc = statute_documents()[0]
    reranked = [ipc.model_copy(update={"metadata": {**ipc.metadata, "relevance_score": s}}) for s in (0.9, 0.8)]
    guard = SufficiencyGuardRetriever(
        retriever=StaticRetriever(documents=reranked), score_key="relevance_score", gate_min_chunks=1
    )
    docs = guard.invoke(SAMPLE_QUERY)  # the same document twice: both returned, checked as S1, S2
    assert [d.id for d in docs] == ["IPC_420_0", "IPC_420_0"]
    assert guard.last_decision is not None
    assert guard.last_decision.max_score == 0.9
    assert guard.last_decision.passing_chunks == ["S1"]  # but one document to the gate, at its first score
    # So it cannot make up min_chunks=2 alone (it did: a merged retrieval's copy passed the gate).
    twice = SufficiencyGuardRetriever(retriever=StaticRetriever(documents=reranked), score_key="relevance_score")
    with pytest.raises(InsufficientContextError) as copy:
        twice.invoke(SAMPLE_QUERY)
    assert "no_evidence" in copy.value.reasons
    assert twice.last_decision is not None
    assert twice.last_decision.chunk_count == 1
    other = statute_documents()[1].model_copy(update={"metadata": {"relevance_score": 0.7}})
    pair = SufficiencyGuardRetriever(
        retriever=StaticRetriever(documents=[*reranked, other]), score_key="relevance_score"
    )
    pair.invoke(SAMPLE_QUERY)
    assert pair.last_decision is not None
    assert pair.last_decision.chunk_count == 2
    mixed = [reranked[0], ipc]  # only some documents scored: not gated
    guard_mixed = SufficiencyGuardRetriever(retriever=StaticRetriever(documents=mixed), score_key="relevance_score")
    assert len(guard_mixed.invoke(SAMPLE_QUERY)) == 2
    assert guard_mixed.last_decision is None
    with pytest.raises(InsufficientContextError) as info:  # nothing retrieved: the gate's "no chunks"
        SufficiencyGuardRetriever(retriever=StaticRetriever(documents=[])).invoke(SAMPLE_QUERY)
    assert info.value.reasons == ("insufficient", "no_evidence")


def test_guard_caps_k_and_passes_invoke_arguments_on(fake_store: InMemoryVectorStore) -> None:
    inner = fake_store.as_retriever(search_kwargs={"k": 3})
    capped = SufficiencyGuardRetriever(retriever=inner, k=2, on_insufficient="passthrough")
    assert len(capped.invoke(SAMPLE_QUERY)) == 2
    assert len(capped.invoke(SAMPLE_QUERY, k=1)) == 1  # the kwarg reaches the vector store as well
    with pytest.raises(ValueError, match="k must be an int >= 1"):
        capped.invoke(SAMPLE_QUERY, k=0)


@pytest.mark.parametrize(
    "settings",
    [
        {"on_insufficient": "explode"},
        {"gate_min_chunks": 0},
        {"gate_min_score": math.nan},
        {"k": 0},
        {"checker": "strict"},
    ],
)
def test_guard_validates_its_settings(fake_store: InMemoryVectorStore, settings: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        SufficiencyGuardRetriever(retriever=fake_store.as_retriever(), **settings)


def test_guard_composes_in_lcel(fake_store: InMemoryVectorStore) -> None:
    guard = SufficiencyGuardRetriever(retriever=fake_store.as_retriever(search_kwargs={"k": 3}))
    chain = guard | RunnableLambda(sc.format_context)
    context = chain.invoke(SAMPLE_QUERY)
    assert "[IPC_420_0] Source: statutes/ipc.pdf | Page: 112" in context
    assert asyncio.run(chain.ainvoke(SAMPLE_QUERY)) == context
    with pytest.raises(InsufficientContextError):
        chain.invoke(SAMPLE_OFF_TOPIC_QUERY)


_STANDARD_TEXTS = (
    "Section 420: whoever commits cheating shall be punished with imprisonment up to seven years and a fine.",
    "The punishment for cheating under Section 420 is imprisonment of up to seven years and a fine.",
    "Cheating under Section 420 is punished with up to seven years of imprisonment and also a fine.",
    "Under Section 420 the punishment for cheating is imprisonment for up to seven years, and a fine.",
)


# The suite's one async test needs pytest-asyncio's mark; in strict mode the mark on the class also reaches the sync
# tests, and pytest-asyncio warns about exactly that.
@pytest.mark.asyncio
@pytest.mark.filterwarnings(
    "ignore:The test <Function test_[a-zA-Z_]*> is marked with '@pytest.mark.asyncio' but it is not an async "
    "function:pytest.PytestWarning"
)
class TestGuardRetrieverStandardSuite(RetrieversIntegrationTests):
    """LangChain's standard retriever tests, in the default "raise" mode (every document answers the query)."""

    @property
    def retriever_constructor(self) -> type[SufficiencyGuardRetriever]:
        return SufficiencyGuardRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        store = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
        store.add_documents([Document(page_content=t) for t in _STANDARD_TEXTS])
        return {"retriever": store.as_retriever(search_kwargs={"k": 4})}

    @property
    def retriever_query_example(self) -> str:
        return "What is the punishment for cheating under Section 420?"


# -- EvidenceGateCompressor ------------------------------------------------------------------------------------------
COMPRESSOR_VECTORS = {
    "query": [1.0, 0.0, 0.0],
    "same": [2.0, 0.0, 0.0],  # cosine 1
    "close": [1.0, 1.0, 0.0],  # 0.7071
    "orthogonal": [0.0, 3.0, 0.0],  # 0
    "opposite": [-1.0, 0.2, 0.0],  # -0.9806
    "zero": [0.0, 0.0, 0.0],  # 0 by definition
}
COMPRESSOR_DOCS = [Document(page_content=t, id=t) for t in ("opposite", "close", "zero", "same", "orthogonal")]


def _reference_cosine(name: str) -> float:
    q, v = np.array(COMPRESSOR_VECTORS["query"]), np.array(COMPRESSOR_VECTORS[name])
    norm = float(np.linalg.norm(q) * np.linalg.norm(v))
    return float(q @ v) / norm if norm else 0.0


@pytest.mark.parametrize(
    ("threshold", "min_chunks", "kept"),
    [
        (0.5, 1, ["close", "same"]),
        (0.0, 1, ["close", "zero", "same", "orthogonal"]),  # >=: cosine 0 reaches threshold 0
        (-0.99, 1, ["opposite", "close", "zero", "same", "orthogonal"]),  # a signed threshold
        (0.99, 1, ["same"]),
        (0.5, 2, ["close", "same"]),
        (0.5, 3, []),  # fewer than min_chunks reach the threshold: nothing
        (1.0, 1, ["same"]),
    ],
)
def test_compressor_keeps_documents_reaching_the_threshold(threshold: float, min_chunks: int, kept: list[str]) -> None:
    embeddings = FixedEmbeddings(COMPRESSOR_VECTORS)
    compressor = EvidenceGateCompressor(embeddings=embeddings, similarity_threshold=threshold, min_chunks=min_chunks)
    for out in (
        compressor.compress_documents(COMPRESSOR_DOCS, "query"),
        asyncio.run(compressor.acompress_documents(COMPRESSOR_DOCS, "query")),
    ):
        assert [d.page_content for d in out] == kept  # input order
        for doc in out:
            assert doc.metadata["similarity"] == pytest.approx(_reference_cosine(doc.page_content), abs=1e-6)
            assert isinstance(doc.metadata["similarity"], float)
    assert embeddings.calls == 4  # one query call and one documents call per compression
    assert all("similarity" not in d.metadata for d in COMPRESSOR_DOCS)  # copies, not the inputs


def test_compressor_keeps_the_cosine_of_vectors_float32_would_flush_to_zero() -> None:
    # A model's vectors of magnitude 1e-50 were cast to float32 (all zeros): cosine 0, and the document was dropped.
    tiny = {name: [v * 1e-50 for v in vector] for name, vector in COMPRESSOR_VECTORS.items()}
    compressor = EvidenceGateCompressor(embeddings=FixedEmbeddings(tiny), similarity_threshold=0.5)
    kept = compressor.compress_documents(COMPRESSOR_DOCS, "query")
    assert [d.page_content for d in kept] == ["close", "same"]
    for doc in kept:
        assert doc.metadata["similarity"] == pytest.approx(_reference_cosine(doc.page_content), abs=1e-6)


def test_compressor_edge_cases() -> None:
    embeddings = FixedEmbeddings(COMPRESSOR_VECTORS)
    compressor = EvidenceGateCompressor(embeddings=embeddings, similarity_threshold=0.5)
    assert compressor.compress_documents([], "query") == []
    assert asyncio.run(compressor.acompress_documents([], "query")) == []
    assert embeddings.calls == 0  # nothing to compare: no embedding call

    class Short(FixedEmbeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return super().embed_documents(texts)[:-1]

    with pytest.raises(ValueError, match="returned 1 vectors for 2 documents"):
        EvidenceGateCompressor(embeddings=Short(COMPRESSOR_VECTORS), similarity_threshold=0.5).compress_documents(
            COMPRESSOR_DOCS[:2], "query"
        )
    for bad in (
        {"similarity_threshold": 1.5},
        {"similarity_threshold": math.nan},
        {"similarity_threshold": 0.5, "min_chunks": 0},
        {},
    ):
        with pytest.raises(ValidationError):
            EvidenceGateCompressor(embeddings=embeddings, **bad)


def test_compressor_feeds_the_guard_through_score_key(keyword_store: InMemoryVectorStore) -> None:
    compressor = EvidenceGateCompressor(embeddings=KeywordEmbeddings(), similarity_threshold=0.15)

    class Compressed(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
            found = keyword_store.similarity_search(query, k=3)
            return list(compressor.compress_documents(found, query))

    guard = SufficiencyGuardRetriever(retriever=Compressed(), score_key="similarity", gate_min_score=0.15)
    docs = guard.invoke(SAMPLE_QUERY)
    assert [d.id for d in docs] == ["IPC_420_0", "IPC_415_0"]
    assert guard.last_decision is not None
    assert guard.last_decision.max_score == pytest.approx(docs[0].metadata["similarity"])


# -- claim_validator -------------------------------------------------------------------------------------------------
def test_claim_validator_strips_unsupported_sentences() -> None:
    docs = statute_documents()
    validator = claim_validator()
    stripped = validator.invoke({"answer": SAMPLE_ANSWER, "documents": docs})
    assert "seven years" in stripped
    assert "bailable" not in stripped
    assert stripped.startswith("Based on the retrieved documents")  # the meta sentence stays
    assert validator.invoke({"answer": AIMessage(content=SAMPLE_ANSWER), "context": docs}) == stripped
    assert asyncio.run(validator.ainvoke({"answer": SAMPLE_ANSWER, "context": docs})) == stripped
    assert validator.batch([{"answer": SAMPLE_ANSWER, "documents": docs}] * 2) == [stripped, stripped]
    scored = [(d, 0.5) for d in docs]  # (Document, score) pairs, as similarity_search_with_score gives them
    assert validator.invoke({"answer": SAMPLE_ANSWER, "documents": scored}) == stripped


def test_claim_validator_report_bound_documents_and_relabel() -> None:
    docs = statute_documents()
    report = claim_validator(strip_unsupported=False, documents=docs).invoke(AIMessage(content=SAMPLE_ANSWER))
    assert isinstance(report, sc.AnswerCoverage)
    assert not report.is_grounded
    assert [c.sentence for c in report.uncovered] == [SAMPLE_ANSWER.split(". ", 2)[2]]
    labelled_answer = f"{SUPPORTED} {UNSUPPORTED}"
    relabelled = claim_validator(documents=docs, relabel=True)
    assert relabelled.invoke(labelled_answer) == SUPPORTED
    assert asyncio.run(relabelled.ainvoke(AIMessage(content=labelled_answer))) == SUPPORTED
    # Content blocks, as some chat models return them.
    blocks = AIMessage(content=[{"type": "text", "text": labelled_answer}])
    assert relabelled.invoke(blocks) == SUPPORTED
    # Without relabelling, [S1] names no document (their ids are IPC_420_0, ...): nothing is supported.
    assert claim_validator(documents=docs).invoke(labelled_answer) == ""


def test_claim_validator_refuses_unusable_input() -> None:
    docs = statute_documents()
    with pytest.raises(TypeError, match="not the formatted context"):
        claim_validator().invoke({"answer": SUPPORTED, "context": sc.format_context(docs)})
    with pytest.raises(KeyError, match="needs the documents"):
        claim_validator().invoke({"answer": SUPPORTED})
    with pytest.raises(KeyError, match="needs an 'answer' key"):
        claim_validator(documents=docs).invoke({"text": SUPPORTED})
    with pytest.raises(TypeError, match="without documents"):
        claim_validator().invoke(SUPPORTED)
    with pytest.raises(TypeError, match="must be a str or a message"):
        claim_validator(documents=docs).invoke(42)
    with pytest.raises(TypeError, match="coverage must be a ClaimCoverage"):
        claim_validator(coverage="strict")


def test_chain_pipe_claim_validator_strips_the_unsupported_sentence(fake_store: InMemoryVectorStore) -> None:
    prompt = ChatPromptTemplate.from_messages([("system", "Context:\n{context}"), ("human", "{question}")])
    docs = [d.model_copy(update={"id": f"S{i}"}) for i, d in enumerate(statute_documents(), start=1)]
    inputs = {"context": sc.format_context(docs), "question": SAMPLE_QUERY}
    answer = f"{SUPPORTED} {UNSUPPORTED}"
    # The documents bound to the validator: chain | claim_validator(documents=...).
    chain = prompt | fake_model(answer, answer) | claim_validator(documents=docs)
    assert chain.invoke(inputs) == SUPPORTED
    assert asyncio.run(chain.ainvoke(inputs)) == SUPPORTED
    # The documents travelling with the answer, from the retriever in the same chain.
    retriever = fake_store.as_retriever(search_kwargs={"k": 3})
    rag = (
        RunnablePassthrough.assign(documents=itemgetter("question") | retriever)
        | RunnableParallel(
            answer=RunnableLambda(lambda x: {"context": sc.format_context(x["documents"]), "question": x["question"]})
            | prompt
            | fake_model(SAMPLE_ANSWER),
            documents=itemgetter("documents"),
        )
        | claim_validator()
    )
    out = rag.invoke({"question": SAMPLE_QUERY})
    assert "seven years" in out
    assert "bailable" not in out


# -- GroundedAnswererRunnable ----------------------------------------------------------------------------------------
def test_answerer_runnable_answers_from_given_documents() -> None:
    scored = [(d, s) for d, s in zip(statute_documents(), (0.83, 0.61, 0.22))]
    runnable = GroundedAnswererRunnable()
    result = runnable.invoke({"query": SAMPLE_QUERY, "documents": scored})
    assert isinstance(result, sc.GroundedAnswer)
    assert result.status == "answered"
    assert "seven years" in result.answer
    assert result.sources[0]["id"] == "IPC_420_0"
    again = asyncio.run(runnable.ainvoke({"question": SAMPLE_QUERY, "context": scored}))
    assert (again.status, again.answer) == (result.status, result.answer)
    assert [r.status for r in runnable.batch([{"query": SAMPLE_QUERY, "documents": scored}] * 2)] == ["answered"] * 2
    with pytest.raises(ValueError, match="give GroundedAnswererRunnable a retriever"):
        runnable.invoke(SAMPLE_QUERY)
    with pytest.raises(KeyError, match="needs a 'query'"):
        runnable.invoke({"documents": scored})
    with pytest.raises(TypeError, match="input must be a query str or a mapping"):
        runnable.invoke(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="answerer must be a GroundedAnswerer"):
        GroundedAnswererRunnable("answerer")  # type: ignore[arg-type]


def test_answerer_runnable_retrieves_and_calls_the_chat_model(keyword_store: InMemoryVectorStore) -> None:
    answer = f"{SUPPORTED} {UNSUPPORTED}"
    for run in ("sync", "async"):
        runnable = GroundedAnswererRunnable(
            sc.GroundedAnswerer(min_score=0.1), retriever=ScoredRetriever(store=keyword_store), llm=fake_model(answer)
        )
        if run == "sync":
            result = runnable.invoke(SAMPLE_QUERY)
        else:
            result = asyncio.run(runnable.ainvoke({"query": SAMPLE_QUERY}))
        assert result.status == "answered", run
        assert result.answer == SUPPORTED
        assert result.removed_sentences == (UNSUPPORTED,)
        assert result.checks["generator"] == "langchain"
        assert result.sources[0]["id"] == "IPC_420_0"


def test_answerer_runnable_behind_a_guard_refuses_before_the_model(fake_store: InMemoryVectorStore) -> None:
    answers = iter([SUPPORTED])
    model = GenericFakeChatModel(messages=answers)
    retriever = fake_store.as_retriever(search_kwargs={"k": 3})
    refusing = GroundedAnswererRunnable(
        retriever=SufficiencyGuardRetriever(retriever=retriever, on_insufficient="return_refusal"), llm=model
    )
    result = refusing.invoke(SAMPLE_OFF_TOPIC_QUERY)
    assert result.status == "no_evidence"
    assert result.refused
    raising = GroundedAnswererRunnable(retriever=SufficiencyGuardRetriever(retriever=retriever), llm=model)
    with pytest.raises(InsufficientContextError):
        asyncio.run(raising.ainvoke(SAMPLE_OFF_TOPIC_QUERY))
    assert next(answers) == SUPPORTED  # the model was never called


class _Recorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.llm_parents: list[UUID | None] = []
        self.chains: dict[UUID, str] = {}

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self.chains[run_id] = str(kwargs.get("name"))

    def on_llm_end(
        self, response: LLMResult, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        self.llm_parents.append(parent_run_id)


def test_answerer_runnable_passes_its_callbacks_to_the_model(keyword_store: InMemoryVectorStore) -> None:
    recorder = _Recorder()
    runnable = GroundedAnswererRunnable(
        sc.GroundedAnswerer(min_score=0.1), retriever=ScoredRetriever(store=keyword_store), llm=fake_model(SUPPORTED)
    )
    runnable.invoke(SAMPLE_QUERY, config={"callbacks": [recorder]})
    assert len(recorder.llm_parents) == 1
    parent = recorder.llm_parents[0]
    assert parent is not None
    assert recorder.chains[parent] == "GroundedAnswerer"  # the model's run is nested under the pipeline's


# -- SufficiencyCallbackHandler --------------------------------------------------------------------------------------
def test_callback_handler_feeds_stats_and_the_query_log(fake_store: InMemoryVectorStore, tmp_path: Path) -> None:
    log = sc.QueryLog(tmp_path / "queries.sqlite")
    handler = SufficiencyCallbackHandler(query_log=log)
    guard = SufficiencyGuardRetriever(
        retriever=fake_store.as_retriever(search_kwargs={"k": 3}), on_insufficient="passthrough"
    )
    guard.invoke(SAMPLE_QUERY, config={"callbacks": [handler]})
    asyncio.run(guard.ainvoke(SAMPLE_OFF_TOPIC_QUERY, config={"callbacks": [handler]}))
    stats = handler.stats.get_stats()
    assert stats["total_checks"] == 2  # the guard and its inner retriever make one retrieval each time
    assert (stats["sufficient"], stats["insufficient"]) == (1, 1)
    assert handler.last_query == SAMPLE_OFF_TOPIC_QUERY
    assert handler.last_result is not None
    assert handler.last_result.level is sc.Level.INSUFFICIENT
    rows = log.rows()
    assert [(r["question"], r["decision"]) for r in rows] == [
        (SAMPLE_QUERY, "sufficient"),
        (SAMPLE_OFF_TOPIC_QUERY, "insufficient"),
    ]
    assert sorted(c["id"] for c in rows[0]["chunks"]) == ["CrPC_154_0", "IPC_415_0", "IPC_420_0"]
    assert handler.errors == []
    log.close()


def test_callback_handler_in_an_lcel_chain(fake_store: InMemoryVectorStore) -> None:
    stats = sc.SufficiencyStats()
    handler = SufficiencyCallbackHandler(stats=stats)
    prompt = ChatPromptTemplate.from_messages([("system", "{context}"), ("human", "{question}")])
    chain = (
        {
            "context": fake_store.as_retriever(search_kwargs={"k": 3}) | sc.format_context,
            "question": RunnablePassthrough(),
        }
        | prompt
        | fake_model("One.", "Two.")
    )
    assert chain.invoke(SAMPLE_QUERY, config={"callbacks": [handler]}).content == "One."
    assert asyncio.run(chain.ainvoke(SAMPLE_QUERY, config={"callbacks": [handler]})).content == "Two."
    assert stats.get_stats()["total_checks"] == 2
    assert stats.get_stats()["sufficient"] == 2
    # A refusing guard: its inner retrieval is recorded, and no run is left pending.
    guard = SufficiencyGuardRetriever(retriever=fake_store.as_retriever(search_kwargs={"k": 3}))
    with pytest.raises(InsufficientContextError):
        guard.invoke(SAMPLE_OFF_TOPIC_QUERY, config={"callbacks": [handler]})
    assert stats.get_stats()["insufficient"] == 1
    assert handler._runs == {}
    assert handler.errors == []


def test_callback_handler_keeps_errors_and_never_breaks_the_chain(fake_store: InMemoryVectorStore) -> None:
    class BrokenLog:
        def record(self, *args: Any) -> int:
            raise RuntimeError("disk full")

    handler = SufficiencyCallbackHandler(query_log=BrokenLog())
    retriever = fake_store.as_retriever(search_kwargs={"k": 3})
    docs = retriever.invoke(SAMPLE_QUERY, config={"callbacks": [handler]})
    assert len(docs) == 3
    assert [str(e) for e in handler.errors] == ["disk full"]
    assert handler.stats.get_stats()["total_checks"] == 1  # recorded before the log failed
    blank = SufficiencyCallbackHandler()
    retriever.invoke("   ", config={"callbacks": [blank]})  # a blank query cannot be checked
    assert len(blank.errors) == 1
    assert isinstance(blank.errors[0], ValueError)
    with pytest.raises(TypeError, match="checker must be a SufficientContextChecker"):
        SufficiencyCallbackHandler(checker="strict")  # type: ignore[arg-type]


# -- the example -----------------------------------------------------------------------------------------------------
def test_example_langchain_rag_runs_offline() -> None:
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, str(REPO / "examples" / "langchain_rag.py")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "[answered] sufficiency sufficient" in out
    assert f"Answer:\n{SUPPORTED}\n" in out
    assert "- [S1] ipc.pdf, Section 420, p. 112" in out
    assert "Removed as unsupported: The offence is bailable [S1]." in out
    assert f"LCEL chain, validated answer: {SUPPORTED}" in out
    assert "[no_evidence] No supporting documentation found in indexed sources." in out
    assert "Refused by the guard: Refused 'What is the capital of France?'" in out
    assert "Retrievals checked: 2 | monitor errors: 0" in out


ANSWER_TEXT = (
    "Whoever cheats and thereby dishonestly induces the person deceived to deliver any property shall be punished "
    "with imprisonment of either description for a term which may extend to seven years, and shall also be liable "
    "to fine."
)


def test_message_text_blocks_are_separate_sentences_so_an_unsupported_block_is_removed() -> None:
    cited = (
        "Whoever cheats and dishonestly induces the person deceived to deliver any property shall be punished with "
        "imprisonment for a term which may extend to seven years [a]."
    )
    message = AIMessage(content=[{"type": "text", "text": cited}, {"type": "text", "text": "The accused is hanged."}])
    docs = [Document(ANSWER_TEXT, id="a")]
    assert claim_validator().invoke({"answer": message, "documents": docs}) == cited
    report = claim_validator(strip_unsupported=False).invoke({"answer": message, "documents": docs})
    assert report.claim_count == 2
    assert report.is_grounded is False
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    content=[
                        {"type": "text", "text": cited.replace("[a]", "[S1]")},
                        {"type": "text", "text": "The accused is hanged."},
                    ]
                )
            ]
        )
    )
    envelope = GroundedAnswererRunnable(llm=model).invoke(
        {
            "query": "What is the punishment for cheating?",
            "documents": [
                Document(ANSWER_TEXT, metadata={"score": 0.9}),
                Document(ANSWER_TEXT + " Also.", metadata={"score": 0.8}),
            ],
        }
    )
    assert "hanged" not in envelope.answer


def test_an_answer_with_no_word_is_not_grounded() -> None:
    docs = [Document(ANSWER_TEXT, id="a")]
    validator = claim_validator(strip_unsupported=False)
    tool_call = AIMessage(content="", tool_calls=[{"name": "f", "args": {}, "id": "1"}])
    for answer in ("", "[a]", "[a] [a].", tool_call):
        assert validator.invoke({"answer": answer, "documents": docs}).is_grounded is False
    assert validator.invoke({"answer": "Cheats may get seven years [a].", "documents": docs}).claim_count == 1


def test_compressor_names_embeddings_a_float32_cast_would_change() -> None:
    docs = [Document("a"), Document("b")]
    for query, vectors in (
        (["1", "0"], [["1", "0"], ["0", "1"]]),
        ([True, False], [[True, False], [False, True]]),
        ([1 + 1j, 0], [[1, 0], [0, 1]]),
        ([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0, 2.0]]),
    ):
        compressor = EvidenceGateCompressor(
            embeddings=FixedEmbeddings({"q": query, "a": vectors[0], "b": vectors[1]}), similarity_threshold=0.5
        )
        with pytest.raises(TypeError, match=r"embeddings\.embed_(query|documents)"):
            compressor.compress_documents(docs, "q")
    with pytest.raises(TypeError, match=r"documents\[0\] must be a Document"):
        compressor.compress_documents(["a", "b"], "q")  # type: ignore[list-item]


def test_guard_names_what_is_not_a_document_and_reads_missing_metadata_as_none() -> None:
    for junk in (["text"], [None]):
        guard = SufficiencyGuardRetriever(retriever=StaticRetriever.model_construct(documents=junk))
        with pytest.raises(TypeError, match=r"retriever's result\[0\] must be a Document"):
            guard.invoke("What is the punishment for cheating?")
    bare = Document.model_construct(page_content=ANSWER_TEXT, metadata=None, id=None)
    guard = SufficiencyGuardRetriever(
        retriever=StaticRetriever.model_construct(documents=[bare]), on_insufficient="passthrough"
    )
    (out,) = guard.invoke("What is the punishment for cheating?")
    assert out.metadata[METADATA_KEY]["level"] in {"sufficient", "partial", "insufficient"}
