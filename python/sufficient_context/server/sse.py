"""Server-sent events' ``data:`` lines."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["sse_json"]

# Line breaks to str.splitlines() that JSON leaves raw: clients reading the stream by lines that way (httpx's
# iter_lines) cut a text holding one in two, and its data was no JSON. Escaped, it is the same JSON.
_SPLITLINES = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def sse_json(data: Any) -> str:
    """`data` as JSON on one line, for any line reader."""
    return json.dumps(data, ensure_ascii=False).translate(_SPLITLINES)
