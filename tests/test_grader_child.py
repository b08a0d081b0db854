"""The grader's child process: bounded, reaped, without a terminal, alone with its file.

Each submission in tests/students/attacks/ here did harm to the grader before its child was boxed: a
result line nested 200,000 deep stopped the class, a fork-and-exit chain filled the PID
table with the grader's zombies, helpers outlived their board, a submission wrote on the
instructor's terminal and another read the classmate's file beside it, a file name put a
formula into the grades CSV, and files written to /dev/shm outlived every run.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import time
from pathlib import Path

import pytest

from thermomilp.core.errors import GradeError
from thermomilp.formats import load
from thermomilp.teach import sandbox
from thermomilp.teach.classroom import cell, grade_class, uncell
from thermomilp.teach.landlock import available
from thermomilp.teach.sandbox import Limits, nesting, parse_event, run_student
from thermomilp.teach.student import grade_student

from helpers import INSTANCES, ROOT

ATTACKS = Path(__file__).resolve().parent / "students" / "attacks"
CORRECT = ROOT / "models" / "solutions" / "correct.py"
BOARDS = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t02_5x5")]
REQUIRED = os.environ.get("THERMOMILP_REQUIRE_SANDBOX", "") not in ("", "0")


@pytest.fixture()
def key(tmp_path, monkeypatch):
    monkeypatch.setenv("THERMOMILP_GRADES_KEY", str(tmp_path / "grades.key"))
    return tmp_path / "grades.key"


def _attack(tmp_path: Path, attack: str, name: str) -> Path:
    student = tmp_path / name
    shutil.copy(ATTACKS / attack, student)
    return student


def _messages(graded) -> list[str]:
    return [b.findings[0].message for b in graded.boards if b.findings]


def _stat(pid: int) -> tuple[str, int]:
    """(state, parent pid) of a process, ("", 0) when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "", 0
    fields = stat[stat.rfind(")") + 2:].split()
    return fields[0], int(fields[1])


def _named(comm: str) -> list[int]:
    """Live processes whose comm is ``comm``."""
    out = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if (proc / "comm").read_text().strip() != comm:
                    continue
            except OSError:
                continue
            if _stat(int(proc.name))[0] not in ("", "Z", "X"):
                out.append(int(proc.name))
    return out


def _started(pid: int) -> int:
    """A process's start time in clock ticks since boot (0 when it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat[stat.rfind(")") + 2:].split()[19])


def _now_ticks() -> int:
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


_SINCE = [0]


@pytest.fixture(autouse=True)
def processes_before_the_test():
    """When the test began: a process another test started earlier in this (pytest-xdist
    worker) process, which may end as this process's zombie meanwhile (the grader makes
    it a subreaper), is not the grader's."""
    _SINCE[0] = _now_ticks()


def _my_zombies() -> list[int]:
    """The zombies of this process that were started during the test."""
    me = os.getpid()
    return sorted(int(p.name) for p in Path("/proc").iterdir()
                  if p.name.isdigit() and _stat(int(p.name)) == ("Z", me)
                  and _started(int(p.name)) >= _SINCE[0])


# --- the result pipe ------------------------------------------------------------------


def test_a_deep_line_is_refused_in_linear_time_without_recursion():
    with pytest.raises(ValueError, match="nested deeper"):
        parse_event(b"[" * 200000)
    with pytest.raises(ValueError, match="nested deeper"):
        parse_event(b'{"a": ' * 100000 + b"1" + b"}" * 100000)
    assert nesting(b'{"event": "board", "k": 0, "model": {"rows": [[1, [2, 3]]]}}') == 5
    assert nesting(b'["[[[[", "\\"[[[", "\\\\"]') == 1  # brackets in strings do not count
    started = time.monotonic()
    for hostile in (b'"\\"' * 2_000_000, b"[" * 4_000_000, b'"' * 4_000_000,
                    b"\\" * 4_000_000):
        with pytest.raises(ValueError):
            parse_event(hostile)
    assert time.monotonic() - started < 10  # linear: a quadratic scan takes hours here


