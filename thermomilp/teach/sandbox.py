"""Run a student's file in a child process with limits; collect the model it built, as numbers.

The trust model, with what holds where: docs/course/grader.md, "Student code: limits and
the trust model". In short:

* **Verdicts are the grader's.** The child sends back, per board, only the model as
  numbers (`LinearModel`, validated by `LinearModel.from_json`, accepted only in board
  order) or that its code failed; every verdict is computed here.
* **Nothing to read.** The request (the child's copy of the student's file, the boards
  without their solutions) reaches the child on its stdin, closed before the student's
  code runs. The child starts with an empty environment (``python -I``; ``HOME``,
  ``TMPDIR`` and the stub ``PYTHONPATH`` set by the runner) and no terminal.
* **No thermomilp in the child.** It runs a copy of the standalone `runner` (with
  ``confine.py`` and ``landlock.py``); the boards reach it as plain data (`plain`); a stub
  package makes ``import thermomilp`` fail, and Landlock hides the package and its
  checkout (`hidden_paths`, ``runner.package_folders``).
* **A box per student** (`thermomilp.teach.confine`, where the kernel allows it): a PID
  namespace, a process limit, private ``/proc`` and ``/dev/shm``, no capability. What
  could not be set up is reported before any student code runs; the grader warns, or
  refuses under ``THERMOMILP_REQUIRE_SANDBOX=1`` (`_unconfined`).
* **Nothing left behind, step by step.** After the import and after every board the
  grader kills and reaps every process the submission started (a child subreaper where
  there is no namespace), empties the child's folder, and only then lets the runner go
  on (a byte on a second pipe). The grader is non-dumpable (``PR_SET_DUMPABLE`` 0).
* **A safe result pipe.** A result line is read up to `MAX_EVENT` bytes and its nesting
  measured without recursion before it is parsed (`parse_event`); a bad line fails that
  student's board, never the run.
* **A file-system sandbox where the kernel has one** (Landlock,
  `thermomilp.teach.landlock`): the child reads none of `hidden_paths` and writes only
  in its own folder and ``/dev/null``. Without it the grades file is guarded by its
  seals and the grader's check after each student (`thermomilp.teach.classroom`).

Limits, set in the child before the student's code runs: an address-space cap
(``RLIMIT_AS``), a file-size cap, no core dumps, a CPU-time cap as a backstop; the
parent enforces a wall clock per step and a cap on what the student may print, captured
apart from the result pipe.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import Any

from thermomilp.core.errors import GradeError
from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.linear import LinearModel, ModelDataError

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)
HERE = Path(__file__).resolve().parent
# what the child runs, copied into its own folder: the standalone runner and the two
# modules it loads beside it (none imports thermomilp)
CHILD_FILES = ("runner.py", "confine.py", "landlock.py")
FAILURES = ("timeout", "crashed", "exited", "output-limit", "error")
CHILD_FAILURES = ("crashed", "exited", "error")  # the only failure kinds a child may report
MAX_MESSAGE = 600  # characters of a child's failure message the report may quote
MAX_EVENT = 256 << 20  # bytes of one result line (a model of 2 million non-zeros fits)


@dataclass(frozen=True)
class Limits:
    import_s: float = 30.0  # importing the file (pulp or pyomo included)
    board_s: float = 10.0  # one build(puzzle)
    memory_mb: int = 2048  # address space of the child
    output_bytes: int = 1 << 20  # stdout + stderr together; beyond, the child is stopped
    keep_bytes: int = 4000  # how much of each stream the report may quote
    tasks: int = 301  # processes and threads in the child's box (the smallest pid_max is 301)


@dataclass
class Built:
    """One board: the model as data, or why there is none (a verdict of FAILURES)."""

    model: LinearModel | None = None
    verdict: str = ""
    message: str = ""
    line: int | None = None
    time_s: float = 0.0


@dataclass
class StudentRun:
    student: str
    boards: list[Built]
    stdout: str = ""
    stderr: str = ""
    printed_bytes: int = 0
    time_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    killed: int = 0  # processes the submission left behind, killed by the grader


def hidden_paths(student: str, extra: Sequence[str] = ()) -> list[str]:
    """What the student's process may not read (where Landlock is available): the package
    (its boards with their solutions, the correct example models, its code) and the checkout
    it runs from with that checkout's other worktrees, the folder of the student's
    file (the child reads its own copy), the shared temporary folders, ``/dev`` (but the
    few devices of `readable_paths`), and ``extra`` (the corpus folder, the grades
    file, the grader's key file, the other students' files)."""
    from thermomilp.teach.runner import package_folders

    package = Path(PACKAGE_PARENT) / "thermomilp"
    paths = [*(Path(p) for p in package_folders(str(package))),
             Path(student).resolve().parent, Path(tempfile.gettempdir()), Path("/var/tmp"),
             Path("/dev"), *(Path(p) for p in extra)]
    out = []
    for p in paths:
        real = os.path.realpath(p)
        if os.path.exists(real) and real not in out:
            out.append(real)
    return out


DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
SYSTEM = ("/usr/lib", "/usr/lib64", "/lib", "/lib64", "/usr/local/lib", "/etc/ld.so.cache",
          "/etc/localtime", "/usr/share/zoneinfo", "/sys/devices/system/cpu")
"""What a model's engines need of the system: shared libraries, the loader's cache, the
time zone, the processor count (OpenBLAS)."""


def readable_paths(box: str) -> list[str]:
    """The only paths the student's process may read (an allowlist; where Landlock is
    available): the child's own folder (its copy of the student's file, the runner), a
    few devices, the system's shared libraries and data (`SYSTEM`) and the engine
    programs on PATH. The runner adds what its interpreter imports from (its
    ``sys.path`` and prefixes, never the grader's working folder, never thermomilp);
    `hidden_paths` stays unreadable even below these."""
    from thermomilp.core.engines import ENGINES  # the engines' records name their programs

    programs = [found for record in ENGINES.values() if record.program
                for found in (shutil.which(record.program),
                              shutil.which(record.program, path=os.defpath)) if found]
    paths = [box, *DEVICES, *SYSTEM, *programs]
    return sorted({os.path.realpath(p) for p in paths if os.path.exists(p)})


def request_of(student: str, boards: Sequence[Puzzle], limits: Limits,
               hide: Sequence[str] = (), copy: str | None = None) -> bytes:
    """What the child reads on its stdin: the path of its copy of the student's file, the
    boards as plain data (`plain`, never a solution) and the package's folders (which
    the runner hides with the rest)."""
    from thermomilp.teach.runner import package_folders

    box = (os.path.dirname(os.path.dirname(copy)) if copy
           else os.path.dirname(os.path.abspath(student)))
    return json.dumps({"student": copy or os.path.abspath(student),
                       "hidden": hidden_paths(student, hide),
                       "readable": readable_paths(box),
                       "package": package_folders(os.path.join(PACKAGE_PARENT, "thermomilp")),
                       "boards": [plain(p) for p in boards],
                       "limits": {"memory_mb": limits.memory_mb, "tasks": limits.tasks,
                                  "cpu_s": int(limits.import_s + limits.board_s
                                               * (len(boards) + 1)) + 1}}).encode()


def plain(puzzle: Puzzle) -> dict[str, Any]:
    """A board as the runner's plain data: the kind, the clues and the vessels (their
    layers of cells), never the solution (`thermomilp.teach.runner.board_of`)."""
    return {"kind": puzzle.kind, "rows": list(puzzle.rows), "cols": list(puzzle.cols),
            "name": puzzle.name, "rule": puzzle.rule,
            "vessels": [{"label": v.label, "layers": [[list(c) for c in layer]
                                                      for layer in v.layers],
                         "region_id": v.region_id} for v in puzzle.vessels]}


def child_files() -> dict[str, str]:
    """The files the child runs, by name (read from the package, copied into the box)."""
    return {name: (HERE / name).read_text(encoding="utf-8") for name in CHILD_FILES}


def _make_run_folder(folder: str) -> str:
    """Write the child's program into ``folder`` (read-only) with the stub package
    ``thermomilp`` whose import fails; returns the runner's path."""
    from thermomilp.teach.runner import STUB

    os.mkdir(folder, 0o700)
    for name, text in child_files().items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(text)
    stub = os.path.join(folder, "stub", "thermomilp")
    os.makedirs(stub, 0o700)
    with open(os.path.join(stub, "__init__.py"), "w", encoding="utf-8") as f:
        f.write(STUB)
    for root, _, files in os.walk(folder):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
    return os.path.join(folder, "runner.py")


