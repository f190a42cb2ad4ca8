"""What the routes call: retrieval, the grounded answerer, the query log and the statistics, wired once per app.
Everything here is synchronous and thread-safe; the routes run it in the thread pool."""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..checker import Level, SufficiencyResult
from ..chunks import Chunk, as_chunks
from ..pipeline import GroundedAnswer, GroundedAnswerer, sufficiency_fields
from ..querylog import QueryLog, QueryLogError, QueryLogWarning
from ..stats import EvidenceGatingStats, SufficiencyStats
from .index import DocsIndex, Retriever, as_retriever
from .settings import ServerSettings
from .upstream import UpstreamError, UpstreamGenerator, Usage, zero_usage

__all__ = ["ChatOutcome", "Gateway", "review_of"]

REVIEW_REQUIRED = "REVIEW REQUIRED: Insufficient context"
PROCEED_WITH_CAUTION = "PROCEED WITH CAUTION"
PROCEED = "PROCEED"


def review_of(result: SufficiencyResult) -> dict[str, Any]:
    """The ``POST /v1/review`` verdict of one sufficiency result."""
    missing = [m.rstrip(".") for m in result.missing_aspects]
    if result.level is Level.SUFFICIENT:
        recommendation, concerns = PROCEED, []
    else:
        recommendation = REVIEW_REQUIRED if result.level is Level.INSUFFICIENT else PROCEED_WITH_CAUTION
        detail = ", ".join(missing) if missing else "the context does not cover the question"
        concerns = [f"Context sufficiency: {round(result.score * 100)}% - {detail}"]
    return {
        "recommendation": recommendation,
        "concerns": concerns,
        "context_sufficiency": {"score": result.score, "level": result.level.value, "missing": missing},
    }


@dataclass(frozen=True)
class ChatOutcome:
    """One question's result: the envelope and its log row, or the upstream failure with the sufficiency found
    before the model was called."""

    envelope: GroundedAnswer | None
    log_id: int | None
    error: UpstreamError | None = None
    sufficiency: dict[str, Any] | None = None
    retrieve_ms: float = 0.0
    total_ms: float = 0.0
    usage: Usage = field(default_factory=zero_usage)  # the upstream's token counts for this question

    def server_timing(self) -> str:
        """A ``Server-Timing`` header: retrieval, the answerer's call (checks and model) and the whole question."""
        answer_ms = 0.0 if self.envelope is None else self.envelope.elapsed_ms
        return f"retrieve;dur={self.retrieve_ms:.3f}, answer;dur={answer_ms:.3f}, total;dur={self.total_ms:.3f}"


class _Metered:
    """The upstream for one question, adding up the token counts of its replies (one generator per question, since
    the routes answer questions in parallel threads)."""

    def __init__(self, upstream: UpstreamGenerator) -> None:
        self.upstream = upstream
        self.usage = zero_usage()

    def __call__(self, system_prompt: str, user_prompt: str) -> str:
        text, usage = self.upstream.complete(system_prompt, user_prompt)
        for key, count in (usage or {}).items():
            self.usage[key] += count
        return text


class Gateway:
    """One app's state: the docs index (or a caller's retriever), the answerer, the log, the stats, the model."""

    def __init__(self, settings: ServerSettings, retriever: Any = None) -> None:
        self.settings = settings
        data_dir = settings.resolved_data_dir
        if retriever is None and settings.docs is None:
            raise ValueError("the server needs a docs folder (--docs) or a retriever")
        if data_dir is None:
            raise ValueError("the server needs a data_dir when it has no docs folder")
        data_dir.mkdir(parents=True, exist_ok=True)
        self.index: DocsIndex | None = None
        if settings.docs is not None:
            self.index = DocsIndex(settings.docs, data_dir, settings.reindex_interval_s)
        if retriever is not None:
            self.retriever: Retriever = as_retriever(retriever)
        else:
            assert self.index is not None
            self.retriever = self.index
        deadline = settings.querylog_write_deadline  # one SQLite wait never outlasts the whole deadline
        self.log = QueryLog(data_dir / "querylog.db", timeout=min(5.0, deadline), write_deadline=deadline)
        self._replay_spill()
        self.stats = SufficiencyStats()
        # The retrieval gate's decisions, in the gate's own metric family (passes = anything but no_evidence).
        self.gate_stats = EvidenceGatingStats()
        self.answerer = GroundedAnswerer.from_config(dict(settings.pipeline), stats=self.stats)
        self.upstream = None if settings.upstream.url is None else UpstreamGenerator(settings.upstream)

    def _replay_spill(self) -> None:
        """Rows and verdicts spilled while the log could not be written (a previous run) go back into it at start.
        Failing to is no reason not to serve: they stay in the spill file, and a warning says so."""
        try:
            self.log.replay_spill()
        except (QueryLogError, OSError) as exc:
            warnings.warn(QueryLogWarning(f"the query log's spill file was not written back: {exc}"), stacklevel=3)

    def close(self) -> None:
        if self.upstream is not None:
            self.upstream.close()
        if self.index is not None:
            self.index.close()
        self.log.close()

    def retrieve(self, query: str) -> list[Chunk]:
        return as_chunks(self.retriever.retrieve(query, self.settings.top_k), argument="retrieved chunks")

    def chat(self, query: str) -> ChatOutcome:
        started = time.perf_counter()
        chunks = self.retrieve(query)
        retrieved = time.perf_counter()
        retrieve_ms = (retrieved - started) * 1000.0
        generate = None if self.upstream is None else _Metered(self.upstream)
        try:
            envelope = self.answerer.answer(query, chunks, generate=generate)
        except UpstreamError as exc:
            sufficiency = self._sufficiency_before_generation(query, chunks)
            return ChatOutcome(None, None, exc, sufficiency, retrieve_ms, (time.perf_counter() - started) * 1000.0)
        log_id = self.log.record(query, [{"id": str(c.id), "score": c.score} for c in chunks], envelope)
        usage = zero_usage() if generate is None else generate.usage
        total_ms = (time.perf_counter() - started) * 1000.0
        return ChatOutcome(envelope, log_id, None, None, retrieve_ms, total_ms, usage)

    def _sufficiency_before_generation(self, query: str, chunks: Sequence[Chunk]) -> dict[str, Any] | None:
        """What the answerer had decided when the model failed: its own gate and check, run again."""
        answerer = self.answerer
        if not answerer.checker.enabled:
            return None
        _, evidence = answerer.retrieval_gate(chunks)
        return sufficiency_fields(answerer.checker.check_sufficiency(query, evidence))

    def review(self, question: str, context: Any) -> dict[str, Any]:
        chunks = self.retrieve(question) if context is None else context
        return review_of(self.answerer.checker.check_sufficiency(question, chunks))
