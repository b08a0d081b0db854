"""A command-line engine leaves nothing in ``$TMPDIR`` (user report: an interrupted GLPK
batch left 24 ``*-pulp.out``, 2 ``.lp`` and 1 ``.sol`` files there): each PuLP call to
``glpsol`` runs in a folder of its own that is removed when the call ends -- finished or
cut short by Ctrl-C (SIGINT to the process group, as a terminal sends it)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import INSTANCES, ROOT, use_pair

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="process groups and signals as on Linux")
SLOW = INSTANCES / "aquarium" / "a06_15x15.txt"  # glpsol needs ~30 s on it (--logic none)
QUICK = ["t01_4x4.txt", "t02_5x5.txt", "t03_6x6.txt"]


def _left(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def _env(tmpdir: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), TMPDIR=str(tmpdir))


def test_solve_with_glpk_leaves_no_file_in_tmpdir(tmp_path):
    use_pair("pulp", "glpk")
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    done = subprocess.run(
        [sys.executable, "-m", "thermomilp", "solve", str(INSTANCES / "thermometers" / QUICK[2]),
         "--backend", "pulp", "--solver", "glpk", "--logic", "none"],
        env=_env(tmpdir), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _left(tmpdir) == []


def test_an_interrupted_glpk_batch_leaves_no_file_in_tmpdir(tmp_path):
    use_pair("pulp", "glpk")
    tmpdir, corpus = tmp_path / "tmp", tmp_path / "corpus"
    tmpdir.mkdir()
    corpus.mkdir()
    for k in (1, 2):  # first in the input order: both workers are inside glpsol at the signal
        shutil.copy(SLOW, corpus / f"a_slow{k}.txt")
    for name in QUICK:
        shutil.copy(INSTANCES / "thermometers" / name, corpus / name)
    log = tmp_path / "stderr.txt"
    with open(log, "wb") as stderr:
        batch = subprocess.Popen(
            [sys.executable, "-m", "thermomilp", "batch", str(corpus), "--jobs", "2",
             "--backend", "pulp", "--solver", "glpk", "--logic", "none",
             "--out", str(tmp_path / "out.jsonl"), "--no-progress"],
            env=_env(tmpdir), stdout=subprocess.DEVNULL, stderr=stderr,
            start_new_session=True)  # its own process group, as a shell job is
    try:
        # mid-run: the engines' files are there (two run folders, one per worker)
        deadline = time.monotonic() + 120
        while sum(p.name.startswith("thermomilp-run-") for p in tmpdir.rglob("*")) < 2:
            assert batch.poll() is None, log.read_text()
            assert time.monotonic() < deadline, _left(tmpdir)
            time.sleep(0.05)
        time.sleep(1.0)
        during = _left(tmpdir)
        os.killpg(batch.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
        assert batch.wait(timeout=60) == 130, log.read_text()
    finally:
        if batch.poll() is None:
            os.killpg(batch.pid, signal.SIGKILL)
            batch.wait(10)
    time.sleep(0.5)  # anything the workers still do after the parent has gone
    assert _left(tmpdir) == [], (during, log.read_text()[-2000:])