REQUIRE_ENV = "THERMOMILP_REQUIRE_SANDBOX"
_warned: set[str] = set()


def _unconfined(missing: Sequence[str]) -> None:
    """Say once per run what the box lacks; under THERMOMILP_REQUIRE_SANDBOX=1, refuse."""
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        raise GradeError(f"{REQUIRE_ENV}=1, but the student's process could not be confined: "
                         + "; ".join(missing))
    new = [m for m in missing if m not in _warned]
    if new:
        _warned.update(new)
        print("thermomilp grade: WARNING: the student's process runs without: "
              + "; ".join(new) + " (docs/course/grader.md, what holds where)",
              file=sys.stderr, flush=True)


def run_student(student: str, boards: Sequence[Puzzle], limits: Limits | None = None,
                hide: Sequence[str] = ()) -> StudentRun:
    """Build the student's model on every board in one child process."""
    limits = limits or Limits()
    harden_grader()
    started = time.monotonic()
    result = StudentRun(student, [Built() for _ in boards])
    with tempfile.TemporaryDirectory(prefix="thermomilp-grade-") as work:
        # the child's folder: its own copy of the student's file, and an empty folder to
        # write in (its HOME and TMPDIR), emptied after every board
        copy = os.path.join(work, "src", os.path.basename(student))
        home = os.path.join(work, "tmp")
        try:
            os.mkdir(os.path.dirname(copy), 0o700)
            shutil.copyfile(student, copy)
        except OSError as exc:
            for k in range(len(boards)):
                result.boards[k] = Built(None, "error", f"error: the grader cannot read "
                                         f"{os.path.basename(student)} ({exc.strerror})")
            return result
        os.chmod(copy, 0o444)
        os.mkdir(home, 0o700)
        runner = _make_run_folder(os.path.join(work, "run"))
        request = request_of(student, boards, limits, hide, copy)
        read_fd, write_fd = os.pipe()
        go_read, go_write = os.pipe()
        since = _clock_ticks_now()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", runner, str(write_fd), str(go_read), str(os.getpid())],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(write_fd, go_read), cwd=home, env={}, start_new_session=True)
        finally:
            os.close(write_fd)
            os.close(go_read)
        feeder = threading.Thread(target=_feed, args=(proc, request), daemon=True)
        feeder.start()
        box = _Box(proc, since, go_write, home)
        try:
            _watch(proc, read_fd, result, limits, box, [p.shape for p in boards])
        finally:
            os.close(read_fd)
            os.close(go_write)
            _stop(proc)
            # the box's own init and runner may still be ending: killed, never counted as
            # the submission's (so the report does not depend on that timing)
            result.killed += kill_descendants(proc.pid, since, include_root=True,
                                              uncounted=box.keep)
            feeder.join(timeout=5)
    result.time_s = time.monotonic() - started
    return result