def test_a_deep_line_fails_its_board_and_the_class_goes_on(tmp_path, key):
    deep = _attack(tmp_path, "deep_pipe.py", "deep_pipe.py")
    out = tmp_path / "grades.csv"
    err = io.StringIO()
    graded, skipped = grade_class([str(deep), str(CORRECT)], BOARDS[:1], "thermometers",
                                  str(out), progress=err)
    assert (graded, skipped) == (2, 0)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["student"] for r in rows] == [str(deep), str(CORRECT)]
    assert rows[0]["score"] == "0" and "error:" in rows[0]["verdicts"], rows[0]
    assert rows[1]["score"] == rows[1]["boards"], rows[1]  # the next student is graded
    one = grade_student(str(deep), BOARDS[:1], "thermometers")
    assert "nested deeper than" in _messages(one)[0]


# --- processes ------------------------------------------------------------------------


def _no_box() -> dict[str, str]:
    """The child's files with a confine.py that sets up no namespace."""
    files = dict(CHILD_FILES)
    files["confine.py"] += ("\n\ndef enter(max_tasks, grader):\n"
                            "    return ['pid namespace: left out by the test']\n")
    return files


CHILD_FILES = sandbox.child_files()


@pytest.mark.parametrize("box", ["box", "no namespace"])
def test_a_fork_chain_leaves_no_zombie_and_no_process(tmp_path, monkeypatch, box):
    if box != "box":  # where the kernel gives no namespace: the grader reaps and kills alone
        monkeypatch.setattr(sandbox, "child_files", _no_box)
        monkeypatch.delenv("THERMOMILP_REQUIRE_SANDBOX", raising=False)
    student = _attack(tmp_path, "fork_chain.py", "q9chain.py")
    graded = grade_student(str(student), BOARDS[:1], "thermometers", Limits(board_s=10))
    messages = _messages(graded)
    # no zombie piles up while the board runs, nothing of a board is alive at the next
    assert messages and all("ALIVE-BEFORE False ZOMBIES 0" in m for m in messages), messages
    assert _named("fq9chain") == []  # nothing outlives grade
    assert _my_zombies() == []  # and the grader holds no zombie


def test_the_box_holds_a_bounded_number_of_processes(tmp_path):
    student = tmp_path / "bomb.py"
    student.write_text(
        "import os, time\n"
        "def build(puzzle):\n"
        "    n = 0\n"
        "    stop = time.monotonic() + 3\n"
        "    while n < 2000 and time.monotonic() < stop:\n"
        "        try:\n"
        "            if os.fork() == 0:\n"
        "                time.sleep(30)\n"
        "                os._exit(0)\n"
        "        except OSError:\n"
        "            break\n"
        "        n += 1\n"
        "    raise RuntimeError(f'FORKED {n}')\n")
    run = run_student(str(student), [BOARDS[0][1]], Limits(board_s=10))
    if run.notes and any(n.startswith("process limit") for n in run.notes):
        if REQUIRED:
            pytest.fail(f"THERMOMILP_REQUIRE_SANDBOX=1 but {run.notes}")
        pytest.skip(f"no process limit here: {run.notes}")
    forked = int(run.boards[0].message.split("FORKED ")[1].split()[0])
    assert forked < Limits().tasks, run.boards[0].message
    assert _my_zombies() == []


HELPER = '''import base64, glob, os, subprocess, time

BIN = base64.b64decode({binary!r})


def _alive():
    n = 0
    for comm in glob.glob("/proc/[0-9]*/comm"):
        try:
            with open(comm) as f:
                n += f.read().strip() == "cchain"
        except OSError:
            pass
    return n


def build(puzzle):
    before = _alive()
    path = os.path.join(os.environ.get("TMPDIR") or os.getcwd(), "cchain")
    with open(path, "wb") as f:
        f.write(BIN)
    os.chmod(path, 0o755)
    subprocess.Popen([path])
    time.sleep(0.2)
    raise RuntimeError(f"BEFORE {{before}}")
'''


def test_a_compiled_helper_that_keeps_forking_ends_with_its_board(tmp_path):
    import base64
    import subprocess

    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    binary = tmp_path / "cchain"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(ATTACKS / "fork_chain.c")],
                   check=True)
    student = tmp_path / "cchain_helper.py"
    student.write_text(HELPER.format(binary=base64.b64encode(binary.read_bytes()).decode()))
    try:
        graded = grade_student(str(student), BOARDS[:1], "thermometers")
        messages = _messages(graded)
        assert messages and all("BEFORE 0" in m for m in messages), messages
        assert _named("cchain") == []
        assert _my_zombies() == []
    finally:
        for pid in _named("cchain"):  # a failed run leaves no chain behind (10 s at most)
            try:
                os.kill(pid, 9)
            except OSError:
                pass


