"""A generator for an OpenAI-compatible chat completions endpoint (``--llm URL``), over the standard library's
HTTP client so the CLI needs no extra package. The key, when the server wants one, comes from the environment."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Callable

from .inputs import InputError

KEY_VARIABLES = ("SC_LLM_API_KEY", "OPENAI_API_KEY")


def openai_generator(base_url: str, model: str, timeout: float = 60.0) -> Callable[[str, str], str]:
    """``(system_prompt, user_prompt) -> str`` calling ``{base_url}/chat/completions`` (``base_url`` like
    ``http://localhost:8000/v1``), temperature 0."""
    if not base_url.startswith(("http://", "https://")):
        raise InputError(f"--llm must be an http(s) URL; got {base_url!r}")
    url = base_url.rstrip("/") + "/chat/completions"
    key = next((os.environ[v] for v in KEY_VARIABLES if os.environ.get(v)), None)

    def generate(system_prompt: str, user_prompt: str) -> str:
        body = {
            "model": model,
            "temperature": 0,
            "messages": [{"role": "system", "content": system_prompt}, {"role": "user", "content": user_prompt}],
        }
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                reply = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            raise InputError(
                f"--llm {url} answered HTTP {exc.code}: {exc.read()[:300].decode(errors='replace')}"
            ) from None
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise InputError(f"--llm {url} is unreachable: {getattr(exc, 'reason', exc)}") from None
        except json.JSONDecodeError:
            raise InputError(f"--llm {url} did not answer JSON") from None
        try:
            content = reply["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise InputError(f"--llm {url} answered without choices[0].message.content") from None
        if not isinstance(content, str):
            raise InputError(f"--llm {url} answered a non-text message content")
        return content

    return generate