@dataclass
class _Box:
    """The grader's handle on one child: its processes, its go pipe, its folder."""

    proc: subprocess.Popen
    since: int
    go: int
    home: str
    keep: frozenset[int] = frozenset()  # the box's own init and runner (a PID namespace)

    def next_step(self, result: StudentRun) -> None:
        """End every process the last step started (and wait until they are gone), empty
        the child's folder, then let the runner start the next step."""
        result.killed += kill_descendants(self.proc.pid, self.since, keep=self.keep)
        _empty(self.home)
        try:
            os.write(self.go, b"g")
        except OSError:
            pass  # the child is gone: the result pipe says how


def _empty(folder: str) -> None:
    """Remove everything in ``folder``, never following a link (``shutil.rmtree`` works on
    descriptors). Modes are not changed: a thread of the runner still runs, and could swap
    a folder for a link to one of yours; what a grader that is not root cannot remove
    (a folder the student made unreadable) is the student's own, and goes with the box."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)
        except OSError:
            pass


def _feed(proc: subprocess.Popen, request: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(request)
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass  # the child ended before it read the request: _watch reports how


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


# -- The grader's own process: a subreaper, not dumpable --------------------

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
_hardened = False


def harden_grader() -> bool:
    """Make this process the reaper of orphans it causes, and unreadable to its children.

    Returns True when the subreaper is set (Linux); elsewhere the session scan alone
    finds what a submission left behind."""
    global _hardened
    if _hardened:
        return True
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        ok = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        return False
    _hardened = ok
    return ok


def _clock_ticks_now() -> int:
    """This moment in the units of /proc/<pid>/stat's start time (clock ticks since boot)."""
    try:
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return int(uptime * os.sysconf("SC_CLK_TCK")) - 1
    except (OSError, ValueError):
        return 0


