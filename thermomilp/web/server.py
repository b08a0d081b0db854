"""The HTTP server: static page + JSON API, standard library only.

:class:`PooledHTTPServer` serves each connection (one request: HTTP/1.0, no
keep-alive) on one of a fixed number of worker threads, fed by a bounded
queue; when the queue is full the connection is answered **503** at once by a
small rejector thread, so a flood meets answers, not TCP resets (the listen
backlog is :data:`BACKLOG`, not the standard library's 5). A slow client
cannot hold a worker: each socket read waits at most :data:`IDLE_SECONDS`
and the whole request must arrive within :data:`REQUEST_SECONDS`. Routes:

* ``GET /`` and ``GET /static/<name>`` -- the page's files, from a whitelist
  built at start-up by listing ``thermomilp/web/static/`` (regular files only,
  no symlinks). A request path is looked up in that table as a string; it is
  never joined onto a directory, so nothing outside the folder can be read.
  A path that tries to climb (``..`` after percent-decoding, a backslash, a
  NUL) is refused with 400.
* ``GET /api/<name>`` and ``POST /api/<name>`` -- :class:`thermomilp.web.api.Api`.

Every answer from ``/api`` is JSON; every error is ``{"error": message}``
with a 4xx status for bad input and 500 for a bug. A handler exception never
stops the server. A POST must say ``Content-Type: application/json`` (415
otherwise: a cross-origin "simple" request -- a form, ``text/plain`` -- cannot
reach the API without a CORS preflight, which this server never grants) and
carry a ``Content-Length`` that is checked before any byte of the body is
read: over :data:`~thermomilp.web.api.MAX_BODY` bytes gets 413 at once (the
body is then drained briefly, so the client reads the answer instead of a
reset connection); a body shorter than announced gets 408 when the client
goes quiet.
"""

from __future__ import annotations

import json
import mimetypes
import queue
import selectors
import socket
import sys
import threading
import time
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from thermomilp.web.api import MAX_BODY, Api, ApiError

STATIC_DIR = Path(__file__).resolve().parent / "static"
DRAIN_CAP = 16 * 1024 * 1024
DRAIN_SECONDS = 2.0
"""How long a refused body is drained after the answer is sent (then the socket closes)."""
WORKERS = 8
"""Threads serving requests (at most ``api.CONCURRENT_SOLVES`` of them run an engine)."""
QUEUE = 32
"""Accepted connections waiting for a worker; one more is answered 503 at once."""
BACKLOG = 128
"""The listen backlog (the kernel may cap it at ``net.core.somaxconn``)."""
IDLE_SECONDS = 5.0
"""A read from a client that sends nothing for this long ends the request (408)."""
REQUEST_SECONDS = 20.0
"""The whole request (line, headers, body) must arrive within this; then the socket closes."""
REJECT_SECONDS = 2.0
"""A rejected connection's wait for its request, then for the client to close."""
REJECT_HELD = 256
"""Rejected connections waiting at once; more are closed without an answer."""
JSON_TYPE = "application/json"


class _Answered(Exception):
    """The request was already answered (an error sent while reading it)."""
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
         ".ico": "image/x-icon"}


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


