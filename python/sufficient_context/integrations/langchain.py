"""LangChain components over the three checks, built on ``langchain-core`` only.

``pip install 'sufficient-context[langchain]'``, then ``from sufficient_context.integrations.langchain import ...``:

- :class:`SufficiencyGuardRetriever`: wraps any retriever; checks what it returned (sufficiency check, plus the
  retrieval gate when the documents carry scores) and raises :class:`InsufficientContextError`, returns ``[]`` or
  passes the documents through, each annotated with ``metadata["sufficiency"]``.
- :class:`EvidenceGateCompressor`: a ``BaseDocumentCompressor`` keeping the documents whose cosine with the query
  reaches a threshold, and nothing unless at least ``min_chunks`` do (a deterministic ``EmbeddingsFilter``).
- :func:`claim_validator`: a Runnable for ``chain | claim_validator(...)`` that removes the answer's sentences the
  documents do not support (or returns the `AnswerCoverage` report).
- :class:`GroundedAnswererRunnable`: the whole `GroundedAnswerer` pipeline as a Runnable (query -> `GroundedAnswer`).
- :class:`SufficiencyCallbackHandler`: records a sufficiency check of every retrieval in `SufficiencyStats` and,
  optionally, a `QueryLog`, from ``config={"callbacks": [handler]}``; it never changes what the chain does.

Every component has a sync and an async path (``invoke`` / ``ainvoke``, ``compress_documents`` /
``acompress_documents``). The checks themselves run in C++ and take well under a millisecond for a few chunks, so the
async paths call them inline; only the wrapped retriever, embeddings and chat model are awaited.
"""

from __future__ import annotations

import numbers
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Optional, Union, overload
from uuid import UUID

import numpy as np

try:
    from langchain_core.callbacks import (
        AsyncCallbackManagerForChainRun,
        AsyncCallbackManagerForRetrieverRun,
        BaseCallbackHandler,
        CallbackManagerForChainRun,
        CallbackManagerForRetrieverRun,
        Callbacks,
    )
    from langchain_core.documents import BaseDocumentCompressor, Document
    from langchain_core.embeddings import Embeddings
    from langchain_core.messages import BaseMessage
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
    from langchain_core.runnables.config import patch_config, run_in_executor
    from pydantic import ConfigDict, Field, PrivateAttr
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "sufficient_context.integrations.langchain needs langchain-core: pip install 'sufficient-context[langchain]'"
    ) from exc

from .._args import list_of, real_array
from ..checker import Level, SufficiencyResult, SufficientContextChecker
from ..chunks import ChunkLike, as_chunks
from ..claims import AnswerCoverage, ClaimCoverage, says_nothing
from ..gate import EvidenceSufficiencyGate, RetrievalDecision, evaluate_retrieval
from ..pipeline import GroundedAnswer, GroundedAnswerer
from ..similarity import cosine_many
from ..stats import SufficiencyStats

__all__ = [
    "METADATA_KEY",
    "EvidenceGateCompressor",
    "GroundedAnswererRunnable",
    "InsufficientContextError",
    "SufficiencyCallbackHandler",
    "SufficiencyGuardRetriever",
    "claim_validator",
]

METADATA_KEY = "sufficiency"
"""The metadata key under which `SufficiencyGuardRetriever` annotates each document it returns."""

Validated = Union[str, AnswerCoverage]
"""What `claim_validator` returns: the filtered answer, or the `AnswerCoverage` report."""

_ANSWER_KEY = "answer"
_DOCUMENT_KEYS = ("documents", "context")
_QUERY_KEYS = ("query", "question")


