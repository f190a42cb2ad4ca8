"""LlamaIndex components: a node postprocessor that gates and checks retrieval, two evaluators, a grounded query engine.

Built on ``llama-index-core`` alone (``pip install 'sufficient-context[llamaindex]'``)::

    from sufficient_context.integrations.llamaindex import (
        ClaimCoverageEvaluator, GroundedQueryEngine, SufficiencyEvaluator, SufficiencyPostprocessor)

    engine = index.as_query_engine(llm=llm, node_postprocessors=[SufficiencyPostprocessor(min_score=0.3)])
    grounded = GroundedQueryEngine(index.as_retriever(similarity_top_k=4), llm=llm)
    runner = BatchEvalRunner({"sufficiency": SufficiencyEvaluator(), "claims": ClaimCoverageEvaluator()})

- `SufficiencyPostprocessor`: the retrieval gate (``min_score`` / ``min_chunks`` on ``NodeWithScore.score``) and the
  sufficiency check on the query; the surviving nodes carry the verdict in ``metadata["sufficiency"]``; a refusal
  comes back as one synthetic node (``metadata["sufficiency_refusal"] is True``) instead of an empty list.
- `SufficiencyEvaluator`, `ClaimCoverageEvaluator`: ``BaseEvaluator`` s (``evaluate`` / ``aevaluate``, so they run in
  ``BatchEvalRunner``) with deterministic, LLM-free verdicts and feedback that names what is missing or unsupported.
- `GroundedQueryEngine`: :class:`sufficient_context.GroundedAnswerer` behind any LlamaIndex retriever and LLM; returns
  a LlamaIndex ``Response`` (answer text, cited nodes, the envelope dict as ``metadata``).

Nothing here reads LlamaIndex's global ``Settings``: the LLM is the one passed, or none (the package's extractive
answerer), never a default resolved from the environment.
"""

# No ``from __future__ import annotations`` here: pydantic evaluates the field annotations at class creation, and
# ``X | None`` would not evaluate on Python 3.9.

import asyncio
import concurrent.futures
import contextvars
import functools
import re
import threading
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional, cast

try:
    from llama_index.core.base.base_query_engine import BaseQueryEngine
    from llama_index.core.base.response.schema import Response
    from llama_index.core.bridge.pydantic import ConfigDict, Field, PrivateAttr
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
    from llama_index.core.llms import LLM
    from llama_index.core.postprocessor.types import BaseNodePostprocessor
    from llama_index.core.prompts.mixin import PromptDictType, PromptMixinType
    from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode
except ImportError as exc:  # tests/python/test_llamaindex.py imports it with llama_index hidden
    raise ImportError(
        "sufficient_context.integrations.llamaindex needs llama-index-core: "
        "pip install 'sufficient-context[llamaindex]'"
    ) from exc

from .._args import finite_or_none, list_of
from .._core import gate as _core_gate
from ..assembly import DECLINE_TEMPLATE, LOW_CONFIDENCE_BANNER, NOT_IN_DOCUMENTATION_ANSWER
from ..checker import Level, SufficiencyResult, SufficientContextChecker
from ..chunks import as_chunks
from ..claims import AnswerCoverage, ClaimCoverage, says_nothing
from ..gate import NO_EVIDENCE_MESSAGE, RetrievalDecision, evaluate_retrieval, named_decision
from ..pipeline import GroundedAnswer, GroundedAnswerer, decline_message
from ..sentences import citation_ids, extract_citations

__all__ = [
    "METADATA_KEY",
    "REFUSAL_KEY",
    "ClaimCoverageEvaluator",
    "GroundedQueryEngine",
    "SufficiencyEvaluator",
    "SufficiencyPostprocessor",
]

METADATA_KEY = "sufficiency"
"""The node metadata key `SufficiencyPostprocessor` writes its verdict under."""

REFUSAL_KEY = "sufficiency_refusal"
"""Metadata key that is True on the synthetic refusal node (and only there)."""

_NUMBER = r"-?\d+(?:\.\d+)?"
# The whole refusals the package writes, and nothing longer: a response that merely opens with one and goes on to
# say something else makes claims, and those are checked. The no-evidence message may carry the retrieval gate's
# no-evidence reason (as SufficiencyPostprocessor's refusal does); the decline names missing aspects, which the
# checker writes without citation markers.
_REFUSAL_PATTERN = re.compile(
    "|".join(
        [
            re.escape(NOT_IN_DOCUMENTATION_ANSWER),
            re.escape(NO_EVIDENCE_MESSAGE)
            + "(?: (?:No chunks were retrieved\\."
            + f"|Best similarity {_NUMBER} is below min_score {_NUMBER}\\."
            + f"|Only \\d+ chunk\\(s\\) reach min_score {_NUMBER} \\(best similarity {_NUMBER}\\); "
            + "min_chunks is \\d+\\."
            + "|\\d+ chunk\\(s\\) without retrieval scores: only their count is gated \\(min_chunks \\d+\\)\\.))?",
            re.escape(DECLINE_TEMPLATE).replace(re.escape("{missing}"), "[^\\[\\]\\n]+"),
        ]
    )
)
_EMPTY_RESPONSE = "Empty Response"  # what LlamaIndex's synthesizers answer when no node reaches them


