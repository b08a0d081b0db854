"""``thermomilp serve`` under abuse: every request answered, no thread held forever.

The server runs on port 0 in a thread; clients are raw sockets (to send what
no well-behaved library would) or ``http.client``. HTTP framing is uvicorn's
(h11): these tests pin what it must refuse, not how it is written.
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from thermomilp.web.api import MAX_BODY, Api
from thermomilp.web.server import Limits, serve_in_thread

BOARD = {"puzzle": "thermometers", "rows": [1, 1], "cols": [1, 1],
         "thermometers": [[[0, 0], [0, 1]], [[1, 1], [1, 0]]]}


QUICK = Limits(idle_seconds=1.0, head_seconds=2.0, request_seconds=2.0, drain_seconds=0.5)
"""Short client timeouts, so the slow-client tests take seconds."""


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
    headers = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
               f"Content-Length: {len(body)}\r\n")
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


def test_a_huge_content_length_is_refused_at_once(served, capfd):
    address = served(limits=QUICK)
    for length in (10**12, MAX_BODY + 1, 10**40):
        # At once: a server that waited for the body would answer 408 after
        # QUICK.request_seconds, not 411/413/400 -- the status says it, not a stopwatch.
        status, data = raw(address, (f"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                     f"Content-Length: {length}\r\n"
                                     "Content-Type: application/json\r\n\r\n{}").encode(),
                           pause=0.1)
        # more than 20 digits: h11 refuses the header itself (400)
        assert status in ((411, 413) if length < 10**20 else (400,)), (length, status)
        assert data["error"] if status != 400 else True
    assert "Traceback" not in capfd.readouterr().err


def test_a_body_shorter_than_announced_gets_408_when_the_client_goes_quiet(served, capfd):
    address = served(limits=QUICK)
    start = time.monotonic()
    status, data = raw(address, b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                b"Content-Length: 1000\r\nContent-Type: application/json\r\n"
                                b"\r\n{\"instan")
    assert status == 408 and "1000" in data["error"]  # the server's own request limit
    assert time.monotonic() - start < 10 * QUICK.request_seconds  # generous: a loaded machine
    assert "Traceback" not in capfd.readouterr().err


def test_a_client_that_sends_nothing_or_trickles_is_cut_off(served):
    address = served(limits=QUICK, workers=2)
    with socket.create_connection(address, timeout=10) as silent:
        assert silent.recv(4096).startswith(b"HTTP/1.1 408")
    with socket.create_connection(address, timeout=10) as trickle:  # a slow-loris client
        # 3.3 bytes a second: the whole head would take 40 s, QUICK.request_seconds is 2
        header = b"GET /api/info HTTP/1.1\r\nX-Slow: " + b"a" * 100
        answer = b""
        sent = 0
        for byte in header:
            try:
                trickle.sendall(bytes([byte]))
            except OSError:
                break
            sent += 1
            time.sleep(0.3)
            if select.select([trickle], [], [], 0)[0]:  # the server has answered
                break
        trickle.settimeout(5)
        try:
            answer = trickle.recv(4096)
        except OSError:
            pass
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert sent < len(header), "the server waited for the whole trickled head"
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
    address = served(api=api, workers=2, queue=3)
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


# --------------------------------------------------------------------------
# Content-Length: one reading, or 400
# --------------------------------------------------------------------------

LOAD = b'{"instance": "thermometers/t01_4x4.txt"}'


def framed(address, length_headers: str, body: bytes = LOAD) -> tuple[int, dict]:
    return raw(address, ("POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                         "Content-Type: application/json\r\n" + length_headers + "\r\n"
                         ).encode() + body)


@pytest.mark.parametrize("value", ["+{n}", "0_{n}", "{n} {n}", "-{n}", "0x28", "{n}.0", "{n}a",
                                   "{n}\r\nContent-Length: {m}", "{n}, {m}", "", "\u0662{n}"])
def test_a_malformed_or_conflicting_content_length_is_400(served, value):
    address = served()
    headers = "Content-Length: " + value.format(n=len(LOAD), m=len(LOAD) + 1) + "\r\n"
    status, _ = raw(address, ("POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close"
                              "\r\nContent-Type: application/json\r\n" + headers + "\r\n"
                              ).encode("utf-8") + LOAD)
    assert status == 400, value
    status, data = raw(address, b"GET /api/info HTTP/1.0\r\n\r\n")
    assert status == 200 and data["backend"]


def test_content_length_is_read_once_and_exactly(served):
    """Spaces around a header value are not part of it (RFC 9110 5.5), so ' 2 ' is 2 --
    and then exactly 2 bytes are the body: the rest is not smuggled into it. A repeated
    identical value is one value."""
    address = served()
    status, data = framed(address, "Content-Length:  2 \r\n", b"{}")
    assert status == 400 and "instance" in data["error"]  # the body was exactly {}
    status, data = framed(address, f"Content-Length: {len(LOAD)}\r\n"
                                   f"Content-Length: {len(LOAD)}\r\n")
    assert status == 200 and data["board"]["height"] == 4
    # a body followed by a second request on the same connection: two answers, in order
    second = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    with socket.create_connection(address, timeout=30) as sock:
        sock.sendall(b"POST /api/load HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 2\r\n\r\n{}" + second)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.count(b"HTTP/1.1 ") == 2 and b'"backend"' in answer


def test_transfer_encoding_with_content_length_is_refused(served):
    address = served()
    status, _ = framed(address, "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
                       b"2\r\n{}\r\n0\r\n\r\n")
    assert status in (400, 411)


# --------------------------------------------------------------------------
# Host: only this server's names (DNS rebinding)
# --------------------------------------------------------------------------


def get_with_host(address, host: str | None) -> tuple[int, dict]:
    line = f"Host: {host}\r\n" if host is not None else ""
    return raw(address, f"GET /api/info HTTP/1.1\r\n{line}Connection: close\r\n\r\n".encode())


def test_a_foreign_host_is_refused(served):
    address = served()
    port = address[1]
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example",
                 "localhost.evil.example", f"[::2]:{port}", "attacker", "127.0.0.1:x",
                 "[::1", "0.0.0.0"):
        status, data = get_with_host(address, host)
        assert status == 400 and "Host" in data["error"], host
    for host in ("localhost", f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}",
                 "LOCALHOST"):
        status, data = get_with_host(address, host)
        assert status == 200 and data["backend"], host
    status, _ = raw(address, b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n"
                             b"Host: evil.example\r\nConnection: close\r\n\r\n")
    assert status == 400
    status, _ = raw(address, b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    assert status == 400  # the page too: a rebinding page must not read it either


def test_allow_host_adds_a_name(served):
    address = served(allow_hosts=("puzzles.lan",))
    assert get_with_host(address, "puzzles.lan:8000")[0] == 200
    assert get_with_host(address, "evil.example")[0] == 400


# --------------------------------------------------------------------------
# Slow connections do not starve polite clients
# --------------------------------------------------------------------------


def test_forty_slow_connections_do_not_starve_polite_clients(served):
    """40 sockets trickle a request head, one byte every 2 s (each well inside the
    server's idle limit); 20 polite requests are all answered, promptly."""
    address = served()
    slow = [socket.create_connection(address, timeout=10) for _ in range(40)]
    stop = threading.Event()

    def trickle():
        head = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
        for byte in head:
            for sock in slow:
                try:
                    sock.sendall(bytes([byte]))
                except OSError:
                    pass
            if stop.wait(2.0):
                return

    trickler = threading.Thread(target=trickle, daemon=True)
    trickler.start()
    try:
        time.sleep(1.0)
        with ThreadPoolExecutor(10) as pool:
            answers = list(pool.map(lambda _: raw(address, b"GET /api/info HTTP/1.1\r\n"
                                                           b"Host: 127.0.0.1\r\n"
                                                           b"Connection: close\r\n\r\n",
                                                  timeout=15), range(20)))
        assert [status for status, _ in answers] == [200] * 20
        # answered while every slow client is still being served: none has been cut off
        # (408 after Limits().request_seconds) or closed -- no stopwatch needed
        assert select.select(slow, [], [], 0)[0] == []
        # and the page's own work too: a board loads beside them
        status, data = post(address, "/api/load", LOAD)
        assert status == 200 and data["board"]["height"] == 4
    finally:
        stop.set()
        for sock in slow:
            sock.close()
        trickler.join(5)


# --------------------------------------------------------------------------
# Stuck engines: the loop and /api/info still answer, every request ends
# --------------------------------------------------------------------------


class StuckApi(Api):
    """Every Check hangs in its 'engine' until released (like the Pyomo deadlock)."""

    def __init__(self):
        super().__init__()
        self.release = threading.Event()

    def api_check(self, payload):
        self.release.wait(60)
        return {"consistent": True}


def post_check(address) -> tuple[int, dict]:
    return post(address, "/api/check", json.dumps({"puzzle": BOARD}).encode())


def test_stuck_engines_cannot_wedge_the_server(served):
    api = StuckApi()
    limits = Limits(workers=2, queue=2, answer_seconds=2.0)
    address = served(api=api, limits=limits)
    try:
        with ThreadPoolExecutor(12) as pool:
            start = time.monotonic()
            checks = [pool.submit(post_check, address) for _ in range(12)]
            time.sleep(0.5)
            for _ in range(5):  # the event loop answers while every worker is stuck
                t0 = time.monotonic()
                status, info = raw(address, b"GET /api/info HTTP/1.0\r\n\r\n", timeout=15)
                # generous (a loaded machine); a wedged loop waits for the engines: 60 s
                assert status == 200 and info["backend"] and time.monotonic() - t0 < 10
            answers = [c.result(timeout=40) for c in checks]
            took = time.monotonic() - start
        assert all(status == 503 for status, _ in answers), answers
        assert sum("busy" in data["error"] for _, data in answers) >= 6  # refused at once
        assert sum("no answer within 2 s" in data["error"] for _, data in answers) >= 2
        assert took < 30, took  # answer_seconds is 2, the stuck engines hold 60 s: generous
        # The page and bundled boards still load while the workers are stuck...
        assert raw(address, b"GET / HTTP/1.0\r\n\r\n")[0] == 200
        # ...and once the engines come back, so does Check.
        api.release.set()
        time.sleep(0.5)
        status, data = post_check(address)
        assert status == 200 and data["consistent"]
    finally:
        api.release.set()


def test_concurrent_checks_on_the_pyomo_backend_leave_the_server_answering():
    """The reproducer: ``serve --backend pyomo`` and simultaneous Checks. Whatever the
    engine does, /api/info answers at once, and every Check ends (200, or 503 after the
    answer limit) -- nothing waits forever."""
    pytest.importorskip("pyomo")
    import os
    import subprocess
    import sys
    from urllib.parse import urlsplit

    from helpers import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # --time-limit 3: an answer is due within 3 x 3 s (Limits.for_settings)
    proc = subprocess.Popen([sys.executable, "-m", "thermomilp", "serve", "--port", "0",
                             "--backend", "pyomo", "--time-limit", "3"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        if "thermomilp serve: http://" not in line:
            proc.kill()
            pytest.fail(f"serve did not start: {line!r} {proc.communicate(timeout=20)[1]}")
        url = urlsplit(line.split()[2])
        address = (url.hostname, url.port)
        with ThreadPoolExecutor(4) as pool:
            checks = [pool.submit(post_check, address) for _ in range(4)]
            time.sleep(0.3)
            for _ in range(3):
                t0 = time.monotonic()
                status, info = raw(address, b"GET /api/info HTTP/1.0\r\n\r\n", timeout=25)
                assert status == 200 and info["backend"] == "pyomo"
                assert time.monotonic() - t0 < 20  # generous: "at once" on a loaded machine
            answers = [c.result(timeout=120) for c in checks]
        assert all(status in (200, 503) for status, _ in answers), answers
        assert all(data["consistent"] for status, data in answers if status == 200)
        status, info = raw(address, b"GET /api/info HTTP/1.0\r\n\r\n", timeout=5)
        assert status == 200
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


def test_stopping_the_server_answers_the_requests_stuck_in_an_engine():
    api = StuckApi()
    server, thread, base = serve_in_thread(api=api)
    host, port = base.rsplit("/", 1)[-1].split(":")
    try:
        with ThreadPoolExecutor(2) as pool:
            checks = [pool.submit(post_check, (host, int(port))) for _ in range(2)]
            time.sleep(0.5)
            start = time.monotonic()
            server.server_close()
            answers = [c.result(timeout=40) for c in checks]
        assert time.monotonic() - start < 30  # generous; the stuck engines hold 60 s
        assert thread.join(5) is None and not thread.is_alive()
        assert all(status == 503 and "stopping" in data["error"] for status, data in answers)
    finally:
        api.release.set()


# --------------------------------------------------------------------------
# Hundreds of slow sockets (slow-loris): per-client cap and the head deadline
# --------------------------------------------------------------------------
# The server runs in a child process on a free loopback port; the slow sockets come
# from 127.0.0.2... (all of 127.0.0.0/8 is loopback on Linux: each socket is bound to
# its source address before it connects), the polite client from 127.0.0.1. Every
# socket has a timeout and the child is killed at the end: the test ends by itself.

SERVE_CHILD = """
import json, sys
from thermomilp.web.server import Limits, make_server
server = make_server("127.0.0.1", 0, quiet=True, limits=Limits(**json.loads(sys.argv[1])))
print(server.url, flush=True)
server.serve_forever()
"""
SLOW_HEAD = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
POLITE = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
LINUX_LOOPBACK = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                    reason="127.0.0.2... are loopback addresses on Linux")


@pytest.fixture
def child_server():
    import os
    import subprocess

    from helpers import ROOT

    procs = []

    def start(**limits):
        proc = subprocess.Popen([sys.executable, "-c", SERVE_CHILD, json.dumps(limits)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        procs.append(proc)
        line = proc.stdout.readline()  # the child prints its URL once it listens
        if not line.startswith("http://127.0.0.1:"):
            proc.kill()
            pytest.fail(f"the server did not start: {line!r} {proc.communicate(timeout=20)}")
        return "127.0.0.1", int(line.strip().rsplit(":", 1)[1])

    yield start
    for proc in procs:
        proc.kill()
        proc.communicate(timeout=20)


class SlowSockets:
    """``count`` sockets from 127.0.0.2, 127.0.0.3, ... (``per_address`` each), each
    sending the start of a request head and then one more byte a second, never the
    end. :attr:`opened` and :attr:`closed_by_server` say what became of each."""

    def __init__(self, address, count: int, per_address: int):
        self.address, self.count, self.per_address = address, count, per_address
        self.socks: list[socket.socket] = []
        self.opened: list[float] = []
        self.closed_by_server: dict[int, float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._trickle, daemon=True)

    def __enter__(self) -> SlowSockets:
        for i in range(self.count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.settimeout(5)
            sock.bind((f"127.0.0.{2 + i // self.per_address}", 0))
            self.socks.append(sock)
            self.opened.append(time.monotonic())
            try:
                sock.connect(self.address)
                sock.sendall(SLOW_HEAD)
            except OSError:
                self.closed_by_server[i] = time.monotonic()
        self.thread.start()
        return self

    def _trickle(self) -> None:
        while not self.stop.wait(1.0):
            for i, sock in enumerate(self.socks):
                if i in self.closed_by_server:
                    continue
                try:
                    sock.sendall(b"a")
                except OSError:
                    self.closed_by_server[i] = time.monotonic()

    def open_now(self) -> int:
        """How many of the sockets the server still holds open (a zero-timeout peek:
        an answer, an end of file or a reset mean the server let go)."""
        held = 0
        for i, sock in enumerate(self.socks):
            if i in self.closed_by_server:
                continue
            sock.setblocking(False)
            try:
                sock.recv(1, socket.MSG_PEEK)
                self.closed_by_server[i] = time.monotonic()  # an answer (408/429) or EOF
            except BlockingIOError:
                held += 1
            except OSError:
                self.closed_by_server[i] = time.monotonic()
            finally:
                sock.settimeout(5)
        return held

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)
        for sock in self.socks:
            sock.close()


POLITE_SECONDS = 2.0
"""What a polite request is allowed while the slow sockets press: below the head
deadlines the attack would make it wait for (3 s and 60 s below), and enough for a
2-core machine under a full test run (1 s was not, once: 1.004 s)."""


def polite_requests(address, count: int, every: float = 0.25) -> list[tuple[int | None, float]]:
    """``count`` GET /api/info from 127.0.0.1, one every ``every`` s, each allowed
    `POLITE_SECONDS`: (status or None, seconds) per request."""
    answers: list[tuple[int | None, float]] = []
    for _ in range(count):
        start = time.monotonic()
        try:
            status, _ = raw(address, POLITE, timeout=POLITE_SECONDS)
        except (OSError, AssertionError):
            status = None
        took = time.monotonic() - start
        answers.append((status if took <= POLITE_SECONDS else None, took))
        time.sleep(max(0.0, every - took))
    return answers


@LINUX_LOOPBACK
def test_six_hundred_slow_sockets_from_six_clients_are_capped_per_client(child_server):
    """600 slow sockets from six loopback addresses: each address gets ``per_client``
    connections, the rest are refused at once, so a polite client on 127.0.0.1 is
    answered promptly every time -- with a head deadline far too long to help."""
    address = child_server(per_client=20, head_seconds=60.0, idle_seconds=60.0)
    with SlowSockets(address, 600, per_address=100) as slow:
        time.sleep(0.5)
        answers = polite_requests(address, 20)
        held = slow.open_now()
    assert [status for status, _ in answers] == [200] * 20, answers
    assert held <= 6 * 20, held


@LINUX_LOOPBACK
def test_the_head_deadline_closes_slow_sockets_whatever_the_client_cap(child_server):
    """With no per-client cap to speak of, 600 slow sockets would fill the 500
    connections: the oldest of them that has not sent its head makes room for a new
    client at once, and every one is closed when its head deadline passes."""
    address = child_server(per_client=10_000, head_seconds=3.0, idle_seconds=60.0,
                           connections=500)
    with SlowSockets(address, 600, per_address=100) as slow:
        opened = time.monotonic()
        answers = polite_requests(address, 8)  # while all 600 are within their deadline
        time.sleep(max(0.0, opened + 5.0 - time.monotonic()))
        held = slow.open_now()
        later = polite_requests(address, 4)
    assert [status for status, _ in answers + later] == [200] * 12, answers + later
    assert held == 0, held