# ---------------------------------------------------------------------------------------------------------------------
# The guard retriever
# ---------------------------------------------------------------------------------------------------------------------
class InsufficientContextError(Exception):
    """A `SufficiencyGuardRetriever` refused what its retriever returned.

    Raised with ``on_insufficient="raise"``; with ``"return_refusal"`` and ``"passthrough"`` the same object is kept,
    unraised, on the guard's ``last_refusal``.

    Attributes
    ----------
    query : str
    result : SufficiencyResult
        The sufficiency check of the retrieved documents (always present, also when the gate refused).
    decision : RetrievalDecision or None
        The retrieval gate's decision; None when the documents carry no scores (the gate did not run).
    documents : list of Document
        The retrieved documents, annotated with ``metadata["sufficiency"]``.
    reasons : tuple of str
        ``"insufficient"`` (the check's level) and/or ``"no_evidence"`` (the gate's outcome).
    """

    def __init__(
        self,
        query: str,
        result: SufficiencyResult,
        decision: RetrievalDecision | None,
        documents: Sequence[Document] = (),
    ) -> None:
        self.query = query
        self.result = result
        self.decision = decision
        self.documents = list(documents)
        reasons = []
        parts = []
        if result.level is Level.INSUFFICIENT:
            reasons.append("insufficient")
            missing = ", ".join(result.missing_terms[:5]) or "; ".join(result.missing_aspects[:2]) or "unknown"
            parts.append(
                f"the retrieved context is insufficient (score {result.score:.2f}, {len(self.documents)} document(s); "
                f"missing: {missing})"
            )
        if decision is not None and decision.outcome == "no_evidence":
            reasons.append("no_evidence")
            parts.append(f"the retrieval gate found no evidence ({decision.reason.rstrip('.')})")
        self.reasons = tuple(reasons)
        super().__init__(f"Refused {query!r}: " + "; ".join(parts or ["no reason recorded"]))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.query, self.result, self.decision, self.documents))


