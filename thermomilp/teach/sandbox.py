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

import contextlib
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
from thermomilp.teach.linear import LinearModel, ModelDataError, one_line
from thermomilp.teach.runner import STUB, package_folders

HERE = Path(__file__).resolve().parent
PACKAGE = str(HERE.parent.parent / "thermomilp")
CHILD_FILES = ("runner.py", "confine.py", "landlock.py")
CHILD_FAILURES = ("crashed", "exited", "error")  # the only failure kinds a child may report
MAX_MESSAGE = 600  # characters of a child's failure message the report may quote
MAX_EVENT = 256 << 20  # bytes of one result line (a model of 2 million non-zeros fits)


@dataclass(frozen=True)
class Limits:
    import_s: float = 30.0  # importing the file (pulp or pyomo included)
    board_s: float = 10.0  # one build(puzzle)
    memory_mb: int = 2048  # address space of the child
    output_bytes: int = 1 << 20  # stdout + stderr together; beyond, the child is stopped
    tasks: int = 301  # processes and threads in the child's box (the smallest pid_max is 301)


@dataclass
class Built:
    """One board: the model as data, or why there is none (its verdict)."""

    model: LinearModel | None = None
    verdict: str = ""  # timeout | crashed | exited | output-limit | error
    message: str = ""
    line: int | None = None


@dataclass
class StudentRun:
    student: str
    boards: list[Built]
    printed_bytes: int = 0  # stdout and stderr: counted, never shown
    notes: list[str] = field(default_factory=list)
    killed: int = 0  # processes the submission left behind, killed by the grader


def hidden_paths(student: str, extra: Sequence[str] = ()) -> list[str]:
    """What the student's process may not read (where Landlock is available): the package
    (its boards with their solutions, the correct example models, its code) and the checkout
    it runs from with that checkout's other worktrees, the folder of the student's
    file (the child reads its own copy), the shared temporary folders, ``/dev`` (but the
    few devices of `readable_paths`), and ``extra`` (the corpus folder, the grades
    file, the grader's key file, the other students' files)."""
    paths = [*package_folders(PACKAGE), os.path.dirname(os.path.realpath(student)),
             tempfile.gettempdir(), "/var/tmp", "/dev", *extra]
    return list(dict.fromkeys(real for p in paths if os.path.exists(real := os.path.realpath(p))))


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


