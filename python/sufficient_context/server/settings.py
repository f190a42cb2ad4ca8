"""The gateway's settings: command-line arguments over the ``server:`` section of a YAML configuration file.

.. code-block:: yaml

    server:
      host: 127.0.0.1             # loopback unless told otherwise
      port: 8000
      docs: ./docs                # folder of .txt / .md files to answer from (relative to this file)
      data_dir: ./docs/.sufficient-context   # index.db and querylog.db (this is the default)
      api_key: null               # or set SC_API_KEY; when set, every API route wants "Authorization: Bearer <key>"
      upstream:                   # an OpenAI-compatible model; none: the built-in extractive answerer
        url: http://localhost:8001/v1
        model: default
        api_key_env: OPENAI_API_KEY
        timeout_s: 30
      max_request_bytes: 1048576
      top_k: 5
      reindex_interval_s: 1.0     # the docs folder is compared with the index at most this often
      deliberation_timeout: 120   # seconds a context_insufficient event waits for the user before continuing
      deliberation_max_sessions: 100   # live deliberation sessions at once (more: HTTP 429)
      querylog_write_deadline: 30 # seconds a query-log write waits for a lock before the row or verdict is spilled

The pipeline sections of the same file (``sufficient_context``, ``claims``, ``retrieval``, ``answering``) configure
the answerer (:meth:`GroundedAnswerer.from_config`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import load_pipeline_config, naming_file, read_document, refuse_near_sections

__all__ = ["API_KEY_VARIABLE", "ServerSettings", "UpstreamSettings"]

API_KEY_VARIABLE = "SC_API_KEY"
DATA_DIR_NAME = ".sufficient-context"
_SERVER_KEYS = (
    "host", "port", "docs", "data_dir", "api_key", "upstream", "max_request_bytes", "top_k", "reindex_interval_s",
    "deliberation_timeout", "deliberation_max_sessions", "querylog_write_deadline",
)  # fmt: skip
_UPSTREAM_KEYS = ("url", "model", "api_key_env", "timeout_s")


@dataclass(frozen=True)
class UpstreamSettings:
    """An OpenAI-compatible chat completions endpoint: ``url`` is its base (``http://host:port/v1``) or the full
    ``.../chat/completions`` address; None: no model, the extractive answerer."""

    url: str | None = None
    model: str = "default"
    api_key_env: str | None = None
    timeout_s: float = 30.0

    def __post_init__(self) -> None:
        if self.url is not None and (not isinstance(self.url, str) or not self.url.startswith(("http://", "https://"))):
            raise ValueError(f"server.upstream.url must be an http(s) URL; got {self.url!r}")
        if not isinstance(self.model, str) or not self.model:
            raise ValueError(f"server.upstream.model must be a non-empty string; got {self.model!r}")
        if self.api_key_env is not None and not isinstance(self.api_key_env, str):
            raise ValueError(f"server.upstream.api_key_env must be a string; got {self.api_key_env!r}")
        _positive(self.timeout_s, "server.upstream.timeout_s")

    @property
    def api_key(self) -> str | None:
        return os.environ.get(self.api_key_env) or None if self.api_key_env else None


@dataclass(frozen=True)
class ServerSettings:
    """Everything ``sufficient-context serve`` needs. ``pipeline`` holds the answerer's sections as a mapping."""

    docs: Path | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path | None = None
    api_key: str | None = None
    upstream: UpstreamSettings = field(default_factory=UpstreamSettings)
    max_request_bytes: int = 1024 * 1024
    top_k: int = 5
    reindex_interval_s: float = 1.0
    deliberation_timeout: float = 120.0
    deliberation_max_sessions: int = 100
    pipeline: Mapping[str, Any] = field(default_factory=dict)
    querylog_write_deadline: float = 30.0  # after pipeline: positional construction keeps working

    def __post_init__(self) -> None:
        if self.docs is not None:
            object.__setattr__(self, "docs", Path(self.docs))
        if self.data_dir is not None:
            object.__setattr__(self, "data_dir", Path(self.data_dir))
        if not isinstance(self.host, str) or not self.host:
            raise ValueError(f"server.host must be a non-empty string; got {self.host!r}")
        _int(self.port, "server.port", 0, 65535)
        _int(self.max_request_bytes, "server.max_request_bytes", 1, 2**40)
        _int(self.top_k, "server.top_k", 1, 1000)
        if not isinstance(self.reindex_interval_s, (int, float)) or isinstance(self.reindex_interval_s, bool):
            raise ValueError(f"server.reindex_interval_s must be a number; got {self.reindex_interval_s!r}")
        if not math.isfinite(self.reindex_interval_s) or self.reindex_interval_s < 0:
            raise ValueError(f"server.reindex_interval_s must be >= 0; got {self.reindex_interval_s!r}")
        _positive(self.deliberation_timeout, "server.deliberation_timeout")
        _int(self.deliberation_max_sessions, "server.deliberation_max_sessions", 1, 100_000)
        _positive(self.querylog_write_deadline, "server.querylog_write_deadline")
        if self.api_key is not None and (not isinstance(self.api_key, str) or not self.api_key):
            raise ValueError("server.api_key must be a non-empty string")
        if not isinstance(self.upstream, UpstreamSettings):
            raise TypeError(f"upstream must be an UpstreamSettings; got {type(self.upstream).__name__}")

    @property
    def resolved_data_dir(self) -> Path | None:
        """Where index.db and querylog.db live: ``data_dir``, else ``<docs>/.sufficient-context``."""
        if self.data_dir is not None:
            return self.data_dir
        return None if self.docs is None else self.docs / DATA_DIR_NAME

    @classmethod
    def load(
        cls,
        config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
        *,
        docs: str | os.PathLike[str] | None = None,
        host: str | None = None,
        port: int | None = None,
        api_key: str | None = None,
    ) -> ServerSettings:
        """Settings from a YAML file (or a mapping of the whole document) with the arguments given here winning;
        the API key comes from the argument, else ``server.api_key``, else the ``SC_API_KEY`` environment
        variable. Unknown keys of the ``server:`` section raise ValueError naming them."""
        document: Mapping[str, Any]
        base: Path | None = None  # relative docs / data_dir paths in a file are relative to the file
        path: str | None = None
        if config is None:
            document = {}
        elif isinstance(config, Mapping):
            document = config
        else:
            path = os.fspath(config)
            document = _read_yaml(path)
            base = Path(config).parent
        with naming_file(path):
            return cls._from_document(document, base, docs=docs, host=host, port=port, api_key=api_key)

    @classmethod
    def _from_document(
        cls, document: Mapping[str, Any], base: Path | None, *, docs: Any, host: Any, port: Any, api_key: Any
    ) -> ServerSettings:
        refuse_near_sections(document, ("server",))
        section = document.get("server")
        section = {} if section is None else section
        if not isinstance(section, Mapping):
            raise ValueError(f"server must be a mapping of settings; got {type(section).__name__}")
        for key in section:
            if key not in _SERVER_KEYS:
                raise ValueError(f"unknown key 'server.{key}'; expected one of {', '.join(_SERVER_KEYS)}")
        upstream_section = section.get("upstream")
        upstream_section = {} if upstream_section is None else upstream_section
        if not isinstance(upstream_section, Mapping):
            raise ValueError(f"server.upstream must be a mapping; got {type(upstream_section).__name__}")
        for key in upstream_section:
            if key not in _UPSTREAM_KEYS:
                raise ValueError(f"unknown key 'server.upstream.{key}'; expected one of {', '.join(_UPSTREAM_KEYS)}")
        upstream = UpstreamSettings(**dict(upstream_section))
        values: dict[str, Any] = {k: v for k, v in section.items() if k != "upstream"}
        for key in ("docs", "data_dir"):
            if key in values and values[key] is not None:
                if not isinstance(values[key], str):
                    raise ValueError(f"server.{key} must be a path string; got {values[key]!r}")
                values[key] = Path(values[key]) if base is None else base / values[key]
        for key, given in (("docs", docs), ("host", host), ("port", port), ("api_key", api_key)):
            if given is not None:
                values[key] = given
        if values.get("api_key") is None and os.environ.get(API_KEY_VARIABLE):
            values["api_key"] = os.environ[API_KEY_VARIABLE]
        pipeline = {k: v for k, v in document.items() if k != "server"}
        load_pipeline_config(pipeline)  # checked here, so that an error names the file
        return cls(upstream=upstream, pipeline=pipeline, **values)


def _read_yaml(path: str) -> Mapping[str, Any]:
    document = read_document(path)
    if document is None:
        return {}
    if not isinstance(document, Mapping):
        raise ValueError(f"{path!r} must hold a mapping of sections; got {type(document).__name__}")
    return document


def _int(value: Any, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be an integer in [{low}, {high}]; got {value!r}")


def _positive(value: Any, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a number > 0; got {value!r}")
