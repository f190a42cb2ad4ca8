"""The gateway (``sufficient-context serve``) end to end over real HTTP: uvicorn on loopback, a fake OpenAI-compatible
upstream that answers, fails or hangs, and httpx as the client."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

import sufficient_context as sc
from sufficient_context.querylog import QueryLogWarning
from sufficient_context.server import ServerSettings, UpstreamSettings, create_app

SUFFICIENT = "What is the punishment for cheating under Section 420 of the Indian Penal Code?"
PARTIAL = "What is the punishment for cheating under Section 420 in Delhi?"
INSUFFICIENT = "Is cheating under Section 420 bailable?"
OFF_TOPIC = "What is the capital of France?"
JSON = {"Content-Type": "application/json"}

IPC = """# Indian Penal Code

## Section 415

Section 415 defines cheating. Whoever, by deceiving any person, fraudulently or dishonestly induces
the person so deceived to deliver any property is said to cheat.

## Section 420

Section 420 of the Indian Penal Code: whoever cheats and thereby dishonestly induces the person
deceived to deliver any property to any person shall be punished with imprisonment of either
description for a term which may extend to seven years, and shall also be liable to fine.
"""
CRPC = """# Code of Criminal Procedure

## Section 154

Every information relating to the commission of a cognizable offence, if given orally to an officer
in charge of a police station, shall be reduced to writing by him or under his direction.
"""


# ---------------------------------------------------------------------------------------------------------------------
# Servers
# ---------------------------------------------------------------------------------------------------------------------
USAGE = {"prompt_tokens": 412, "completion_tokens": 17, "total_tokens": 429}
ZERO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


class FakeUpstream:
    """An OpenAI-compatible chat completions server on loopback. mode "answer" copies the first sentence of the
    [S1] excerpt with its citation, with `usage` (None: none sent) ("surrogate": with a lone surrogate escape before
    the citation); "error" answers HTTP 500; "hang" waits (until released) without answering."""

    def __init__(self) -> None:
        self.mode = "answer"
        self.calls = 0
        self.usage: Any = USAGE
        self.release = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the gateway's connection pool expects

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                owner.calls += 1
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                try:
                    if owner.mode == "hang":
                        owner.release.wait(10)
                        return
                    if owner.mode == "error":
                        self._send(500, b'{"error": "boom"}')
                        return
                    system = body["messages"][0]["content"]
                    lines = system.split("\n")
                    excerpt = next(lines[i + 1] for i, line in enumerate(lines) if line.startswith("[S1] "))
                    sentence = re.split(r"(?<=[.!?])\s", excerpt)[0].rstrip(".")
                    odd = " \udce2" if owner.mode == "surrogate" else ""  # json.dumps writes "\udce2"
                    message = {"role": "assistant", "content": f"{sentence}{odd} [S1]."}
                    reply: dict[str, Any] = {"choices": [{"index": 0, "message": message}]}
                    if owner.usage is not None:
                        reply["usage"] = owner.usage
                    self._send(200, json.dumps(reply).encode())
                except OSError:  # the gateway gave up on us
                    pass

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        class Server(ThreadingHTTPServer):
            request_queue_size = 128  # a burst of 16 connections must not overflow the listen backlog
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class Gateway:
    """A gateway app served by uvicorn in a thread."""

    def __init__(self, settings: ServerSettings, retriever: Any = None) -> None:
        self.settings = settings
        self.app = create_app(settings, retriever=retriever)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.client = httpx.Client(base_url=self.url, timeout=10)

    @property
    def log_path(self) -> Path:
        data_dir = self.settings.resolved_data_dir
        assert data_dir is not None
        return data_dir / "querylog.db"

    def chat(self, query: str, **extra: Any) -> httpx.Response:
        body = {"messages": [{"role": "user", "content": query}], **extra}
        return self.client.post("/v1/chat/completions", json=body)

    def close(self) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(10)


def _docs(root: Path) -> Path:
    (root / "statutes").mkdir(parents=True)
    (root / "statutes" / "ipc.md").write_text(IPC, encoding="utf-8")
    (root / "statutes" / "crpc.md").write_text(CRPC, encoding="utf-8")
    return root


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    fake = FakeUpstream()
    yield fake
    fake.close()


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory, upstream: FakeUpstream) -> Iterator[Gateway]:
    """The main gateway: the fake upstream (0.5 s timeout), a 64 KB body limit, no API key."""
    docs = _docs(tmp_path_factory.mktemp("docs"))
    settings = ServerSettings(
        docs=docs,
        upstream=UpstreamSettings(url=upstream.url, model="fake", timeout_s=0.5),
        max_request_bytes=64 * 1024,
        reindex_interval_s=0.2,
    )
    gateway = Gateway(settings)
    yield gateway
    gateway.close()


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """Extractive answers, decline_insufficient: false, an API key; its YAML read through ServerSettings.load."""
    docs = _docs(tmp_path_factory.mktemp("docs-keyed"))
    config = tmp_path_factory.mktemp("config") / "gateway.yaml"
    config.write_text(
        "server:\n  api_key: sekret\n  top_k: 5\nsufficient_context:\n  decline_insufficient: false\n", encoding="utf-8"
    )
    gateway = Gateway(ServerSettings.load(config, docs=docs))
    yield gateway
    gateway.close()


@pytest.fixture(scope="module")
def down(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    """Its upstream is a closed port."""
    docs = _docs(tmp_path_factory.mktemp("docs-down"))
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    gateway = Gateway(ServerSettings(docs=docs, upstream=UpstreamSettings(url=url, timeout_s=0.5)))
    yield gateway
    gateway.close()


def _events(response: httpx.Response) -> list[Any]:
    out: list[Any] = []
    for line in response.iter_lines():
        if line.startswith("data: "):
            data = line[len("data: ") :]
            out.append(data if data == "[DONE]" else json.loads(data))
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------------------------------------------------
def test_sufficient_context_answers_with_citations_in_the_openai_shape(gw: Gateway, upstream: FakeUpstream) -> None:
    calls = upstream.calls
    response = gw.chat(SUFFICIENT, model="anything")
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["id"].startswith("chatcmpl-")
    assert isinstance(body["created"], int)
    assert body["model"] == "anything"
    assert body["usage"] == USAGE  # the upstream's counts, passed on
    (choice,) = body["choices"]
    assert choice["index"] == 0
    assert choice["finish_reason"] == "stop"
    message = choice["message"]
    assert message["role"] == "assistant"
    assert message["refusal"] is None
    assert message["content"].startswith("Answer:\nSection 420")
    assert "[S1]" in message["content"]
    assert "\n\nSources:\n- [S1] ipc.md, Section 420" in message["content"]
    assert body["sufficiency"]["level"] == "sufficient"
    assert set(body["sufficiency"]) == {"score", "level", "factors", "missing"}
    assert body["sources"][0]["id"] == "statutes/ipc.md#1"
    assert body["sources"][0]["label"] == "S1"
    grounding = body["grounding"]
    assert grounding["status"] == "answered"
    assert grounding["attribution_coverage"] == 1.0
    assert grounding["claims"][0]["kept"] is True
    assert grounding["removed_sentences"] == []
    assert 0 < grounding["confidence"] <= 1
    assert isinstance(body["log_id"], int)
    assert upstream.calls == calls + 1


def test_partial_context_answers_with_the_caveat(gw: Gateway) -> None:
    body = gw.chat(PARTIAL).json()
    assert body["sufficiency"]["level"] == "partial"
    assert body["grounding"]["status"] == "answered_with_caveat"
    assert body["choices"][0]["message"]["refusal"] is None
    assert sc.CAVEAT in body["choices"][0]["message"]["content"]
    assert "Query term 'delhi' not found in context" in body["sufficiency"]["missing"]


def test_insufficient_context_declines_naming_what_is_missing(gw: Gateway, upstream: FakeUpstream) -> None:
    calls = upstream.calls
    response = gw.chat(INSUFFICIENT)
    assert response.status_code == 200
    body = response.json()
    message = body["choices"][0]["message"]
    assert body["grounding"]["status"] == "insufficient_evidence"
    assert body["sufficiency"]["level"] == "insufficient"
    assert message["refusal"].startswith("I don't have sufficient information to answer this question accurately.")
    assert "bailable" in message["refusal"]
    assert message["content"] == f"Answer:\n{message['refusal']}"
    assert upstream.calls == calls  # declined before the model


def test_no_evidence_refuses_without_a_sufficiency_check(gw: Gateway, upstream: FakeUpstream) -> None:
    calls = upstream.calls
    body = gw.chat(OFF_TOPIC).json()
    assert body["grounding"]["status"] == "no_evidence"
    refusal = body["choices"][0]["message"]["refusal"]
    assert refusal.startswith(sc.NO_EVIDENCE_MESSAGE)
    assert refusal.endswith("No chunks were retrieved.")  # the gate's reason: the docs index found nothing
    assert body["sufficiency"] is None
    assert body["sources"] == []
    assert upstream.calls == calls


def test_without_decline_insufficient_answers_under_the_low_confidence_banner(keyed: Gateway) -> None:
    response = keyed.client.post(
        "/v1/chat/completions",
        json={"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": INSUFFICIENT}]},
        headers={"Authorization": "Bearer sekret"},
    )
    body = response.json()
    assert response.status_code == 200
    assert body["sufficiency"]["level"] == "insufficient"
    assert body["grounding"]["status"] == "answered_with_caveat"
    assert body["choices"][0]["message"]["refusal"] is None
    assert body["choices"][0]["message"]["content"].startswith(sc.LOW_CONFIDENCE_BANNER + "\n")


def test_the_query_is_the_last_user_message_and_content_parts_count(gw: Gateway) -> None:
    messages = [
        {"role": "user", "content": OFF_TOPIC},
        {"role": "assistant", "content": "No."},
        {"role": "user", "content": [{"type": "text", "text": SUFFICIENT}, {"type": "image_url", "image_url": {}}]},
    ]
    body = gw.client.post("/v1/chat/completions", json={"messages": messages}).json()
    assert body["grounding"]["status"] == "answered"


# ---------------------------------------------------------------------------------------------------------------------
# Streaming
# ---------------------------------------------------------------------------------------------------------------------
def test_streaming_sends_openai_chunks_then_the_verdicts_then_done(gw: Gateway) -> None:
    plain = gw.chat(SUFFICIENT).json()
    with gw.client.stream(
        "POST", "/v1/chat/completions", json={"messages": [{"role": "user", "content": SUFFICIENT}], "stream": True}
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _events(response)
    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert len({c["id"] for c in chunks}) == 1
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    pieces = [c["choices"][0]["delta"].get("content", "") for c in chunks]
    assert len([p for p in pieces if p]) >= 2
    assert "".join(pieces) == plain["choices"][0]["message"]["content"]
    final = chunks[-1]
    assert final["choices"][0]["finish_reason"] == "stop"
    assert all(c["choices"][0]["finish_reason"] is None for c in chunks[:-1])
    assert final["sufficiency"]["level"] == "sufficient"
    assert final["sources"][0]["id"] == "statutes/ipc.md#1"
    assert final["grounding"]["status"] == "answered"
    assert isinstance(final["log_id"], int)
    assert final["log_id"] != plain["log_id"]


def test_a_streamed_decline_carries_the_refusal(gw: Gateway) -> None:
    with gw.client.stream(
        "POST", "/v1/chat/completions", json={"messages": [{"role": "user", "content": INSUFFICIENT}], "stream": True}
    ) as response:
        events = _events(response)
    final = events[-2]
    assert final["choices"][0]["delta"]["refusal"].startswith("I don't have sufficient information")
    assert final["sufficiency"]["level"] == "insufficient"


def test_the_options_openai_clients_send_are_accepted_and_the_usage_chunk_ends_the_stream(gw: Gateway) -> None:
    # The body and headers the openai SDK (and LangChain's ChatOpenAI over it) sends with everyday options.
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
    messages = [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": OFF_TOPIC},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
                                                               "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "42"}]},
        {"role": "user", "content": [{"type": "text", "text": SUFFICIENT}]},
    ]  # fmt: skip
    body = {"messages": messages, "model": "gpt-4o", "temperature": 0.7, "max_tokens": 5, "n": 1, "stop": ["Section"],
            "seed": 3, "user": "u1", "tools": tools, "tool_choice": "auto", "response_format": {"type": "text"},
            "stream": True, "stream_options": {"include_usage": True}}  # fmt: skip
    headers = {"Authorization": "Bearer sk-ignored", "X-Stainless-Lang": "python", "OpenAI-Organization": "org"}
    with gw.client.stream("POST", "/v1/chat/completions", json=body, headers=headers) as response:
        assert response.status_code == 200
        events = _events(response)
    assert events[-1] == "[DONE]"
    *answer, usage = events[:-1]
    assert all(c["usage"] is None for c in answer)  # as OpenAI sends them with include_usage
    assert answer[-1]["grounding"]["status"] == "answered"
    assert usage["choices"] == []
    assert usage["usage"] == USAGE
    assert usage["id"] == answer[0]["id"]
    plain = gw.client.post("/v1/chat/completions", json={**body, "stream": False}, headers=headers)
    assert plain.status_code == 200
    assert plain.json()["grounding"]["status"] == "answered"


@pytest.mark.parametrize(
    ("sent", "passed_on"),
    [
        (None, ZERO_USAGE),  # the upstream counts nothing
        ({"prompt_tokens": 5, "completion_tokens": 2}, {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}),
        ({"prompt_tokens": "5", "completion_tokens": 2, "total_tokens": 7}, ZERO_USAGE),  # not counts: not passed on
        ({"prompt_tokens": -1, "completion_tokens": 2, "total_tokens": 1}, ZERO_USAGE),
        ({"prompt_tokens": True, "completion_tokens": 2, "total_tokens": 3}, ZERO_USAGE),
        ([1, 2, 3], ZERO_USAGE),
    ],
)
def test_usage_is_the_upstreams_counts_and_zero_when_it_sends_none(
    gw: Gateway, upstream: FakeUpstream, sent: Any, passed_on: dict[str, int]
) -> None:
    upstream.usage = sent
    try:
        response = gw.chat(SUFFICIENT)
    finally:
        upstream.usage = USAGE
    assert response.status_code == 200
    assert response.json()["grounding"]["status"] == "answered"
    assert response.json()["usage"] == passed_on


def test_a_question_declined_before_the_model_counts_no_tokens(gw: Gateway, upstream: FakeUpstream) -> None:
    calls = upstream.calls
    body = {"messages": [{"role": "user", "content": INSUFFICIENT}], "stream": True,
            "stream_options": {"include_usage": True}}  # fmt: skip
    with gw.client.stream("POST", "/v1/chat/completions", json=body) as response:
        events = _events(response)
    assert events[-2]["usage"] == ZERO_USAGE
    assert events[-3]["grounding"]["status"] == "insufficient_evidence"
    assert upstream.calls == calls


def test_models_list_the_one_model_served(gw: Gateway, keyed: Gateway) -> None:
    listed = gw.client.get("/v1/models")
    assert listed.status_code == 200
    body = listed.json()
    assert body["object"] == "list"
    (model,) = body["data"]
    assert model["id"] == "fake"  # server.upstream.model
    assert model["object"] == "model"
    assert isinstance(model["created"], int)
    assert model["owned_by"] == "sufficient-context"
    assert gw.client.get("/v1/models/fake").json() == model
    missing = gw.client.get("/v1/models/gpt-4o")
    assert missing.status_code == 404
    error = missing.json()["error"]
    assert (error["type"], error["param"], error["code"]) == ("not_found", "model", "model_not_found")
    assert "'gpt-4o'" in error["message"]
    assert "'fake'" in error["message"]
    assert keyed.client.get("/v1/models").status_code == 401  # behind the key like the rest of /v1
    served = keyed.client.get("/v1/models", headers={"Authorization": "Bearer sekret"}).json()["data"]
    assert [m["id"] for m in served] == ["default"]  # no upstream configured: the default name


# ---------------------------------------------------------------------------------------------------------------------
# Upstream failures
# ---------------------------------------------------------------------------------------------------------------------
def test_upstream_down_is_502_with_the_sufficiency(down: Gateway) -> None:
    response = down.chat(SUFFICIENT)
    assert response.status_code == 502
    body = response.json()
    assert body["error"]["type"] == "upstream_error"
    assert "unreachable" in body["error"]["message"]
    assert body["sufficiency"]["level"] == "sufficient"
    # Declines never reach the model, so they still answer.
    assert down.chat(INSUFFICIENT).json()["grounding"]["status"] == "insufficient_evidence"


def test_upstream_error_is_502(gw: Gateway, upstream: FakeUpstream) -> None:
    upstream.mode = "error"
    try:
        response = gw.chat(SUFFICIENT)
    finally:
        upstream.mode = "answer"
    assert response.status_code == 502
    assert "HTTP 500" in response.json()["error"]["message"]


def test_lone_surrogates_in_the_models_reply_or_the_question_are_answered_not_500(
    gw: Gateway, upstream: FakeUpstream
) -> None:
    # JSON may escape a lone surrogate ("\udce2"): in the upstream's reply it reached the answer, in the question
    # the prompt and the envelope, and the response had no UTF-8 form (500; a reset connection when streaming).
    question = json.dumps(SUFFICIENT + " \ud800").encode()  # ASCII: the escape travels as written
    upstream.mode = "surrogate"
    try:
        for stream in (b"false", b"true"):
            raw = b'{"stream": ' + stream + b', "messages": [{"role": "user", "content": ' + question + b"}]}"
            response = gw.client.post("/v1/chat/completions", content=raw, headers=JSON)
            assert response.status_code == 200
            if stream == b"true":
                events = _events(response)
                text = "".join(e["choices"][0]["delta"].get("content", "") for e in events[:-1] if e["choices"])
            else:
                text = response.json()["choices"][0]["message"]["content"]
            assert "\ufffd [S1]." in text
    finally:
        upstream.mode = "answer"


def test_stream_events_holding_unicode_line_separators_stay_one_data_line_each(gw: Gateway) -> None:
    # U+2028 and U+0085 are line breaks to str.splitlines (httpx's iter_lines): written raw into a data line (here
    # in the echoed model name, in every chunk), they cut its JSON in two for such readers.
    name = "my\u2028model\x85v2"
    response = gw.chat(SUFFICIENT, stream=True, model=name)
    events = _events(response)  # reads by iter_lines, parses every data line
    assert events[-1] == "[DONE]"
    assert all(e["model"] == name for e in events[:-1])


def test_slow_upstream_is_504_within_the_timeout_with_the_sufficiency(gw: Gateway, upstream: FakeUpstream) -> None:
    expected = gw.chat(PARTIAL).json()["sufficiency"]
    upstream.mode = "hang"
    try:
        started = time.monotonic()
        response = gw.chat(PARTIAL, stream=True)
        elapsed = time.monotonic() - started
    finally:
        upstream.mode = "answer"
    assert response.status_code == 504
    assert elapsed < 8  # the 0.5 s upstream timeout, not the client's 10 s; slack for a loaded CI host
    body = response.json()
    assert body["error"]["type"] == "upstream_error"
    assert body["sufficiency"] == expected  # the same verdict the answerer reaches


# ---------------------------------------------------------------------------------------------------------------------
# Bad requests, limits, keys
# ---------------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"messages": "hello"}, "messages"),
        ({}, "messages"),
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "user", "content": 5}]}, "messages[0].content"),
        ({"messages": [{"content": "hi"}]}, "messages[0].role"),
        ({"messages": [{"role": "user", "content": "hi"}, {"role": "hacker", "content": "hi"}]}, "messages[1].role"),
        ({"messages": [{"role": "user", "content": [{"type": "text", "text": 1}]}]}, "messages[0].content[0].text"),
        ({"messages": [{"role": "system", "content": "hi"}]}, "messages"),
        ({"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}, "stream"),
        ({"messages": [{"role": "user", "content": "hi"}], "model": 3}, "model"),
        # What the openai SDK sends for options whose result the gateway cannot give: refused, not ignored.
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:,"}}]}]},
            "messages[0].content",
        ),
        ({"messages": [{"role": "user", "content": "hi"}], "n": 2}, "n"),
        ({"messages": [{"role": "user", "content": "hi"}], "tool_choice": "required"}, "tool_choice"),
        (
            {
                "messages": [{"role": "user", "content": "hi"}],
                "tool_choice": {"type": "function", "function": {"name": "f"}},
            },
            "tool_choice",
        ),
        ({"messages": [{"role": "user", "content": "hi"}], "function_call": {"name": "f"}}, "function_call"),
        (
            {
                "messages": [{"role": "user", "content": "hi"}],
                "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {"type": "object"}}},
            },
            "response_format",
        ),
        (
            {"messages": [{"role": "user", "content": "hi"}], "stream": True, "stream_options": {"include_usage": 1}},
            "stream_options.include_usage",
        ),
    ],
)
def test_malformed_chat_requests_are_400_naming_the_field(gw: Gateway, body: Any, param: str) -> None:
    response = gw.client.post("/v1/chat/completions", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert error["param"] == param
    assert param.split("[")[0] in error["message"]


def test_invalid_json_and_non_objects_are_400(gw: Gateway) -> None:
    for content in (b"{not json", b"[1, 2]", b"\xff\xfe"):
        response = gw.client.post("/v1/chat/completions", content=content, headers={"Content-Type": "application/json"})
        assert response.status_code == 400
        assert response.json()["error"]["param"] is None
    for path, body, param in (
        ("/v1/feedback", {"log_id": "1", "correct": True}, "log_id"),
        ("/v1/feedback", {"log_id": 1, "correct": "yes"}, "correct"),
        ("/v1/review", {"context": "x"}, "question"),
        ("/v1/review", {"question": "q", "context": 3}, "context"),
    ):
        response = gw.client.post(path, json=body)
        assert response.status_code == 400, (path, body)
        assert response.json()["error"]["param"] == param
    assert gw.client.get("/v1/history", params={"limit": "many"}).json()["error"]["param"] == "limit"


def test_bodies_over_the_limit_are_413(gw: Gateway) -> None:
    big = {"messages": [{"role": "user", "content": "x" * (70 * 1024)}]}
    assert gw.client.post("/v1/chat/completions", json=big).status_code == 413

    def chunked() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"messages": [{"role": "user", "content": "'
        for _ in range(80):
            yield b"y" * 1024
        yield b'"}]}'

    response = httpx.post(f"{gw.url}/v1/chat/completions", content=chunked(), timeout=10)
    assert response.status_code == 413
    assert response.json()["error"]["type"] == "request_too_large"
    assert gw.chat(SUFFICIENT).status_code == 200  # the server is fine


def test_json_too_deep_or_with_huge_integers_is_400_not_500(gw: Gateway) -> None:
    deep = "[" * 5000 + "]" * 5000  # the decoder's recursion, not the body limit
    huge = "1" + "0" * 5000  # past Python's int_max_str_digits (4300)
    metadata = '{"a":' * 3000 + "1" + "}" * 3000
    for path, body, words in (
        ("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "x": ' + deep + "}", "deeply"),
        ("/v1/chat/completions", deep, "deeply"),
        ("/v1/feedback", '{"log_id": ' + huge + ', "correct": true}', "4300 digits"),
        ("/v1/review", '{"question": "q", "context": [{"content": "x", "metadata": ' + metadata + "}]}", "deeply"),
        ("/v1/deliberations", '{"threshold": ' + huge + "}", "4300 digits"),
    ):
        response = gw.client.post(path, content=body, headers=JSON)
        assert response.status_code == 400, (path, response.text)
        error = response.json()["error"]
        assert error["type"] == "invalid_request_error"
        assert words in error["message"], (path, error)
    assert gw.chat(SUFFICIENT).status_code == 200


@pytest.mark.parametrize(
    ("method", "path", "status", "allow"),
    [
        ("GET", "/v1/nope", 404, None),
        ("GET", "/static/nope.js", 404, None),
        ("GET", "/v1/chat/completions", 405, "POST"),
        ("PUT", "/v1/review", 405, "POST"),
        ("POST", "/healthz", 405, "GET"),
        ("HEAD", "/", 405, "GET"),
    ],
)
def test_unknown_routes_and_wrong_methods_answer_in_the_error_shape(
    gw: Gateway, method: str, path: str, status: int, allow: str | None
) -> None:
    response = gw.client.request(method, path)
    assert response.status_code == status
    assert response.headers.get("allow") == allow
    if method == "HEAD":  # no body to read
        return
    error = response.json()["error"]
    assert error["type"] == ("not_found" if status == 404 else "method_not_allowed")
    assert path in error["message"]
    assert "detail" not in response.json()


def test_bodies_not_declared_as_json_are_415(gw: Gateway) -> None:
    # A web page may POST text/plain or a form to any site without a CORS preflight, but not application/json.
    body = json.dumps({"messages": [{"role": "user", "content": SUFFICIENT}]})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {} if content_type is None else {"Content-Type": content_type}
        for path in ("/v1/chat/completions", "/v1/feedback", "/v1/review", "/v1/deliberations"):
            response = gw.client.post(path, content=body, headers=headers)
            assert response.status_code == 415, (path, content_type)
            error = response.json()["error"]
            assert error["type"] == "unsupported_media_type"
            assert error["param"] == "Content-Type"
            assert "Content-Type: application/json" in error["message"]
    for content_type in ("application/json", "application/json; charset=utf-8", "Application/JSON"):
        response = gw.client.post("/v1/chat/completions", content=body, headers={"Content-Type": content_type})
        assert response.status_code == 200, content_type


def test_without_a_key_only_host_headers_naming_this_server_are_served(gw: Gateway, keyed: Gateway) -> None:
    # DNS rebinding: a page of evil.example, its name now resolving to 127.0.0.1, sends Host: evil.example:<port>.
    port = gw.url.rsplit(":", 1)[1]
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", f"localhost.:{port}x"):
        for path in ("/v1/history", "/v1/sources/statutes/ipc.md%231", "/"):
            response = gw.client.get(path, headers={"Host": host})
            assert response.status_code == 421, (host, path)
            error = response.json()["error"]
            assert (error["type"], error["param"]) == ("misdirected_request", "Host")
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "192.168.1.20:8000", "LOCALHOST"):
        assert gw.client.get("/v1/history", headers={"Host": host}).status_code == 200, host
    # With a key, the key guards the routes; a proxy or a container name may put any host in front.
    assert keyed.client.get("/v1/history", headers={"Host": "gateway.internal"}).status_code == 401
    authorized = {"Host": "gateway.internal", "Authorization": "Bearer sekret"}
    assert keyed.client.get("/v1/history", headers=authorized).status_code == 200


def test_the_configured_host_name_is_served_without_a_key(tmp_path: Path) -> None:
    gateway = Gateway(ServerSettings(data_dir=tmp_path, host="gateway.internal"), retriever=ListRetriever())
    try:
        assert gateway.client.get("/healthz", headers={"Host": "gateway.internal:8000"}).status_code == 200
        assert gateway.client.get("/healthz", headers={"Host": "other.internal:8000"}).status_code == 421
    finally:
        gateway.close()


def test_console_pages_share_one_layout_marking_their_own_nav_link(gw: Gateway) -> None:
    scripts = {"/": "console.js", "/history": "console.js", "/deliberation": "deliberation.js"}
    for path, script in scripts.items():
        html = gw.client.get(path).text
        current = re.findall(r'<a href="([^"]+)" aria-current="page">', html)
        assert current == [path], path
        assert html.count('id="auth-form"') == 1, path  # the layout's API-key form, once per page
        assert f'<script src="/static/{script}" defer></script>' in html, path
        assert html.rstrip().endswith("</html>"), path


def test_api_key_guards_every_route_but_health_and_the_console(keyed: Gateway) -> None:
    client = keyed.client
    body = {"messages": [{"role": "user", "content": SUFFICIENT}]}
    assert client.post("/v1/chat/completions", json=body).status_code == 401
    assert client.post("/v1/chat/completions", json=body, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/v1/chat/completions", json=body, headers={"Authorization": "sekret"}).status_code == 401
    assert client.post("/v1/chat/completions", json=body, headers={"Authorization": "Basic sekret"}).status_code == 401
    for path in ("/v1/history", "/metrics", "/v1/sources/statutes/ipc.md%231"):
        assert client.get(path).status_code == 401, path
    assert client.post("/v1/review", json={"question": "q"}).status_code == 401
    assert client.post("/v1/feedback", json={"log_id": 1, "correct": True}).status_code == 401
    response = client.post("/v1/chat/completions", json=body, headers={"Authorization": "Bearer sekret"})
    assert response.status_code == 200
    assert response.json()["grounding"]["status"] == "answered"
    assert response.json()["choices"][0]["message"]["content"].startswith("Answer:\n")
    assert client.get("/v1/history", headers={"Authorization": "bearer sekret"}).status_code == 200  # any case
    assert client.get("/healthz").json() == {"status": "ok"}
    for page in ("/", "/history", "/deliberation"):
        assert client.get(page).status_code == 200
        assert client.get(page).headers["content-type"].startswith("text/html")


# ---------------------------------------------------------------------------------------------------------------------
# Sources, feedback, history, review, metrics
# ---------------------------------------------------------------------------------------------------------------------
def test_sources_return_the_document_and_the_chunk_offsets(gw: Gateway) -> None:
    response = gw.client.get("/v1/sources/statutes/ipc.md%231")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == "statutes/ipc.md#1"
    assert body["source_path"] == "statutes/ipc.md"
    assert body["heading"] == "Section 420"
    assert body["chunk_index"] == 1
    assert body["document"] == IPC
    quoted = body["document"][body["start"] : body["end"]]
    assert quoted.startswith("Section 420 of the Indian Penal Code: whoever cheats")
    assert quoted.endswith("liable to fine.")
    assert " ".join(quoted.split()) == " ".join(IPC.split("## Section 420\n\n")[1].split())


@pytest.mark.parametrize(
    "path",
    [
        "/v1/sources/..%2F..%2Fetc%2Fpasswd",
        "/v1/sources/%2Fetc%2Fpasswd",
        "/v1/sources//etc/passwd",
        "/v1/sources/statutes/..%2Fstatutes%2Fipc.md%231",
        "/v1/sources/statutes/ipc.md",
        "/v1/sources/statutes/ipc.md%2399",
        "/v1/sources/statutes%2Fipc.md%230%00",
        "/v1/sources/..%5C..%5Cwindows%5Cwin.ini",
        "/v1/sources/querylog.db",
    ],
)
def test_sources_resolve_only_indexed_ids(gw: Gateway, path: str) -> None:
    response = gw.client.get(path)
    assert response.status_code == 404
    assert "root:" not in response.text


def test_feedback_is_stored_in_the_query_log_and_shown_in_history(gw: Gateway) -> None:
    first = gw.chat(SUFFICIENT).json()["log_id"]
    second = gw.chat(INSUFFICIENT).json()["log_id"]
    assert gw.client.post("/v1/feedback", json={"log_id": first, "correct": False, "note": "too long"}).json() == {
        "ok": True
    }
    assert gw.client.post("/v1/feedback", json={"log_id": second, "correct": True}).json() == {"ok": True}
    missing = gw.client.post("/v1/feedback", json={"log_id": 10**9, "correct": True})
    assert missing.status_code == 404
    with sc.QueryLog(gw.log_path, read_only=True) as log:
        rows = {row["id"]: row for row in log.rows()}
    assert rows[first]["feedback_correct"] is False
    assert rows[first]["feedback_note"] == "too long"
    assert rows[second]["feedback_correct"] is True
    history = gw.client.get("/v1/history", params={"limit": 2}).json()["rows"]
    assert [row["id"] for row in history] == [second, first]  # newest first
    assert history[0] == {
        "id": second,
        "ts": rows[second]["timestamp"],
        "query": INSUFFICIENT,
        "status": "insufficient_evidence",
        "score": rows[second]["score"],
        "feedback": True,
    }
    assert history[1]["feedback"] is False
    assert history[1]["status"] == "answered"
    assert gw.client.get("/v1/history").status_code == 200


def test_feedback_on_a_locked_log_is_spilled_and_accepted_not_lost(tmp_path: Path) -> None:
    settings = ServerSettings(docs=_docs(tmp_path / "docs"), querylog_write_deadline=0.3)
    gateway = Gateway(settings)
    try:
        log_id = gateway.chat(SUFFICIENT).json()["log_id"]
        holder = sqlite3.connect(gateway.log_path, isolation_level=None)
        try:
            holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock past the deadline
            started = time.monotonic()
            body = f'{{"log_id": {log_id}, "correct": false, "note": "wrong \\ud800 section"}}'  # a lone surrogate
            with pytest.warns(QueryLogWarning, match=f"verdict on row {log_id}"):
                response = gateway.client.post("/v1/feedback", content=body, headers=JSON)
            elapsed = time.monotonic() - started
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert response.status_code == 202
        assert response.json()["spilled"] is True
        assert "spill file" in response.json()["message"]
        assert elapsed < 5  # the 0.3 s deadline, not the default 30 s
        lines = Path(f"{gateway.log_path}.spill.jsonl").read_text(encoding="utf-8").splitlines()
        spilled = json.loads(lines[-1])
        assert (spilled["log_id"], spilled["feedback_correct"]) == (log_id, False)
        assert spilled["feedback_note"] == "wrong \ufffd section"
        assert "locked" in spilled["error"]
        with sc.QueryLog(gateway.log_path, read_only=True) as log:
            assert log.rows()[0]["feedback_correct"] is None
    finally:
        gateway.close()
    # The next start writes the spilled verdict back into the log, and empties the spill file.
    restarted = Gateway(settings)
    try:
        with sc.QueryLog(restarted.log_path, read_only=True) as log:
            row = log.rows()[0]
        assert (row["feedback_correct"], row["feedback_note"]) == (False, "wrong \ufffd section")
        assert Path(f"{restarted.log_path}.spill.jsonl").read_text(encoding="utf-8") == ""
        # Once the lock is gone, verdicts are stored again.
        assert restarted.client.post("/v1/feedback", json={"log_id": log_id, "correct": True}).json() == {"ok": True}
    finally:
        restarted.close()


def test_review_recommends_by_sufficiency(gw: Gateway) -> None:
    insufficient = gw.client.post("/v1/review", json={"question": INSUFFICIENT}).json()
    assert insufficient["recommendation"] == "REVIEW REQUIRED: Insufficient context"
    assert insufficient["context_sufficiency"]["level"] == "insufficient"
    assert set(insufficient["context_sufficiency"]) == {"score", "level", "missing"}
    percent = round(insufficient["context_sufficiency"]["score"] * 100)
    assert insufficient["concerns"] == [f"Context sufficiency: {percent}% - Query term 'bailable' not found in context"]
    partial = gw.client.post("/v1/review", json={"question": PARTIAL}).json()
    assert partial["recommendation"] == "PROCEED WITH CAUTION"
    assert "delhi" in partial["concerns"][0]
    given = IPC.split("## Section 420\n\n")[1]
    sufficient = gw.client.post("/v1/review", json={"question": SUFFICIENT, "context": given}).json()
    assert sufficient["recommendation"] == "PROCEED"
    assert sufficient["concerns"] == []
    chunks = [{"id": "a", "content": "Paris is the capital of France."}, "France is in Europe."]
    assert gw.client.post("/v1/review", json={"question": OFF_TOPIC, "context": chunks}).json()["recommendation"] == (
        "PROCEED"
    )
    bad = gw.client.post("/v1/review", json={"question": OFF_TOPIC, "context": [5]})
    assert bad.status_code == 400
    assert "context[0]" in bad.json()["error"]["message"]


def test_metrics_expose_the_stats_and_request_counters(gw: Gateway) -> None:
    gw.chat(SUFFICIENT)
    text = gw.client.get("/metrics").text
    for name in (
        "sufficient_context_score_avg",
        "sufficient_context_insufficient_count",
        "sufficient_context_partial_count",
        "sufficient_context_latency_ms",
        "sufficient_context_checks",
    ):
        assert re.search(rf"^{name} [0-9.e+-]+$", text, re.M), name
    assert re.search(
        r'^sufficient_context_http_requests_total\{method="POST",route="/v1/chat/completions",status="200"\} '
        r"[1-9][0-9]*\.0$",
        text,
        re.M,
    )
    assert 'sufficient_context_answers_total{status="answered"}' in text
    # The retrieval gate's decisions, under the gate's metric names.
    assert re.search(r"^sufficient_context_retrieval_gate_evaluations_total [1-9][0-9]*\.0$", text, re.M)
    assert re.search(r"^sufficient_context_retrieval_gate_passed_total [1-9][0-9]*\.0$", text, re.M)
    assert "sufficient_context_http_request_duration_seconds_bucket" in text
    assert gw.client.get("/healthz").json() == {"status": "ok"}


# ---------------------------------------------------------------------------------------------------------------------
# Reindexing and load
# ---------------------------------------------------------------------------------------------------------------------
ZEPHYRIUM = (
    "# Zephyrium\n\nZephyrium is used for coating turbine blades.\n\n"
    "Turbine blades coated with zephyrium are used for ten years.\n"
)


def test_a_changed_docs_folder_is_reindexed(gw: Gateway) -> None:
    docs = gw.settings.docs
    assert docs is not None
    query = "What is zephyrium used for in the turbine blades?"
    assert gw.chat(query).json()["grounding"]["status"] == "no_evidence"
    (docs / "materials").mkdir()
    target = docs / "materials" / "zephyrium.md"
    target.write_text(ZEPHYRIUM, encoding="utf-8")
    time.sleep(0.3)  # past the reindex interval
    body = gw.chat(query).json()
    assert body["grounding"]["status"] == "answered", body
    assert "materials/zephyrium.md#0" in [s["id"] for s in body["sources"]]
    assert gw.client.get("/v1/sources/materials/zephyrium.md%230").json()["heading"] == "Zephyrium"
    target.write_text(ZEPHYRIUM.replace("blades.", "blades and rotors."), encoding="utf-8")
    time.sleep(0.3)
    gw.chat(query)
    assert "rotors" in gw.client.get("/v1/sources/materials/zephyrium.md%230").json()["document"]
    target.unlink()
    time.sleep(0.3)
    assert gw.chat(query).json()["grounding"]["status"] == "no_evidence"
    assert gw.client.get("/v1/sources/materials/zephyrium.md%230").status_code == 404


def test_the_index_persists_and_is_reused_when_nothing_changed(gw: Gateway) -> None:
    from sufficient_context.server import DocsIndex

    data_dir = gw.settings.resolved_data_dir
    assert gw.settings.docs is not None
    assert data_dir is not None
    reopened = DocsIndex(gw.settings.docs, data_dir / "copy")
    try:
        assert reopened.rebuilds == 1
    finally:
        reopened.close()
    again = DocsIndex(gw.settings.docs, data_dir / "copy")
    try:
        assert again.rebuilds == 0  # the manifest matched: the file was reused
        assert [c.id for c in again.retrieve(SUFFICIENT, 1)] == ["statutes/ipc.md#1"]
    finally:
        again.close()


def test_200_concurrent_requests_each_get_one_log_row(tmp_path: Path, upstream: FakeUpstream) -> None:
    # A gateway of its own with a generous upstream timeout: the main one's 0.5 s (for the slow-upstream test) turns
    # into 504s when 16 requests at once meet a loaded 2-core CI machine.
    settings = ServerSettings(
        docs=_docs(tmp_path), upstream=UpstreamSettings(url=upstream.url, model="fake", timeout_s=20)
    )
    gw = Gateway(settings)
    try:
        _ask_200_concurrently(gw)
    finally:
        gw.close()


def _ask_200_concurrently(gw: Gateway) -> None:
    with sc.QueryLog(gw.log_path, read_only=True) as log:
        before = len(log)
    queries = [SUFFICIENT, PARTIAL, INSUFFICIENT, OFF_TOPIC]
    limits = httpx.Limits(max_connections=16)
    with httpx.Client(base_url=gw.url, timeout=30, limits=limits) as client:

        def ask(i: int) -> tuple[int, Any]:
            query = f"{queries[i % 4]}"
            response = client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": query}]})
            return response.status_code, response.json().get("log_id", response.text)

        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(ask, range(200)))
    assert [status for status, _ in results] == [200] * 200
    ids = [log_id for _, log_id in results]
    assert len(set(ids)) == 200
    with sc.QueryLog(gw.log_path, read_only=True) as log:
        assert len(log) == before + 200
        rows = {row["id"]: row for row in log.rows()}
    assert {rows[i]["decision"] for i in ids} == {"answered", "answered_with_caveat", "insufficient_evidence",
                                                  "no_evidence"}  # fmt: skip


def test_settings_load_merges_arguments_environment_and_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SC_API_KEY", "from-env")
    config = tmp_path / "c.yaml"
    config.write_text(
        "server:\n  port: 9000\n  upstream: {url: 'http://127.0.0.1:1/v1', timeout_s: 2}\n"
        "retrieval:\n  min_chunks: 1\n",
        encoding="utf-8",
    )
    settings = ServerSettings.load(config, docs=tmp_path, host="0.0.0.0")
    assert ServerSettings.load({"server": {"docs": "d"}}).docs == Path("d")
    config.write_text("server:\n  docs: d\n  data_dir: data\n", encoding="utf-8")
    relative = ServerSettings.load(config)
    assert (relative.docs, relative.resolved_data_dir) == (tmp_path / "d", tmp_path / "data")
    assert (settings.host, settings.port, settings.api_key) == ("0.0.0.0", 9000, "from-env")
    assert settings.upstream.timeout_s == 2
    assert settings.resolved_data_dir == tmp_path / ".sufficient-context"
    assert settings.pipeline == {"retrieval": {"min_chunks": 1}}
    assert ServerSettings.load(None, api_key="given").api_key == "given"
    monkeypatch.delenv("SC_API_KEY")
    defaults = ServerSettings.load(None)
    assert (defaults.host, defaults.port, defaults.api_key, defaults.top_k) == ("127.0.0.1", 8000, None, 5)
    assert defaults.max_request_bytes == 1024 * 1024
    assert defaults.upstream.timeout_s == 30
    assert defaults.querylog_write_deadline == 30
    with pytest.raises(ValueError, match=r"server\.querylog_write_deadline"):
        ServerSettings.load({"server": {"querylog_write_deadline": 0}})
    with pytest.raises(ValueError, match=r"server\.prot"):
        ServerSettings.load({"server": {"prot": 1}})
    with pytest.raises(ValueError, match=r"server\.upstream\.url"):
        ServerSettings.load({"server": {"upstream": {"url": "ftp://x"}}})


# ---------------------------------------------------------------------------------------------------------------------
# Retrievers and the command line
# ---------------------------------------------------------------------------------------------------------------------
class ListRetriever:
    """retrieve(query, k): the same scored chunks for every question."""

    def retrieve(self, query: str, k: int) -> list[dict[str, Any]]:
        return [
            {"id": "kb-1", "content": "The warranty lasts two years from the date of purchase.", "score": 0.9},
            {"id": "kb-2", "content": "The warranty covers parts and labour for two years.", "score": 0.8},
        ][:k]


class OneArgumentRetriever:
    """A LlamaIndex-style retrieve(query)."""

    def retrieve(self, query: str) -> list[dict[str, Any]]:
        return ListRetriever().retrieve(query, 10)


class InvokeRetriever:
    """A LangChain-style invoke(query)."""

    def invoke(self, query: str) -> list[dict[str, Any]]:
        return ListRetriever().retrieve(query, 10)


def test_a_retriever_of_ones_own_replaces_the_docs_index(tmp_path: Path) -> None:
    from sufficient_context.server.index import as_retriever

    for retriever in (OneArgumentRetriever(), InvokeRetriever()):
        assert [c["id"] for c in as_retriever(retriever).retrieve("q", 1)] == ["kb-1"]
    with pytest.raises(TypeError, match="retriever must have"):
        as_retriever(object())
    gateway = Gateway(ServerSettings(data_dir=tmp_path / "data"), retriever=ListRetriever())
    try:
        body = gateway.chat("How long does the warranty last?").json()
        assert body["grounding"]["status"] in ("answered", "answered_with_caveat")
        assert body["sufficiency"] is not None
        assert body["sources"][0]["id"] == "kb-1"
        assert gateway.client.get("/v1/sources/kb-1").status_code == 404  # not an indexed docs chunk
        assert (tmp_path / "data" / "querylog.db").is_file()
    finally:
        gateway.close()


def _serve(docs: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """`sufficient-context serve --docs DOCS` in a subprocess, once it answers /healthz: (process, base url)."""
    port = _closed_port()
    command = [sys.executable, "-m", "sufficient_context", "serve", "--docs", str(docs), "--port", str(port), *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    return process, url
            except httpx.TransportError:
                pass
            assert process.poll() is None, "serve exited"
            assert time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
    except BaseException:
        process.terminate()
        process.wait(10)
        raise


def test_the_serve_command_runs_the_gateway(tmp_path: Path) -> None:
    docs = _docs(tmp_path / "docs")
    process, url = _serve(docs, "--api-key", "k")
    try:
        assert httpx.get(f"{url}/v1/history").status_code == 401
        assert httpx.get(f"{url}/v1/history", headers={"Authorization": "Bearer k"}).json() == {"rows": []}
        assert (docs / ".sufficient-context" / "index.db").is_file()
    finally:
        process.terminate()
        process.wait(10)


def test_serve_stops_on_ctrl_c_while_a_deliberation_stream_is_open(tmp_path: Path) -> None:
    process, url = _serve(_docs(tmp_path / "docs"))
    try:
        session = httpx.post(f"{url}/v1/deliberations", json={"question": "Which queue?"}).json()["id"]
        # the console's deliberation page holds this stream open; uvicorn waited for it to end, i.e. forever
        with httpx.stream("GET", f"{url}/v1/deliberations/{session}/events", timeout=None) as stream:
            assert stream.status_code == 200
            process.send_signal(signal.SIGINT)
            assert b"".join(stream.iter_bytes()) == b""  # ends cleanly: the page reconnects to the next server
        assert process.wait(60) in (0, 130)  # it stops, as on Ctrl+C without a stream (click: 130)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)


def test_serve_without_the_server_extra_says_how_to_install_it(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['fastapi'] = None\n"
        "from sufficient_context.cli import main\n"
        f"sys.exit(main(['serve', '--docs', {str(tmp_path)!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy())
    assert done.returncode == 2
    assert "pip install 'sufficient-context[server]'" in done.stderr


def test_the_docs_index_takes_file_names_that_are_not_utf8_and_skips_links_out(tmp_path: Path) -> None:
    from sufficient_context.server.index import DocsIndex

    docs = tmp_path / "docs"
    docs.mkdir()
    with open(os.path.join(os.fsencode(docs), b"r\xe9sum\xe9.md"), "wb") as fh:
        fh.write(b"Refunds take five days.")
    secret = tmp_path / "passwd.txt"
    secret.write_text("root:x:0:0", encoding="utf-8")
    (docs / "passwd.txt").symlink_to(secret)
    with pytest.warns(UserWarning, match="a link to a file outside"):
        index = DocsIndex(docs, tmp_path / "data")
    try:
        assert [c.id for c in index.retrieve("How long do refunds take?", 5)] == ["r\\xe9sum\\xe9.md#0"]
        found = index.source("r\\xe9sum\\xe9.md#0")
        assert found is not None
        assert "Refunds take five days." in str(found)
        assert index.source("passwd.txt#0") is None
        assert index.retrieve("root", 5) == []
    finally:
        index.close()


def test_settings_from_a_file_refuse_what_would_be_lost_and_name_the_file(tmp_path: Path) -> None:
    # "sever:" was left alone as another tool's section and "server: []" read as no settings: the port, docs and
    # upstream the user wrote were silently dropped. Errors of the pipeline sections named no file.
    config = tmp_path / "gateway.yaml"
    cases = {
        "server:\n  port: 9000\nsever:\n  port: 9001\n": "unknown section 'sever'; did you mean 'server'?",
        "Server:\n  port: 9001\n": "unknown section 'Server'; did you mean 'server'?",
        "server: []\n": "server must be a mapping of settings; got list",
        "server:\n  upstream: []\n": "server.upstream must be a mapping; got list",
        "server:\n  prot: 1\n": "unknown key 'server.prot'",
        "retrieval:\n  min_chunk: 1\n": "unknown key 'retrieval.min_chunk'",
    }
    for text, message in cases.items():
        config.write_text(text, encoding="utf-8")
        with pytest.raises(ValueError, match=r"^configuration ") as info:
            ServerSettings.load(config)
        assert str(info.value).startswith(f"configuration {str(config)!r}: {message}"), str(info.value)
    config.write_text("server:\n  port: 9000\nlogging: {level: info}\n", encoding="utf-8")  # other tools: left alone
    assert ServerSettings.load(config).port == 9000


def test_an_api_key_variable_that_is_not_set_stops_the_gateway_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without this, every question went to the upstream without a key and came back as a 502 ("HTTP 401").
    monkeypatch.delenv("SC_TEST_UPSTREAM_KEY", raising=False)
    settings = ServerSettings(
        docs=_docs(tmp_path / "docs"),
        upstream=UpstreamSettings(url="http://127.0.0.1:9/v1", api_key_env="SC_TEST_UPSTREAM_KEY"),
    )
    with pytest.raises(ValueError, match="api_key_env names SC_TEST_UPSTREAM_KEY, which is not set"):
        create_app(settings)
    monkeypatch.setenv("SC_TEST_UPSTREAM_KEY", "sk-test")
    started = Gateway(settings)  # served: the key is read at start
    started.close()
