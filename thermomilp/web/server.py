"""The HTTP server: an ASGI application (Starlette) served by uvicorn.

HTTP itself is parsed by uvicorn's h11 protocol; this module adds what the
server's own settings (`Limits`) promise on top of it: host checking
(`HostCheck`), slow clients (`GuardedH11Protocol`), greedy clients
(`Clients`), request size before the body is read, and a bounded worker pool
(`WorkerPool`) so the event loop never waits for an engine. The guarantees in
full: ``docs/serve.md``.

Routes: ``GET /`` and ``GET /static/<name>`` -- the page's files, from a
whitelist built at start-up (`static_files`), looked up as a string, never
joined onto a directory; ``GET /api/<name>`` and ``POST /api/<name>`` --
[`thermomilp.web.api.Api`][thermomilp.web.api.Api].
Every error from this module is ``{"error": message, "status": code}``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import json
import mimetypes
import queue
import socket
import sys
import threading
import traceback
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote

import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from thermomilp.core.errors import BindError
from thermomilp.web.api import MAX_BODY, SOLVE_SECONDS, Api, ApiError

STATIC_DIR = Path(__file__).resolve().parent / "static"
JSON_TYPE = "application/json"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".ico": "image/x-icon"}
COMMON_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
ANSWER_SOLVES = 3
"""An answer is due within this many engine time limits (`Limits.for_settings`)."""
INLINE = ("info",)
"""Endpoints answered on the event loop itself (no engine, no file): always answered."""


@dataclass(frozen=True)
class Limits:
    """The server's own settings: sizes, times and the worker pool."""

    max_body: int = MAX_BODY
    """Bytes of a request body (``Content-Length``); more is 413 before any is read."""
    idle_seconds: float = 5.0
    """A client quiet this long before its request is in gets 408."""
    head_seconds: float = 4.0
    """A request head must be whole within this of the connection (or of its first
    byte on a kept-alive connection), else 408 and the connection closes."""
    request_seconds: float = 20.0
    """A request body must arrive within this of the head (else 408)."""
    keep_alive_seconds: float = 5.0
    """An idle keep-alive connection is closed after this."""
    drain_seconds: float = 2.0
    """After a refusal the client's body is read and dropped for this long at most..."""
    drain_bytes: int = 16 * 1024 * 1024
    """... and this many bytes at most; then the connection closes."""
    workers: int = 8
    """Threads running the endpoints (at most ``api.CONCURRENT_SOLVES`` run an engine)."""
    queue: int = 32
    """Requests waiting for a worker; one more is answered 503 at once."""
    answer_seconds: float = ANSWER_SOLVES * SOLVE_SECONDS
    """A request's answer (engine waits and solves included) within this, else 503."""
    connections: int = 500
    """Open connections at once. One more closes the connection that has waited
    longest for a request head (503); when none is waiting, uvicorn answers 503."""
    per_client: int = 64
    """Open connections from one client (an IPv4 address, an IPv6 /64) at once; one
    more is answered 429 and closed."""
    backlog: int = 128
    """The listen backlog (the kernel may cap it at ``net.core.somaxconn``)."""

    @classmethod
    def for_settings(cls, settings: Any) -> Limits:
        """The limits of a server solving with ``settings`` (`api.server_settings`):
        an answer is due within three engine time limits -- a wait for an engine, then
        up to two solves (a hint's, a check's)."""
        return cls(answer_seconds=ANSWER_SOLVES * (settings.time_limit or SOLVE_SECONDS))


def static_files(folder: Path = STATIC_DIR) -> dict[str, Path]:
    """URL path -> file, for every regular (non-symlink) file directly in ``folder``."""
    table: dict[str, Path] = {}
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.is_file() and not path.is_symlink():
                table[f"/static/{path.name}"] = path
    if "/static/index.html" in table:
        table["/"] = table["/index.html"] = table["/static/index.html"]
    return table


def climbs(path: str) -> bool:
    """Does a request path try to leave its folder (after any percent-decoding)?"""
    seen = path
    for _ in range(3):  # double-encoded %252e too
        decoded = unquote(seen)
        if decoded == seen:
            break
        seen = decoded
    parts = seen.replace("\\", "/").split("/")
    return ".." in parts or "\x00" in seen or "\\" in seen


