"""The JSON API: ``/v1/chat/completions`` and ``/v1/models`` (OpenAI-compatible, with the checks' verdicts beside the
answer), ``/v1/review``, ``/v1/feedback``, ``/v1/sources/{chunk_id}`` and ``/v1/history``."""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from .service import ChatOutcome, Gateway
from .sse import sse_json
from .validation import BadRequest, chat_options, chat_query, json_body, optional, required

__all__ = ["error_response", "router"]

router = APIRouter(prefix="/v1")
_REFUSED = ("insufficient_evidence", "no_evidence")
_MAX_HISTORY = 1000
_STARTED = int(time.time())  # a served model's `created`: when this process started serving it


def error_response(status: int, message: str, kind: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, **extra}}, status_code=status)


def _gateway(request: Request) -> Gateway:
    gateway: Gateway = request.app.state.gateway
    return gateway


def completion(outcome: ChatOutcome, model: str) -> dict[str, Any]:
    """The ``chat.completion`` object of one answered (or declined) question."""
    envelope = outcome.envelope
    assert envelope is not None
    refusal = envelope.answer if envelope.status in _REFUSED else None
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": envelope.text, "refusal": refusal},
                "finish_reason": "stop",
            }
        ],
        "usage": dict(outcome.usage),
        **verdicts(outcome),
    }


def verdicts(outcome: ChatOutcome) -> dict[str, Any]:
    """What the checks said, beside the OpenAI fields: sufficiency, sources, grounding, log_id."""
    envelope = outcome.envelope
    assert envelope is not None
    return {
        "sufficiency": envelope.sufficiency,
        "sources": list(envelope.sources),
        "grounding": {
            "status": envelope.status,
            "answer": envelope.answer,
            "attribution_coverage": envelope.attribution_coverage,
            "claims": list(envelope.claims),
            "removed_sentences": list(envelope.removed_sentences),
            "confidence": envelope.confidence,
        },
        "log_id": outcome.log_id,
    }