# -- node postprocessor ------------------------------------------------------------------------------------------------


class _RefusalNode(TextNode):
    """The refusal node `SufficiencyPostprocessor` returns. Its class, not its metadata, marks it: a retriever's nodes
    carry whatever metadata their documents had (``sufficiency_refusal`` included), but never this private class
    (a docstore rebuilds a plain TextNode), so `GroundedQueryEngine` cannot be made to return a forged "refusal"."""


class SufficiencyPostprocessor(BaseNodePostprocessor):
    """Gate the retrieved nodes on their similarity, check the survivors against the query, refuse on thin context.

    Steps, on ``postprocess_nodes(nodes, query_bundle=... | query_str=...)``:

    1. The retrieval gate (:func:`sufficient_context.evaluate_retrieval`): nodes whose ``score`` is below
       `min_score` are dropped; fewer than `min_chunks` survivors is "no_evidence". Scores are whatever the retriever
       returns (signed cosines in [-1, 1] included). A list without any score (a keyword retriever) is gated on its
       count only; in a list where some nodes have a score, a node without one is dropped, as
       ``SimilarityPostprocessor`` drops it.
    2. The sufficiency check (``checker.check_sufficiency``) of the query against the survivors' text
       (``MetadataMode.NONE``). When every survivor and the query bundle carry embeddings of one dimension (they then
       come from the index's model) they are used for relevance; otherwise the checker works from the texts (with its
       own ``embedding_model`` if it has one). Skipped when ``check_sufficiency=False`` (gate-only mode) or
       ``checker.enabled`` is False; then no query is needed.
    3. Every node returned carries ``metadata["sufficiency"] = {"score", "level", "missing", "missing_terms",
       "retrieval_gate"}`` (``missing`` are the missing aspects; score and level None when the check did not run).
       The key is added to the nodes' ``excluded_llm_metadata_keys`` / ``excluded_embed_metadata_keys``, so that the
       verdict never reaches the LLM prompt or an embedding. The nodes are copies (``NodeWithScore`` and node): the
       retriever's objects, which an in-memory retriever or a concurrent query may share, are not mutated.
       ``copy_nodes=False`` writes into the retriever's node objects instead and returns them (as several LlamaIndex
       postprocessors do): about 3x cheaper per node, for long lists from a retriever that builds fresh nodes.

    Refusal (the choice this component makes). A postprocessor cannot stop the synthesizer from running, and an
    empty list makes LlamaIndex answer a bare "Empty Response" that says nothing about why. So when the gate finds no
    evidence, or the check's level is "insufficient", ``on_insufficient="refuse"`` (the default) returns exactly one
    synthetic ``NodeWithScore(TextNode(...), score=None)`` in place of the retrieved nodes:

    - its text is the refusal the user should read: the no-evidence message and the gate's reason, or the decline
      naming the missing aspects (the same wording as :class:`~sufficient_context.GroundedAnswerer`);
    - its metadata: ``sufficiency_refusal: True``, ``status`` ("no_evidence" or "insufficient_evidence", the envelope
      statuses), ``message``, ``retrieval_gate`` (the decision's ``to_dict()``), ``sufficiency`` (as on kept nodes,
      or None), ``dropped_node_ids``; all of it hidden from the LLM and embeddings, so the model sees only the text;
    - none of the retrieved nodes reaches the LLM, so it cannot answer from context that failed the check.

    With a synthesizer the model still runs once, with the refusal as its only context: it relays the refusal, and
    ``response.source_nodes[0].metadata["sufficiency_refusal"]`` tells code that it did. To skip the model call
    altogether and return the refusal verbatim, use :class:`GroundedQueryEngine` (which also recognises this node).
    Place this postprocessor last: a later ``SimilarityPostprocessor`` would drop the scoreless refusal node.

    ``on_insufficient="passthrough"`` annotates and never refuses because of the check or `min_chunks`: the nodes
    that reach `min_score` go on. When none does, the refusal node is returned in both modes, never an empty list.

    ``last_result`` (the `SufficiencyResult`, None when the check did not run), ``last_decision`` (the
    `RetrievalDecision`) and ``last_refused`` describe the most recent call on this instance, from any thread; under
    concurrent queries read the returned nodes' metadata instead.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    checker: SufficientContextChecker = Field(
        default_factory=SufficientContextChecker,
        exclude=True,
        description="The sufficiency checker; its `enabled=False` turns the check off (gate only).",
    )
    min_score: float = Field(default=0.20, allow_inf_nan=False, description="Similarity a node needs to count.")
    min_chunks: int = Field(default=2, ge=1, strict=True, description="Nodes that must reach min_score.")
    on_insufficient: Literal["refuse", "passthrough"] = Field(
        default="refuse", description="Replace the nodes by the refusal node, or annotate them and let them through."
    )
    check_sufficiency: bool = Field(default=True, description="False: the retrieval gate only (no query needed).")
    copy_nodes: bool = Field(
        default=True, description="Annotate copies of the nodes (True) or the retriever's node objects in place."
    )

    _last_result: Optional[SufficiencyResult] = PrivateAttr(default=None)
    _last_decision: Optional[RetrievalDecision] = PrivateAttr(default=None)
    _last_refused: bool = PrivateAttr(default=False)

    @classmethod
    def class_name(cls) -> str:
        return "SufficiencyPostprocessor"

    @property
    def last_result(self) -> Optional[SufficiencyResult]:
        """The sufficiency result of the most recent call (None when the check did not run)."""
        return self._last_result

    @property
    def last_decision(self) -> Optional[RetrievalDecision]:
        """The retrieval gate's decision of the most recent call."""
        return self._last_decision

    @property
    def last_refused(self) -> bool:
        """Whether the most recent call returned the refusal node."""
        return self._last_refused

    def _postprocess_nodes(
        self,
        nodes: list[NodeWithScore],
        query_bundle: Optional[QueryBundle] = None,
    ) -> list[NodeWithScore]:
        checking = self.check_sufficiency and self.checker.enabled
        if query_bundle is not None and not isinstance(query_bundle, QueryBundle):
            raise TypeError(
                f"query_bundle must be a QueryBundle (or pass the text as query_str); got {type(query_bundle).__name__}"
            )
        if checking and query_bundle is None:
            raise ValueError(
                "SufficiencyPostprocessor checks the nodes against the query: pass query_bundle or query_str "
                "(or check_sufficiency=False for the retrieval gate alone)"
            )
        nodes = _node_list(nodes, "nodes")
        decision, survivors = self._gate(nodes)
        self._last_decision = decision
        self._last_result = None
        if decision.outcome == "no_evidence" and (self.on_insufficient == "refuse" or not survivors):
            return self._refuse(decision, None, [n.node.node_id for n in nodes])
        result: Optional[SufficiencyResult] = None
        if checking:
            assert query_bundle is not None
            texts, embeddings, query_embedding = _check_inputs(survivors, query_bundle)
            contexts: list[Any] = (
                texts if embeddings is None else [{"content": t, "embedding": e} for t, e in zip(texts, embeddings)]
            )
            result = self.checker.check_sufficiency(query_bundle.query_str, contexts, query_embedding=query_embedding)
            self._last_result = result
            if result.level is Level.INSUFFICIENT and self.on_insufficient == "refuse":
                return self._refuse(decision, result, [n.node.node_id for n in nodes])
        self._last_refused = False
        info = _verdict(result, decision)
        if not self.copy_nodes:
            for node in survivors:
                _annotate_in_place(node, info)
            return survivors
        return [_annotated(n, info) for n in survivors]

    def _gate(self, nodes: list[NodeWithScore]) -> tuple[RetrievalDecision, list[NodeWithScore]]:
        # The common input (every node scored with a float, no node twice) is read and decided in one C call, as
        # evaluate_retrieval reads nodes: a Python loop over the nodes cost 4x SimilarityPostprocessor at 1,000.
        try:
            decision = _core_gate.retrieval_decision(RetrievalDecision, nodes, self.min_score, self.min_chunks, None)
        except ValueError:  # a node retrieved twice (or a parameter the general path names): the loop below
            decision = None
        if decision is not None and decision.max_score is None:  # no scores at all: only the count was gated
            return decision, nodes if decision.outcome != "no_evidence" else []
        if decision is not None:
            minimum = decision.min_score
            return decision, [node for node in nodes if node.score is not None and node.score >= minimum]
        scored: list[NodeWithScore] = []
        scores: list[float] = []
        # A node retrieved twice (a hybrid retriever's merged lists) is one node to the gate, at its first score
        # (as the LangChain retriever reads a repeated document): it must not make up min_chunks alone.
        first: dict[str, float] = {}
        for i, node in enumerate(nodes):
            if node.score is not None:
                scored.append(node)
                # Named here as the caller gave it (the gate below would count only scored, distinct nodes); a bool
                # is no score (True read as 1.0 would pass any gate), NaN or inf none either.
                score = cast(float, finite_or_none(node.score, f"nodes[{i}].score"))  # not None: tested above
                scores.append(score)
                node_id = node.node.node_id
                first.setdefault(node_id, score)
        if not scored and nodes:  # no scores at all: the gate counts the (distinct) nodes
            distinct = dict.fromkeys(n.node.node_id for n in nodes)
            decision = evaluate_retrieval([{"content": "", "id": i} for i in distinct], self.min_score, self.min_chunks)
            return decision, nodes if decision.outcome != "no_evidence" else []
        # Named by the nodes' own ids, as the C path above names them.
        decision = named_decision(list(first), list(first.values()), self.min_score, self.min_chunks)
        minimum = decision.min_score
        return decision, [node for node, score in zip(scored, scores) if score >= minimum]

    def _refuse(
        self, decision: RetrievalDecision, result: Optional[SufficiencyResult], node_ids: list[str]
    ) -> list[NodeWithScore]:
        self._last_refused = True
        if result is None:
            status = "no_evidence"
            message = f"{NO_EVIDENCE_MESSAGE} {decision.reason}"
        else:
            status = "insufficient_evidence"
            message = decline_message(result)
        metadata: dict[str, Any] = {
            REFUSAL_KEY: True,
            "status": status,
            "message": message,
            "retrieval_gate": decision.to_dict(),
            METADATA_KEY: None if result is None else _verdict(result, decision),
            "dropped_node_ids": node_ids,
        }
        keys = list(metadata)
        node = _RefusalNode(  # type: ignore[call-arg]  # pydantic fields, inherited; mypy sees only the subclass
            text=message, metadata=metadata, excluded_llm_metadata_keys=keys, excluded_embed_metadata_keys=keys
        )
        return [NodeWithScore(node=node, score=None)]