# --------------------------------------------------------------------------
# The connection: uvicorn's h11 protocol with head timeouts and draining
# --------------------------------------------------------------------------


class _DrainingTransport:
    """The connection's transport as uvicorn sees it. ``close()`` while the client is
    still sending a body it was refused half-closes instead (the answer is flushed, then
    FIN) and drops what still arrives for a while: closing a socket with unread data in
    it sends a reset, and the client would lose the answer."""

    def __init__(self, raw: asyncio.Transport, protocol: GuardedH11Protocol):
        self._raw = raw
        self._protocol = protocol

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)

    def close(self) -> None:
        proto = self._protocol
        body_unread = proto.cycle is not None and proto.cycle.more_body
        if not body_unread or proto.draining or self._raw.is_closing():
            self._raw.close()
            return
        proto.start_draining()
        try:
            self._raw.resume_reading()
            self._raw.write_eof()
        except (OSError, RuntimeError, NotImplementedError):
            self._raw.close()


def client_key(client: tuple[str, int] | None) -> str:
    """Whose connection this is, for `Limits.per_client`: the IPv4 address, or
    the /64 network of an IPv6 one (one host owns a whole /64); an IPv4-mapped IPv6
    address is its IPv4 address. No address (a Unix socket): ``""``."""
    if not client:
        return ""
    import ipaddress

    try:
        address = ipaddress.ip_address(client[0].split("%", 1)[0])
    except ValueError:
        return client[0]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Clients:
    """One server's connections, as `GuardedH11Protocol` counts them: how many
    each client holds, and which are waiting for a request head, oldest first (the
    first to go when the server is full). Lives on the event loop: no lock."""

    def __init__(self) -> None:
        self.held: Counter[str] = Counter()
        self.waiting: dict[GuardedH11Protocol, None] = {}
        """Insertion-ordered: a connection enters when it starts waiting for a head."""

    def admit(self, key: str, per_client: int) -> bool:
        """Count one more connection of ``key``, unless it holds ``per_client``."""
        if self.held[key] >= per_client:
            return False
        self.held[key] += 1
        return True

    def release(self, key: str) -> None:
        self.held[key] -= 1
        if self.held[key] <= 0:
            del self.held[key]

    def wait(self, connection: GuardedH11Protocol) -> None:
        self.waiting.pop(connection, None)
        self.waiting[connection] = None

    def done_waiting(self, connection: GuardedH11Protocol) -> None:
        self.waiting.pop(connection, None)

    def oldest_waiting(self, but: GuardedH11Protocol) -> GuardedH11Protocol | None:
        for connection in self.waiting:
            if connection is not but and not connection.transport.is_closing():
                return connection
        return None


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, plus what `Limits` promises of a connection: the request
    head's clocks (``head_seconds``, ``idle_seconds``: 408), ``per_client`` (429),
    ``connections`` (503), and a refused body drained briefly (see `_DrainingTransport`).
    ``limits`` and ``clients`` (the connection counts, `Clients`) are set per server
    (`Server`)."""

    limits: Limits = Limits()
    clients: Clients = Clients()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.draining = False
        self._drained = 0
        self._timers: list[asyncio.TimerHandle] = []
        self._counted = False
        self._head_begun = True  # a new connection owes a head from its first moment
        assert isinstance(transport, asyncio.Transport)
        super().connection_made(_DrainingTransport(transport, self))  # type: ignore[arg-type]
        self._key = client_key(self.client)
        if not self.clients.admit(self._key, self.limits.per_client):
            self._refuse(429, "Too Many Requests",
                         f"this client already has {self.limits.per_client} connections open; "
                         "close one and try again")
            return
        self._counted = True
        if len(self.connections) > self.limits.connections:  # full: make room
            oldest = self.clients.oldest_waiting(but=self)
            if oldest is not None:
                oldest._make_room()
        self.clients.wait(self)
        self._await_head()

    # -- the request head's clock ------------------------------------------

    def _awaiting_head(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []

    def _await_head(self, idle_only: bool = False) -> None:
        """(Re)start the clocks of a request head being read."""
        if idle_only:
            for timer in self._timers[1:]:
                timer.cancel()
            self._timers = self._timers[:1]
        else:
            self._cancel_timers()
            self._timers.append(self.loop.call_later(
                self.limits.head_seconds, self._too_slow,
                f"the request head did not arrive within {self.limits.head_seconds:g} s"))
        self._timers.append(self.loop.call_later(
            self.limits.idle_seconds, self._too_slow,
            f"the client was quiet for {self.limits.idle_seconds:g} s "
            "before its request was complete"))

    def _too_slow(self, why: str) -> None:
        if self.transport.is_closing() or not self._awaiting_head():
            return
        self._refuse(408, "Request Timeout", why)

    def _make_room(self) -> None:
        """Closed to make room for a new connection: with a 503 if a request head was
        owed (a new connection, or bytes of the next request), quietly if the connection
        was an idle keep-alive one (as its keep-alive timeout would)."""
        if not self._head_begun:
            self._cancel_timers()
            self.clients.done_waiting(self)
            self.transport.close()
            return
        self._refuse(503, "Service Unavailable",
                     f"the server has {self.limits.connections} connections open and this "
                     "one had not sent its request; try again")

    def _refuse(self, status: int, phrase: str, why: str) -> None:
        """Answer ``status`` before any request (``Connection: close``) and close."""
        self._cancel_timers()
        self.clients.done_waiting(self)
        body = json.dumps({"error": why, "status": status}).encode("utf-8")
        self.transport.write(f"HTTP/1.1 {status} {phrase}\r\n".encode()
                             + b"Content-Type: application/json\r\nConnection: close\r\n"
                             b"Cache-Control: no-store\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        self.transport.close()

    # -- uvicorn's events --------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self.draining:
            self._drained += len(data)
            if self._drained > self.limits.drain_bytes:
                self.transport._raw.close()  # type: ignore[attr-defined]
            return
        if not self._counted:
            return  # refused (429): the answer is on its way, the request is not read
        before = self.cycle
        waiting = self._awaiting_head()
        if waiting and not self._timers:  # a new request on a kept-alive connection
            self._head_begun = True
            self._await_head()
        super().data_received(data)
        if self.cycle is not before or not self._awaiting_head():
            self._cancel_timers()  # the head is in: the application takes over
            self.clients.done_waiting(self)
        elif self._timers and not self.transport.is_closing():
            self._await_head(idle_only=True)

    def on_response_complete(self) -> None:
        self._cancel_timers()  # uvicorn's keep-alive clock runs now
        super().on_response_complete()
        if self._counted and not self.transport.is_closing() and self._awaiting_head():
            self._head_begun = False  # idle between requests: the first to go when full
            self.clients.wait(self)

    def start_draining(self) -> None:
        self.draining = True
        self._cancel_timers()
        raw = self.transport._raw  # type: ignore[attr-defined]
        self.loop.call_later(self.limits.drain_seconds, raw.close)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_timers()
        self.clients.done_waiting(self)
        if self._counted:
            self._counted = False
            self.clients.release(self._key)
        super().connection_lost(exc)


# --------------------------------------------------------------------------
# The worker pool
# --------------------------------------------------------------------------


class WorkerPool:
    """``workers`` daemon threads and room for ``waiting`` more jobs.

    A job that cannot get a place is refused at once (`submit` returns
    None). A place is freed when its job ends -- a job stuck in an engine keeps
    its place, so stuck jobs can fill the pool but never grow it. Daemon
    threads: a stuck job never keeps the process from exiting.
    """

    def __init__(self, workers: int, waiting: int):
        self._places = threading.BoundedSemaphore(workers + waiting)
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._work, name=f"thermomilp-worker-{k}",
                                          daemon=True) for k in range(workers)]
        for thread in self._threads:
            thread.start()

    def submit(self, work: Callable[[], Any]) -> concurrent.futures.Future[Any] | None:
        if not self._places.acquire(blocking=False):
            return None
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self._jobs.put((work, future))
        return future

    def _work(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            work, future = item
            try:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(work())
                    except BaseException as exc:  # noqa: BLE001 - handed to the caller
                        future.set_exception(exc)
            finally:
                self._places.release()

    def close(self) -> None:
        for _ in self._threads:
            self._jobs.put(None)


# --------------------------------------------------------------------------
# The application
# --------------------------------------------------------------------------


class _Refused(ApiError):
    """An error answered before the body was read: the connection closes after it."""


def json_response(status: int, data: dict[str, Any], close: bool = False) -> Response:
    headers = dict(COMMON_HEADERS)
    if close:
        headers["Connection"] = "close"
    if status == 503:
        headers["Retry-After"] = "1"
    return Response(json.dumps(data).encode("utf-8"), status, headers, JSON_TYPE)


def error_response(status: int, message: str, close: bool = False) -> Response:
    return json_response(status, {"error": message, "status": status}, close)


def host_name(value: str) -> str | None:
    """The name in a ``Host`` header, lower case, without port or brackets; None when
    it is not a well-formed host."""
    value = value.strip().lower()
    if value.startswith("["):
        name, sep, rest = value[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        return name
    name, sep, port = value.partition(":")
    if sep and not port.isdigit():
        return None
    return name or None


def allowed_hosts(bound: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request's ``Host`` may carry: the loopback names, the bound host
    (unless it is a wildcard address) and the ``--allow-host`` names."""
    names = set(LOOPBACK_NAMES)
    for name in (bound, *extra):
        name = name.strip().lower().strip("[]")
        if name and name not in ("0.0.0.0", "::"):
            names.add(name)
    return frozenset(names)


