"""sufficient-context: deterministic, LLM-free sufficiency and grounding checks for RAG.

Usage: ``import sufficient_context as sc``. The engines are submodules (``sc.text``, ``sc.sentences``,
``sc.similarity``); the checks and helpers are re-exported here.
"""

from __future__ import annotations

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
from .pipeline import GroundedAnswer, GroundedAnswerer
from .query_types import EvidenceSufficiency, QueryTypeRules, classify_query, is_evidence_sufficient
from .querylog import QueryLog, QueryLogError
from .stats import EvidenceGatingStats, SufficiencyStats
from .term_statistics import TermStatistics
from .text import STOPWORDS

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
