"""Deliberation monitor: context insufficiency in multi-expert discussions.

Framework-agnostic (plain objects, no callbacks to register): feed each expert contribution to a
:class:`ContextInsufficiencyMonitor`; when the experts mostly talk about what they do not know, it emits one
``context_insufficient`` event (a dict ready to send as a server-sent event) with their questions and the choices
``provide_more``, ``continue``, ``end``; the user's choice (or a timeout) sets the :class:`DeliberationState`.
Phrase lists are data, matched in the C++ core.
"""

from __future__ import annotations

from .answers import PartialAnswer, is_partial_answer
from .detector import MetaScore, extract_expert_questions, is_context_insufficient_discussion
from .monitor import ContextInsufficiencyMonitor, ResearchLoopGuard
from .patterns import (
    ANSWER_CUE_PATTERNS,
    BEST_EFFORT_PROMPT,
    CHOICES,
    INSUFFICIENT_CONTEXT_PATTERNS,
    NON_ANSWERS,
    PARTIAL_ANSWER_PATTERNS,
    QUESTION_CLAUSE_PATTERNS,
)
from .state import DeliberationState
from .synthesis import assumptions_and_limitations

__all__ = [
    "ANSWER_CUE_PATTERNS",
    "BEST_EFFORT_PROMPT",
    "CHOICES",
    "INSUFFICIENT_CONTEXT_PATTERNS",
    "NON_ANSWERS",
    "PARTIAL_ANSWER_PATTERNS",
    "QUESTION_CLAUSE_PATTERNS",
    "ContextInsufficiencyMonitor",
    "DeliberationState",
    "MetaScore",
    "PartialAnswer",
    "ResearchLoopGuard",
    "assumptions_and_limitations",
    "extract_expert_questions",
    "is_context_insufficient_discussion",
    "is_partial_answer",
]