@dataclass(frozen=True)
class _Proc:
    ppid: int
    sid: int
    start: int  # clock ticks since boot
    state: str  # "R", "S", "D", "Z" (a zombie), ...

    @property
    def dead(self) -> bool:
        return self.state in ("Z", "X", "x")


def _processes() -> dict[int, _Proc]:
    """Every process we can see, by pid."""
    out: dict[int, _Proc] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        try:  # state ppid pgrp session tty tpgid flags ... starttime is field 22 (index 19 here)
            out[int(name)] = _Proc(int(fields[1]), int(fields[3]), int(fields[19]), fields[0])
        except (IndexError, ValueError):
            continue
    return out


def _belonging(procs: dict[int, _Proc], root: int, since: int) -> set[int]:
    """The processes of the submission whose child is ``root``: below ``root``, in its
    session, or handed back to this (subreaper) process after ``since`` -- and everything
    below those."""
    me = os.getpid()
    found = {pid for pid, p in procs.items() if pid != me and (
        p.sid == root or (p.ppid == me and pid != root and p.start >= since))}
    tops = found | {root}
    children: dict[int, list[int]] = {}
    for pid, p in procs.items():
        children.setdefault(p.ppid, []).append(pid)
    todo = list(tops)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in tops and child != me:
                tops.add(child)
                found.add(child)
                todo.append(child)
    return found


def descendants(root: int) -> frozenset[int]:
    """Every process below ``root`` now."""
    procs = _processes()
    found: set[int] = set()
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, p in procs.items():
            if p.ppid == parent and pid not in found:
                found.add(pid)
                todo.append(pid)
    return frozenset(found)


def kill_descendants(root: int, since: int, include_root: bool = False,
                     keep: frozenset[int] = frozenset(), wait_s: float = 10.0,
                     uncounted: frozenset[int] = frozenset()) -> int:
    """Kill every process the submission started (its child is ``root``) and wait until
    each is dead; returns how many were killed.

    A process belongs to the submission when it descends from ``root``, is in
    ``root``'s session, or was handed back to this (subreaper) process after ``since`` and
    is not a child this process started itself (`_belonging`); ``keep`` (the
    box's init and runner) and ``root`` (unless ``include_root``) are spared, not what is
    below them. Repeated until none is alive, so a process that forks while it is being
    killed is caught; the dead that are this process's children are reaped. ``uncounted``
    (the box's init and runner, at the end) are killed but not counted."""
    killed: set[int] = set()
    deadline = time.monotonic() + wait_s
    clean = 0  # scans in a row that found none alive
    while True:
        procs = _processes()
        victims = _belonging(procs, root, since) - keep
        if include_root and root in procs:
            victims.add(root)
        elif not include_root:
            victims.discard(root)
        alive = [v for v in victims if not procs[v].dead]
        # two clean scans: a child forked while /proc was being read shows in the second
        clean = 0 if alive else clean + 1
        if clean >= 2 or time.monotonic() > deadline:
            break
        if not alive:
            continue
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.002)  # the killed become zombies, then their reaper collects them
    reap_orphans(root, since)
    return len(killed - {root} - uncounted)


def reap_orphans(root: int, since: int) -> int:
    """Collect the dead processes handed back to this (subreaper) process by the
    submission -- never ``root`` (the Popen child: Popen waits for it) nor a child this
    process started before ``since``; returns how many."""
    me = os.getpid()
    reaped = 0
    for pid, p in _processes().items():
        if p.ppid == me and pid != root and p.start >= since and p.dead:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    reaped += 1
            except (ChildProcessError, OSError):
                pass
    return reaped


# -- Reading the child's results: numbers only, in order --------------------


def _clean(text: object) -> str:
    """A child's failure message as one printable line of bounded length."""
    s = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return s if len(s) <= MAX_MESSAGE else s[:MAX_MESSAGE] + "..."


