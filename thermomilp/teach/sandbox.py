"""Run a student's file in a child process with limits; collect the model it built, as numbers.

Trust model (docs/course/grader.md says the same, with what holds where):

* **Verdicts are the grader's.** The child sends back, per board, only the
  model as numbers (:class:`~thermomilp.teach.linear.LinearModel`), or that
  its code failed. Every verdict is computed here, in the grader's process,
  from those numbers; no message the child can send means "right". The
  data is validated (:meth:`LinearModel.from_json`) and only accepted in
  order: board ``k`` after board ``k - 1``. A child that forges the runner's
  messages can only send a model -- which is graded like any other.
* **Nothing to read.** The request (the student's path and the boards,
  *without* their solutions) reaches the child on its stdin, which the
  runner reads and closes before the student's code runs; there is no
  request file and no secret. The child starts with an **empty
  environment** (``env={}``, ``python -I``) in an empty temporary folder.
* **Nothing left behind.** The grader is a child subreaper
  (``PR_SET_CHILD_SUBREAPER``): a process the student's code starts and
  orphans (``setsid``, a double fork) comes back to the grader, and after
  every board every process the submission started, in its session, below
  it or handed back to the grader, is killed (:func:`kill_descendants`).
  The grader is also non-dumpable (``PR_SET_DUMPABLE`` 0): another process of
  the same (non-root) user cannot read its ``/proc/<pid>/fd`` or environment.
* **A file-system sandbox where the kernel has one.** With Landlock
  (:mod:`thermomilp.teach.landlock`) the child cannot read the package's
  boards, the correct models, the corpus, the grades file or the key
  (:func:`hidden_paths`), and writes only in its own folder. Without it the
  child runs with the grader's user and can read and write what that user
  can; the grades file is then guarded by its seals and the grader's check
  after each student (:mod:`thermomilp.teach.classroom`), and the recipes in
  docs/course/grader.md hide the rest.

Limits, set in the child before the student's code runs: an address-space
cap (``RLIMIT_AS``), a file-size cap, no core dumps, and a CPU-time cap as a
backstop; the parent enforces a wall clock per step (import, then each
board) and a cap on what the student may print. stdout and stderr are
captured apart from the result pipe, so nothing the student prints can
reach the report.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.linear import LinearModel, ModelDataError

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)
BOOT = ("import sys; sys.path.insert(0, {root!r}); "
        "from thermomilp.teach.runner import main; main(sys.argv[1:])")
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
    """What the student's process may not read (where Landlock is available): the package's
    boards with their solutions, the correct example models, and ``extra`` (the corpus
    folder, the grades file, the grader's key file) -- never a folder holding the student's
    own file."""
    package = Path(PACKAGE_PARENT) / "thermomilp"
    paths = [package / "_instances", package / "_models" / "solutions",
             Path(PACKAGE_PARENT) / "instances", Path(PACKAGE_PARENT) / "models" / "solutions",
             *(Path(p) for p in extra)]
    own = os.path.realpath(student)
    out = []
    for p in paths:
        real = os.path.realpath(p)
        if os.path.exists(real) and own != real and not own.startswith(real.rstrip("/") + "/"):
            out.append(real)
    return out


def request_of(student: str, boards: Sequence[Puzzle], limits: Limits,
               hide: Sequence[str] = ()) -> bytes:
    """What the child reads on its stdin: the path and the boards, never a solution."""
    from thermomilp.formats.json_format import write

    return json.dumps({"student": os.path.abspath(student),
                       "hidden": hidden_paths(student, hide),
                       "boards": [write(p.with_solution(None)) for p in boards],
                       "limits": {"memory_mb": limits.memory_mb,
                                  "cpu_s": int(limits.import_s + limits.board_s
                                               * (len(boards) + 1)) + 1}}).encode()


def run_student(student: str, boards: Sequence[Puzzle], limits: Limits | None = None,
                hide: Sequence[str] = ()) -> StudentRun:
    """Build the student's model on every board in one child process."""
    limits = limits or Limits()
    harden_grader()
    started = time.monotonic()
    result = StudentRun(student, [Built() for _ in boards])
    request = request_of(student, boards, limits, hide)
    with tempfile.TemporaryDirectory(prefix="thermomilp-grade-") as work:
        read_fd, write_fd = os.pipe()
        since = _clock_ticks_now()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-c", BOOT.format(root=PACKAGE_PARENT), str(write_fd)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(write_fd,), cwd=work, env={}, start_new_session=True)
        finally:
            os.close(write_fd)
        feeder = threading.Thread(target=_feed, args=(proc, request), daemon=True)
        feeder.start()
        try:
            _watch(proc, read_fd, result, limits, since, [p.shape for p in boards])
        finally:
            os.close(read_fd)
            _stop(proc)
            result.killed += kill_descendants(proc.pid, since, include_root=True)
            feeder.join(timeout=5)
    result.time_s = time.monotonic() - started
    return result


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


# ---------------------------------------------------------------------------
# The grader's own process: a subreaper, not dumpable
# ---------------------------------------------------------------------------

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


def _processes() -> dict[int, tuple[int, int, int]]:
    """pid -> (parent pid, session id, start time) of every process we can see."""
    out: dict[int, tuple[int, int, int]] = {}
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
            out[int(name)] = (int(fields[1]), int(fields[3]), int(fields[19]))
        except (IndexError, ValueError):
            continue
    return out


def kill_descendants(root: int, since: int, include_root: bool = False) -> int:
    """Kill every process the submission started (its child is ``root``); returns how many.

    A process belongs to the submission when it descends from ``root``, is in
    ``root``'s session, or was handed back to this (subreaper) process after
    ``since`` and is not a child this process started itself. Repeated until
    none is left, so a process that forks while it is being killed is caught."""
    me = os.getpid()
    killed: set[int] = set()
    for _ in range(50):
        procs = _processes()
        if not procs:
            break
        victims = set()
        for pid, (ppid, sid, start) in procs.items():
            if pid == me:
                continue
            if sid == root or (ppid == me and pid != root and start >= since):
                victims.add(pid)
        # everything below the root or below a victim
        grew = True
        tops = victims | {root}
        while grew:
            grew = False
            for pid, (ppid, _, _) in procs.items():
                if ppid in tops and pid not in tops and pid != me:
                    tops.add(pid)
                    victims.add(pid)
                    grew = True
        if not include_root:
            victims.discard(root)
        elif root in procs:
            victims.add(root)
        victims = {v for v in victims if v not in killed or v in procs}
        alive = [v for v in victims if procs.get(v) is not None]
        if not alive:
            break
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except (ProcessLookupError, PermissionError):
                pass
        _reap(alive, root)
    return len(killed - {root})


def _reap(pids: Sequence[int], root: int) -> None:
    """Collect the killed orphans handed back to this process (not the Popen child: Popen
    waits for it); a process that is not this one's child is not waited for."""
    for pid in pids:
        if pid == root:
            continue
        try:
            os.waitpid(pid, 0)
        except (ChildProcessError, OSError):
            pass


# ---------------------------------------------------------------------------
# Reading the child's results: numbers only, in order
# ---------------------------------------------------------------------------


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


def _watch(proc: subprocess.Popen, read_fd: int, result: StudentRun, limits: Limits,
           since: int, shapes: Sequence[tuple[int, int]]) -> None:
    sel = selectors.DefaultSelector()
    sel.register(read_fd, selectors.EVENT_READ, "result")
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout, selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr, selectors.EVENT_READ, "stderr")
    kept = {"stdout": bytearray(), "stderr": bytearray()}
    pending = b""
    step = "import"  # "import", then the index of the board being built, then "done"
    step_started = time.monotonic()
    deadline = step_started + limits.import_s
    open_streams = 3
    boards = result.boards
    stopped = False  # the grader stopped the child (timeout)

    def finish_board(k: int, built: Built) -> None:
        built.time_s = time.monotonic() - step_started
        boards[k] = built

    def fail_rest(first: int, verdict: str, message: str, line: int | None = None) -> None:
        """The board being built gets the message; the rest are not built, and say why."""
        for k in range(first, len(boards)):
            if k == first or step == "import":
                finish_board(k, Built(None, verdict, message, line))
            else:
                boards[k] = Built(None, verdict, "not built (the student's process had "
                                                 f"been stopped): {message}", line)

    def current() -> int:
        return 0 if step == "import" else int(step)

    def protocol_error(what: str) -> None:
        nonlocal step
        fail_rest(current(), "error", f"error: the student's process sent {what}; it was "
                  "stopped (the grader reads only the models build(puzzle) returns)")
        _stop(proc)
        step = "done"

    while open_streams and step != "done":
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            what = "importing the file" if step == "import" else "build(puzzle)"
            limit = limits.import_s if step == "import" else limits.board_s
            fail_rest(current(), "timeout", f"timeout: {what} took longer than {limit:g} s; "
                      "the student's process was stopped (an infinite loop?)")
            _stop(proc)
            stopped = True
            break
        events = sel.select(timeout)
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
            pending += chunk
            if len(pending) > MAX_EVENT:
                protocol_error(f"a result line longer than {MAX_EVENT} bytes")
                break
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                if not raw.strip():
                    continue
                try:
                    event = json.loads(raw)
                except ValueError:
                    protocol_error("a result line that is not JSON")
                    break
                kind = event.get("event") if isinstance(event, dict) else None
                if step == "import" and kind == "import-failed":
                    verdict, message, line = _failure(event.get("failed"))
                    fail_rest(0, verdict, f"{verdict}: importing "
                              f"{os.path.basename(result.student)} failed: {message}", line)
                    step = "done"
                elif step == "import" and kind == "imported":
                    result.killed += kill_descendants(proc.pid, since)  # started at import
                    step = "0" if boards else "done"
                elif step not in ("import", "done") and kind == "board" \
                        and event.get("k") == int(step):
                    k = int(step)
                    if "model" in event:
                        try:
                            model = LinearModel.from_json(event["model"], shapes[k])
                        except ModelDataError as exc:
                            finish_board(k, Built(None, "error", f"error: the model sent back "
                                                  f"is not a model: {_clean(exc)}"))
                        else:
                            finish_board(k, Built(model))
                    else:
                        verdict, message, line = _failure(event.get("failed"))
                        finish_board(k, Built(None, verdict, message, line))
                    # what the submission started for this board ends with the board
                    result.killed += kill_descendants(proc.pid, since)
                    step = str(k + 1) if k + 1 < len(boards) else "done"
                else:
                    protocol_error(f"an event out of turn ({_clean(kind)!s} while the grader "
                                   f"waited for {'the import' if step == 'import' else 'board '}"
                                   f"{'' if step == 'import' else int(step) + 1})")
                    break
                step_started = time.monotonic()
                deadline = step_started + limits.board_s
                if step == "done":
                    break
            if step == "done":
                break
    if step != "done" and not stopped:
        # the result pipe closed before the work was done: the process ended itself
        code = proc.wait()
        how = (f"was killed by signal {signal.Signals(-code).name}" if code < 0
               else f"exited with code {code} (sys.exit in a thread, or os._exit?)")
        verdict = "crashed" if code < 0 else "exited"
        fail_rest(current(), verdict, f"{verdict}: the student's process {how} "
                  f"while {'importing the file' if step == 'import' else 'in build(puzzle)'}")
    result.stdout = kept["stdout"].decode("utf-8", "replace")
    result.stderr = kept["stderr"].decode("utf-8", "replace")