class SufficiencyGuardRetriever(BaseRetriever):
    """A retriever that checks what another retriever returned before anything is generated from it.

    Each call runs the wrapped `retriever` (its callbacks nested under this run; extra ``invoke`` keyword arguments,
    such as ``k``, are passed on to it), keeps at most `k` documents, then:

    1. the retrieval gate (``sc.evaluate_retrieval``, or `gate`'s) on the documents' scores, when every document
       carries one in ``metadata[score_key]`` (no documents at all: "no_evidence"). Documents without scores, or with
       only some scored, are not gated: the decision is None;
    2. the sufficiency check (``checker.check_sufficiency(query, documents)``).

    The call is refused when the check's level is "insufficient" or the gate's outcome is "no_evidence". Every
    returned document is a copy carrying ``metadata["sufficiency"] = {"score", "level", "missing" (the missing
    aspects), "missing_terms", "retrieval_gate" (the gate's outcome, or None), "refused"}`` (the keys of the LlamaIndex
    postprocessor's verdict, plus "refused"); the wrapped retriever's documents are not modified. Then, by
    `on_insufficient`:

    - ``"raise"`` (default): a refused call raises `InsufficientContextError` (``.result``, ``.decision``);
    - ``"return_refusal"``: a refused call returns ``[]``;
    - ``"passthrough"``: every call returns the annotated documents (read ``metadata["sufficiency"]["refused"]``).

    ``last_result``, ``last_decision`` and ``last_refusal`` (the `InsufficientContextError`, raised or not; None
    after a call that was not refused) describe the latest call on this object. Concurrent calls (``batch``, several
    threads) overwrite them in turn: read each call's own verdict from its documents' metadata, or use
    `SufficiencyCallbackHandler`.

    Parameters
    ----------
    retriever : BaseRetriever
    checker : SufficientContextChecker
        Default ``SufficientContextChecker()``. Its policy flags (``decline_insufficient``) are not read: the guard's
        policy is `on_insufficient`.
    gate : EvidenceSufficiencyGate, optional
        Its ``evaluate_retrieval`` is used (so a disabled gate lets everything through); default: the plain gate.
    gate_min_score, gate_min_chunks, gate_weak_score
        The gate's settings: refuse unless at least `gate_min_chunks` documents score >= `gate_min_score` (any finite
        number: signed cosines are fine); a best score under `gate_weak_score` is "weak_evidence" (not a refusal).
    on_insufficient : {"raise", "return_refusal", "passthrough"}
    k : int, optional
        Keep at most the first `k` documents (a ``k`` passed to ``invoke`` overrides it and is also passed on).
    score_key : str
        The metadata key holding each document's retrieval score ("score"; e.g. "similarity" behind an
        `EvidenceGateCompressor`, "relevance_score" behind a reranker).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    retriever: BaseRetriever
    checker: SufficientContextChecker = Field(default_factory=SufficientContextChecker)
    # Optional[...]: pydantic evaluates these annotations at runtime, and `X | None` fails on Python 3.9.
    gate: Optional[EvidenceSufficiencyGate] = None  # noqa: UP045
    gate_min_score: float = Field(default=0.2, allow_inf_nan=False)
    gate_min_chunks: int = Field(default=2, ge=1)
    gate_weak_score: Optional[float] = Field(default=None, allow_inf_nan=False)  # noqa: UP045
    on_insufficient: Literal["raise", "return_refusal", "passthrough"] = "raise"
    k: Optional[int] = Field(default=None, ge=1)  # noqa: UP045
    score_key: str = "score"

    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _last_result: Optional[SufficiencyResult] = PrivateAttr(default=None)  # noqa: UP045
    _last_decision: Optional[RetrievalDecision] = PrivateAttr(default=None)  # noqa: UP045
    _last_refusal: Optional[InsufficientContextError] = PrivateAttr(default=None)  # noqa: UP045

    @property
    def last_result(self) -> SufficiencyResult | None:
        """The sufficiency check of the latest call (None before any)."""
        return self._last_result

    @property
    def last_decision(self) -> RetrievalDecision | None:
        """The retrieval gate's decision in the latest call (None before any, or when the documents had no scores)."""
        return self._last_decision

    @property
    def last_refusal(self) -> InsufficientContextError | None:
        """The refusal of the latest call, raised or not (None when it was not refused)."""
        return self._last_refusal

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        documents = self.retriever.invoke(query, config={"callbacks": run_manager.get_child()}, **kwargs)
        return self._guard(query, documents, kwargs.get("k", self.k))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        documents = await self.retriever.ainvoke(query, config={"callbacks": run_manager.get_child()}, **kwargs)
        return self._guard(query, documents, kwargs.get("k", self.k))

    def _guard(self, query: str, documents: Sequence[Document], k: Any) -> list[Document]:
        docs = _documents(documents, "the wrapped retriever's result")
        if k is not None:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise ValueError(f"k must be an int >= 1; got {k!r}")
            docs = docs[:k]
        checkable = _checkable(docs, self.score_key)
        decision: RetrievalDecision | None = None
        if all(_has_score(d, self.score_key) for d in docs):
            gate = self.gate.evaluate_retrieval if self.gate is not None else evaluate_retrieval
            decision = gate(_distinct(docs, checkable), self.gate_min_score, self.gate_min_chunks, self.gate_weak_score)
        result = self.checker.check_sufficiency(query, checkable)
        refused = result.level is Level.INSUFFICIENT or (decision is not None and decision.outcome == "no_evidence")
        info = _sufficiency_metadata(result, decision, refused)
        annotated = [_with_metadata(d, {**_metadata(d), METADATA_KEY: dict(info)}) for d in docs]
        refusal = InsufficientContextError(query, result, decision, annotated) if refused else None
        with self._lock:
            self._last_result, self._last_decision, self._last_refusal = result, decision, refusal
        if refusal is not None:
            if self.on_insufficient == "raise":
                raise refusal
            if self.on_insufficient == "return_refusal":
                return []
        return annotated


def _sufficiency_metadata(
    result: SufficiencyResult, decision: RetrievalDecision | None, refused: bool
) -> dict[str, Any]:
    return {
        "score": result.score,
        "level": result.level.value,
        "missing": list(result.missing_aspects),
        "missing_terms": list(result.missing_terms),
        "retrieval_gate": None if decision is None else decision.outcome,
        "refused": refused,
    }


def _with_metadata(document: Document, metadata: dict[str, Any]) -> Document:
    """A copy of `document` with `metadata`. A plain Document is rebuilt (6x faster than ``model_copy``, which
    subclasses of Document still get, so that their own fields survive)."""
    if type(document) is Document:
        return Document(page_content=document.page_content, metadata=metadata, id=document.id)
    return document.model_copy(update={"metadata": metadata})


