"""The append-only SQLite query log of a RAG gateway (``sc.QueryLog``)."""

from __future__ import annotations

from .log import ANSWERED_DECISIONS, REFUSED_DECISIONS, QueryLog, QueryLogError, QueryLogWarning

__all__ = ["ANSWERED_DECISIONS", "REFUSED_DECISIONS", "QueryLog", "QueryLogError", "QueryLogWarning"]