def test_nothing_of_a_board_is_left_when_grade_returns(tmp_path):
    student = _attack(tmp_path, "daemon.py", "k4daemon.py")
    grade_student(str(student), BOARDS[:1], "thermometers")
    assert _named("dk4daemon") == []
    assert _my_zombies() == []


# --- what the child can reach ---------------------------------------------------------


def test_the_child_cannot_open_a_terminal(tmp_path):
    master, slave = os.openpty()  # a terminal of the grader's, as the instructor's would be
    try:
        graded = grade_student(str(_attack(tmp_path, "terminal.py", "terminal.py")),
                               BOARDS[:1], "thermometers")
    finally:
        os.close(master)
        os.close(slave)
    messages = _messages(graded)
    assert messages and all("OPENED []" in m for m in messages), messages[0]


def test_a_classmates_file_is_out_of_reach(tmp_path):
    (tmp_path / "classmate.py").write_text("# CLASSMATE-SECRET\ndef build(puzzle):\n"
                                           "    return None\n")
    student = _attack(tmp_path, "reads_classmate.py", "reads_classmate.py")
    graded = grade_student(str(student), BOARDS[:1], "thermometers")
    messages = _messages(graded)
    assert messages and all("READ []" in m for m in messages), messages[0]


def test_the_childs_files_do_not_survive(tmp_path):
    student = _attack(tmp_path, "leaves_files.py", "z5left.py")
    left = [Path(folder) / "left-z5left" for folder in ("/dev/shm", "/tmp", "/var/tmp")]
    try:
        graded = grade_student(str(student), BOARDS[:1], "thermometers")
        messages = _messages(graded)
        assert messages and all("KEPT False" in m for m in messages), messages
        if available() or REQUIRED:  # Landlock: it writes in its own folder only
            for m in messages:
                wrote = m.split("WROTE ")[1]
                assert all(f"'{p.parent}'" not in wrote for p in left), m
            assert [p for p in left if p.exists()] == []
        else:  # only the box's private /dev/shm
            assert not left[0].exists()
    finally:
        for p in left:
            p.unlink(missing_ok=True)


# --- the grades file ------------------------------------------------------------------


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "'x", "x",
                                  ""])
def test_a_cell_is_never_a_formula_and_reads_back(text):
    written = cell(text)
    assert not written.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert uncell(written) == text


def test_a_hostile_file_name_is_no_formula_in_the_csv(tmp_path, key, monkeypatch):
    monkeypatch.chdir(tmp_path)  # `thermomilp grade *.py` in the submissions' folder
    student = '=HYPERLINK("x").py'
    Path(student).write_text("def build(puzzle):\n    return None\n")
    out = tmp_path / "grades.csv"
    grade_class([student], BOARDS[:1], "thermometers", str(out), progress=io.StringIO())
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[1][0] == "'" + student, rows[1]
    assert all(not c.startswith(("=", "+", "-", "@", "\t", "\r")) for r in rows for c in r)
    # the grader reads its own row back: resumed, the student is not graded again
    again = grade_class([student], BOARDS[:1], "thermometers", str(out),
                        progress=io.StringIO())
    assert again == (0, 1)


# --- what could not be confined -------------------------------------------------------


def test_what_cannot_be_confined_is_said_or_refused(monkeypatch, capsys):
    monkeypatch.setattr(sandbox, "_warned", set())
    monkeypatch.delenv("THERMOMILP_REQUIRE_SANDBOX", raising=False)
    sandbox._unconfined(["landlock: the kernel has no Landlock"])
    sandbox._unconfined(["landlock: the kernel has no Landlock"])
    assert capsys.readouterr().err.count("WARNING") == 1
    monkeypatch.setenv("THERMOMILP_REQUIRE_SANDBOX", "1")
    with pytest.raises(GradeError, match="could not be confined"):
        sandbox._unconfined(["landlock: the kernel has no Landlock"])


def test_the_box_is_whole_on_this_machine():
    run = run_student(str(CORRECT), [BOARDS[0][1]])
    assert run.boards[0].model is not None
    if run.notes:
        if REQUIRED:  # pragma: no cover - _unconfined refused already
            pytest.fail(f"THERMOMILP_REQUIRE_SANDBOX=1 but {run.notes}")
        pytest.skip(f"this machine cannot confine the child fully: {run.notes}")