def _node_list(nodes: Any, name: str) -> list[NodeWithScore]:
    """`nodes` as a list of NodeWithScore; TypeError naming `name` and the index otherwise (a bare TextNode has no
    score to gate on, None no text)."""
    try:
        return list_of(nodes, NodeWithScore, name)
    except TypeError as exc:
        if isinstance(nodes, Sequence) and any(hasattr(n, "node_id") for n in nodes):
            raise TypeError(f"{exc} (wrap each node as NodeWithScore(node=..., score=...))") from None
        raise


def _check_inputs(
    nodes: Sequence[NodeWithScore], query_bundle: QueryBundle
) -> tuple[list[str], Optional[list[list[float]]], Optional[list[float]]]:
    """The texts to check, and the node and query embeddings when all of them are there with one dimension."""
    texts = [n.node.get_content(metadata_mode=MetadataMode.NONE) for n in nodes]
    query_embedding = query_bundle.embedding
    if query_embedding is None or not nodes:
        return texts, None, None
    dim = len(query_embedding)
    embeddings: list[list[float]] = []
    for n in nodes:
        embedding = n.node.embedding
        if embedding is None or len(embedding) != dim:
            return texts, None, None
        embeddings.append(embedding)
    return texts, embeddings, query_embedding


def _verdict(result: Optional[SufficiencyResult], decision: RetrievalDecision) -> dict[str, Any]:
    if result is None:
        return {"score": None, "level": None, "missing": [], "missing_terms": [], "retrieval_gate": decision.outcome}
    return {
        "score": result.score,
        "level": result.level.value,
        "missing": list(result.missing_aspects),
        "missing_terms": list(result.missing_terms),
        "retrieval_gate": decision.outcome,
    }


