"""sufficient-context: deterministic, LLM-free sufficiency and grounding checks for RAG.

Usage: ``import sufficient_context as sc``. The engines are submodules (``sc.text``, ``sc.sentences``,
``sc.similarity``); the checks and helpers are re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import sentences, similarity, text
from .assembly import (
    CAVEAT,
    DECLINE_TEMPLATE,
    GROUNDED_SYSTEM_PROMPT,
    LEGAL_SYSTEM_PROMPT,
    LOW_CONFIDENCE_BANNER,
    NOT_IN_DOCUMENTATION_ANSWER,
    format_context,
    format_sources,
)
from .cache import cache_usage, set_cache_budget
from .checker import Level, SufficiencyResult, SufficientContextChecker
from .chunks import Chunk, as_chunks
from .claims import (
    META_PATTERNS,
    AnswerCoverage,
    ClaimCoverage,
    ClaimResult,
    check_claim_coverage,
    validate_multi_chunk_citations,
)
from .gate import NO_EVIDENCE_MESSAGE, EvidenceSufficiencyGate, RetrievalDecision, evaluate_retrieval
from .query_types import EvidenceSufficiency, QueryTypeRules, classify_query, is_evidence_sufficient
from .stats import EvidenceGatingStats, SufficiencyStats
from .term_statistics import TermStatistics
from .text import STOPWORDS

if TYPE_CHECKING:
    from .pipeline import GroundedAnswer, GroundedAnswerer
    from .querylog import QueryLog, QueryLogError

# Imported on first use (PEP 562): the answering pipeline and the SQLite query log are a third of the package's
# import time, which every process that only checks would otherwise pay.
_LAZY = {
    "GroundedAnswer": "pipeline",
    "GroundedAnswerer": "pipeline",
    "QueryLog": "querylog",
    "QueryLogError": "querylog",
}


# Subpackages reachable as attributes (`sc.pipeline.STATUSES`) without importing them first, also on first use.
_SUBPACKAGES = frozenset(
    {"cli", "deliberation", "display", "evaluation", "integrations", "pipeline", "querylog", "retrieval", "scale",
     "server", "testing"}
)  # fmt: skip


def __getattr__(name: str) -> Any:
    import importlib

    if name in _SUBPACKAGES:
        return importlib.import_module(f".{name}", __name__)  # the import binds it in this module too
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | _SUBPACKAGES)


__version__ = "0.1.0"

__all__ = [
    "CAVEAT",
    "DECLINE_TEMPLATE",
    "GROUNDED_SYSTEM_PROMPT",
    "LEGAL_SYSTEM_PROMPT",
    "LOW_CONFIDENCE_BANNER",
    "META_PATTERNS",
    "NOT_IN_DOCUMENTATION_ANSWER",
    "NO_EVIDENCE_MESSAGE",
    "STOPWORDS",
    "AnswerCoverage",
    "Chunk",
    "ClaimCoverage",
    "ClaimResult",
    "EvidenceGatingStats",
    "EvidenceSufficiency",
    "EvidenceSufficiencyGate",
    "GroundedAnswer",
    "GroundedAnswerer",
    "Level",
    "QueryLog",
    "QueryLogError",
    "QueryTypeRules",
    "RetrievalDecision",
    "SufficiencyResult",
    "SufficiencyStats",
    "SufficientContextChecker",
    "TermStatistics",
    "__version__",
    "as_chunks",
    "cache_usage",
    "check_claim_coverage",
    "classify_query",
    "evaluate_retrieval",
    "format_context",
    "format_sources",
    "is_evidence_sufficient",
    "sentences",
    "set_cache_budget",
    "similarity",
    "text",
    "validate_multi_chunk_citations",
]