class Handler(BaseHTTPRequestHandler):
    server_version = "thermomilp"
    timeout = IDLE_SECONDS  # each read; REQUEST_SECONDS bounds the whole request
    api: Api
    files: dict[str, Path]
    quiet: bool = False

    # -- plumbing ----------------------------------------------------------

    def setup(self) -> None:
        super().setup()
        self._reading = True
        self._expired = False
        self._watchdog = threading.Timer(REQUEST_SECONDS, self._too_slow)
        self._watchdog.daemon = True
        self._watchdog.start()

    def finish(self) -> None:
        self._watchdog.cancel()
        super().finish()

    def _too_slow(self) -> None:
        """The request has not arrived in REQUEST_SECONDS (a slow-loris client): shut
        the reading side, so the worker's pending read returns, and answer 408."""
        if self._reading:
            self._expired = True
            try:
                self.connection.shutdown(socket.SHUT_RD)
            except OSError:
                pass

    def handle_one_request(self) -> None:
        """One request per connection (a keep-alive client would hold a worker), and
        a client too slow to send it gets 408 instead of silence."""
        self.close_connection = True
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if not self.raw_requestline and not self._expired:
                return  # connected and left without a word
            if self._expired:
                self._late()
                return
            if len(self.raw_requestline) > 65536:
                self.requestline = self.request_version = self.command = ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not self.parse_request():
                return
            if self._expired:
                self._late()
                return
            method = getattr(self, "do_" + self.command, None)
            if method is None:
                self.send_error(HTTPStatus.NOT_IMPLEMENTED, f"unsupported method {self.command!r}")
                return
            method()
            self.wfile.flush()
        except TimeoutError:
            self._late()

    def _late(self) -> None:
        self._request_read()
        for name, default in (("requestline", ""), ("request_version", "HTTP/1.0"),
                              ("command", "")):
            if not hasattr(self, name):
                setattr(self, name, default)
        try:
            self._error(408, f"the request did not arrive within {REQUEST_SECONDS:g} s "
                             f"(or the client was quiet for {IDLE_SECONDS:g} s)", close=True)
        except OSError:
            pass

    def _request_read(self) -> None:
        """The request is in: from now on the answer may take as long as the work."""
        self._reading = False
        self._watchdog.cancel()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def _send(self, status: int, body: bytes, content_type: str, close: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: dict[str, Any], close: bool = False) -> None:
        self._send(status, json.dumps(data).encode("utf-8"), "application/json", close)

    def _error(self, status: int, message: str, close: bool = False) -> None:
        self._json(status, {"error": message, "status": status}, close)

    def _guarded(self, work) -> None:
        try:
            work()
        except _Answered:
            pass
        except ApiError as exc:
            self._error(exc.status, exc.message)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as exc:  # a bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            try:
                self._error(500, f"internal error: {type(exc).__name__}: {exc}", close=True)
            except OSError:
                self.close_connection = True

    # -- verbs -------------------------------------------------------------

    def do_GET(self) -> None:
        self._guarded(self._get)

    def do_HEAD(self) -> None:
        self._guarded(self._get)

    def do_POST(self) -> None:
        self._guarded(self._post)

    def _route(self) -> str:
        raw = urlsplit(self.path).path
        if climbs(raw):
            raise ApiError(400, "the request path climbs out of its folder ('..'): refused")
        return unquote(raw)

    def _get(self) -> None:
        self._request_read()
        path = self._route()
        if path.startswith("/api/"):
            name = path[len("/api/"):]
            if name in Api.POST:
                raise ApiError(405, f"/api/{name} takes POST with a JSON body")
            self._json(200, self.api.call(name))
            return
        file = self.files.get(path)
        if file is None:
            raise ApiError(404, f"no such page: {path}")
        kind = TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0] or \
            "application/octet-stream"
        self._send(200, file.read_bytes(), kind)

    def _post(self) -> None:
        path = self._route()
        if not path.startswith("/api/"):
            raise ApiError(405, "POST goes to /api/<endpoint>")
        name = path[len("/api/"):]
        if name in Api.GET:
            raise ApiError(405, f"/api/{name} takes GET")
        payload = self._read_json()  # a JSON null is a payload too: Api.call says 400
        self._json(200, self.api.call(name, payload))

    def _read_json(self) -> Any:
        """The body as JSON, or :class:`_Answered` after an error answer. Headers are
        checked before any byte of the body is read."""
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            self._refuse(411, "send a Content-Length (chunked bodies are not accepted)", 0)
        try:
            length = int(length_text or "")
        except ValueError:
            self._refuse(411, "a POST needs a Content-Length header (a whole number)", 0)
        if length < 0:
            self._refuse(400, "negative Content-Length", 0)
        if length > MAX_BODY:
            self._refuse(413, f"the request is {length} bytes; the limit is {MAX_BODY} bytes "
                              f"({MAX_BODY // 1024} KB)", length)
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != JSON_TYPE:
            self._refuse(415, f"send the body as Content-Type: {JSON_TYPE} "
                              f"(got {kind or 'none'!r})", length)
        body = self._read_body(length)
        self._request_read()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, f"the request body is not UTF-8 (byte {exc.start})") from None
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:  # ValueError: also 5000-digit numbers
            raise ApiError(400, f"the request body is not JSON: {exc}") from None

    def _read_body(self, length: int) -> bytes:
        chunks: list[bytes] = []
        got = 0
        try:
            while got < length:
                chunk = self.rfile.read1(length - got)
                if not chunk:
                    break
                chunks.append(chunk)
                got += len(chunk)
        except (TimeoutError, OSError):
            pass  # the client went quiet, or the watchdog cut a slow request
        if got < length or self._expired:
            self._refuse(408, f"the body stopped after {got} of the {length} bytes its "
                              "Content-Length announced", 0)
        return b"".join(chunks)

    def _refuse(self, status: int, message: str, length: int) -> None:
        """Answer an error before the body is read, drain what the client still sends
        (briefly, up to a cap: so it can read the answer), and close."""
        self._request_read()
        try:
            self._error(status, message, close=True)
            self.wfile.flush()
            deadline = time.monotonic() + DRAIN_SECONDS
            left = min(length, DRAIN_CAP)
            self.connection.settimeout(DRAIN_SECONDS)
            while left > 0 and time.monotonic() < deadline:
                chunk = self.rfile.read1(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:  # the client left, or went quiet: we have answered
            pass
        raise _Answered


class PooledHTTPServer(HTTPServer):
    """``HTTPServer`` with a fixed pool of worker threads and a bounded queue.

    The accepting thread only enqueues; when the queue is full the connection
    goes to the rejector thread, which answers 503 and closes (or, when even
    that is swamped, it is closed at once). Nothing ever spawns a thread per
    connection, so a flood costs a bounded number of threads.
    """

    request_queue_size = BACKLOG
    allow_reuse_address = True

    def __init__(self, address: Any, handler: type, workers: int = WORKERS,
                 backlog: int = QUEUE):
        super().__init__(address, handler)
        self._queue: queue.Queue[Any] = queue.Queue(backlog)
        self._rejects: queue.Queue[Any] = queue.Queue(REJECT_HELD)
        self._threads = [threading.Thread(target=self._work, name=f"thermomilp-worker-{k}",
                                          daemon=True) for k in range(workers)]
        self._threads.append(threading.Thread(target=self._reject_loop, daemon=True,
                                              name="thermomilp-rejector"))
        for thread in self._threads:
            thread.start()

    def process_request(self, request: Any, client_address: Any) -> None:
        try:
            self._queue.put_nowait((request, client_address))
        except queue.Full:
            try:
                self._rejects.put_nowait(request)
            except queue.Full:
                self.shutdown_request(request)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            request, client_address = item
            try:
                self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - one connection's failure, not the server's
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside a handler's own guard: a client that left
        is not news; anything else is a bug, reported on stderr."""
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)

    def _reject_loop(self) -> None:
        """Answer 503 on every connection the queue had no room for.

        One thread for all of them, non-blocking: each socket waits (up to
        REJECT_SECONDS) for its request to arrive, is answered, and is drained
        until the client closes (or REJECT_SECONDS again) -- closing a socket
        with unread data in it would send a reset instead of the answer.
        """
        body = json.dumps({"error": "the server is busy; try again shortly",
                           "status": 503}).encode("utf-8")
        answer = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                  b"Retry-After: 1\r\nConnection: close\r\nCache-Control: no-store\r\n"
                  b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        waiting: dict[Any, list[Any]] = {}  # socket -> [deadline, answered]
        with selectors.DefaultSelector() as selector:
            while True:
                incoming: list[Any] = []
                try:
                    incoming.append(self._rejects.get(timeout=None if not waiting else 0.02))
                    while len(incoming) < 64:
                        incoming.append(self._rejects.get_nowait())
                except queue.Empty:
                    pass
                for request in incoming:
                    if request is None:  # server_close
                        for sock in waiting:
                            sock.close()
                        return
                    if len(waiting) >= REJECT_HELD:
                        self.shutdown_request(request)
                        continue
                    request.setblocking(False)
                    waiting[request] = [time.monotonic() + REJECT_SECONDS, False]
                    selector.register(request, selectors.EVENT_READ)
                ready = {key.fileobj for key, _ in selector.select(timeout=0.05)}
                now = time.monotonic()
                for sock, state in list(waiting.items()):
                    done = False
                    if sock in ready:
                        try:
                            done = not sock.recv(65536) and state[1]  # the client closed
                        except BlockingIOError:
                            pass
                        except OSError:
                            done = True
                    if not done and not state[1] and (sock in ready or now > state[0]):
                        try:
                            sock.sendall(answer)  # a few hundred bytes: fits the buffer
                            sock.shutdown(socket.SHUT_WR)
                        except OSError:
                            done = True
                        state[:] = [now + REJECT_SECONDS, True]
                    elif state[1] and now > state[0]:
                        done = True
                    if done:
                        selector.unregister(sock)
                        del waiting[sock]
                        sock.close()

    def server_close(self) -> None:
        super().server_close()
        for _ in self._threads[:-1]:
            self._queue.put(None)
        self._rejects.put(None)


def make_server(host: str = "127.0.0.1", port: int = 8000, api: Api | None = None,
                quiet: bool = False, workers: int = WORKERS,
                backlog: int = QUEUE) -> PooledHTTPServer:
    """A bound (not yet serving) server; port 0 picks a free port."""
    handler = type("ThermomilpHandler", (Handler,),
                   {"api": api or Api(), "files": static_files(), "quiet": quiet})
    if ":" in host:
        server_class: type[PooledHTTPServer] = type("PooledHTTPServer6", (PooledHTTPServer,),
                                                   {"address_family": socket.AF_INET6})
    else:
        server_class = PooledHTTPServer
    return server_class((host, port), handler, workers, backlog)


def bound_address(server: PooledHTTPServer) -> tuple[str, int]:
    """The host and port the server listens on (port 0 asked for any free one)."""
    host, port = server.server_address[:2]
    return host.decode() if isinstance(host, bytes) else str(host), int(port)


def serve_in_thread(host: str = "127.0.0.1", port: int = 0, api: Api | None = None,
                    quiet: bool = True, workers: int = WORKERS, backlog: int = QUEUE
                    ) -> tuple[PooledHTTPServer, threading.Thread, str]:
    """Start a server in a daemon thread; returns (server, thread, base URL). For tests."""
    server = make_server(host, port, api, quiet, workers, backlog)
    thread = threading.Thread(target=server.serve_forever, name="thermomilp-serve", daemon=True)
    thread.start()
    bound_host, bound_port = bound_address(server)
    return server, thread, f"http://{bound_host}:{bound_port}"


def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


__all__ = ["Handler", "HTTPStatus", "PooledHTTPServer", "climbs", "is_loopback", "make_server",
           "serve_in_thread", "static_files"]
