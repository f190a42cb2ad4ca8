"""The grounded answering pipeline: one object that gates, checks, prompts, generates, validates, cites and refuses.

``query -> retrieval gate -> sufficiency check -> grounded prompt (S1..Sn) -> generate -> claim validation
-> remove / regenerate unsupported sentences -> "Answer:" + "Sources:" -> envelope -> query log + stats``

The CLI, the LangChain and LlamaIndex components and the HTTP gateway are thin doors onto :class:`GroundedAnswerer`.
"""

from __future__ import annotations

from .answerer import GroundedAnswerer, decline_message, sufficiency_fields
from .envelope import STATUSES, GroundedAnswer
from .extractive import extractive_answer
from .generators import as_generator

__all__ = [
    "STATUSES",
    "GroundedAnswer",
    "GroundedAnswerer",
    "as_generator",
    "decline_message",
    "extractive_answer",
    "sufficiency_fields",
]