def _pieces(text: str, count: int = 4) -> list[str]:
    """`text` in about `count` pieces cut after whitespace (joined, they are `text` again)."""
    words = re.findall(r"\S+\s*|\s+", text)
    if not words:
        return [text] if text else []
    size = max(1, -(-len(words) // count))
    return ["".join(words[i : i + size]) for i in range(0, len(words), size)]


def stream_events(outcome: ChatOutcome, model: str, include_usage: bool = False) -> Iterator[str]:
    """Server-sent ``chat.completion.chunk`` events: the role, the content in pieces, the final chunk carrying the
    verdicts, then ``[DONE]``. `include_usage` (``stream_options``): every chunk has ``usage: null`` and one more,
    without choices, carries the usage before ``[DONE]``, as OpenAI sends them."""
    envelope = outcome.envelope
    assert envelope is not None
    base = {"id": f"chatcmpl-{uuid.uuid4().hex}", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": model}  # fmt: skip

    if include_usage:
        base["usage"] = None

    def event(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
        chunk = {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
        return f"data: {sse_json(chunk)}\n\n"

    yield event({"role": "assistant", "content": ""})
    for piece in _pieces(envelope.text):
        yield event({"content": piece})
    refusal = envelope.answer if envelope.status in _REFUSED else None
    yield event({"refusal": refusal} if refusal else {}, "stop", **verdicts(outcome))
    if include_usage:
        yield f"data: {sse_json({**base, 'choices': [], 'usage': outcome.usage})}\n\n"
    yield "data: [DONE]\n\n"


@router.post("/chat/completions")
async def chat_completions(request: Request) -> Response:
    body = await json_body(request)
    query = chat_query(body)
    stream = optional(body, "stream", bool, False)
    include_usage = chat_options(body, stream)
    gateway = _gateway(request)
    model = optional(body, "model", str, None) or gateway.settings.upstream.model
    outcome = await run_in_threadpool(gateway.chat, query)
    timing = {"Server-Timing": outcome.server_timing()}
    if outcome.error is not None:
        error = outcome.error
        return JSONResponse(
            {"error": {"message": error.message, "type": "upstream_error"}, "sufficiency": outcome.sufficiency},
            status_code=error.status,
            headers=timing,
        )
    assert outcome.envelope is not None
    request.app.state.metrics.answers.labels(status=outcome.envelope.status).inc()
    gating = outcome.envelope.gating
    best = gating.get("max_score")
    gateway.gate_stats.record(
        gating.get("outcome") != "no_evidence", 0.0 if best is None else min(1.0, max(0.0, float(best)))
    )
    if stream:
        return StreamingResponse(stream_events(outcome, model, include_usage), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", **timing})  # fmt: skip
    return JSONResponse(completion(outcome, model), headers=timing)


def _model(model_id: str) -> dict[str, Any]:
    return {"id": model_id, "object": "model", "created": _STARTED, "owned_by": "sufficient-context"}


@router.get("/models")
async def models(request: Request) -> dict[str, Any]:
    """The one model served (``server.upstream.model``), as clients list models before choosing one."""
    return {"object": "list", "data": [_model(_gateway(request).settings.upstream.model)]}


@router.get("/models/{model_id:path}")
async def model(model_id: str, request: Request) -> Response:
    served = _gateway(request).settings.upstream.model
    if model_id != served:
        return error_response(404, f"model {model_id!r} is not served here; GET /v1/models lists {served!r}",
                              "not_found", param="model", code="model_not_found")  # fmt: skip
    return JSONResponse(_model(served))


@router.post("/review")
async def review(request: Request) -> JSONResponse:
    body = await json_body(request)
    question = required(body, "question", str)
    if not question.strip():
        raise BadRequest("question", "question must not be empty")
    context = body.get("context")
    if isinstance(context, str):
        context = [context]
    elif context is not None and not isinstance(context, list):
        raise BadRequest("context", "context must be a string or an array of chunks")
    gateway = _gateway(request)
    try:
        verdict = await run_in_threadpool(gateway.review, question, context)
    except (TypeError, ValueError) as exc:  # a malformed chunk: the message names context[i] and the field
        message = re.sub(r"\b(?:chunks|retrieved_contexts)\[", "context[", str(exc))
        raise BadRequest("context", message) from None
    return JSONResponse(verdict)


@router.post("/feedback")
async def feedback(request: Request) -> JSONResponse:
    body = await json_body(request)
    log_id = required(body, "log_id", int)
    correct = required(body, "correct", bool)
    note = optional(body, "note", str, None)
    gateway = _gateway(request)
    try:
        # False: the log could not be written, and QueryLog.feedback kept the verdict in its spill file
        stored = await run_in_threadpool(gateway.log.feedback, log_id, correct, note)
    except KeyError:
        return error_response(404, f"log_id {log_id} names no query-log row", "not_found", param="log_id")
    if not stored:  # accepted, not yet in the log: an operator merges the spill file
        return JSONResponse({"ok": True, "spilled": True, "message": "the query log could not be written (locked "
                             "past its deadline, read-only or full); the verdict was kept in its spill file"},
                            status_code=202)  # fmt: skip
    return JSONResponse({"ok": True})


@router.get("/sources/{chunk_id:path}")
async def source(request: Request, chunk_id: str) -> JSONResponse:
    gateway = _gateway(request)
    # Only an id present in the index resolves: nothing is opened by a path taken from the request.
    found = None if gateway.index is None else await run_in_threadpool(gateway.index.source, chunk_id)
    if found is None:
        return error_response(404, "no indexed chunk has this id", "not_found")
    return JSONResponse(found)


@router.get("/history")
async def history(request: Request) -> JSONResponse:
    raw = request.query_params.get("limit", "50")
    try:
        limit = int(raw)
    except ValueError:
        raise BadRequest("limit", f"limit must be an integer; got {raw!r}") from None
    if not 1 <= limit <= _MAX_HISTORY:
        raise BadRequest("limit", f"limit must be in [1, {_MAX_HISTORY}]; got {limit}")
    gateway = _gateway(request)
    rows = await run_in_threadpool(gateway.log.rows, limit, newest_first=True)
    return JSONResponse({"rows": [
        {"id": row["id"], "ts": row["timestamp"], "query": row["question"], "status": row["decision"],
         "score": row["score"], "feedback": row["feedback_correct"]}
        for row in rows
    ]})  # fmt: skip