def _failure(data: object) -> tuple[str, str, int | None]:
    """(verdict, message, line) of a failure the child reports; never a pass."""
    if not isinstance(data, dict):
        return "error", "the student's process sent an unreadable failure report", None
    kind = data.get("kind")
    verdict = kind if kind in CHILD_FAILURES else "error"
    line = data.get("line")
    return verdict, _clean(data.get("message", "")), line if isinstance(line, int) and \
        not isinstance(line, bool) and 0 < line < 10**7 else None


_ESCAPE = re.compile(rb"\\.", re.S)
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_DELTA = [0] * 256
_DELTA[ord("[")] = _DELTA[ord("{")] = 1
_DELTA[ord("]")] = _DELTA[ord("}")] = -1
MAX_DEPTH = 32  # nesting of one result line (a model needs 5)


def nesting(raw: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, in linear time, no recursion.

    Exact for valid JSON (escapes dropped, then every other piece between quotes is a
    string); for anything else a number json.loads then refuses anyway."""
    outside = b"".join(_ESCAPE.sub(b"", raw).split(b'"')[0::2])
    return max(accumulate(map(_DELTA.__getitem__, outside.translate(None, _NOT_BRACKETS))),
               default=0)


def parse_event(raw: bytes) -> Any:
    """One result line as JSON; ValueError (with the reason) for anything else."""
    if nesting(raw) > MAX_DEPTH:
        raise ValueError(f"a result line nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw)
    except RecursionError:  # not reached after the depth check; never the grader's end
        raise ValueError("a result line nested too deep") from None
    except ValueError:
        raise ValueError("a result line that is not JSON") from None


def _watch(proc: subprocess.Popen, read_fd: int, result: StudentRun, limits: Limits,
           box: _Box, shapes: Sequence[tuple[int, int]]) -> None:
    sel = selectors.DefaultSelector()
    sel.register(read_fd, selectors.EVENT_READ, "result")
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    kept = {"stdout": bytearray(), "stderr": bytearray()}
    pending = bytearray()
    # "sandbox" (the box is being set up), "import", then the index of the board being
    # built, then "done"
    step = "sandbox"
    step_started = time.monotonic()
    deadline = step_started + limits.import_s
    next_reap = step_started + 0.5
    open_streams = 3
    boards = result.boards
    stopped = False  # the grader stopped the child (timeout)

    def importing() -> bool:
        return step in ("sandbox", "import")

    def finish_board(k: int, built: Built) -> None:
        built.time_s = time.monotonic() - step_started
        boards[k] = built

    def fail_rest(first: int, verdict: str, message: str, line: int | None = None) -> None:
        """The board being built gets the message; the rest are not built, and say why."""
        for k in range(first, len(boards)):
            if k == first or importing():
                finish_board(k, Built(None, verdict, message, line))
            else:
                boards[k] = Built(None, verdict, "not built (the student's process had "
                                                 f"been stopped): {message}", line)

    def current() -> int:
        return 0 if importing() else int(step)

    def protocol_error(what: str) -> None:
        nonlocal step
        fail_rest(current(), "error", f"error: the student's process sent {what}; it was "
                  "stopped (the grader reads only the models build(puzzle) returns)")
        _stop(proc)
        step = "done"

    while open_streams and step != "done":
        now = time.monotonic()
        if now >= next_reap:  # orphans handed back to the grader (where there is no box)
            reap_orphans(proc.pid, box.since)
            next_reap = now + 0.5
        timeout = deadline - now
        if timeout <= 0:
            what = "importing the file" if importing() else "build(puzzle)"
            limit = limits.import_s if importing() else limits.board_s
            fail_rest(current(), "timeout", f"timeout: {what} took longer than {limit:g} s; "
                      "the student's process was stopped (an infinite loop?)")
            _stop(proc)
            stopped = True
            break
        events = sel.select(min(timeout, 0.5))
        for key, _ in events:
            name = key.data
            if name == "result":
                chunk = os.read(read_fd, 1 << 16)
            else:
                # the selector holds our pipes' buffered readers, never bare descriptors
                chunk = key.fileobj.read1(1 << 16)  # type: ignore[union-attr]
            if not chunk:
                sel.unregister(key.fileobj)
                open_streams -= 1
                continue
            if name != "result":
                result.printed_bytes += len(chunk)
                room = limits.keep_bytes - len(kept[name])
                if room > 0:
                    kept[name] += chunk[:room]
                if result.printed_bytes > limits.output_bytes:
                    fail_rest(current(), "output-limit",
                              f"output-limit: the student's code printed more than "
                              f"{limits.output_bytes} bytes; its process was stopped")
                    _stop(proc)
                    step = "done"
                    break
                continue
            if len(pending) + len(chunk) > MAX_EVENT and b"\n" not in chunk:
                protocol_error(f"a result line longer than {MAX_EVENT} bytes")
                break
            pending += chunk
            if b"\n" not in chunk:  # only the new bytes are searched: linear in the line
                continue
            *lines, rest = bytes(pending).split(b"\n")
            pending = bytearray(rest)
            for raw in lines:
                if not raw.strip():
                    continue
                if len(raw) > MAX_EVENT:
                    protocol_error(f"a result line longer than {MAX_EVENT} bytes")
                    break
                try:
                    event = parse_event(raw)
                except ValueError as exc:
                    protocol_error(str(exc))
                    break
                kind = event.get("event") if isinstance(event, dict) else None
                if step == "sandbox" and kind == "sandbox":
                    # sent before any student code ran: the runner's own word
                    missing = event.get("missing")
                    missing = ([_clean(m) for m in missing] if isinstance(missing, list)
                               else ["(an unreadable report)"])
                    result.notes = missing
                    box.keep = descendants(proc.pid)  # the box's init and runner, if any
                    if missing:
                        _unconfined(missing)
                    box.next_step(result)
                    step = "import"
                elif step == "import" and kind == "import-failed":
                    verdict, message, line = _failure(event.get("failed"))
                    fail_rest(0, verdict, f"{verdict}: importing "
                              f"{os.path.basename(result.student)} failed: {message}", line)
                    step = "done"
                elif step == "import" and kind == "imported":
                    step = "0" if boards else "done"
                    if boards:
                        box.next_step(result)  # what the import started ends here
                elif not importing() and step != "done" and kind == "board" \
                        and event.get("k") == int(step):
                    k = int(step)
                    if "model" in event:
                        try:
                            model = LinearModel.from_json(event["model"], shapes[k])
                        except (ModelDataError, RecursionError) as exc:
                            finish_board(k, Built(None, "error", f"error: the model sent back "
                                                  f"is not a model: {_clean(exc)}"))
                        else:
                            finish_board(k, Built(model))
                    else:
                        verdict, message, line = _failure(event.get("failed"))
                        finish_board(k, Built(None, verdict, message, line))
                    step = str(k + 1) if k + 1 < len(boards) else "done"
                    if step != "done":
                        # what the submission started for this board ends with the board
                        box.next_step(result)
                else:
                    waited = ("the sandbox report" if step == "sandbox" else "the import"
                              if step == "import" else f"board {int(step) + 1}")
                    protocol_error(f"an event out of turn ({_clean(kind)!s} while the grader "
                                   f"waited for {waited})")
                    break
                step_started = time.monotonic()
                deadline = step_started + (limits.import_s if step == "import"
                                           else limits.board_s)
                if step == "done":
                    break
            if step == "done":
                break
    if step == "done" and not stopped and proc.stdout is not None and not proc.stdout.closed:
        # the work is done: what the student printed last is read until the child ends
        # (a second at most), within the same output cap
        until = time.monotonic() + 1.0
        while open_streams and time.monotonic() < until:
            for key, _ in sel.select(max(until - time.monotonic(), 0)):
                if key.data == "result":
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                chunk = key.fileobj.read1(1 << 16)  # type: ignore[union-attr]
                if not chunk:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                result.printed_bytes += len(chunk)
                room = limits.keep_bytes - len(kept[key.data])
                if room > 0:
                    kept[key.data] += chunk[:room]
    if step != "done" and not stopped:
        # the result pipe closed before the work was done: the process ended itself
        code = proc.wait()
        how = (f"was killed by signal {signal.Signals(-code).name}" if code < 0
               else f"exited with code {code} (sys.exit in a thread, or os._exit?)")
        verdict = "crashed" if code < 0 else "exited"
        fail_rest(current(), verdict, f"{verdict}: the student's process {how} "
                  f"while {'importing the file' if importing() else 'in build(puzzle)'}")
    result.stdout = kept["stdout"].decode("utf-8", "replace")
    result.stderr = kept["stderr"].decode("utf-8", "replace")