def _annotated(node_with_score: NodeWithScore, info: dict[str, Any]) -> NodeWithScore:
    node = node_with_score.node
    copy = node.model_copy(
        update={
            "metadata": {**node.metadata, METADATA_KEY: dict(info)},
            "excluded_llm_metadata_keys": _with_key(node.excluded_llm_metadata_keys),
            "excluded_embed_metadata_keys": _with_key(node.excluded_embed_metadata_keys),
        }
    )
    return NodeWithScore(node=copy, score=node_with_score.score)


def _annotate_in_place(node_with_score: NodeWithScore, info: dict[str, Any]) -> None:
    node = node_with_score.node
    node.metadata[METADATA_KEY] = dict(info)
    for keys in (node.excluded_llm_metadata_keys, node.excluded_embed_metadata_keys):
        if METADATA_KEY not in keys:
            keys.append(METADATA_KEY)


def _with_key(keys: list[str]) -> list[str]:
    return keys if METADATA_KEY in keys else [*keys, METADATA_KEY]


# -- evaluators --------------------------------------------------------------------------------------------------------


class _DeterministicEvaluator(BaseEvaluator):
    """An evaluator without prompts: ``evaluate`` runs in the caller's thread (no event loop), ``aevaluate`` in a
    worker thread so that a ``BatchEvalRunner`` gathering many of them keeps its loop free."""

    def _get_prompts(self) -> PromptDictType:
        return {}

    def _update_prompts(self, prompts: PromptDictType) -> None:
        """No prompts: the verdicts are computed, not generated."""

    def evaluate(
        self,
        query: Optional[str] = None,
        response: Optional[Any] = None,
        contexts: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> EvaluationResult:
        return self._evaluate(query, response, contexts)

    async def aevaluate(
        self,
        query: Optional[str] = None,
        response: Optional[Any] = None,
        contexts: Optional[Sequence[Any]] = None,
        **kwargs: Any,
    ) -> EvaluationResult:
        return await asyncio.to_thread(self._evaluate, query, response, contexts)

    @abstractmethod
    def _evaluate(
        self, query: Optional[str], response: Optional[Any], contexts: Optional[Sequence[Any]]
    ) -> EvaluationResult:
        """The verdict of one (query, response, contexts); each evaluator defines it."""


class SufficiencyEvaluator(_DeterministicEvaluator):
    """Is the retrieved context enough to answer the query? (:meth:`SufficientContextChecker.check_sufficiency`).

    ``evaluate(query=..., contexts=[...])`` (the response is not needed; ``evaluate_response`` takes the contexts from
    ``response.source_nodes``). `EvaluationResult`: ``score`` is the sufficiency score in [0, 1]; ``passing`` is
    level "sufficient" (or "partial" too with ``accept_partial=True``); ``feedback`` gives the level and score, the
    missing query terms and the missing aspects. Contexts may also be anything :func:`sufficient_context.as_chunks`
    takes (nodes, ``NodeWithScore``, mappings). ValueError without a query or without contexts (an empty list is a
    valid input: it is insufficient).
    """

    def __init__(self, checker: Optional[SufficientContextChecker] = None, *, accept_partial: bool = False) -> None:
        if checker is not None and not isinstance(checker, SufficientContextChecker):
            raise TypeError(f"checker must be a SufficientContextChecker or None; got {type(checker).__name__}")
        self.checker = checker if checker is not None else SufficientContextChecker()
        self.accept_partial = bool(accept_partial)

    def _evaluate(
        self, query: Optional[str], response: Optional[Any], contexts: Optional[Sequence[Any]]
    ) -> EvaluationResult:
        if query is None or contexts is None:
            raise ValueError("SufficiencyEvaluator needs a query and contexts")
        items = _context_list(contexts)
        result = self.checker.check_sufficiency(query, items)
        passing = result.level is Level.SUFFICIENT or (self.accept_partial and result.level is Level.PARTIAL)
        parts = [f"Context is {result.level.value} (score {result.score:.2f}) for the query."]
        if result.missing_terms:
            parts.append("Missing terms: " + ", ".join(repr(t) for t in result.missing_terms) + ".")
        if result.missing_aspects:
            parts.append("Missing aspects: " + "; ".join(a.rstrip(".") for a in result.missing_aspects) + ".")
        if not result.missing_terms and not result.missing_aspects:
            parts.append("Every key term of the query is in the context.")
        return EvaluationResult(
            query=query,
            response=_response_text(response),
            contexts=_context_texts(items),
            passing=passing,
            score=result.score,
            feedback=" ".join(parts),
        )


class ClaimCoverageEvaluator(_DeterministicEvaluator):
    """Is every sentence of the response backed by the context it cites? (:meth:`ClaimCoverage.check_answer`).

    ``evaluate(response=..., contexts=[...])``: string contexts are the citation targets ``S1..Sn`` in order (what
    :class:`GroundedQueryEngine` responses cite, its ``source_nodes`` in that order), or ``1..n`` when the response
    cites only numbers (``[1]``, as LlamaIndex's ``CitationQueryEngine`` does); other chunk-likes keep their own ids.
    `EvaluationResult`: ``score`` is the share of claim sentences supported (``supported_ratio``); ``passing`` is
    ``is_grounded`` (every claim supported, no unknown or missing citation); ``feedback`` lists each unsupported
    sentence with its score and reason, and the unknown and missing citations.

    The package's own framing is not a claim: a leading LOW CONFIDENCE banner and a trailing partial-context caveat
    are removed before the check. A refusal (the package's decline, no-evidence or not-in-documentation messages,
    the whole response and nothing more) makes no claim: it passes with score 1.0 (``refusals_pass=False`` fails it
    with score 0.0); a refusal followed by claims is checked like any answer. An empty response or LlamaIndex's
    "Empty Response" is ``invalid_result`` (not passing, no score); a response with no word outside its citation
    markers ("[S1]") says nothing and fails with score 0.0. ValueError without a response or without contexts;
    TypeError for contexts given as one str or a mapping.
    """

    def __init__(self, claims: Optional[ClaimCoverage] = None, *, refusals_pass: bool = True) -> None:
        if claims is not None and not isinstance(claims, ClaimCoverage):
            raise TypeError(f"claims must be a ClaimCoverage or None; got {type(claims).__name__}")
        self.claims = claims if claims is not None else ClaimCoverage()
        self.refusals_pass = bool(refusals_pass)

    def _evaluate(
        self, query: Optional[str], response: Optional[Any], contexts: Optional[Sequence[Any]]
    ) -> EvaluationResult:
        text = _response_text(response)
        if text is None or contexts is None:
            raise ValueError("ClaimCoverageEvaluator needs a response and contexts")
        items = _context_list(contexts)
        texts = _context_texts(items)
        body = _without_framing(text)
        if not body or body == _EMPTY_RESPONSE:
            return EvaluationResult(
                query=query,
                response=text,
                contexts=texts,
                passing=False,
                invalid_result=True,
                invalid_reason="empty response: there is no answer to check",
            )
        if _REFUSAL_PATTERN.fullmatch(body.strip('"').strip()):
            verdict = "passes" if self.refusals_pass else "fails (refusals_pass=False)"
            return EvaluationResult(
                query=query,
                response=text,
                contexts=texts,
                passing=self.refusals_pass,
                score=1.0 if self.refusals_pass else 0.0,
                feedback=f"The response declines to answer and makes no claim to check; it {verdict}.",
            )
        if says_nothing(body):
            # "[S1]" or "[S1] [S2].": every marker resolves, so the check would call it grounded, yet it answers
            # nothing; it is not the empty response LlamaIndex reports (invalid_result), it is a failed answer.
            return EvaluationResult(
                query=query,
                response=text,
                contexts=texts,
                passing=False,
                score=0.0,
                feedback="The response says nothing: it has no word outside its citation markers.",
            )
        if all(isinstance(c, str) for c in items):
            cited = citation_ids(body)
            numeric = bool(cited) and all(c.isdigit() for c in cited)
            items = [{"id": str(i) if numeric else f"S{i}", "content": c} for i, c in enumerate(items, start=1)]
        report = self.claims.check_answer(body, items)
        return EvaluationResult(
            query=query,
            response=text,
            contexts=texts,
            passing=report.is_grounded,
            score=report.supported_ratio,
            feedback=_claims_feedback(report),
        )


def _context_list(contexts: Any) -> list[Any]:
    """`contexts` as a list; a str would be read as its characters and a mapping as its keys: TypeError."""
    if isinstance(contexts, (str, bytes, Mapping)) or not hasattr(contexts, "__iter__"):
        raise TypeError(f"contexts must be a list of texts or nodes; got {type(contexts).__name__}")
    return list(contexts)


def _response_text(response: Any) -> Optional[str]:
    if response is None or isinstance(response, str):
        return response
    inner = getattr(response, "response", None)  # a LlamaIndex Response passed as the response string
    if isinstance(inner, str) or inner is None:
        return inner
    raise TypeError(f"response must be a str or a Response; got {type(response).__name__}")


def _context_texts(items: Sequence[Any]) -> list[str]:
    if all(isinstance(c, str) for c in items):
        return list(items)
    return [chunk.content for chunk in as_chunks(items, argument="contexts")]


def _without_framing(text: str) -> str:
    # The banner heads the text and would join its first sentence; the caveat needs nothing here, ClaimCoverage reads
    # it as a meta sentence.
    body = text.strip()
    if body.startswith(LOW_CONFIDENCE_BANNER):
        body = body[len(LOW_CONFIDENCE_BANNER) :].strip()
    return body


def _claims_feedback(report: AnswerCoverage) -> str:
    total = report.claim_count
    lines = [
        f"{report.covered_count}/{total} claim sentence(s) supported; "
        f"attribution coverage {report.attribution_coverage:.0%}; "
        + ("grounded." if report.is_grounded else "not grounded.")
    ]
    for claim in report.uncovered:
        lines.append(f"- Unsupported (score {claim.score:.2f}): {claim.sentence!r}: {claim.reason}")
    if report.unknown_citations:
        lines.append("Unknown citations (no such context): " + ", ".join(report.unknown_citations))
    if report.missing_citations:
        lines.append("Missing citations (used but never cited): " + ", ".join(report.missing_citations))
    return "\n".join(lines)


# -- query engine ------------------------------------------------------------------------------------------------------


class GroundedQueryEngine(BaseQueryEngine):
    """:class:`~sufficient_context.GroundedAnswerer` as a LlamaIndex query engine, over any retriever and LLM.

    ``query`` / ``aquery``: ``retriever.retrieve(query_bundle)`` (then the `node_postprocessors`, in order) ->
    ``answerer.answer(query, nodes, generate=llm)`` -> a LlamaIndex ``Response``:

    - ``response``: the grounded answer (validated sentences; the decline or no-evidence message when it refuses),
      with the LOW CONFIDENCE banner on its first line when the envelope carries one and the caveat when the
      context was partial. Its citations are renumbered to follow ``source_nodes``: ``[S1]`` is
      ``source_nodes[0]``, and so on;
    - ``source_nodes``: the cited nodes (the retriever's ``NodeWithScore`` objects), in first-cited order; empty on
      a refusal;
    - ``metadata``: the envelope, ``GroundedAnswer.to_dict()`` (``status``, ``sufficiency``, ``gating``,
      ``removed_sentences``, ...). Its ``answer`` keeps the labels the model saw; ``metadata["sources"][i]["label"]``
      is the one ``source_nodes[i]`` had.

    `llm`: a LlamaIndex LLM (``.complete``; ``aquery`` awaits ``.acomplete`` on the running loop; cancelling
    ``aquery`` cancels that call, and a query cancelled before its answer is logged nothing), or anything
    ``GroundedAnswerer.answer`` accepts as ``generate``; None uses the package's extractive answerer (no model call).
    LlamaIndex's ``Settings.llm`` is never read: pass it explicitly to use it. `answerer` defaults to
    ``GroundedAnswerer()`` (retrieval gate 0.20 x 2 nodes, decline on insufficient context).

    Node embeddings are not handed to the answerer (its checker embeds texts with its own model, if any); nodes
    repeating an id keep their first occurrence. When a :class:`SufficiencyPostprocessor` in `node_postprocessors`
    refuses, its refusal is returned as it is, without a model call (status "no_evidence" or
    "insufficient_evidence").
    """

    def __init__(
        self,
        retriever: Any,
        llm: Optional[LLM] = None,
        answerer: Optional[GroundedAnswerer] = None,
        *,
        node_postprocessors: Optional[Sequence[BaseNodePostprocessor]] = None,
        callback_manager: Optional[CallbackManager] = None,
    ) -> None:
        if not hasattr(retriever, "retrieve"):
            raise TypeError(f"retriever must be a LlamaIndex retriever (.retrieve); got {type(retriever).__name__}")
        if answerer is not None and not isinstance(answerer, GroundedAnswerer):
            raise TypeError(f"answerer must be a GroundedAnswerer or None; got {type(answerer).__name__}")
        super().__init__(callback_manager=callback_manager)
        self._retriever = retriever
        self._llm = llm
        self._answerer = answerer if answerer is not None else GroundedAnswerer()
        self._postprocessors = list(node_postprocessors or ())

    @property
    def retriever(self) -> Any:
        return self._retriever

    @property
    def llm(self) -> Optional[LLM]:
        return self._llm

    @property
    def answerer(self) -> GroundedAnswerer:
        return self._answerer

    def _get_prompt_modules(self) -> PromptMixinType:
        return {}

    def retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """The retriever's nodes after the node postprocessors."""
        nodes = _node_list(self._retriever.retrieve(query_bundle), "retriever.retrieve(...)")
        for postprocessor in self._postprocessors:
            nodes = postprocessor.postprocess_nodes(nodes, query_bundle=query_bundle)
        return _node_list(nodes, "the postprocessed nodes")

    async def aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        """`retrieve`, awaiting the retriever's and postprocessors' async forms."""
        nodes = _node_list(await self._retriever.aretrieve(query_bundle), "retriever.aretrieve(...)")
        for postprocessor in self._postprocessors:
            nodes = await postprocessor.apostprocess_nodes(nodes, query_bundle=query_bundle)
        return _node_list(nodes, "the postprocessed nodes")

    def _query(self, query_bundle: QueryBundle) -> Response:
        nodes = _unique(self.retrieve(query_bundle))
        envelope = _refusal_envelope(query_bundle.query_str, nodes)
        if envelope is None:
            envelope = self._answerer.answer(query_bundle.query_str, _answer_chunks(nodes), generate=self._llm)
        return _to_response(envelope, nodes)

    async def _aquery(self, query_bundle: QueryBundle) -> Response:
        nodes = _unique(await self.aretrieve(query_bundle))
        envelope = _refusal_envelope(query_bundle.query_str, nodes)
        if envelope is None:
            loop = asyncio.get_running_loop()
            generate: Any = self._llm
            completion: Optional[_LoopCompletion] = None
            if generate is not None and hasattr(generate, "acomplete"):
                generate = completion = _LoopCompletion(generate, loop)
            # The pipeline is synchronous: it runs in a worker thread; the model call comes back to this loop. Not
            # the loop's default executor: its few threads, all waiting here for acomplete, would deadlock an
            # acomplete that itself runs in it (asyncio.to_thread around a sync client).
            call = functools.partial(self._answerer.answer, query_bundle.query_str, _answer_chunks(nodes), generate)
            try:
                envelope = await loop.run_in_executor(_pipeline_threads(), contextvars.copy_context().run, call)
            except asyncio.CancelledError:
                if completion is not None:  # the worker thread stops at the model call instead of waiting on it
                    completion.cancel()
                raise
        return _to_response(envelope, nodes)


_PIPELINE_THREADS: Optional[concurrent.futures.ThreadPoolExecutor] = None
_PIPELINE_THREADS_LOCK = threading.Lock()


def _pipeline_threads() -> concurrent.futures.ThreadPoolExecutor:
    """The threads `GroundedQueryEngine.aquery` runs the pipeline in, made on first use. They wait for the model on
    the caller's loop and hold no resource it needs, so they are apart from its default executor."""
    global _PIPELINE_THREADS
    with _PIPELINE_THREADS_LOCK:
        if _PIPELINE_THREADS is None:
            _PIPELINE_THREADS = concurrent.futures.ThreadPoolExecutor(64, thread_name_prefix="sc-grounded-query")
        return _PIPELINE_THREADS


class _LoopCompletion:
    """A ``.complete`` for the pipeline's worker thread that awaits ``llm.acomplete`` on the query's event loop.
    `cancel` (the query was cancelled) cancels the model call in flight and any later one, so that the worker thread
    ends instead of waiting for a model that may never answer."""

    def __init__(self, llm: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._llm = llm
        self._loop = loop
        self._lock = threading.Lock()
        self._cancelled = False
        self._pending: Optional[concurrent.futures.Future[Any]] = None

    def complete(self, prompt: str) -> Any:
        with self._lock:
            if self._cancelled:
                raise concurrent.futures.CancelledError("the query was cancelled")
            future = asyncio.run_coroutine_threadsafe(self._llm.acomplete(prompt), self._loop)
            self._pending = future
        return future.result()

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            pending = self._pending
        if pending is not None:
            pending.cancel()


def _unique(nodes: Sequence[NodeWithScore]) -> list[NodeWithScore]:
    seen: set[str] = set()
    out = []
    for node in nodes:
        if node.node.node_id not in seen:
            seen.add(node.node.node_id)
            out.append(node)
    return out


def _answer_chunks(nodes: Sequence[NodeWithScore]) -> list[dict[str, Any]]:
    return [
        {
            "content": n.node.get_content(metadata_mode=MetadataMode.NONE),
            "id": n.node.node_id,
            "score": n.score,
            "metadata": n.node.metadata,
        }
        for n in nodes
    ]


def _refusal_envelope(query: str, nodes: Sequence[NodeWithScore]) -> Optional[GroundedAnswer]:
    """The envelope of a `SufficiencyPostprocessor` refusal among `nodes`, if there is one."""
    for node in nodes:
        metadata = node.node.metadata
        if isinstance(node.node, _RefusalNode) and metadata.get(REFUSAL_KEY) is True:
            message = str(metadata.get("message") or node.node.get_content(metadata_mode=MetadataMode.NONE))
            verdict = metadata.get(METADATA_KEY)
            sufficiency = None
            if isinstance(verdict, dict) and verdict.get("level") is not None:
                sufficiency = {
                    "score": verdict["score"],
                    "level": verdict["level"],
                    "factors": [],
                    "missing": list(verdict.get("missing", [])),
                }
            gating = metadata.get("retrieval_gate")
            return GroundedAnswer(
                status=str(metadata.get("status", "no_evidence")),
                query=query,
                answer=message,
                text=f"Answer:\n{message}",
                sufficiency=sufficiency,
                gating=dict(gating) if isinstance(gating, dict) else {},
                checks={
                    "retrieval_gate": True,
                    "sufficiency": sufficiency is not None,
                    "claims": False,
                    "generator": "none",
                    "refused_by": "SufficiencyPostprocessor",
                },
            )
    return None


def _to_response(envelope: GroundedAnswer, nodes: Sequence[NodeWithScore]) -> Response:
    by_id = {n.node.node_id: n for n in nodes}
    sources = [by_id[str(s["id"])] for s in envelope.sources if str(s["id"]) in by_id]
    labels = {str(s["label"]): f"S{i}" for i, s in enumerate(envelope.sources, start=1)}
    text = _relabelled(envelope.answer, labels)
    if envelope.text.startswith(LOW_CONFIDENCE_BANNER):
        text = f"{LOW_CONFIDENCE_BANNER}\n{text}"
    return Response(response=text, source_nodes=sources, metadata=envelope.to_dict())


def _relabelled(text: str, labels: dict[str, str]) -> str:
    """`text` with each citation id in `labels` replaced by its new label (markers found as ClaimCoverage finds
    them, so nothing outside a marker changes)."""
    if all(old == new for old, new in labels.items()):
        return text
    out = []
    position = 0
    for citation in extract_citations(text):
        new = labels.get(citation.id)
        if new is not None and new != citation.id:
            out.append(text[position : citation.start])
            out.append(new)
            position = citation.end
    out.append(text[position:])
    return "".join(out)
