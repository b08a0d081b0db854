"""Nothing a batch starts outlives it (issue 25, issue 27): Ctrl-C (SIGINT to the
process group, as a terminal sends it), SIGTERM and ``kill -9`` of the parent leave
no worker and no engine program (``glpsol`` run by PuLP) behind, and the resumed
run loses and repeats nothing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from helpers import INSTANCES, ROOT

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)"),
    pytest.mark.skipif(shutil.which("glpsol") is None,
                       reason="glpsol not installed (apt-get install -y glpk-utils)"),
]
SLOW = INSTANCES / "aquarium" / "a06_15x15.txt"  # glpsol needs ~30 s on it (--logic none)
QUICK = ["t01_4x4.txt", "t02_5x5.txt", "t03_6x6.txt", "t05_8x8.txt"]


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, name) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except OSError:
        return None
    name = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), fields[0], name


def _descendants(root: int) -> dict[int, str]:
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            info = _stat(int(entry))
            if info is not None:
                children.setdefault(info[0], []).append(int(entry))
                names[int(entry)] = info[2]
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = names[child]
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    info = _stat(pid)
    return info is not None and info[1] != "Z"


def _corpus(folder) -> list[str]:
    folder.mkdir()
    for k in (1, 2):  # first in the input order: both workers start on a slow board
        shutil.copy(SLOW, folder / f"a_slow{k}.txt")
    for name in QUICK:
        shutil.copy(INSTANCES / "thermometers" / name, folder / name)
    return sorted(str(p) for p in folder.iterdir())


def _start(corpus, out, log, jobs: int = 2) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open(log, "wb") as stderr:  # a file, not a pipe: an orphan may hold it open
        return subprocess.Popen(
            [sys.executable, "-m", "thermomilp", "batch", str(corpus), "--jobs", str(jobs),
             "--backend", "pulp", "--solver", "glpk", "--logic", "none", "--out", str(out),
             "--no-progress"],
            env=env, stdout=subprocess.DEVNULL, stderr=stderr,
            start_new_session=True)  # its own process group, as a shell job is


def _wait_for_engines(batch: subprocess.Popen, count: int = 2) -> dict[int, str]:
    """Every process of the run seen until ``count`` glpsol are running."""
    seen: dict[int, str] = {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        seen.update(_descendants(batch.pid))
        running = [p for p, name in seen.items() if name == "glpsol" and _alive(p)]
        if len(running) >= count:
            return seen
        assert batch.poll() is None, "batch ended before its engines started"
        time.sleep(0.05)
    raise AssertionError(f"no {count} glpsol processes within 120 s: {seen}")


def _kill_left(seen: dict[int, str]) -> dict[int, str]:
    """Kill what of the run is still alive (so a failure leaves the machine idle)."""
    left = {pid: name for pid, name in seen.items() if _alive(pid)}
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return left


def _assert_nothing_left(seen: dict[int, str]) -> None:
    time.sleep(1.0)
    left = _kill_left(seen)
    assert left == {}, f"still running 1 s after batch ended: {left}"


def _finish_and_check(corpus, out, files: list[str]) -> None:
    """The resumed run (default engine: quick) completes the output, repeating nothing."""
    from thermomilp.cli.main import main

    assert main(["batch", str(corpus), "--out", str(out), "--no-progress"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["file"] for r in records) == files  # every input once, no duplicate
    assert all(r["status"] in ("unique", "multiple") for r in records)


@pytest.mark.parametrize("how, jobs", [
    ("SIGINT to the group", 2), ("SIGTERM", 2), ("kill -9 of the parent", 2),
    ("SIGTERM", 1), ("kill -9 of the parent", 1)])
def test_an_interrupted_or_killed_batch_leaves_no_worker_and_no_engine(how, jobs, tmp_path):
    files = _corpus(tmp_path / "corpus")
    out = tmp_path / "out.jsonl"
    log = tmp_path / "stderr.txt"
    batch = _start(tmp_path / "corpus", out, log, jobs)
    seen: dict[int, str] = {}
    try:
        seen = _wait_for_engines(batch, count=jobs)
        assert any(name == "glpsol" for name in seen.values())
        if how == "SIGINT to the group":
            os.killpg(batch.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        elif how == "SIGTERM":
            batch.send_signal(signal.SIGTERM)
        else:
            batch.kill()
        code = batch.wait(timeout=60)
        expected = {"SIGINT to the group": 130, "SIGTERM": 143,
                    "kill -9 of the parent": -signal.SIGKILL}[how]
        assert code == expected, log.read_text()
        _assert_nothing_left(seen)
    finally:
        if batch.poll() is None:
            batch.kill()
        _kill_left(seen)
    _finish_and_check(tmp_path / "corpus", out, files)