def _documents(value: Any, name: str) -> list[Document]:
    """`value` as a list of Documents; TypeError naming `name` and the index (a str or None item would otherwise fail
    deep inside with an AttributeError on ``.metadata``)."""
    return list_of(value, Document, name)


def _metadata(document: Document) -> dict[str, Any]:
    # A Document built with model_construct(metadata=None) skips validation; read it as no metadata.
    metadata = document.metadata
    return metadata if metadata is not None else {}


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _has_score(document: Document, score_key: str) -> bool:
    return _is_number(_metadata(document).get(score_key))


def _checkable(documents: Sequence[Document], score_key: str) -> list[Document]:
    """The documents as the checks should read them: the score under ``metadata["score"]`` (where ``as_chunks`` finds
    it) when it is kept elsewhere, and ids S1..Sn by position when the documents' own ids are missing or repeated
    (a merged retrieval may return one document twice; the checks need unique ids)."""
    ids = [d.id or _metadata(d).get("id") for d in documents]
    relabel = any(i is None for i in ids) or len({str(i) for i in ids}) != len(ids)
    out = []
    for i, doc in enumerate(documents):
        update: dict[str, Any] = {}
        if relabel:
            update["id"] = f"S{i + 1}"
        own = _metadata(doc)
        if doc.metadata is None:
            update["metadata"] = own
        if score_key != "score":
            metadata = {k: v for k, v in own.items() if k != "score"}
            if score_key in own:
                metadata["score"] = own[score_key]
            update["metadata"] = metadata
        out.append(doc.model_copy(update=update) if update else doc)
    return out


def _distinct(documents: Sequence[Document], checkable: Sequence[Document]) -> list[Document]:
    """`checkable` without the documents that repeat an earlier one (the same id, or both without one, and the same
    text): a merged retrieval returning one document twice must not make up the gate's min_chunks alone. The first
    occurrence stays; the sufficiency check reads copies once by itself."""
    seen: set[tuple[Any, str]] = set()
    out = []
    for original, doc in zip(documents, checkable):
        key = (original.id or _metadata(original).get("id"), original.page_content)
        try:
            if key in seen:
                continue
            seen.add(key)
        except TypeError:  # an unhashable metadata id: keep the document
            pass
        out.append(doc)
    return out