class HostCheck:
    """ASGI middleware: 400 for a ``Host`` that is not one of ``allowed`` (DNS
    rebinding), or for more than one ``Host``. A request without ``Host`` (HTTP/1.0)
    passes: a browser always sends one."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]):
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            hosts = [v.decode("latin-1") for k, v in scope["headers"] if k == b"host"]
            if len(hosts) > 1 or (hosts and host_name(hosts[0]) not in self.allowed):
                shown = ", ".join(sorted(self.allowed))
                response = error_response(
                    400, f"this server answers only requests for {shown} (the Host header "
                         f"was {hosts[0][:100]!r}); add a name with --allow-host", close=True)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Application:
    """The routes, with the [`Api`][thermomilp.web.api.Api] behind them and the pool in front of
    it."""

    def __init__(self, api: Api, limits: Limits, files: dict[str, Path]):
        self.api, self.limits, self.files = api, limits, files
        self.pool = WorkerPool(limits.workers, limits.queue)

    async def endpoint(self, request: Request) -> Response:
        try:
            return await self._answer(request)
        except ApiError as exc:  # refused before the body was read: the connection closes
            return error_response(exc.status, exc.message, close=isinstance(exc, _Refused))
        except Exception as exc:  # a bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            return error_response(500, f"internal error: {type(exc).__name__}: {exc}",
                                  close=True)

    def _path(self, request: Request) -> str:
        raw = request.scope.get("raw_path") or request.scope["path"].encode("utf-8")
        text = raw.decode("latin-1")
        if climbs(text):
            raise ApiError(400, "the request path climbs out of its folder ('..'): refused")
        return unquote(text)

    async def _answer(self, request: Request) -> Response:
        path = self._path(request)
        name = path[len("/api/"):] if path.startswith("/api/") else None
        if request.method in ("GET", "HEAD"):
            if name is not None:
                if name in Api.POST:
                    raise ApiError(405, f"/api/{name} takes POST with a JSON body")
                if name in INLINE or name not in Api.GET:  # unknown: Api.call says 404
                    return json_response(200, self.api.call(name))
                return json_response(200, await self._in_pool(lambda: self.api.call(name)))
            file = self.files.get(path)
            if file is None:
                raise ApiError(404, f"no such page: {path}")
            kind = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or \
                "application/octet-stream"
            return Response(file.read_bytes(), 200, COMMON_HEADERS, kind)
        if request.method != "POST":
            raise _Refused(405, f"unsupported method {request.method!r}: GET or POST")
        if name is None:
            raise _Refused(405, "POST goes to /api/<endpoint>")
        if name in Api.GET:
            raise _Refused(405, f"/api/{name} takes GET")
        payload = await self._read_json(request)  # a JSON null too: Api.call says 400
        return json_response(200, await self._in_pool(lambda: self.api.call(name, payload)))

    async def _in_pool(self, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        future = self.pool.submit(work)
        if future is None:
            raise ApiError(503, "the server is busy; try again shortly")
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future),
                                          self.limits.answer_seconds)
        except asyncio.TimeoutError:
            raise ApiError(503, f"no answer within {self.limits.answer_seconds:g} s (the "
                                "engines are busy or stuck); try again later") from None
        except asyncio.CancelledError:  # the server is stopping (Ctrl-C): say so
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
            raise ApiError(503, "the server is stopping; the request was not finished") \
                from None

    async def _read_json(self, request: Request) -> Any:
        """The body as JSON. Its headers are checked before any byte of it is read."""
        limit = self.limits.max_body
        if "chunked" in request.headers.get("transfer-encoding", "").lower():
            raise _Refused(411, "send a Content-Length (chunked bodies are not accepted)")
        length_text = request.headers.get("content-length")
        if length_text is None:
            raise _Refused(411, "a POST needs a Content-Length header (a whole number)")
        length = int(length_text)  # h11 has checked it: digits only, one value
        if length > limit:
            raise _Refused(413, f"the request is {length} bytes; the limit is {limit} bytes "
                                f"({limit // 1024} KB)")
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != JSON_TYPE:
            raise _Refused(415, f"send the body as Content-Type: {JSON_TYPE} "
                                f"(got {kind or 'none'!r})")
        body = await self._read_body(request, length)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, f"the request body is not UTF-8 (byte {exc.start})") from None
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:  # ValueError: also 5000-digit numbers
            raise ApiError(400, f"the request body is not JSON: {exc}") from None

    async def _read_body(self, request: Request, length: int) -> bytes:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.request_seconds
        chunks: list[bytes] = []
        got = 0
        more = length > 0
        while more:
            wait = min(self.limits.idle_seconds, deadline - loop.time())
            try:
                message = await asyncio.wait_for(request.receive(), max(wait, 0.0))
            except asyncio.TimeoutError:
                raise _Refused(408, f"the body stopped after {got} of the {length} bytes its "
                                    "Content-Length announced") from None
            if message["type"] == "http.disconnect":
                raise _Refused(400, "the client left before its body arrived")
            chunk = message.get("body", b"")
            chunks.append(chunk)
            got += len(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    return error_response(status, str(getattr(exc, "detail", exc)), close=True)


def build_app(api: Api | None = None, limits: Limits | None = None,
              allowed: frozenset[str] = frozenset(LOOPBACK_NAMES)) -> ASGIApp:
    """The ASGI application: Starlette routing one catch-all route to `Application`,
    behind `HostCheck`."""
    limits = limits or Limits()
    application = Application(api or Api(), limits, static_files())
    app = Starlette(routes=[Route("/{path:path}", application.endpoint,
                                  methods=["GET", "HEAD", "POST"])],
                    exception_handlers={HTTPException: _http_error})
    checked = HostCheck(app, allowed)
    checked.pool = application.pool  # type: ignore[attr-defined]
    return checked


# --------------------------------------------------------------------------
# Listening
# --------------------------------------------------------------------------


def bind(host: str, port: int, backlog: int = Limits.backlog) -> socket.socket:
    """A listening socket on ``host``:``port`` (0 = any free port), or
    [`BindError`][thermomilp.core.errors.BindError] saying why not and what to do."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise BindError(f"cannot listen on {host!r}: no such host or address ({reason}); "
                        "--host takes an address of this machine, e.g. 127.0.0.1") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        reasons: dict[int | None, str] = {
            errno.EADDRINUSE: f"port {port} is already in use (another server?); stop it, or "
                              "choose another port with --port N (--port 0 picks a free one)",
            errno.EACCES: "permission denied (ports below 1024 need administrator rights); use "
                          "a port such as --port 8000, or --port 0 for any free one",
            errno.EADDRNOTAVAIL: f"{host} is not an address of this machine; try --host "
                                 "127.0.0.1"}
        raise BindError(f"cannot listen on {where}: "
                        f"{reasons.get(exc.errno, exc.strerror or str(exc))}") from None
    return sock


