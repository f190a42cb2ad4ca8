"""``create_app``: the FastAPI gateway, its safety layers (API key or, without one, the Host check; body size limit;
every error in one JSON shape), the console's pages (Jinja2 templates sharing one layout, rendered once) and its
static files."""

from __future__ import annotations

import functools
import hmac
import ipaddress
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from .routes_api import error_response, router
from .routes_deliberation import ACTIONS
from .routes_deliberation import router as deliberation_router
from .service import Gateway
from .settings import ServerSettings
from .validation import BadRequest

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
_OPEN_PATHS = ("/healthz", "/", "/history", "/deliberation")
_PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8"
_ROUTES = ("/v1/chat/completions", "/v1/review", "/v1/feedback", "/v1/history", "/v1/deliberations", "/metrics",
           "/healthz", "/", "/history", "/deliberation")  # fmt: skip


@dataclass(frozen=True)
class Metrics:
    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    answers: Counter


def _metrics(gateway: Gateway) -> Metrics:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(gateway.stats.collector())
    registry.register(gateway.gate_stats.collector(namespace="sufficient_context_retrieval"))
    requests = Counter("sufficient_context_http_requests", "HTTP requests by route and status.",
                       ["method", "route", "status"], registry=registry)  # fmt: skip
    latency = Histogram("sufficient_context_http_request_duration_seconds", "HTTP request latency by route.",
                        ["route"], registry=registry)  # fmt: skip
    answers = Counter("sufficient_context_answers", "Chat completions by grounding status.", ["status"],
                      registry=registry)  # fmt: skip
    return Metrics(registry, requests, latency, answers)


def _route_label(path: str) -> str:
    if path.startswith("/v1/sources/"):
        return "/v1/sources/{chunk_id}"
    if path.startswith("/static/"):
        return "/static"
    if path.startswith("/v1/deliberations/"):  # one label per route, not per session id
        parts = path.split("/")[4:]
        if not parts:
            return "/v1/deliberations/{id}"
        return "/v1/deliberations/{id}/" + parts[0] if len(parts) == 1 and parts[0] in ACTIONS else "other"
    return path if path in _ROUTES else "other"


async def _send_json(send: Send, status: int, document: dict[str, Any], headers: list[tuple[bytes, bytes]]) -> None:
    body = json.dumps(document).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            *headers]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


