"""sufficient-context: deterministic, LLM-free sufficiency and grounding checks for RAG.

Usage: ``import sufficient_context as sc``. The engines are submodules (``sc.text``, ``sc.sentences``,
``sc.similarity``); the checks and helpers are re-exported here.
"""

from __future__ import annotations

from . import sentences, similarity, text
from .assembly import (
    GROUNDED_SYSTEM_PROMPT,
    LOW_CONFIDENCE_BANNER,
    NOT_IN_DOCUMENTATION_ANSWER,
    format_context,
    format_sources,
)
from .chunks import Chunk, as_chunks
from .gate import NO_EVIDENCE_MESSAGE, EvidenceSufficiencyGate, RetrievalDecision, evaluate_retrieval
from .querylog import QueryLog, QueryLogError
from .stats import EvidenceGatingStats
from .text import STOPWORDS

__version__ = "0.1.0"

__all__ = [
    "GROUNDED_SYSTEM_PROMPT",
    "LOW_CONFIDENCE_BANNER",
    "NOT_IN_DOCUMENTATION_ANSWER",
    "NO_EVIDENCE_MESSAGE",
    "STOPWORDS",
    "Chunk",
    "EvidenceGatingStats",
    "EvidenceSufficiencyGate",
    "QueryLog",
    "QueryLogError",
    "RetrievalDecision",
    "__version__",
    "as_chunks",
    "evaluate_retrieval",
    "format_context",
    "format_sources",
    "sentences",
    "similarity",
    "text",
]
