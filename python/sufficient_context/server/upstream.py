"""The upstream model: an OpenAI-compatible chat completions endpoint called with httpx, every wait bounded."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from .settings import UpstreamSettings

__all__ = ["UpstreamError", "UpstreamGenerator", "Usage", "zero_usage"]

Usage = dict[str, int]
_USAGE_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


def zero_usage() -> Usage:
    """The usage of a question the model was not asked about (declined first, or the built-in answerer)."""
    return dict.fromkeys(_USAGE_KEYS, 0)


class UpstreamError(RuntimeError):
    """The upstream model failed: ``status`` 504 when it did not answer in time, 502 for anything else (unreachable,
    an HTTP error, a reply without ``choices[0].message.content``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class UpstreamGenerator:
    """``(system_prompt, user_prompt) -> str`` for :meth:`GroundedAnswerer.answer`, temperature 0. Each call gives
    up after ``timeout_s`` in total (connect, send, every read and the whole reply). Thread-safe."""

    def __init__(self, settings: UpstreamSettings, transport: httpx.BaseTransport | None = None) -> None:
        if settings.url is None:
            raise ValueError("the upstream needs a url")
        url = settings.url.rstrip("/")
        self.url = url if url.endswith("/chat/completions") else url + "/chat/completions"
        self.model = settings.model
        self.timeout_s = float(settings.timeout_s)
        headers = {"Content-Type": "application/json"}
        key = settings.api_key
        if settings.api_key_env and not key:  # else every call goes out without a key, and fails as a 401 upstream
            raise ValueError(
                f"server.upstream.api_key_env names {settings.api_key_env}, which is not set in the environment"
            )
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(self.timeout_s),
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
            transport=transport,
            trust_env=False,
        )

    def __call__(self, system_prompt: str, user_prompt: str) -> str:
        return self.complete(system_prompt, user_prompt)[0]

    def complete(self, system_prompt: str, user_prompt: str) -> tuple[str, Usage | None]:
        """The reply's text and its ``usage`` (None when the upstream sends none, or one that is not token counts)."""
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system_prompt}, {"role": "user", "content": user_prompt}],
        }
        deadline = time.monotonic() + self.timeout_s
        try:
            with self._client.stream("POST", self.url, json=body) as response:
                data = bytearray()
                for piece in response.iter_bytes():
                    data.extend(piece)
                    if time.monotonic() > deadline:
                        raise UpstreamError(504, f"upstream {self.url} did not answer within {self.timeout_s:g} s")
                    if len(data) > 16 * 1024 * 1024:
                        raise UpstreamError(502, f"upstream {self.url} answered more than 16 MB")
                status = response.status_code
        except httpx.TimeoutException:
            raise UpstreamError(504, f"upstream {self.url} did not answer within {self.timeout_s:g} s") from None
        except httpx.HTTPError as exc:
            raise UpstreamError(502, f"upstream {self.url} is unreachable: {type(exc).__name__}: {exc}") from None
        if status >= 400:
            text = bytes(data[:300]).decode("utf-8", errors="replace")
            raise UpstreamError(502, f"upstream {self.url} answered HTTP {status}: {text}")
        return _reply(self.url, bytes(data))

    def close(self) -> None:
        self._client.close()


def _reply(url: str, data: bytes) -> tuple[str, Usage | None]:
    try:
        reply: Any = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise UpstreamError(502, f"upstream {url} did not answer JSON") from None
    try:
        content = reply["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise UpstreamError(502, f"upstream {url} answered without choices[0].message.content") from None
    if not isinstance(content, str):
        raise UpstreamError(502, f"upstream {url} answered a non-text message content")
    return content, _usage(reply.get("usage"))


def _usage(value: Any) -> Usage | None:
    """OpenAI's ``usage`` counts, when the upstream sends them as such: a bad one is not passed on as if counted."""
    if not isinstance(value, dict):
        return None
    prompt, completion, total = (value.get(k) for k in _USAGE_KEYS)
    if total is None and type(prompt) is int and type(completion) is int:
        total = prompt + completion
    counts: Usage = {}
    for key, count in zip(_USAGE_KEYS, (prompt, completion, total)):
        if type(count) is not int or count < 0:  # bool is no count either
            return None
        counts[key] = count
    return counts