def _known_host(header: bytes, configured: str) -> bool:
    """Whether a Host header names this server: an IP address, localhost or the configured host, with any port. A
    DNS rebinding page (a name of the attacker's that now resolves to 127.0.0.1) sends its own name, so it is refused;
    a name is what it needs, an IP address it cannot use."""
    host = header.decode("latin-1").strip().lower()
    if host.startswith("["):  # an IPv6 address: [::1]:8000
        name, bracket, rest = host[1:].partition("]")
        if not bracket or rest[:1] not in ("", ":"):
            return False
        port = rest[1:]
    else:
        name, _, port = host.partition(":")
    if port and not (port.isascii() and port.isdigit()):
        return False
    if name in ("localhost", configured.strip("[]").lower()):
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class GuardMiddleware:
    """Counts and times every request, checks the API key (without one: that the Host header names this server),
    and refuses bodies over the limit (413) before the app reads them."""

    def __init__(self, app: ASGIApp, api_key: str | None, max_bytes: int, metrics: Metrics, host: str) -> None:
        self.app = app
        self.key = None if api_key is None else api_key.encode()
        self.host = host
        self.max_bytes = max_bytes
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        route = _route_label(path)
        started = time.perf_counter()
        status = {"code": 500}

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = int(message["status"])
            await send(message)

        try:
            await self._guarded(scope, receive, counted, path)
        finally:
            self.metrics.requests.labels(method=scope["method"], route=route, status=str(status["code"])).inc()
            self.metrics.latency.labels(route=route).observe(time.perf_counter() - started)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        host = dict(scope["headers"]).get(b"host")
        if self.key is None and host is not None and not _known_host(host, self.host):
            # Without a key, any page the browser shows could reach a loopback server through DNS rebinding.
            refusal = (f"the Host header {host.decode('latin-1')[:100]!r} does not name this server: use its IP "
                       f"address, localhost or {self.host}, or set an API key to serve under other names")  # fmt: skip
            await _send_json(send, 421, {"error": {"message": refusal, "type": "misdirected_request",
                                                   "param": "Host"}}, [])  # fmt: skip
            return
        if self.key is not None and path not in _OPEN_PATHS and not path.startswith("/static/"):
            scheme, _, token = dict(scope["headers"]).get(b"authorization", b"").strip().partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(token.strip(), self.key):
                await _send_json(send, 401, {"error": {"message": "missing or invalid API key: send Authorization: "
                                 "Bearer <key>", "type": "authentication_error"}},
                                 [(b"www-authenticate", b"Bearer")])  # fmt: skip
                return
        too_big = {"error": {"message": f"the request body exceeds {self.max_bytes} bytes",
                             "type": "request_too_large"}}  # fmt: skip
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await _send_json(send, 413, too_big, [(b"connection", b"close")])
            return
        # Read the body here, counting, so a chunked upload without a length is held to the limit too.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_json(send, 413, too_big, [(b"connection", b"close")])
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def create_app(settings: ServerSettings, retriever: Any = None) -> FastAPI:
    """The gateway app. `retriever`: anything with ``retrieve(query, k)`` (or a LangChain / LlamaIndex retriever)
    used instead of the docs index for retrieval; ``/v1/sources`` still resolves only the docs index's chunks."""
    gateway = Gateway(settings, retriever)
    metrics = _metrics(gateway)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        gateway.close()

    app = FastAPI(title="sufficient-context gateway", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)  # fmt: skip
    app.state.gateway = gateway
    app.state.metrics = metrics
    app.state.settings = settings

    @app.exception_handler(BadRequest)
    async def bad_request(request: Request, exc: BadRequest) -> JSONResponse:
        return error_response(exc.status, exc.message, exc.kind, param=exc.param)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The router's own 404 / 405 (and the static files'), in the error shape of every other error.
        path = request.url.path[:200]
        if exc.status_code == 404:
            response = error_response(404, f"no route or file at {path}", "not_found")
        elif exc.status_code == 405:
            allowed = (exc.headers or {}).get("Allow", "")
            response = error_response(405, f"{request.method} is not allowed on {path}; allowed: {allowed}",
                                      "method_not_allowed")  # fmt: skip
        else:
            response = error_response(exc.status_code, f"{path}: {exc.detail}", "invalid_request_error")
        response.headers.update(exc.headers or {})
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        param = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or None
        return error_response(400, f"{param}: {first.get('msg', 'invalid value')}", "invalid_request_error",
                              param=param)  # fmt: skip

    app.include_router(router)
    app.include_router(deliberation_router)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/metrics")
    async def metrics_text() -> Response:
        return Response(generate_latest(metrics.registry), media_type=_PROMETHEUS)

    @app.get("/", include_in_schema=False)
    async def console() -> Response:
        return _page("index.html")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> Response:
        return _page("history.html")

    @app.get("/deliberation", include_in_schema=False)
    async def deliberation_page() -> Response:
        return _page("deliberation.html")

    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(GuardMiddleware, api_key=settings.api_key, max_bytes=settings.max_request_bytes,
                       metrics=metrics, host=settings.host)  # fmt: skip
    return app


_PAGES = jinja2.Environment(
    loader=jinja2.PackageLoader("sufficient_context.server", "templates"),  # works from an installed wheel
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
)


@functools.cache
def _rendered(name: str) -> str:
    """A console page: static HTML, so rendered once per process."""
    return _PAGES.get_template(name).render()


def _page(name: str) -> Response:
    return HTMLResponse(_rendered(name))


def serve(settings: ServerSettings, retriever: Any = None) -> None:
    """Run the gateway with uvicorn on ``settings.host:settings.port`` until interrupted."""
    import uvicorn

    app = create_app(settings, retriever)
    server = uvicorn.Server(
        uvicorn.Config(app, host=settings.host, port=settings.port, log_level="info", timeout_keep_alive=5)
    )
    app.state.server = server  # its should_exit ends the deliberation event streams, which never end on their own
    server.run()
