"""``thermomilp serve`` at the command line: where it listens, and why it cannot.

A busy port, a privileged port, a host that does not exist or is not this
machine's: each is one sentence naming the problem and a way out, exit 2 --
never an internal error. ``--port 0`` prints the URL it really listens on.
"""

from __future__ import annotations

import errno
import http.client
import json
import os
import socket
import subprocess
import sys

import pytest

from thermomilp.cli.main import main
from thermomilp.core.install import pip_install
from thermomilp.web import server as server_module

from helpers import ROOT

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "thermomilp", "serve", *args],
                          capture_output=True, text=True, env=ENV, timeout=timeout)


def no_internal_error(done: subprocess.CompletedProcess) -> None:
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_busy_port_is_exit_2_with_the_port_and_a_way_out():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = serve("--port", str(port))
    assert done.returncode == 2
    no_internal_error(done)
    assert f"port {port} is already in use" in done.stderr
    assert "--port 0" in done.stderr


def test_port_0_prints_the_url_it_really_listens_on():
    proc = subprocess.Popen([sys.executable, "-m", "thermomilp", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        line = proc.stdout.readline()
        assert line.startswith("thermomilp serve: http://127.0.0.1:"), line
        url = line.split()[2]
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        assert int(port) != 0
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        conn.request("GET", "/api/info")
        response = conn.getresponse()
        assert response.status == 200 and json.loads(response.read())["backend"]
        conn.close()
    finally:
        proc.terminate()
        proc.communicate(timeout=20)


@pytest.mark.parametrize("host, words", [
    ("no-such-host.invalid", "no such host"),
    ("10.255.255.254", "not an address of this machine"),
    ("999.1.1.1", "no such host"),
])
def test_a_bad_host_is_exit_2(host, words):
    done = serve("--host", host, "--port", "0")
    assert done.returncode == 2, done.stderr
    no_internal_error(done)
    assert words in done.stderr and host in done.stderr


def test_a_privileged_port_is_exit_2(monkeypatch, capsys):
    """Port 80 as a non-root user: EACCES from bind (simulated here: the tests may run
    as root), then the real thing when this machine has a user to run it as."""

    class Refusing(socket.socket):
        def bind(self, address):
            raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(server_module.socket, "socket", Refusing)
    assert main(["serve", "--port", "80"]) == 2
    err = capsys.readouterr().err
    assert "permission denied" in err and "--port 8000" in err and "80" in err
    monkeypatch.undo()
    if os.geteuid() == 0:  # root may bind 80: run as nobody, when the venv is readable
        try:
            done = subprocess.run([sys.executable, "-m", "thermomilp", "serve", "--port", "80"],
                                  capture_output=True, text=True, env=ENV, timeout=60,
                                  user=65534, cwd="/")
        except (PermissionError, OSError):
            return
        if "No module named" in done.stderr or "Permission denied: '" in done.stderr:
            return  # nobody cannot read this checkout: the simulation above stands
        assert done.returncode == 2, done.stderr
        no_internal_error(done)
        assert "permission denied" in done.stderr


def test_without_the_serve_extra_serve_says_what_to_install():
    code = ("import sys; sys.modules['uvicorn'] = None; "
            "from thermomilp.cli.main import main; sys.exit(main(['serve', '--port', '0']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=ENV, timeout=60)
    assert done.returncode == 2
    no_internal_error(done)
    assert pip_install("serve") in done.stderr


def test_allow_host_takes_a_bare_name():
    done = serve("--allow-host", "evil.example:80/x", "--port", "0")
    assert done.returncode == 2 and "--allow-host" in done.stderr
    no_internal_error(done)