class Server:
    """A bound server: `serve_forever` runs uvicorn on the bound socket (in this
    thread); `shutdown` asks it to stop from another thread."""

    def __init__(self, sock: socket.socket, app: ASGIApp, limits: Limits, quiet: bool):
        self.socket = sock
        self.limits = limits
        protocol = type("ThermomilpH11Protocol", (GuardedH11Protocol,),
                        {"limits": limits, "clients": Clients()})
        config = uvicorn.Config(
            app, http=protocol, ws="none", lifespan="off", loop="asyncio", interface="asgi3",
            proxy_headers=False, server_header=False, access_log=not quiet,
            log_config=None if quiet else uvicorn.config.LOGGING_CONFIG,
            log_level="error" if quiet else "info",
            # one more than ours: uvicorn counts the new connection itself, which
            # GuardedH11Protocol has already made room for (limits.connections)
            limit_concurrency=limits.connections + 1, backlog=limits.backlog,
            timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
            timeout_graceful_shutdown=3)
        self.uvicorn = uvicorn.Server(config)
        self._pool: WorkerPool | None = getattr(app, "pool", None)
        self._serving = threading.Event()
        self._stopped = threading.Event()

    @property
    def address(self) -> tuple[str, int]:
        """The host and port the server listens on (port 0 asked for any free one)."""
        host, port = self.socket.getsockname()[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.address
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    def serve_forever(self) -> None:
        self._serving.set()
        try:
            self.uvicorn.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Ask the serving thread to stop (it closes the socket as it does)."""
        self.uvicorn.should_exit = True

    def server_close(self, wait: float = 10.0) -> None:
        """Stop serving (waiting at most ``wait`` seconds for that) and release the
        socket and the workers."""
        self.uvicorn.should_exit = True
        if self._serving.is_set():
            self._stopped.wait(wait)
        self.socket.close()
        if self._pool is not None:
            self._pool.close()


def make_server(host: str = "127.0.0.1", port: int = 8000, api: Api | None = None,
                quiet: bool = False, limits: Limits | None = None,
                allow_hosts: tuple[str, ...] = ()) -> Server:
    """A bound (not yet serving) server; port 0 picks a free port. Raises
    [`BindError`][thermomilp.core.errors.BindError] when it cannot listen."""
    api = api or Api()
    limits = limits or Limits.for_settings(api.engine)
    sock = bind(host, port, limits.backlog)
    app = build_app(api, limits, allowed_hosts(host, allow_hosts))
    return Server(sock, app, limits, quiet)


def serve_in_thread(host: str = "127.0.0.1", port: int = 0, api: Api | None = None,
                    quiet: bool = True, limits: Limits | None = None,
                    allow_hosts: tuple[str, ...] = (), **sizes: Any
                    ) -> tuple[Server, threading.Thread, str]:
    """Start a server in a daemon thread; returns (server, thread, base URL). For tests
    and benchmarks; ``workers=``, ``queue=`` and the other `Limits` fields may be
    given directly."""
    if sizes:
        limits = replace(limits or Limits(), **sizes)
    server = make_server(host, port, api, quiet, limits, allow_hosts)
    thread = threading.Thread(target=server.serve_forever, name="thermomilp-serve", daemon=True)
    thread.start()
    return server, thread, server.url


def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


__all__ = ["BindError", "Clients", "GuardedH11Protocol", "HostCheck", "Limits", "Server",
           "WorkerPool", "allowed_hosts", "bind", "build_app", "client_key", "climbs",
           "host_name", "is_loopback", "make_server", "serve_in_thread", "static_files"]