def request_of(student: str, boards: Sequence[Puzzle], limits: Limits, hide: Sequence[str],
               copy: str) -> bytes:
    """What the child reads on its stdin: the path of its copy of the student's file, the
    boards as plain data (`plain`, never a solution) and the package's folders (which
    the runner hides with the rest)."""
    return json.dumps({"student": copy, "hidden": hidden_paths(student, hide),
                       "readable": readable_paths(os.path.dirname(os.path.dirname(copy))),
                       "package": package_folders(PACKAGE),
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
    os.mkdir(folder, 0o700)
    stub = os.path.join(folder, "stub", "thermomilp")
    os.makedirs(stub, 0o700)
    for name, text in [*child_files().items(), (os.path.join(stub, "__init__.py"), STUB)]:
        path = Path(folder, name)
        path.write_text(text, encoding="utf-8")
        path.chmod(0o444)
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
            result.boards = [Built(None, "error", f"error: the grader cannot read "
                                   f"{os.path.basename(student)} ({exc.strerror})") for _ in boards]
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
        keep: frozenset[int] = frozenset()  # the box's own init and runner (a PID namespace)
        try:
            keep = _watch(proc, read_fd, go_write, home, since, result, limits,
                          [p.shape for p in boards])
        finally:
            os.close(read_fd)
            os.close(go_write)
            _stop(proc)
            # the box's own init and runner may still be ending: killed, never counted as
            # the submission's (so the report does not depend on that timing)
            result.killed += kill_descendants(proc.pid, since, include_root=True,
                                              uncounted=keep)
            feeder.join(timeout=5)
    return result


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
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                os.unlink(entry.path)


def _feed(proc: subprocess.Popen, request: bytes) -> None:
    assert proc.stdin is not None
    # the child may end before it reads the request: _watch reports how
    with contextlib.suppress(OSError, ValueError):
        proc.stdin.write(request)
        proc.stdin.close()


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


def harden_grader() -> None:
    """Make this process the reaper of orphans it causes, and unreadable to its children.

    Done once the subreaper is set (Linux; tried again on each call until then);
    elsewhere the session scan alone finds what a submission left behind."""
    global _hardened
    if _hardened or not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        _hardened = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _clock_ticks_now() -> int:
    """This moment in the units of /proc/<pid>/stat's start time (clock ticks since boot)."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return int(uptime * os.sysconf("SC_CLK_TCK")) - 1
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
        names = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return out
    for name in names:
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
            fields = stat[stat.rfind(")") + 2:].split()
            # state ppid pgrp session tty tpgid flags ... starttime is field 22 (index 19 here)
            out[int(name)] = _Proc(int(fields[1]), int(fields[3]), int(fields[19]), fields[0])
    return out


def _below(procs: dict[int, _Proc], tops: set[int]) -> set[int]:
    """``tops`` and every process below them."""
    children: dict[int, list[int]] = {}
    for pid, p in procs.items():
        children.setdefault(p.ppid, []).append(pid)
    found, todo = set(tops), list(tops)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _belonging(procs: dict[int, _Proc], root: int, since: int) -> set[int]:
    """The processes of the submission whose child is ``root``: below ``root``, in its
    session, or handed back to this (subreaper) process after ``since`` -- and everything
    below those (``root`` itself left out)."""
    me = os.getpid()
    return _below(procs, {root} | {pid for pid, p in procs.items() if pid != me and (
        p.sid == root or (p.ppid == me and pid != root and p.start >= since))}) - {root, me}


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
        alive = [v for v in victims if not procs[v].dead]
        # two clean scans: a child forked while /proc was being read shows in the second
        clean = 0 if alive else clean + 1
        if clean >= 2 or time.monotonic() > deadline:
            break
        if not alive:
            continue
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
        time.sleep(0.002)  # the killed become zombies, then their reaper collects them
    reap_orphans(root, since)
    return len(killed - {root} - uncounted)


def reap_orphans(root: int, since: int) -> None:
    """Collect the dead processes handed back to this (subreaper) process by the
    submission -- never ``root`` (the Popen child: Popen waits for it) nor a child this
    process started before ``since``."""
    me = os.getpid()
    for pid, p in _processes().items():
        if p.ppid == me and pid != root and p.start >= since and p.dead:
            with contextlib.suppress(OSError):  # ChildProcessError among them
                os.waitpid(pid, os.WNOHANG)


# -- Reading the child's results: numbers only, in order --------------------


def _clean(text: object) -> str:
    """A child's failure message as one printable line of bounded length."""
    return one_line(str(text), MAX_MESSAGE)


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
    if len(raw) > MAX_EVENT:
        raise ValueError(f"a result line longer than {MAX_EVENT} bytes")
    if nesting(raw) > MAX_DEPTH:
        raise ValueError(f"a result line nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(raw)
    except RecursionError:  # not reached after the depth check; never the grader's end
        raise ValueError("a result line nested too deep") from None
    except ValueError:
        raise ValueError("a result line that is not JSON") from None


SANDBOX, IMPORT = -2, -1  # the steps before the boards' (0, 1, ...; then len(boards): done)


def _watch(proc: subprocess.Popen, read_fd: int, go: int, home: str, since: int,
           result: StudentRun, limits: Limits, shapes: Sequence[tuple[int, int]]
           ) -> frozenset[int]:
    """Read the child's results in order, each step within its time; returns the box's own
    init and runner (never counted as the submission's)."""
    sel = selectors.DefaultSelector()
    sel.register(read_fd, selectors.EVENT_READ, "result")
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    pending = bytearray()
    boards = result.boards
    done = len(boards)
    step = SANDBOX  # the box is being set up, then the import, then the board being built
    deadline = time.monotonic() + limits.import_s
    next_reap = time.monotonic() + 0.5
    open_streams = 3
    keep: frozenset[int] = frozenset()  # the box's own init and runner (a PID namespace)

    def next_step() -> None:
        """End every process the last step started (and wait until they are gone), empty
        the child's folder, then let the runner start the next step."""
        result.killed += kill_descendants(proc.pid, since, keep=keep)
        _empty(home)
        with contextlib.suppress(OSError):  # the child is gone: the result pipe says how
            os.write(go, b"g")

    def fail_rest(verdict: str, message: str, line: int | None = None) -> None:
        """The board being built gets the message; the rest are not built, and say why."""
        first = max(step, 0)
        for k in range(first, done):
            if k == first or step < 0:
                boards[k] = Built(None, verdict, message, line)
            else:
                boards[k] = Built(None, verdict, "not built (the student's process had "
                                                 f"been stopped): {message}", line)

    def stop(verdict: str, message: str) -> None:
        nonlocal step
        fail_rest(verdict, message)
        _stop(proc)
        step = done

    def protocol_error(what: str) -> None:
        stop("error", f"error: the student's process sent {what}; it was stopped (the grader "
             "reads only the models build(puzzle) returns)")

    def read_event(raw: bytes) -> None:
        nonlocal step, deadline, keep
        try:
            event = parse_event(raw)
        except ValueError as exc:
            protocol_error(str(exc))
            return
        kind = event.get("event") if isinstance(event, dict) else None
        if step == SANDBOX and kind == "sandbox":
            # sent before any student code ran: the runner's own word
            missing = event.get("missing")
            result.notes = ([_clean(m) for m in missing] if isinstance(missing, list)
                            else ["(an unreadable report)"])
            # every process below the child now: the box's init and runner, if any
            keep = frozenset(_below(_processes(), {proc.pid}) - {proc.pid})
            if result.notes:
                _unconfined(result.notes)
            next_step()
            step = IMPORT
        elif step == IMPORT and kind == "import-failed":
            verdict, message, line = _failure(event.get("failed"))
            fail_rest(verdict, f"{verdict}: importing {os.path.basename(result.student)} "
                      f"failed: {message}", line)
            step = done
        elif (step == IMPORT and kind == "imported"
              or step >= 0 and kind == "board" and event.get("k") == step):
            if kind == "board":
                if "model" not in event:
                    boards[step] = Built(None, *_failure(event.get("failed")))
                else:
                    try:
                        boards[step] = Built(LinearModel.from_json(event["model"], shapes[step]))
                    except (ModelDataError, RecursionError) as exc:
                        boards[step] = Built(None, "error", "error: the model sent back is not "
                                             f"a model: {_clean(exc)}")
            step += 1
            if step != done:  # what the import or the board started ends with it
                next_step()
        else:
            waited = ("the sandbox report" if step == SANDBOX else "the import"
                      if step == IMPORT else f"board {step + 1}")
            protocol_error(f"an event out of turn ({_clean(kind)!s} while the grader "
                           f"waited for {waited})")
            return
        deadline = time.monotonic() + (limits.import_s if step == IMPORT else limits.board_s)

    while open_streams and step != done:
        now = time.monotonic()
        if now >= next_reap:  # orphans handed back to the grader (where there is no box)
            reap_orphans(proc.pid, since)
            next_reap = now + 0.5
        if deadline <= now:
            what = "importing the file" if step < 0 else "build(puzzle)"
            limit = limits.import_s if step < 0 else limits.board_s
            stop("timeout", f"timeout: {what} took longer than {limit:g} s; the student's "
                 "process was stopped (an infinite loop?)")
            break
        for key, _ in sel.select(min(deadline - now, 0.5)):
            name = key.data
            # the selector holds our pipes' buffered readers, never bare descriptors
            chunk = (os.read(read_fd, 1 << 16) if name == "result"
                     else key.fileobj.read1(1 << 16))  # type: ignore[union-attr]
            if not chunk:
                sel.unregister(key.fileobj)
                open_streams -= 1
            elif name != "result":
                result.printed_bytes += len(chunk)
                if result.printed_bytes > limits.output_bytes:
                    stop("output-limit", f"output-limit: the student's code printed more than "
                         f"{limits.output_bytes} bytes; its process was stopped")
            elif len(pending) + len(chunk) > MAX_EVENT and b"\n" not in chunk:
                protocol_error(f"a result line longer than {MAX_EVENT} bytes")
            else:
                pending += chunk
                if b"\n" in chunk:  # only the new bytes are searched: linear in the line
                    *lines, rest = bytes(pending).split(b"\n")
                    pending = bytearray(rest)
                    for raw in lines:
                        if raw.strip() and step != done:
                            read_event(raw)
            if step == done:
                break
    if step == done and not proc.stdout.closed:
        # the work is done (the grader stopped nothing): what the student printed last is
        # read until the child ends (a second at most), within the same output cap
        until = time.monotonic() + 1.0
        while open_streams and time.monotonic() < until:
            for key, _ in sel.select(max(until - time.monotonic(), 0)):
                chunk = (b"" if key.data == "result"
                         else key.fileobj.read1(1 << 16))  # type: ignore[union-attr]
                if chunk:
                    result.printed_bytes += len(chunk)
                else:
                    sel.unregister(key.fileobj)
                    open_streams -= 1
    if step != done:
        # the result pipe closed before the work was done: the process ended itself
        code = proc.wait()
        how = (f"was killed by signal {signal.Signals(-code).name}" if code < 0
               else f"exited with code {code} (sys.exit in a thread, or os._exit?)")
        verdict = "crashed" if code < 0 else "exited"
        fail_rest(verdict, f"{verdict}: the student's process {how} "
                  f"while {'importing the file' if step < 0 else 'in build(puzzle)'}")
    return keep