# ---------------------------------------------------------------------------------------------------------------------
# The compressor
# ---------------------------------------------------------------------------------------------------------------------
class EvidenceGateCompressor(BaseDocumentCompressor):
    """Keep the documents whose cosine with the query reaches `similarity_threshold`, or none.

    LangChain's ``EmbeddingsFilter`` in threshold mode, with the retrieval gate's rule on top: when fewer than
    `min_chunks` documents reach the threshold, **nothing** is returned (``[]``), so a chain downstream sees "no
    evidence" instead of one stray match. Cosines are computed in float32 by the C++ core
    (``sc.similarity.cosine_many``; a zero vector has cosine 0).

    Each kept document is a copy with ``metadata["similarity"]`` (float) added; the documents keep their input order.
    The query is embedded with ``embed_query`` and the documents with one ``embed_documents`` call
    (``aembed_query`` / ``aembed_documents`` in ``acompress_documents``). No documents: ``[]`` without embedding.

    Parameters
    ----------
    embeddings : Embeddings
    similarity_threshold : float in [-1, 1]
        A document is kept when its cosine with the query is >= this (signed: a negative threshold is allowed).
    min_chunks : int >= 1
        Fewer documents reaching the threshold return ``[]`` (default 1: a plain threshold filter).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    embeddings: Embeddings
    similarity_threshold: float = Field(ge=-1.0, le=1.0, allow_inf_nan=False)
    min_chunks: int = Field(default=1, ge=1)

    def compress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """The documents reaching the threshold (see the class docstring)."""
        docs = _documents(documents, "documents")
        if not docs:
            return []
        query_vector = self.embeddings.embed_query(query)
        vectors = self.embeddings.embed_documents([d.page_content for d in docs])
        return self._select(docs, query_vector, vectors)

    async def acompress_documents(
        self,
        documents: Sequence[Document],
        query: str,
        callbacks: Callbacks | None = None,
    ) -> Sequence[Document]:
        """`compress_documents` with the embeddings awaited."""
        docs = _documents(documents, "documents")
        if not docs:
            return []
        query_vector = await self.embeddings.aembed_query(query)
        vectors = await self.embeddings.aembed_documents([d.page_content for d in docs])
        return self._select(docs, query_vector, vectors)

    def _select(self, docs: list[Document], query_vector: Sequence[float], vectors: Sequence[Any]) -> list[Document]:
        if len(vectors) != len(docs):
            raise ValueError(f"embeddings.embed_documents returned {len(vectors)} vectors for {len(docs)} documents")
        # real_array refuses what a float32 cast would silently change ("1" read as 1.0, True as 1.0, a complex
        # number's imaginary part dropped) and names ragged rows; the embeddings model is what produced them.
        # float64: cosine_many scales rows that float32 would flush to 0 (exact) and names values beyond its range
        query_array = real_array(query_vector, np.float64, "embeddings.embed_query(...)")
        matrix = real_array(vectors, np.float64, "embeddings.embed_documents(...)")
        if matrix.ndim != 2:
            raise ValueError(
                f"embeddings.embed_documents(...) must be one vector per document; got shape {matrix.shape}"
            )
        similarities = cosine_many(query_array, matrix)
        kept = np.flatnonzero(similarities >= np.float32(self.similarity_threshold))
        if kept.size < self.min_chunks:
            return []
        return [
            _with_metadata(docs[i], {**_metadata(docs[i]), "similarity": float(similarities[i])}) for i in kept.tolist()
        ]


# ---------------------------------------------------------------------------------------------------------------------
# Claim validation
# ---------------------------------------------------------------------------------------------------------------------
@overload
def claim_validator(
    coverage: ClaimCoverage | None = ...,
    strip_unsupported: Literal[True] = ...,
    *,
    documents: Sequence[ChunkLike] | None = ...,
    relabel: bool = ...,
) -> Runnable[Any, str]: ...
@overload
def claim_validator(
    coverage: ClaimCoverage | None = ...,
    strip_unsupported: Literal[False] = ...,
    *,
    documents: Sequence[ChunkLike] | None = ...,
    relabel: bool = ...,
) -> Runnable[Any, AnswerCoverage]: ...
@overload
def claim_validator(
    coverage: ClaimCoverage | None = ...,
    strip_unsupported: bool = ...,
    *,
    documents: Sequence[ChunkLike] | None = ...,
    relabel: bool = ...,
) -> Runnable[Any, Validated]: ...
def claim_validator(
    coverage: ClaimCoverage | None = None,
    strip_unsupported: bool = True,
    *,
    documents: Sequence[ChunkLike] | None = None,
    relabel: bool = False,
) -> Runnable[Any, Validated]:
    """A Runnable that checks an answer against its documents, for ``chain | claim_validator(...)``.

    Input, one of:

    - a mapping with ``"answer"`` (a str, or a message such as ``AIMessage``: its text is read) and the documents
      under ``"documents"`` or ``"context"`` (a list of ``Document``, ``(Document, score)`` pairs or anything
      ``sc.as_chunks`` accepts; not a formatted string). Without either key the `documents` given here are used;
    - the answer alone (a str or a message), when `documents` were given here.

    Output: with `strip_unsupported` (default) the answer's text without the sentences the documents do not support
    (``ClaimCoverage.filter_unsupported``: covered and meta sentences kept with their citations) as a str; otherwise
    the `AnswerCoverage` report.

    Sentences must cite the documents by id (``[id]``): a document's ``id`` (``metadata["id"]`` when it has none),
    else S1..Sn by position. With `relabel` the documents are always checked as S1..Sn by position, matching a prompt
    that labelled them so (as ``GroundedAnswerer`` does).

    ``invoke``, ``ainvoke`` and ``batch`` work as for any Runnable; the check itself runs inline (C++).
    """
    if coverage is not None and not isinstance(coverage, ClaimCoverage):
        raise TypeError(f"coverage must be a ClaimCoverage or None; got {type(coverage).__name__}")
    checker = coverage if coverage is not None else ClaimCoverage()
    bound = None if documents is None else _document_list(documents, "documents")

    def validate(value: Any) -> Validated:
        answer, chunks = _validator_inputs(value, bound)
        if relabel:
            chunks = [replace(c, id=f"S{i}") for i, c in enumerate(as_chunks(chunks, argument="documents"), start=1)]
        if strip_unsupported:
            return checker.filter_unsupported(answer, chunks)
        report = checker.check_answer(answer, chunks)
        if report.is_grounded and says_nothing(answer):
            # "", "[S1]" or a tool-call message with no text: nothing in it is unsupported, but it answers nothing,
            # and a report saying "grounded" would let it through a check that gates on is_grounded.
            report = replace(report, is_grounded=False)
        return report

    async def avalidate(value: Any) -> Validated:
        return validate(value)

    return RunnableLambda(validate, afunc=avalidate, name="claim_validator")


def _document_list(value: Any, where: str) -> list[Any]:
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{where} must be a list of documents, not a {type(value).__name__}: pass the documents themselves (e.g. "
            "with RunnablePassthrough.assign), not the formatted context"
        )
    if isinstance(value, Mapping) or not isinstance(value, Sequence):
        raise TypeError(f"{where} must be a list of documents; got {type(value).__name__}")
    return list(value)


def _message_text(value: Any, where: str) -> str:
    """The text of an answer: a str, a LangChain message (its ``.text``: content blocks joined) or anything with a
    str ``.content``."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseMessage):
        if isinstance(value.content, str):
            return value.content
        # Not ``.text``: it joins the text blocks with nothing, so "... seven years [S1]." + "The accused is hanged."
        # would be one sentence, checked (and kept) as a whole. A line break ends a sentence at a period that ends a
        # line, and a block cut mid-sentence still reads as one sentence across it.
        parts = [
            block if isinstance(block, str) else block.get("text")
            for block in value.content
            if isinstance(block, str) or (isinstance(block, dict) and block.get("type") == "text")
        ]
        return "\n".join(p for p in parts if isinstance(p, str))
    content = getattr(value, "content", None)
    if isinstance(content, str):
        return content
    raise TypeError(f"{where} must be a str or a message with text content; got {type(value).__name__}")


