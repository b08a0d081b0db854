"""Run a student's file in a child process with limits; collect what it built.

Trust model (docs/course/grader.md says the same): this protects the grader
from **mistakes** -- an infinite loop, a flood of output, a crash, a call to
``sys.exit`` or ``os._exit``, runaway memory -- not from **malice**. The
child runs with the grader's user and permissions: it can read and write
your files and open the network. Grade untrusted submissions inside a
container (the docs show a ``docker run --network none --read-only`` line).

The child is ``python -I`` (no environment variables, no user site, no
current folder on ``sys.path``) with only this package's parent folder added
so it can import :mod:`thermomilp.teach.runner`. Limits, set in the child
before it starts: an address-space cap (``RLIMIT_AS``), a file-size cap, no
core dumps, and a CPU-time cap as a backstop; the parent enforces a wall
clock per step (import, then each board) and a cap on what the student may
print. stdout and stderr are captured apart from the result pipe, so nothing
the student prints can reach the report.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.linear import LinearModel

PACKAGE_PARENT = str(Path(__file__).resolve().parent.parent.parent)
BOOT = ("import sys; sys.path.insert(0, {root!r}); "
        "from thermomilp.teach.runner import main; main(sys.argv[1:])")
FAILURES = ("timeout", "crashed", "exited", "output-limit", "error")


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


def run_student(student: str, boards: Sequence[Puzzle], limits: Limits | None = None
                ) -> StudentRun:
    """Build the student's model on every board in one child process."""
    from thermomilp.formats.json_format import write

    limits = limits or Limits()
    started = time.monotonic()
    nonce = uuid.uuid4().hex
    result = StudentRun(student, [Built() for _ in boards])
    with tempfile.TemporaryDirectory(prefix="thermomilp-grade-") as tmp:
        request = os.path.join(tmp, "request.json")
        with open(request, "w", encoding="utf-8") as f:
            json.dump({"nonce": nonce, "student": os.path.abspath(student),
                       "boards": [write(p) for p in boards],
                       "limits": {"memory_mb": limits.memory_mb,
                                  "cpu_s": int(limits.import_s + limits.board_s
                                               * (len(boards) + 1)) + 1}}, f)
        work = os.path.join(tmp, "work")
        os.mkdir(work)
        read_fd, write_fd = os.pipe()
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-c", BOOT.format(root=PACKAGE_PARENT), request,
                 str(write_fd)],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(write_fd,), cwd=work, start_new_session=True)
        finally:
            os.close(write_fd)
        try:
            _watch(proc, read_fd, nonce, result, limits)
        finally:
            os.close(read_fd)
            _stop(proc)
    result.time_s = time.monotonic() - started
    return result


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


def _watch(proc: subprocess.Popen, read_fd: int, nonce: str, result: StudentRun,
           limits: Limits) -> None:
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

    def finish_board(k: int, built: Built) -> None:
        built.time_s = time.monotonic() - step_started
        result.boards[k] = built

    def fail_rest(first: int, verdict: str, message: str, line: int | None = None) -> None:
        """The board being built gets the message; the rest are not built, and say why."""
        for k in range(first, len(result.boards)):
            if k == first or step == "import":
                finish_board(k, Built(None, verdict, message, line))
            else:
                result.boards[k] = Built(None, verdict, "not built (the student's process had "
                                                        f"been stopped): {message}", line)

    def current() -> int:
        return 0 if step == "import" else int(step)

    while open_streams and step != "done":
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            what = "importing the file" if step == "import" else "build(puzzle)"
            limit = limits.import_s if step == "import" else limits.board_s
            fail_rest(current(), "timeout", f"timeout: {what} took longer than {limit:g} s; "
                      "the student's process was stopped (an infinite loop?)")
            _stop(proc)
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
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(event, dict) or event.get("nonce") != nonce:
                    continue
                kind = event.get("event")
                if kind == "import":
                    fail_rest(0, event["verdict"], f"{event['verdict']}: importing "
                              f"{os.path.basename(result.student)} failed: {event['message']}",
                              event.get("line"))
                    step = "done"
                elif kind == "imported":
                    step = "0" if result.boards else "done"
                elif kind == "board":
                    k = int(event["k"])
                    if "model" in event:
                        finish_board(k, Built(LinearModel.from_json(event["model"])))
                    else:
                        finish_board(k, Built(None, event["verdict"], event["message"],
                                              event.get("line")))
                    step = str(k + 1) if k + 1 < len(result.boards) else "done"
                elif kind == "done":
                    step = "done"
                step_started = time.monotonic()
                deadline = step_started + limits.board_s
                if step == "done":
                    break
            if step == "done":
                break
    if step != "done" and not any(b.verdict == "timeout" or b.verdict == "output-limit"
                                  for b in result.boards):
        # the result pipe closed before the work was done: the process ended itself
        code = proc.wait()
        how = (f"was killed by signal {signal.Signals(-code).name}" if code < 0
               else f"exited with code {code} (sys.exit in a thread, or os._exit?)")
        verdict = "crashed" if code < 0 else "exited"
        fail_rest(current(), verdict, f"{verdict}: the student's process {how} "
                  f"while {'importing the file' if step == 'import' else 'in build(puzzle)'}")
    result.stdout = kept["stdout"].decode("utf-8", "replace")
    result.stderr = kept["stderr"].decode("utf-8", "replace")
