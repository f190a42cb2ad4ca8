"""The deliberation session API: a :class:`ContextInsufficiencyMonitor` per session, fed with the experts'
contributions, whose events (``context_insufficient``, ``context_choice``, ``ended``) are streamed as server-sent
events; the user's choice comes back through ``POST .../context-choice``, and after the timeout the server continues
on its own.

Everything here runs on the event loop thread (the monitor's work is a pattern match in the core, microseconds), so
the sessions need no lock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Mapping
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from .._args import as_float, replace_surrogates
from ..deliberation import CHOICES, ContextInsufficiencyMonitor, assumptions_and_limitations
from .routes_api import error_response
from .sse import sse_json
from .validation import BadRequest, NotFound, json_body, known_fields, optional, required

__all__ = ["ACTIONS", "MAX_ANSWERS", "MAX_CONTRIBUTIONS", "Deliberations", "Session", "router"]

router = APIRouter(prefix="/v1/deliberations")
MAX_CONTRIBUTIONS = 2000  # per session: the event log is replayed to every new listener
MAX_ANSWERS = 2000  # per session: each is kept in the state, which every view and choice event carries
_WAKE_S = 1.0  # how often an idle stream checks that its client is still there
_KEEPALIVE_S = 15.0  # an SSE comment this often keeps proxies from closing an idle stream
IDLE_TIMEOUTS = 10  # a session untouched this many deliberation timeouts, with nobody listening, is abandoned
_EVENT_ID = re.compile("[0-9]{1,18}")
ACTIONS = ("contributions", "answers", "context-choice", "events", "synthesis")  # the routes under a session


def _plain(value: Any) -> Any:
    """A result object (NamedTuple or dataclass) as JSON-ready data."""
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


class Session:
    """One deliberation: its monitor, the log of the events sent so far (replayed to each new listener) and the
    timer that applies the automatic ``continue``."""

    def __init__(self, monitor: ContextInsufficiencyMonitor, question: str | None) -> None:
        self.id = uuid.uuid4().hex
        self.monitor = monitor
        self.question = question
        self.created = time.time()
        self.touched = time.monotonic()  # the last request that named this session
        self.listeners = 0  # open event streams
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.contributions = 0
        self.answers = 0
        self.closed = False  # ended by the user's choice or deleted
        self.timer: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    @property
    def ended(self) -> bool:
        return self.closed or self.monitor.ended

    def idle(self, seconds: float) -> bool:
        return self.listeners == 0 and time.monotonic() - self.touched > seconds

    def emit(self, name: str, data: dict[str, Any]) -> None:
        self.log.append((name, data))
        # Wake every listener waiting on the current event, then give later waits a fresh one.
        self._wake.set()
        self._wake = asyncio.Event()

    async def changed(self, timeout: float) -> bool:
        """Wait until an event is emitted (True) or `timeout` seconds pass (False)."""
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except asyncio.TimeoutError:  # not the builtin TimeoutError before Python 3.11
            return False
        return True

    def emit_monitor_event(self, event: Mapping[str, Any]) -> None:
        self.emit(str(event["event"]), dict(event["data"]))
        if event["event"] == "context_choice" and self.monitor.ended:
            self.close("end")

    def close(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.emit("ended", {"reason": reason, "state": self.monitor.state.to_dict()})

    def poll(self) -> None:
        """Apply the automatic ``continue`` when the timeout has passed (the monitor decides)."""
        if self.closed or not self.monitor.pending:
            return
        event = self.monitor.poll()
        if event is not None:
            self.emit_monitor_event(event)

    def start_timer(self) -> None:
        self.timer = asyncio.get_running_loop().create_task(self._auto_continue())

    async def _auto_continue(self) -> None:
        while not self.closed and self.monitor.pending:
            left = self.monitor.seconds_left()
            if left is None:
                return
            await asyncio.sleep(max(0.01, left))
            self.poll()

    def view(self) -> dict[str, Any]:
        """``GET /v1/deliberations/{id}``."""
        self.poll()
        left = self.monitor.seconds_left() if self.monitor.pending else None
        return {
            "id": self.id,
            "question": self.question,
            "created": self.created,
            "pending": self.monitor.pending,
            "seconds_left": left,
            "ended": self.ended,
            "event": self.monitor.event,
            "contributions": self.contributions,
            "state": self.monitor.state.to_dict(),
        }


class Deliberations:
    """The app's sessions: at most `max_sessions` kept; the oldest ended or abandoned one (no request named it for
    ``IDLE_TIMEOUTS`` timeouts and no stream is open on it) makes room for a new one, and when all are live a new one
    is refused (429)."""

    def __init__(self, timeout: float, max_sessions: int) -> None:
        self.timeout = timeout
        self.max_sessions = max_sessions
        self.sessions: OrderedDict[str, Session] = OrderedDict()

    def add(self, session: Session) -> bool:
        if len(self.sessions) >= self.max_sessions:
            idle_s = self.timeout * IDLE_TIMEOUTS
            gone = next((s for s in self.sessions.values() if s.ended or s.idle(idle_s)), None)
            if gone is None:
                return False
            del self.sessions[gone.id]
            gone.close("expired")  # stops its timer (a no-op for an ended one)
        self.sessions[session.id] = session
        return True

    def get(self, session_id: str) -> Session | None:
        return self.sessions.get(session_id)

    def remove(self, session_id: str) -> None:
        session = self.sessions.pop(session_id)
        session.close("deleted")


def _registry(request: Request) -> Deliberations:
    state = request.app.state
    registry: Deliberations | None = getattr(state, "deliberations", None)
    if registry is None:
        settings = state.settings
        registry = Deliberations(settings.deliberation_timeout, settings.deliberation_max_sessions)
        state.deliberations = registry
    return registry


def _session(request: Request, session_id: str) -> Session:
    """The session, or NotFound (404, param "id")."""
    session = _registry(request).get(session_id)
    if session is None:
        raise NotFound("id", f"no deliberation session has the id {session_id!r}")
    session.touched = time.monotonic()
    return session


def _has_ended(session: Session) -> JSONResponse:
    return error_response(409, f"deliberation {session.id} has ended", "conflict")


def _number(body: Mapping[str, Any], name: str) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadRequest(name, f"{name} must be a finite number; got {json.dumps(value)}")
    try:  # an integer past 1e308 (JSON allows 4,300 digits) has no float: a ValueError, not an OverflowError (500)
        number = as_float(value, name)
    except ValueError as exc:
        raise BadRequest(name, str(exc)) from None
    if not math.isfinite(number):  # NaN, Infinity: Python's JSON decoder reads them
        raise BadRequest(name, f"{name} must be a finite number; got {json.dumps(value)}")
    return number


def _param(exc: Exception, names: tuple[str, ...]) -> str:
    """The field a library error names first (its messages start with it: ``rounds[1] must be ...``)."""
    first = str(exc).split(" ", 1)[0]
    return first if first.startswith(names) else names[0]


def _text(body: Mapping[str, Any], name: str, *, empty: bool = False) -> str:
    value = replace_surrogates(required(body, name, str))
    if not empty and not value.strip():
        raise BadRequest(name, f"{name} must not be empty")
    return value


@router.post("")
async def start(request: Request) -> JSONResponse:
    body = await json_body(request, empty=True)
    known_fields(body, "threshold", "rounds", "question", "min_contributions")
    registry = _registry(request)
    options: dict[str, Any] = {"timeout": registry.timeout}
    threshold = _number(body, "threshold")
    if threshold is not None:
        options["threshold"] = threshold
    rounds = optional(body, "rounds", list, None)
    if rounds is not None:
        for i, value in enumerate(rounds):
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRequest(f"rounds[{i}]", f"rounds[{i}] must be an integer; got {json.dumps(value)}")
        options["rounds"] = tuple(rounds)
    # A panel of N experts sets N: with the default 1, the first expert's clarifying question fires the event alone.
    least = optional(body, "min_contributions", int, None)
    if least is not None:
        options["min_contributions"] = least
    question = optional(body, "question", str, None)
    question = None if question is None else replace_surrogates(question)
    try:
        monitor = ContextInsufficiencyMonitor(**options)
    except (TypeError, ValueError) as exc:
        raise BadRequest(_param(exc, ("threshold", "rounds", "min_contributions")), str(exc)) from None
    session = Session(monitor, question)
    if not registry.add(session):
        return error_response(429, f"too many live deliberation sessions (the limit is {registry.max_sessions}); "
                              "end or delete one first", "rate_limit_error")  # fmt: skip
    return JSONResponse(session.view(), status_code=201)


@router.get("/{session_id}")
async def show(request: Request, session_id: str) -> JSONResponse:
    session = _session(request, session_id)
    return JSONResponse(session.view())


@router.delete("/{session_id}")
async def delete(request: Request, session_id: str) -> JSONResponse:
    _session(request, session_id)  # 404 for an unknown id
    _registry(request).remove(session_id)
    return JSONResponse({"ok": True})


@router.post("/{session_id}/contributions")
async def contribute(request: Request, session_id: str) -> JSONResponse:
    session = _session(request, session_id)
    body = await json_body(request)
    known_fields(body, "round", "expert", "text")
    round_ = required(body, "round", int)
    expert = _text(body, "expert")
    text = _text(body, "text")
    session.poll()
    if session.ended:
        return _has_ended(session)
    if session.contributions >= MAX_CONTRIBUTIONS:
        return error_response(429, f"deliberation {session.id} already holds {MAX_CONTRIBUTIONS} contributions",
                              "rate_limit_error")  # fmt: skip
    try:
        event = session.monitor.record(round_, expert, text)
    except (TypeError, ValueError) as exc:
        raise BadRequest(_param(exc, ("round", "expert", "text")), str(exc)) from None
    meta = _plain(session.monitor.score(text))  # what record() just decided, with the monitor's phrase lists
    session.contributions += 1
    session.emit("contribution", {"round": round_, "expert": expert, "text": text, "meta": meta})
    if event is not None:
        session.emit_monitor_event(event)
        session.start_timer()
    return JSONResponse({"round": round_, "expert": expert, "meta": meta, "event": event,
                         "pending": session.monitor.pending})  # fmt: skip


@router.post("/{session_id}/answers")
async def answer(request: Request, session_id: str) -> JSONResponse:
    session = _session(request, session_id)
    body = await json_body(request)
    known_fields(body, "question", "answer")
    question = _text(body, "question")
    reply = _text(body, "answer", empty=True)  # empty is allowed: it is the clearest partial answer
    if session.ended:
        return _has_ended(session)
    if session.answers >= MAX_ANSWERS:  # unbounded, one session's answers grew its state until the gateway ran out
        return error_response(429, f"deliberation {session.id} already holds {MAX_ANSWERS} answers",
                              "rate_limit_error")  # fmt: skip
    session.answers += 1
    verdict = _plain(session.monitor.state.record_answer(question, reply))
    state = session.monitor.state
    return JSONResponse({**verdict, "limited_context_mode": state.limited_context_mode})


@router.post("/{session_id}/context-choice")
async def choose(request: Request, session_id: str) -> JSONResponse:
    session = _session(request, session_id)
    body = await json_body(request)
    known_fields(body, "choice", "context")
    choice = required(body, "choice", str)
    context = optional(body, "context", str, None)
    context = None if context is None else replace_surrogates(context)
    if choice not in CHOICES:
        return error_response(422, f"choice must be one of {', '.join(CHOICES)}; got {choice!r}",
                              "invalid_request_error", param="choice")  # fmt: skip
    session.poll()  # a choice made after the timeout finds the automatic continue already applied
    if session.ended or not session.monitor.pending:
        why = "it has ended" if session.ended else "no context_insufficient event is pending"
        return error_response(409, f"deliberation {session.id} takes no choice now: {why}", "conflict")
    try:
        event = session.monitor.resolve(choice, context)
    except ValueError as exc:
        param = "context" if choice == "provide_more" else "choice"
        return error_response(422, str(exc), "invalid_request_error", param=param)
    session.emit_monitor_event(event)
    return JSONResponse(event)


@router.get("/{session_id}/synthesis")
async def synthesis(request: Request, session_id: str) -> JSONResponse:
    session = _session(request, session_id)
    state = session.monitor.state
    limited = bool(state.limited_context_mode)
    return JSONResponse({"limited_context_mode": limited,
                         "markdown": assumptions_and_limitations(state) if limited else None})  # fmt: skip


def _sse(index: int, name: str, data: Mapping[str, Any]) -> str:
    return f"id: {index}\nevent: {name}\ndata: {sse_json(data)}\n\n"


async def _stream(request: Request, session: Session, cursor: int) -> AsyncIterator[str]:
    """The session's events from `cursor` on, then new ones as they come, until ``ended`` or the client leaves."""
    idle = 0.0
    session.listeners += 1  # a session someone watches is not abandoned
    try:
        while True:
            session.poll()
            while cursor < len(session.log):
                name, data = session.log[cursor]
                yield _sse(cursor, name, data)
                cursor += 1
                if name == "ended":
                    return
            if session.ended:  # resumed past the ``ended`` event: nothing more will come
                return
            if await session.changed(_WAKE_S):
                idle = 0.0
                continue
            if await request.is_disconnected():
                return
            # uvicorn stops only once every response has ended: Ctrl+C waited as long as a console page was open
            if getattr(getattr(request.app.state, "server", None), "should_exit", False):
                return
            idle += _WAKE_S
            if idle >= _KEEPALIVE_S:
                idle = 0.0
                yield ": keep-alive\n\n"
    finally:
        session.listeners -= 1
        session.touched = time.monotonic()


@router.get("/{session_id}/events")
async def events(request: Request, session_id: str) -> Response:
    session = _session(request, session_id)
    # A reconnecting EventSource sends the id of the last event it saw; resume after it. Anything but a plain decimal
    # event id (str.isdigit() also takes "²", and int() refuses 5,000 digits) is no id of ours: replay everything.
    last = request.headers.get("last-event-id", "").strip()
    cursor = 0
    if _EVENT_ID.fullmatch(last):
        cursor = min(int(last) + 1, len(session.log))  # an id past the log: new events still come
    return StreamingResponse(_stream(request, session, cursor), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})  # fmt: skip