def _validator_inputs(value: Any, bound: list[Any] | None) -> tuple[str, list[Any]]:
    if isinstance(value, Mapping):
        if _ANSWER_KEY not in value:
            raise KeyError(f"claim_validator's input mapping needs an 'answer' key; got keys {sorted(map(str, value))}")
        answer = _message_text(value[_ANSWER_KEY], "input['answer']")
        key = next((k for k in _DOCUMENT_KEYS if k in value), None)
        if key is not None:
            return answer, _document_list(value[key], f"input[{key!r}]")
        if bound is None:
            raise KeyError(
                "claim_validator needs the documents: an input mapping with 'documents' or 'context', or "
                "claim_validator(documents=...)"
            )
        return answer, bound
    if bound is None:
        raise TypeError(
            f"claim_validator got a {type(value).__name__} without documents: pass a mapping "
            "{'answer': ..., 'documents': [...]}, or bind them with claim_validator(documents=...)"
        )
    return _message_text(value, "the answer"), bound


# ---------------------------------------------------------------------------------------------------------------------
# The grounded answering pipeline as a Runnable
# ---------------------------------------------------------------------------------------------------------------------
AnswererInput = Union[str, Mapping[str, Any]]


class GroundedAnswererRunnable(Runnable[AnswererInput, GroundedAnswer]):
    """`GroundedAnswerer.answer` as a Runnable: gate, check, prompt, generate, validate, cite or refuse.

    Input: a mapping ``{"query": str, "documents": [...]}`` (``"question"`` and ``"context"`` are accepted for the
    same two), or the query alone (a str, or a mapping without documents) when a `retriever` is given: it is then
    invoked with the query. Documents are anything ``sc.as_chunks`` accepts: LangChain ``Document`` objects (their
    ``metadata["score"]`` is the retrieval score), ``(Document, score)`` pairs from ``similarity_search_with_score``,
    plain strings. Documents in the input are used as given, without calling the retriever. Output: the
    `GroundedAnswer` envelope (``.status``, ``.answer``, ``.text``, ``.sources``, ...).

    Parameters
    ----------
    answerer : GroundedAnswerer, optional
        Default ``GroundedAnswerer()`` (retrieval gate 0.20 x 2 chunks, declines on insufficient context).
    retriever : Runnable[str, list[Document]], optional
        Any retriever (a `SufficiencyGuardRetriever` included: its refusal propagates, or its ``[]`` becomes a
        "no_evidence" answer).
    llm : optional
        The model the answerer calls (``generate``): a LangChain chat model (called with the system and user prompts
        and this run's callbacks), or any other ``generate`` the answerer accepts. None: the built-in extractive
        answerer (no model).

    ``ainvoke`` awaits the retriever; the pipeline itself (one model call, or two with ``on_unsupported=
    "regenerate"``) runs in LangChain's executor, since ``GroundedAnswerer.answer`` is synchronous.
    """

    def __init__(
        self,
        answerer: GroundedAnswerer | None = None,
        *,
        retriever: Runnable[str, list[Document]] | None = None,
        llm: Any = None,
        name: str | None = None,
    ) -> None:
        if answerer is not None and not isinstance(answerer, GroundedAnswerer):
            raise TypeError(f"answerer must be a GroundedAnswerer or None; got {type(answerer).__name__}")
        if retriever is not None and not isinstance(retriever, Runnable):
            raise TypeError(f"retriever must be a LangChain retriever (a Runnable); got {type(retriever).__name__}")
        self.answerer = answerer if answerer is not None else GroundedAnswerer()
        self.retriever = retriever
        self.llm = llm
        self.name = name or "GroundedAnswerer"

    def __repr__(self) -> str:
        return f"GroundedAnswererRunnable(answerer={self.answerer!r}, retriever={self.retriever!r}, llm={self.llm!r})"

    def invoke(self, input: AnswererInput, config: RunnableConfig | None = None, **kwargs: Any) -> GroundedAnswer:
        return self._call_with_config(self._run, input, config)

    async def ainvoke(
        self, input: AnswererInput, config: RunnableConfig | None = None, **kwargs: Any
    ) -> GroundedAnswer:
        return await self._acall_with_config(self._arun, input, config)

    def _run(
        self, input_: AnswererInput, run_manager: CallbackManagerForChainRun, config: RunnableConfig
    ) -> GroundedAnswer:
        query, documents = self._inputs(input_)
        if documents is None:
            assert self.retriever is not None  # _inputs checked it
            documents = self.retriever.invoke(query, config)
        return self._answer(query, documents, config)

    async def _arun(
        self, input_: AnswererInput, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> GroundedAnswer:
        query, documents = self._inputs(input_)
        if documents is None:
            assert self.retriever is not None
            documents = await self.retriever.ainvoke(query, config)
        sync_config = patch_config(config, callbacks=run_manager.get_sync().get_child())
        return await run_in_executor(config, self._answer, query, documents, sync_config)

    def _answer(self, query: str, documents: Sequence[Any], config: RunnableConfig) -> GroundedAnswer:
        return self.answerer.answer(query, documents, generate=self._generator(config))

    def _generator(self, config: RunnableConfig) -> Any:
        if isinstance(self.llm, Runnable):
            return _ModelWithConfig(self.llm, config)
        return self.llm

    def _inputs(self, value: Any) -> tuple[str, list[Any] | None]:
        documents: list[Any] | None = None
        if isinstance(value, str):
            query: Any = value
        elif isinstance(value, Mapping):
            query_key = next((k for k in _QUERY_KEYS if k in value), None)
            if query_key is None:
                raise KeyError(
                    f"the input mapping needs a 'query' (or 'question') key; got keys {sorted(map(str, value))}"
                )
            query = value[query_key]
            documents_key = next((k for k in _DOCUMENT_KEYS if k in value), None)
            if documents_key is not None:
                documents = _document_list(value[documents_key], f"input[{documents_key!r}]")
        else:
            raise TypeError(
                f"input must be a query str or a mapping with 'query' and 'documents'; got {type(value).__name__}"
            )
        if not isinstance(query, str):
            raise TypeError(f"the query must be a str; got {type(query).__name__}")
        if documents is None and self.retriever is None:
            raise ValueError(
                "no documents: pass {'query': ..., 'documents': [...]}, or give GroundedAnswererRunnable a retriever"
            )
        return query, documents


class _ModelWithConfig:
    """A chat model bound to this run's config, so that its run nests under the pipeline's (callbacks, tags). It has
    ``invoke``, so the answerer treats it as the LangChain model it is (``checks["generator"] == "langchain"``)."""

    def __init__(self, model: Runnable[Any, Any], config: RunnableConfig) -> None:
        self.model = model
        self.config = config

    def invoke(self, messages: Any) -> str:
        return _message_text(self.model.invoke(messages, self.config), "llm.invoke")


# ---------------------------------------------------------------------------------------------------------------------
# The callback handler
# ---------------------------------------------------------------------------------------------------------------------
@dataclass
class _PendingRun:
    query: str
    has_retriever_child: bool = False


class SufficiencyCallbackHandler(BaseCallbackHandler):
    """Check every retrieval a chain makes, for monitoring: ``chain.invoke(x, config={"callbacks": [handler]})``.

    On each retriever run's end, the retrieved documents are checked against the run's query (captured when the run
    starts) with `checker`; the result is recorded in `stats` (``SufficiencyStats``) and, when given, in `query_log`
    (``query_log.record(query, documents, result)``: decision = the level). When retrievers are nested (a
    `SufficiencyGuardRetriever` around a vector store's retriever), only the innermost run is checked: its documents
    are what retrieval found, and one retrieval counts once.

    The handler observes only: it never refuses or changes a document. An exception in a check or a write is kept in
    ``errors`` (a list, oldest first), never raised into the chain and never turned into a warning.

    Attributes
    ----------
    checker, stats, query_log
    last_query, last_result : the latest recorded check (None before any)
    errors : list of Exception
    """

    def __init__(
        self,
        checker: SufficientContextChecker | None = None,
        stats: SufficiencyStats | None = None,
        query_log: Any = None,
        *,
        score_key: str = "score",
    ) -> None:
        if checker is not None and not isinstance(checker, SufficientContextChecker):
            raise TypeError(f"checker must be a SufficientContextChecker or None; got {type(checker).__name__}")
        self.checker = checker if checker is not None else SufficientContextChecker()
        self.stats = stats if stats is not None else SufficiencyStats()
        self.query_log = query_log
        self.score_key = score_key
        self.errors: list[Exception] = []
        self.last_query: str | None = None
        self.last_result: SufficiencyResult | None = None
        self._runs: dict[UUID, _PendingRun] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"SufficiencyCallbackHandler(stats={self.stats.get_stats()!r}, errors={len(self.errors)})"

    def on_retriever_start(
        self,
        serialized: dict[str, Any],
        query: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            self._runs[run_id] = _PendingRun(query=query if isinstance(query, str) else str(query))
            parent = None if parent_run_id is None else self._runs.get(parent_run_id)
            if parent is not None:
                parent.has_retriever_child = True

    def on_retriever_end(
        self,
        documents: Sequence[Document],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            run = self._runs.pop(run_id, None)
        if run is None or run.has_retriever_child:
            return
        try:
            checkable = _checkable(list(documents), self.score_key)
            result = self.checker.check_sufficiency(run.query, checkable)
            self.stats.record(result)
            with self._lock:
                self.last_query, self.last_result = run.query, result
            if self.query_log is not None:
                self.query_log.record(run.query, checkable, result)
        except Exception as exc:  # a monitor must not break the chain it watches
            with self._lock:
                self.errors.append(exc)

    def on_retriever_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        with self._lock:
            self._runs.pop(run_id, None)
