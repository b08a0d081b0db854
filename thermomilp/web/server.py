"""The HTTP server: static page + JSON API, standard library only.

``ThreadingHTTPServer`` serves each request in its own thread. Routes:

* ``GET /`` and ``GET /static/<name>`` -- the page's files, from a whitelist
  built at start-up by listing ``thermomilp/web/static/`` (regular files only,
  no symlinks). A request path is looked up in that table as a string; it is
  never joined onto a directory, so nothing outside the folder can be read.
  A path that tries to climb (``..`` after percent-decoding, a backslash, a
  NUL) is refused with 400.
* ``GET /api/<name>`` and ``POST /api/<name>`` -- :class:`thermomilp.web.api.Api`.

Every answer from ``/api`` is JSON; every error is ``{"error": message}``
with a 4xx status for bad input and 500 for a bug. A handler exception never
stops the server. Request bodies over :data:`~thermomilp.web.api.MAX_BODY`
bytes get 413 (the body is drained, up to a cap, so the client reads the
answer instead of a reset connection).
"""

from __future__ import annotations

import json
import mimetypes
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from thermomilp.web.api import MAX_BODY, Api, ApiError

STATIC_DIR = Path(__file__).resolve().parent / "static"
DRAIN_CAP = 16 * 1024 * 1024
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
    timeout = 60  # a stalled client cannot hold a thread forever
    api: Api
    files: dict[str, Path]
    quiet: bool = False

    # -- plumbing ----------------------------------------------------------

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
        payload = self._read_json()
        if payload is None:
            return
        self._json(200, self.api.call(name, payload))

    def _read_json(self) -> Any:
        length_text = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            self._error(411, "send a Content-Length (chunked bodies are not accepted)",
                        close=True)
            return None
        try:
            length = int(length_text or "")
        except ValueError:
            self._error(411, "a POST needs a Content-Length header", close=True)
            return None
        if length < 0:
            self._error(400, "negative Content-Length", close=True)
            return None
        if length > MAX_BODY:
            self._drain(length)
            self._error(413, f"the request is {length} bytes; the limit is {MAX_BODY} bytes "
                             f"({MAX_BODY // 1024} KB)", close=True)
            return None
        body = self.rfile.read(length)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, f"the request body is not UTF-8 (byte {exc.start})") from None
        try:
            return json.loads(text)
        except (ValueError, RecursionError) as exc:  # ValueError: also 5000-digit numbers
            raise ApiError(400, f"the request body is not JSON: {exc}") from None

    def _drain(self, length: int) -> None:
        """Read (and drop) an oversized body so the client sees our 413, up to a cap."""
        left = min(length, DRAIN_CAP)
        while left > 0:
            chunk = self.rfile.read(min(left, 65536))
            if not chunk:
                break
            left -= len(chunk)


def make_server(host: str = "127.0.0.1", port: int = 8000, api: Api | None = None,
                quiet: bool = False) -> ThreadingHTTPServer:
    """A bound (not yet serving) server; port 0 picks a free port."""
    handler = type("ThermomilpHandler", (Handler,),
                   {"api": api or Api(), "files": static_files(), "quiet": quiet})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve_in_thread(host: str = "127.0.0.1", port: int = 0, api: Api | None = None,
                    quiet: bool = True) -> tuple[ThreadingHTTPServer, threading.Thread, str]:
    """Start a server in a daemon thread; returns (server, thread, base URL). For tests."""
    server = make_server(host, port, api, quiet)
    thread = threading.Thread(target=server.serve_forever, name="thermomilp-serve", daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, thread, f"http://{bound_host}:{bound_port}"


def is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.startswith("127.")


__all__ = ["Handler", "HTTPStatus", "climbs", "is_loopback", "make_server", "serve_in_thread",
           "static_files"]
