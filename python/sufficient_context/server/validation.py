"""Reading request bodies: JSON objects whose fields are checked by hand, each error naming the field at fault."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request

__all__ = ["BadRequest", "chat_options", "chat_query", "json_body", "json_object", "optional", "required"]

# The roles of OpenAI's chat API; anything else is a client mistake worth naming, not a message to skip.
ROLES = ("system", "developer", "user", "assistant", "tool", "function")


class BadRequest(ValueError):
    """HTTP 400: ``param`` names the field (``messages[1].content``), ``message`` says what is wrong."""

    status = 400
    kind = "invalid_request_error"

    def __init__(self, param: str | None, message: str) -> None:
        super().__init__(message)
        self.param = param
        self.message = message


class NotFound(BadRequest):
    """HTTP 404 for an id (``param``) that names nothing; the same error body as a 400."""

    status = 404
    kind = "not_found"


class UnsupportedMediaType(BadRequest):
    """HTTP 415: a body not declared as JSON; the same error body as a 400."""

    status = 415
    kind = "unsupported_media_type"


async def json_body(request: Request, *, empty: bool = False) -> dict[str, Any]:
    """The request's body as a JSON object (`empty`: a blank body is ``{}``). The body must be declared
    ``Content-Type: application/json``: a web page can send text/plain or a form to another site without asking
    (no CORS preflight), but not JSON, so this keeps other sites' pages from posting to the gateway."""
    declared = request.headers.get("content-type")
    if (declared or "").split(";", 1)[0].strip().lower() != "application/json":
        got = "none was sent" if declared is None else f"got {declared[:100]!r}"
        raise UnsupportedMediaType("Content-Type", f"the request body must be sent with Content-Type: "
                                                   f"application/json; {got}")  # fmt: skip
    raw = await request.body()
    return {} if empty and not raw.strip() else json_object(raw)


def json_object(body: bytes) -> dict[str, Any]:
    """The body as a JSON object, or BadRequest."""
    try:
        document = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadRequest(None, "the request body is not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(None, f"the request body is not valid JSON: {exc.msg} at line {exc.lineno} column "
                               f"{exc.colno}") from None  # fmt: skip
    except RecursionError:  # the decoder recurses once per level: thousands of [ or { exhaust the stack
        raise BadRequest(None, "the request body nests JSON arrays or objects too deeply") from None
    except ValueError:  # Python refuses to convert an integer literal longer than its int_max_str_digits
        raise BadRequest(None, f"the request body holds a JSON integer of more than {sys.get_int_max_str_digits()} "
                               "digits") from None  # fmt: skip
    if not isinstance(document, dict):
        raise BadRequest(None, f"the request body must be a JSON object; got {_kind(document)}")
    return document


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


_KINDS: dict[type, str] = {str: "a string", bool: "a boolean", int: "an integer", list: "an array", dict: "an object"}


def _check(value: Any, kind: type, name: str) -> Any:
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise BadRequest(name, f"{name} must be {_KINDS[kind]}; got {_kind(value)}")
    return value


def known_fields(body: Mapping[str, Any], *names: str) -> None:
    """400 naming the first field of `body` that is not one of `names`: a misspelled or unsupported option (a
    session's "timeout") would otherwise be ignored while the caller believes it applied."""
    for key in body:
        if key not in names:
            raise BadRequest(str(key), f"unknown field {key!r}; the fields are {', '.join(names)}")


def required(body: Mapping[str, Any], name: str, kind: type) -> Any:
    if name not in body:
        raise BadRequest(name, f"{name} is required")
    return _check(body[name], kind, name)


def optional(body: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    value = body.get(name)
    return default if value is None else _check(value, kind, name)


def _text(content: Any, name: str) -> str:
    """A message content: a string, or a list of parts of which the ``text`` ones count."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for i, part in enumerate(content):
            where = f"{name}[{i}]"
            if isinstance(part, str):
                texts.append(part)
                continue
            _check(part, dict, where)
            if part.get("type", "text") == "text":
                texts.append(_check(part.get("text"), str, f"{where}.text"))
        return "\n".join(texts)
    raise BadRequest(name, f"{name} must be a string or an array of content parts; got {_kind(content)}")


def chat_query(body: Mapping[str, Any]) -> str:
    """The question of an OpenAI chat request: the text of its last user message."""
    messages = required(body, "messages", list)
    if not messages:
        raise BadRequest("messages", "messages must not be empty")
    query: str | None = None
    where_query = "messages"
    for i, message in enumerate(messages):
        where = f"messages[{i}]"
        _check(message, dict, where)
        if "role" not in message:
            raise BadRequest(f"{where}.role", f"{where}.role is required")
        role = _check(message["role"], str, f"{where}.role")
        if role not in ROLES:
            raise BadRequest(f"{where}.role", f"{where}.role must be one of {', '.join(ROLES)}; got {role!r}")
        content = message.get("content")
        text = "" if content is None else _text(content, f"{where}.content")
        if role == "user":
            query, where_query = text, f"{where}.content"
    if query is None:
        raise BadRequest("messages", "messages holds no user message")
    if not query.strip():  # an image alone: the question must be text, other parts are not read
        raise BadRequest(where_query, f"the last user message ({where_query}) has no text; only text parts are read")
    return query


def chat_options(body: Mapping[str, Any], stream: bool) -> bool:
    """Refuses, naming the field, the OpenAI options whose result a client would rely on and the gateway cannot
    give (several choices, a forced tool call, JSON output): answering anyway would hand the client something it did
    not ask for. The others (temperature, max_tokens, stop, seed, user, tools with tool_choice auto...) are ignored.
    Returns whether a stream ends with a usage chunk (``stream_options.include_usage``)."""
    n = optional(body, "n", int, 1)
    if n != 1:
        raise BadRequest("n", f"n must be 1: the gateway gives one grounded answer per question; got {n}")
    for name in ("tool_choice", "function_call"):
        choice = body.get(name)
        if choice is not None and choice not in ("none", "auto"):
            got = repr(choice) if isinstance(choice, str) else _kind(choice)
            raise BadRequest(name, f"{name} must be 'none' or 'auto': the gateway answers from its documents and "
                                   f"calls no tools; got {got}")  # fmt: skip
    response_format = optional(body, "response_format", dict, None)
    if response_format is not None and response_format.get("type") != "text":
        got = response_format.get("type")
        got = repr(got) if isinstance(got, str) else _kind(got)
        raise BadRequest("response_format", f"response_format.type must be 'text': the gateway answers in prose "
                                            f"with citations, not JSON; got {got}")  # fmt: skip
    options = optional(body, "stream_options", dict, None)
    if options is None or not stream:
        return False
    usage = options.get("include_usage")
    return usage is not None and bool(_check(usage, bool, "stream_options.include_usage"))
