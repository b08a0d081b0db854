"""``thermomilp serve`` under abuse: every request answered, no thread held forever.

The server runs on port 0 in a thread; clients are raw sockets (to send what
no well-behaved library would) or ``http.client``.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from thermomilp.web import server as server_module
from thermomilp.web.api import MAX_BODY, Api
from thermomilp.web.server import serve_in_thread

BOARD = {"puzzle": "thermometers", "rows": [1, 1], "cols": [1, 1],
         "thermometers": [[[0, 0], [0, 1]], [[1, 1], [1, 0]]]}


@pytest.fixture
def quick(monkeypatch):
    """Short client timeouts, so the slow-client tests take seconds."""
    monkeypatch.setattr(server_module.Handler, "timeout", 1.0)
    monkeypatch.setattr(server_module, "IDLE_SECONDS", 1.0)
    monkeypatch.setattr(server_module, "REQUEST_SECONDS", 2.0)
    monkeypatch.setattr(server_module, "DRAIN_SECONDS", 0.5)


@pytest.fixture
def served(request):
    made = []

    def start(**kwargs):
        server, thread, base = serve_in_thread(**kwargs)
        made.append((server, thread))
        host, port = base.rsplit("/", 1)[-1].split(":")
        return host, int(port)

    yield start
    for server, thread in made:
        server.shutdown()
        server.server_close()
        thread.join(5)


def raw(address, data: bytes, *, pause: float = 0.0, timeout: float = 30.0) -> tuple[int, dict]:
    """Send ``data`` on a fresh socket, wait ``pause``, read the whole answer."""
    with socket.create_connection(address, timeout=timeout) as sock:
        sock.sendall(data)
        if pause:
            time.sleep(pause)
        chunks = []
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1."), answer[:200]
    status = int(head.split()[1])
    return status, (json.loads(body) if body.startswith(b"{") else {})


def post(address, path, body: bytes, content_type: str | None = "application/json",
         extra: str = "") -> tuple[int, dict]:
    headers = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
    if content_type is not None:
        headers += f"Content-Type: {content_type}\r\n"
    return raw(address, (headers + extra + "\r\n").encode() + body)


def test_json_endpoints_require_application_json(served):
    address = served()
    body = json.dumps({"instance": "thermometers/t01_4x4.txt"}).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                 None, "application/jsonp"):
        status, data = post(address, "/api/load", body, kind)
        assert status == 415 and "application/json" in data["error"], kind
    status, data = post(address, "/api/load", body, "Application/JSON; charset=utf-8")
    assert status == 200 and data["board"]["height"] == 4


def test_a_null_or_scalar_body_gets_a_400(served):
    address = served()
    for body in (b"null", b"1", b'"x"', b"true"):
        status, data = post(address, "/api/solve", body)
        assert status == 400 and "JSON object" in data["error"], body


def test_a_huge_content_length_is_refused_at_once(served, quick, capfd):
    address = served()
    for length in (10**12, MAX_BODY + 1, 10**40):
        start = time.monotonic()
        status, data = raw(address, (f"POST /api/load HTTP/1.1\r\nContent-Length: {length}\r\n"
                                     "Content-Type: application/json\r\n\r\n{}").encode(),
                           pause=0.1)
        assert time.monotonic() - start < 2.0
        assert status in (411, 413) and data["error"], (length, status)
    assert "Traceback" not in capfd.readouterr().err


def test_a_body_shorter_than_announced_gets_408_when_the_client_goes_quiet(served, quick, capfd):
    address = served()
    start = time.monotonic()
    status, data = raw(address, b"POST /api/load HTTP/1.1\r\nContent-Length: 1000\r\n"
                                b"Content-Type: application/json\r\n\r\n{\"instan")
    assert status == 408 and "1000" in data["error"]
    assert time.monotonic() - start < 4.0
    assert "Traceback" not in capfd.readouterr().err


def test_a_client_that_sends_nothing_or_trickles_is_cut_off(served, quick):
    address = served(workers=2)
    start = time.monotonic()
    with socket.create_connection(address, timeout=10) as silent:
        assert silent.recv(4096).startswith(b"HTTP/1.0 408")
    with socket.create_connection(address, timeout=10) as trickle:  # a slow-loris client
        header = b"GET /api/info HTTP/1.1\r\nX-Slow: " + b"a" * 100
        answer = b""
        for byte in header:
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                break
            time.sleep(0.3)
            if time.monotonic() - start > 8:
                break
        trickle.settimeout(5)
        try:
            answer = trickle.recv(4096)
        except OSError:
            pass
    assert answer.startswith(b"HTTP/1.0 408"), answer
    assert time.monotonic() - start < 8
    status, data = raw(address, b"GET /api/info HTTP/1.0\r\n\r\n")  # the workers are free
    assert status == 200 and data["backend"]


def solve_over_http(address) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(*address, timeout=60)
    try:
        conn.request("POST", "/api/solve", json.dumps({"puzzle": BOARD}).encode(),
                     {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


class SlowApi(Api):
    """An engine that answers only when the test says so."""

    def __init__(self):
        super().__init__()
        self.release = threading.Event()

    def api_solve(self, payload):
        self.release.wait(30)
        return {"status": "unique"}


def test_a_full_queue_answers_503_not_a_reset(served):
    api = SlowApi()
    address = served(api=api, workers=2, backlog=3)
    with ThreadPoolExecutor(30) as pool:
        answers = pool.map(lambda _: solve_over_http(address), range(30))
        time.sleep(1.0)
        api.release.set()
        answers = list(answers)
    statuses = [status for status, _ in answers]
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(200) >= 5 and statuses.count(503) >= 1, statuses
    assert all("busy" in data["error"] for status, data in answers if status == 503)


def test_fifty_concurrent_solves_are_all_answered(served):
    address = served()
    with ThreadPoolExecutor(50) as pool:  # a reset would raise here
        answers = list(pool.map(lambda _: solve_over_http(address), range(50)))
    assert {status for status, _ in answers} <= {200, 503}
    assert all(data["status"] == "unique" for status, data in answers if status == 200)
