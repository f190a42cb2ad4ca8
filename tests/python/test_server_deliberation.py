"""The gateway's deliberation sessions over real HTTP: uvicorn on loopback, httpx as the client, the real
monitor behind the routes, the SSE stream read as it arrives."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from sufficient_context.deliberation import BEST_EFFORT_PROMPT, CHOICES
from sufficient_context.server import ServerSettings, create_app
from sufficient_context.server.routes_deliberation import MAX_ANSWERS, MAX_CONTRIBUTIONS

KEY = "delib-key"
JSON = {"Content-Type": "application/json"}  # what a raw body must be declared as
META = (
    "We need more information about the budget before we can assess this. What is the team size?",
    "Without knowing the deadline, it depends on many factors. Can you share more context about the launch date?",
    "I can't assess the risk without more context. Which database do you run today?",
)
ON_TOPIC = "Migrate the orders table first, then switch the reads, then drop the old schema."


class Server:
    """The gateway served by uvicorn in a thread; `client` sends the key when the server has one."""

    def __init__(self, settings: ServerSettings) -> None:
        self.server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=0,
                                                    log_level="warning"))  # fmt: skip
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        self.url = f"http://127.0.0.1:{self.server.servers[0].sockets[0].getsockname()[1]}"
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        self.client = httpx.Client(base_url=self.url, timeout=10, headers=headers)

    def start(self, **body: Any) -> str:
        response = self.client.post("/v1/deliberations", json=body)
        assert response.status_code == 201, response.text
        session_id: str = response.json()["id"]
        return session_id

    def say(self, session_id: str, round_: int, expert: str, text: str) -> dict[str, Any]:
        response = self.client.post(f"/v1/deliberations/{session_id}/contributions",
                                    json={"round": round_, "expert": expert, "text": text})  # fmt: skip
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def insufficient(self, session_id: str) -> dict[str, Any]:
        """Three experts talk about what they lack in round 1: the event fires on one of them."""
        events = [self.say(session_id, 1, f"expert-{i}", text)["event"] for i, text in enumerate(META)]
        fired: list[dict[str, Any]] = [e for e in events if e is not None]
        assert len(fired) == 1
        return fired[0]

    def choose(self, session_id: str, **body: Any) -> httpx.Response:
        return self.client.post(f"/v1/deliberations/{session_id}/context-choice", json=body)

    def close(self) -> None:
        self.client.close()
        self.server.should_exit = True
        self.thread.join(10)


def _docs(root: Path) -> Path:
    (root / "notes.md").write_text("# Notes\n\nThe orders table holds every order.\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def gw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """No key, a 30 s timeout (never reached here)."""
    server = Server(ServerSettings(docs=_docs(tmp_path_factory.mktemp("docs")), deliberation_timeout=30))
    yield server
    server.close()


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """An API key, a 0.6 s timeout and room for two sessions."""
    settings = ServerSettings(docs=_docs(tmp_path_factory.mktemp("docs-quick")), api_key=KEY,
                              deliberation_timeout=0.6, deliberation_max_sessions=2)  # fmt: skip
    server = Server(settings)
    yield server
    server.close()


def _read_events(client: httpx.Client, session_id: str, until: str, **headers: str) -> list[tuple[str, Any, str]]:
    """(event, data, id) of each SSE event, read until the event named `until` (inclusive)."""
    out: list[tuple[str, Any, str]] = []
    with client.stream("GET", f"/v1/deliberations/{session_id}/events", headers=headers) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        for line in response.iter_lines():
            if line.startswith(":"):
                continue
            if line:
                name, _, value = line.partition(": ")
                fields[name] = value
                continue
            out.append((fields["event"], json.loads(fields["data"]), fields["id"]))
            fields = {}
            if out[-1][0] == until:
                break
    return out


def _stream_in_background(client: httpx.Client, session_id: str, until: str) -> tuple[threading.Thread, list[Any]]:
    received: list[Any] = []
    thread = threading.Thread(target=lambda: received.extend(_read_events(client, session_id, until)), daemon=True)
    thread.start()
    return thread, received


# ---------------------------------------------------------------------------------------------------------------------
# Sessions and contributions
# ---------------------------------------------------------------------------------------------------------------------
def test_a_session_starts_with_its_options_and_shows_its_state(gw: Server) -> None:
    response = gw.client.post("/v1/deliberations", json={"threshold": 0.6, "rounds": [1], "question": "Which DB?"})
    assert response.status_code == 201
    body = response.json()
    assert len(body["id"]) == 32
    assert body["question"] == "Which DB?"
    assert body["pending"] is False
    assert body["seconds_left"] is None
    assert body["ended"] is False
    assert body["event"] is None
    assert body["contributions"] == 0
    assert body["state"]["limited_context_mode"] is False
    assert body["state"]["total_contributions_count"] == 0
    assert gw.client.get(f"/v1/deliberations/{body['id']}").json()["question"] == "Which DB?"
    # an empty body is a session with the defaults (declared JSON all the same: see test_server.py)
    assert gw.client.post("/v1/deliberations", content=b"", headers=JSON).status_code == 201


def test_contributions_are_scored_and_the_event_fires_once_over_the_threshold(gw: Server) -> None:
    session_id = gw.start()
    first = gw.say(session_id, 1, "Ana", ON_TOPIC)
    assert first["meta"]["is_meta"] is False
    assert first["event"] is None
    assert first["pending"] is False
    event = gw.insufficient(session_id)
    assert event["event"] == "context_insufficient"
    data = event["data"]
    assert data["meta_ratio"] > 0.5
    assert data["contributions"] >= data["meta_contributions"] >= 2
    assert "What is the team size?" in data["questions"]
    assert list(data["choices"]) == list(CHOICES)
    assert data["timeout_seconds"] == 30
    # a later meta contribution does not fire again
    again = gw.say(session_id, 2, "Ana", META[0])
    assert again["meta"]["is_meta"] is True
    assert again["meta"]["questions"] == ["What is the team size?"]
    assert again["event"] is None
    view = gw.client.get(f"/v1/deliberations/{session_id}").json()
    assert view["pending"] is True
    assert 25 < view["seconds_left"] <= 30
    assert view["event"] == event
    assert view["contributions"] == 5
    assert view["state"]["total_contributions_count"] == 5
    assert view["state"]["context_insufficient_emitted"] is True


def test_unicode_contributions_round_trip(gw: Server) -> None:
    session_id = gw.start(question="Quelle base de données ? 数据库")
    text = "Sans connaître le budget 💶, we need more information. Qui décide ?"
    body = gw.say(session_id, 1, "Zoë 专家", text)
    assert body["expert"] == "Zoë 专家"
    assert body["meta"]["is_meta"] is True
    assert body["meta"]["questions"] == ["Qui décide ?"]
    view = gw.client.get(f"/v1/deliberations/{session_id}").json()
    assert view["question"] == "Quelle base de données ? 数据库"


def test_streamed_text_with_unicode_line_separators_stays_one_data_line(gw: Server) -> None:
    # U+2028, U+2029 and U+0085 are line breaks to str.splitlines(), which httpx's iter_lines (this file's reader)
    # uses; JSON left them raw, so the event's data line was cut in two and was no JSON.
    session_id = gw.start()
    text = "Use Kafka.\u2028Assumption: 10k rps.\u2029Keep 7 days\x85of retention."
    gw.say(session_id, 3, "Ana", text)
    [(_, data, _)] = _read_events(gw.client, session_id, "contribution")
    assert data["text"] == text


def test_lone_surrogates_become_replacement_characters_not_500s(gw: Server) -> None:
    session_id = gw.start()
    raw = b'{"round": 1, "expert": "a\\ud800", "text": "\\ud83d We need more information. Why\\udfff?"}'
    response = gw.client.post(f"/v1/deliberations/{session_id}/contributions", content=raw, headers=JSON)
    assert response.status_code == 200
    body = response.json()
    assert body["expert"] == "a\ufffd"
    assert body["meta"]["is_meta"] is True
    answer = gw.client.post(f"/v1/deliberations/{session_id}/answers",
                            content=b'{"question": "Why\\ud800?", "answer": "\\udfff"}', headers=JSON)  # fmt: skip
    assert answer.status_code == 200
    assert answer.json()["partial"] is True
    ((_, data, _),) = _read_events(gw.client, session_id, "contribution")  # the stream encodes it too
    assert data["text"] == "\ufffd We need more information. Why\ufffd?"


# ---------------------------------------------------------------------------------------------------------------------
# The stream and the choices
# ---------------------------------------------------------------------------------------------------------------------
def test_the_stream_carries_contributions_the_event_the_choice_and_the_end(gw: Server) -> None:
    session_id = gw.start()
    with httpx.Client(base_url=gw.url, timeout=10) as listener:
        thread, received = _stream_in_background(listener, session_id, "ended")
        time.sleep(0.2)  # the listener is connected before anything happens: these events arrive live
        fired = gw.insufficient(session_id)
        choice = gw.choose(session_id, choice="end")
        assert choice.status_code == 200
        thread.join(10)
    assert not thread.is_alive()
    names = [name for name, _, _ in received]
    assert names.count("contribution") == 3
    assert names.count("context_insufficient") == 1
    assert names[names.index("context_insufficient") - 1] == "contribution"  # sent right after the one that fired it
    assert names[-2:] == ["context_choice", "ended"]
    assert [int(i) for _, _, i in received] == list(range(6))
    by_name = {name: data for name, data, _ in received}
    assert by_name["context_insufficient"] == fired["data"]
    assert by_name["context_choice"]["choice"] == "end"
    assert by_name["context_choice"]["automatic"] is False
    assert by_name["ended"]["reason"] == "end"
    contribution = received[0][1]
    assert contribution["expert"] == "expert-0"
    assert contribution["text"] == META[0]
    assert contribution["meta"]["is_meta"] is True
    # a listener joining later gets the whole log again, and resumes after Last-Event-ID
    replay = _read_events(gw.client, session_id, "ended")
    assert replay == received
    assert _read_events(gw.client, session_id, "ended", **{"Last-Event-ID": "3"}) == received[4:]
    # an ended session takes no more contributions nor choices
    late = gw.client.post(f"/v1/deliberations/{session_id}/contributions",
                          json={"round": 2, "expert": "x", "text": "more"})  # fmt: skip
    assert late.status_code == 409
    assert "has ended" in late.json()["error"]["message"]
    assert gw.choose(session_id, choice="continue").status_code == 409
    assert gw.client.get(f"/v1/deliberations/{session_id}").json()["ended"] is True


def test_an_ended_session_resumed_at_or_past_its_end_closes_at_once(gw: Server) -> None:
    session_id = gw.start()
    gw.insufficient(session_id)
    assert gw.choose(session_id, choice="end").status_code == 200
    ids = [int(i) for _, _, i in _read_events(gw.client, session_id, "ended")]
    last = ids[-1]

    def whole_stream(last_event_id: bytes) -> list[int]:
        # A stream that stayed open would send nothing for 15 s: the 3 s read timeout fails the test instead.
        with httpx.Client(base_url=gw.url, timeout=3) as client:
            response = client.get(f"/v1/deliberations/{session_id}/events", headers={"Last-Event-ID": last_event_id})
        assert response.status_code == 200
        return [int(line[4:]) for line in response.text.splitlines() if line.startswith("id: ")]

    assert whole_stream(str(last).encode()) == []
    assert whole_stream(b"999999") == []
    assert whole_stream(str(last - 1).encode()) == [last]  # the ended event, then the end
    # Not a plain decimal event id (int() reads "\xb2" as a digit, refuses 5,000 digits): replayed from the start.
    for odd in (b"\xb2", b"9" * 5000, b"-3", b"abc", b"1e3", b""):
        assert whole_stream(odd) == ids, odd


def test_deleting_a_session_ends_its_streams(gw: Server) -> None:
    session_id = gw.start()
    with httpx.Client(base_url=gw.url, timeout=10) as listener:
        thread, received = _stream_in_background(listener, session_id, "ended")
        time.sleep(0.2)
        assert gw.client.delete(f"/v1/deliberations/{session_id}").json() == {"ok": True}
        thread.join(5)
    assert not thread.is_alive()
    ((name, data, _),) = received
    assert (name, data["reason"]) == ("ended", "deleted")
    assert gw.client.get(f"/v1/deliberations/{session_id}").status_code == 404


def test_continue_injects_the_best_effort_prompt_and_limited_context_mode(gw: Server) -> None:
    session_id = gw.start()
    gw.insufficient(session_id)
    response = gw.choose(session_id, choice="continue")
    assert response.status_code == 200
    event = response.json()
    assert event["event"] == "context_choice"
    data = event["data"]
    assert data["choice"] == "continue"
    assert data["automatic"] is False
    assert data["prompt"] == BEST_EFFORT_PROMPT
    assert data["state"]["best_effort_prompt_injected"] is True
    assert data["state"]["user_context_choice"] == "continue"
    view = gw.client.get(f"/v1/deliberations/{session_id}").json()
    assert view["pending"] is False
    assert view["ended"] is False
    assert view["seconds_left"] is None
    # the discussion goes on; a second choice has nothing to answer
    assert gw.say(session_id, 3, "Ana", ON_TOPIC)["event"] is None
    second = gw.choose(session_id, choice="continue")
    assert second.status_code == 409
    assert "no context_insufficient event is pending" in second.json()["error"]["message"]


def test_provide_more_needs_the_context_and_carries_no_prompt(gw: Server) -> None:
    session_id = gw.start()
    gw.insufficient(session_id)
    for body in ({"choice": "provide_more"}, {"choice": "provide_more", "context": "   "}):
        missing = gw.choose(session_id, **body)
        assert missing.status_code == 422
        assert missing.json()["error"]["param"] == "context"
        assert "context" in missing.json()["error"]["message"]
    assert gw.client.get(f"/v1/deliberations/{session_id}").json()["pending"] is True  # still waiting
    response = gw.choose(session_id, choice="provide_more", context="Budget 40k €, team of 4, launch in March.")
    assert response.status_code == 200
    data = response.json()["data"]
    assert data["choice"] == "provide_more"
    assert data["prompt"] is None
    assert data["state"]["user_context_choice"] == "provide_more"


def test_bad_choices_are_422_naming_the_choice_and_malformed_ones_400(gw: Server) -> None:
    session_id = gw.start()
    gw.insufficient(session_id)
    bad = gw.choose(session_id, choice="maybe")
    assert bad.status_code == 422
    assert bad.json()["error"]["param"] == "choice"
    assert "provide_more, continue, end" in bad.json()["error"]["message"]
    for body, param in (({}, "choice"), ({"choice": 3}, "choice"), ({"choice": "continue", "context": 1}, "context")):
        response = gw.choose(session_id, **body)
        assert response.status_code == 400, body
        assert response.json()["error"]["param"] == param
    nothing = gw.choose(gw.start(), choice="continue")
    assert nothing.status_code == 409


# ---------------------------------------------------------------------------------------------------------------------
# Answers and the synthesis
# ---------------------------------------------------------------------------------------------------------------------
def test_partial_answers_switch_to_limited_context_mode_and_the_synthesis(gw: Server) -> None:
    session_id = gw.start()
    gw.insufficient(session_id)
    url = f"/v1/deliberations/{session_id}"
    before = gw.client.get(url + "/synthesis").json()
    assert before == {"limited_context_mode": False, "markdown": None}
    full = gw.client.post(url + "/answers", json={"question": "What is the team size?",
                                                  "answer": "Four engineers, two of them senior."})  # fmt: skip
    assert full.status_code == 200
    assert full.json()["partial"] is False
    assert full.json()["limited_context_mode"] is False
    partial = gw.client.post(url + "/answers", json={"question": "Which database do you run today?", "answer": "idk"})
    assert partial.json()["partial"] is True
    assert partial.json()["reason"]
    assert partial.json()["limited_context_mode"] is True
    empty = gw.client.post(url + "/answers", json={"question": "What is the deadline?", "answer": ""})
    assert empty.status_code == 200
    assert empty.json()["partial"] is True
    synthesis = gw.client.get(url + "/synthesis").json()
    assert synthesis["limited_context_mode"] is True
    assert "Assumptions & Limitations" in synthesis["markdown"]
    assert gw.client.get(url).json()["state"]["limited_context_mode"] is True


# ---------------------------------------------------------------------------------------------------------------------
# Timeout, limits, bad input, the key
# ---------------------------------------------------------------------------------------------------------------------
def test_after_the_timeout_the_server_continues_on_its_own_and_streams_it(quick: Server) -> None:
    session_id = quick.start()
    listener = httpx.Client(base_url=quick.url, timeout=10, headers=quick.client.headers)
    thread, received = _stream_in_background(listener, session_id, "context_choice")
    started = time.monotonic()
    quick.insufficient(session_id)
    thread.join(15)  # nobody chooses and nobody polls: the server's timer applies the continue
    listener.close()
    elapsed = time.monotonic() - started
    assert not thread.is_alive()
    assert 0.5 <= elapsed < 10  # the 0.6 s timer, not the default 30 s; slack for a loaded CI host
    name, data, _ = received[-1]
    assert name == "context_choice"
    assert data["choice"] == "continue"
    assert data["automatic"] is True
    assert data["prompt"] == BEST_EFFORT_PROMPT
    late = quick.choose(session_id, choice="end")
    assert late.status_code == 409
    view = quick.client.get(f"/v1/deliberations/{session_id}").json()
    assert view["pending"] is False
    assert view["ended"] is False
    quick.client.delete(f"/v1/deliberations/{session_id}")


def test_too_many_live_sessions_is_429_and_unknown_ids_404(quick: Server) -> None:
    first, second = quick.start(), quick.start()
    refused = quick.client.post("/v1/deliberations", json={})
    assert refused.status_code == 429
    assert "limit is 2" in refused.json()["error"]["message"]
    # an ended session makes room; a deleted one is gone
    quick.insufficient(first)
    assert quick.choose(first, choice="end").status_code == 200
    third = quick.start()
    assert quick.client.get(f"/v1/deliberations/{first}").status_code == 404
    assert quick.client.delete(f"/v1/deliberations/{second}").json() == {"ok": True}
    for method, path in (("GET", ""), ("GET", "/events"), ("GET", "/synthesis"), ("DELETE", ""),
                         ("POST", "/contributions"), ("POST", "/answers"), ("POST", "/context-choice")):  # fmt: skip
        response = quick.client.request(method, f"/v1/deliberations/{second}{path}", json={})
        assert response.status_code == 404, (method, path)
        assert response.json()["error"]["param"] == "id"
    quick.client.delete(f"/v1/deliberations/{third}")


def test_abandoned_sessions_make_room_after_ten_timeouts(tmp_path: Path) -> None:
    # A 0.1 s timeout: a session nobody named for 1 s, with no stream open on it, is abandoned.
    settings = ServerSettings(docs=_docs(tmp_path), deliberation_timeout=0.1, deliberation_max_sessions=2)
    server = Server(settings)
    try:
        watched, abandoned = server.start(), server.start()
        assert server.client.post("/v1/deliberations", json={}).status_code == 429  # both are fresh
        with httpx.Client(base_url=server.url, timeout=10) as listener:
            thread, received = _stream_in_background(listener, watched, "ended")
            time.sleep(1.3)
            third = server.start()  # the abandoned one made room; the watched one is kept
            assert server.client.get(f"/v1/deliberations/{abandoned}").status_code == 404
            assert server.client.get(f"/v1/deliberations/{watched}").status_code == 200
            assert server.client.post("/v1/deliberations", json={}).status_code == 429
            server.client.delete(f"/v1/deliberations/{watched}")
            thread.join(5)
        assert [name for name, _, _ in received] == ["ended"]
        assert server.client.get(f"/v1/deliberations/{third}").status_code == 200
    finally:
        server.close()


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({}, "round"),
        ({"round": "1", "expert": "a", "text": "t"}, "round"),
        ({"round": True, "expert": "a", "text": "t"}, "round"),
        ({"round": -1, "expert": "a", "text": "t"}, "round"),
        ({"round": 1, "text": "t"}, "expert"),
        ({"round": 1, "expert": " ", "text": "t"}, "expert"),
        ({"round": 1, "expert": "a"}, "text"),
        ({"round": 1, "expert": "a", "text": ""}, "text"),
        ({"round": 1, "expert": "a", "text": ["t"]}, "text"),
        ({"round": 1, "expert": "a", "text": "t", "txt": "u"}, "txt"),  # misspelled: not ignored
    ],
)
def test_malformed_contributions_are_400_naming_the_field(gw: Server, body: dict[str, Any], param: str) -> None:
    session_id = gw.start()
    response = gw.client.post(f"/v1/deliberations/{session_id}/contributions", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == param
    assert param in error["message"]


@pytest.mark.parametrize(
    ("body", "param"),
    [
        ({"threshold": "high"}, "threshold"),
        ({"threshold": 1.5}, "threshold"),
        ({"threshold": -0.1}, "threshold"),
        ({"threshold": 10**400}, "threshold"),  # no float holds it: was an OverflowError, a 500
        ({"threshold": -(10**400)}, "threshold"),
        ({"rounds": 1}, "rounds"),
        ({"rounds": [1, "2"]}, "rounds[1]"),
        ({"rounds": [-1]}, "rounds[0]"),
        ({"rounds": []}, "rounds"),
        ({"question": 7}, "question"),
        ({"timeout": 5}, "timeout"),  # not a session option: ignored, the caller believed it applied
        ({"min_contributions": 0}, "min_contributions"),
        ({"min_contributions": "3"}, "min_contributions"),
        ({"min_contributions": True}, "min_contributions"),
        ({"treshold": 0.5}, "treshold"),
    ],
)
def test_malformed_session_options_are_400_naming_the_field(gw: Server, body: dict[str, Any], param: str) -> None:
    response = gw.client.post("/v1/deliberations", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["param"] == param


def test_invalid_bodies_and_answers_are_400(gw: Server) -> None:
    session_id = gw.start()
    url = f"/v1/deliberations/{session_id}"
    assert gw.client.post(url + "/contributions", content=b"\xff\xfe", headers=JSON).json()["error"]["message"] == (
        "the request body is not UTF-8"
    )
    assert gw.client.post(url + "/contributions", content=b"[1]", headers=JSON).status_code == 400
    assert gw.client.post("/v1/deliberations", content=b"{oops", headers=JSON).status_code == 400
    infinite = gw.client.post("/v1/deliberations", content=b'{"threshold": Infinity}', headers=JSON)  # json reads it
    assert infinite.status_code == 400
    assert infinite.json()["error"]["param"] == "threshold"
    for body, param in (({"answer": "x"}, "question"), ({"question": "q?"}, "answer"),
                        ({"question": "q?", "answer": None}, "answer")):  # fmt: skip
        response = gw.client.post(url + "/answers", json=body)
        assert response.status_code == 400
        assert response.json()["error"]["param"] == param


def test_a_huge_contribution_is_scored_and_one_over_the_body_limit_is_413(gw: Server) -> None:
    session_id = gw.start()
    text = "We need more information about the load. " * 20_000  # ~860 KB, under the 1 MiB limit
    assert gw.say(session_id, 1, "Ana", text)["meta"]["is_meta"] is True
    too_big = gw.client.post(f"/v1/deliberations/{session_id}/contributions",
                             json={"round": 1, "expert": "Ana", "text": "x" * (1024 * 1024)})  # fmt: skip
    assert too_big.status_code == 413


def test_an_answer_of_a_long_run_of_spaces_is_answered_at_once(gw: Server) -> None:
    # 1,000,000 spaces under the body limit: the answer splits tried each space, each try reading to the end of the
    # run, for hours on the server's event loop. Linear now.
    session_id = gw.start()
    answer = "50k" + " " * 1_000_000 + "and June"
    question = "What is the budget, and what is the deadline?"
    reply = gw.client.post(f"/v1/deliberations/{session_id}/answers", json={"question": question, "answer": answer})
    assert reply.status_code == 200
    assert reply.json()["partial"] is False


def test_a_session_holds_at_most_its_caps_of_contributions_and_answers(gw: Server) -> None:
    # Answers had no cap: each partial one kept its question in the state (up to the body limit each), and every view
    # and choice event carries the state, so one session could grow until the gateway ran out of memory.
    session_id = gw.start()
    url = f"/v1/deliberations/{session_id}"
    for i in range(MAX_ANSWERS):
        assert gw.client.post(url + "/answers", json={"question": f"Q{i}?", "answer": "maybe"}).status_code == 200
    over = gw.client.post(url + "/answers", json={"question": "One more?", "answer": "maybe"})
    assert over.status_code == 429
    assert f"{MAX_ANSWERS} answers" in over.json()["error"]["message"]
    for i in range(MAX_CONTRIBUTIONS):
        gw.say(session_id, 3, "Ana", f"Use Kafka with {i} partitions.")
    over = gw.client.post(url + "/contributions", json={"round": 3, "expert": "Ana", "text": "Use Kafka."})
    assert over.status_code == 429
    view = gw.client.get(url).json()
    assert view["contributions"] == MAX_CONTRIBUTIONS
    assert len(view["state"]["questions"]) == MAX_ANSWERS  # nothing was recorded past a cap


def test_the_api_key_guards_every_deliberation_route_but_the_page(quick: Server) -> None:
    session_id = quick.start()
    with httpx.Client(base_url=quick.url, timeout=10) as anonymous:
        for method, path in (("POST", ""), ("GET", f"/{session_id}"), ("GET", f"/{session_id}/events"),
                             ("GET", f"/{session_id}/synthesis"), ("POST", f"/{session_id}/contributions"),
                             ("POST", f"/{session_id}/answers"), ("POST", f"/{session_id}/context-choice"),
                             ("DELETE", f"/{session_id}")):  # fmt: skip
            response = anonymous.request(method, "/v1/deliberations" + path, json={})
            assert response.status_code == 401, (method, path)
        page = anonymous.get("/deliberation")
        assert page.status_code == 200
        assert 'role="dialog"' in page.text
    quick.client.delete(f"/v1/deliberations/{session_id}")


def test_metrics_label_the_routes_not_the_session_ids(gw: Server) -> None:
    session_id = gw.start()
    gw.client.get(f"/v1/deliberations/{session_id}")
    text = gw.client.get("/metrics").text
    assert 'route="/v1/deliberations"' in text
    assert 'route="/v1/deliberations/{id}"' in text
    assert session_id not in text
    gw.client.get(f"/v1/deliberations/{session_id}/no-such-route/x")
    gw.client.get(f"/v1/deliberations/{session_id}/synthesis")
    text = gw.client.get("/metrics").text
    assert 'route="/v1/deliberations/{id}/synthesis"' in text
    assert "no-such-route" not in text  # an unknown path is "other", never a label of its own


def test_settings_validate_the_deliberation_fields(tmp_path: Path) -> None:
    for bad in ({"deliberation_timeout": 0}, {"deliberation_timeout": float("nan")}, {"deliberation_max_sessions": 0}):
        with pytest.raises(ValueError, match=f"server.{next(iter(bad))}"):
            ServerSettings(docs=tmp_path, **bad)
    config = tmp_path / "gateway.yaml"
    config.write_text("server:\n  deliberation_timeout: 5\n  deliberation_max_sessions: 3\n", encoding="utf-8")
    loaded = ServerSettings.load(config, docs=tmp_path)
    assert (loaded.deliberation_timeout, loaded.deliberation_max_sessions) == (5, 3)


def test_answers_and_choices_with_an_unknown_field_are_400_naming_it(gw: Server) -> None:
    session_id = gw.start()
    url = f"/v1/deliberations/{session_id}"
    response = gw.client.post(url + "/answers", json={"question": "Which region?", "answer": "eu", "partial": True})
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "partial"
    assert "the fields are question, answer" in response.json()["error"]["message"]
    response = gw.client.post(url + "/context-choice", json={"choice": "continue", "contxt": "more"})
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "contxt"


def test_a_panel_waits_for_min_contributions_before_the_event(gw: Server) -> None:
    # With the default 1, the first expert's clarifying question alone interrupts the user; a panel of three sets 3.
    alone = gw.start()
    assert gw.say(alone, 1, "Ana", META[0])["event"] is not None
    panel = gw.start(min_contributions=3)
    assert gw.say(panel, 1, "Ana", META[0])["event"] is None
    assert gw.say(panel, 1, "Ben", META[1])["event"] is None
    event = gw.say(panel, 1, "Cy", META[0])["event"]
    assert event is not None
    assert event["data"]["contributions"] == 3
