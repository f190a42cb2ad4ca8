"""``sufficient-context serve``: an OpenAI-compatible gateway that answers from a docs folder through the grounded
pipeline and says, beside each answer, whether the context sufficed and which sentences it backs.

Needs the ``server`` extra: ``pip install 'sufficient-context[server]'`` (fastapi, uvicorn, httpx,
prometheus_client).
"""

from __future__ import annotations

from .app import create_app, serve
from .index import DocsIndex, Retriever
from .settings import ServerSettings, UpstreamSettings
from .upstream import UpstreamError

__all__ = ["DocsIndex", "Retriever", "ServerSettings", "UpstreamError", "UpstreamSettings", "create_app", "serve"]
