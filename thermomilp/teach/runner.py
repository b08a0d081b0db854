"""The child process that runs a student's file (``python -I``, see :mod:`sandbox`).

It reads the request on its stdin (the student's path and the boards, which
carry no solution), closes stdin, enters its box (:mod:`confine`: a PID
namespace, a process limit, no capabilities; :mod:`landlock`), imports the
student's module, calls ``build(puzzle)`` on each board and writes one JSON
line per step to the result pipe (a file descriptor the parent passes; the
student's ``print`` goes to stdout and stderr, which the parent captures
apart). Before each step it waits for the grader's go on a second pipe: the
grader gives it once every process the last step started is gone. Events:

``{"event": "sandbox", "missing": [...]}`` (what could not be confined, sent
before any student code runs), ``{"event": "imported"}`` then, per board,
``{"event": "board", "k": k, "model": ...}`` (the model as numbers) or
``{"event": "board", "k": k, "failed": {"kind": "crashed" | "exited" | "error",
"message": ..., "line": N}}``.
An import failure is ``{"event": "import-failed", "failed": {...}}``.

No message carries a verdict: the grader computes every verdict from the
model's numbers, so a submission that writes these lines itself can only
send a model, graded like any other.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any


def _student_line(exc: BaseException, path: str) -> int | None:
    """The line of the student's file nearest to where ``exc`` was raised."""
    target = os.path.realpath(path)
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(frame.filename) == target:
            line = frame.lineno
    if line is None and isinstance(exc, SyntaxError) and exc.filename \
            and os.path.realpath(exc.filename) == target:
        line = exc.lineno
    return line


def _failure(exc: BaseException, path: str) -> dict[str, Any]:
    from thermomilp.teach.extract import ContractError

    line = _student_line(exc, path)
    where = f"{os.path.basename(path)}, line {line}" if line else os.path.basename(path)
    if isinstance(exc, SystemExit):
        return {"kind": "exited", "line": line,
                "message": f"the student's code called sys.exit({exc.code!r}) ({where}): "
                           "a model file must not end the program"}
    if isinstance(exc, ContractError):
        return {"kind": "error", "line": line, "message": str(exc)}
    text = f"{type(exc).__name__}: {exc.msg if isinstance(exc, SyntaxError) else exc}"
    text += pulp4_hint(exc)
    return {"kind": "crashed", "line": line, "message": f"{text} ({where})"}


# PuLP 3 idioms that PuLP 4 removed, and the PuLP 4 spelling (checked against PuLP 4.2)
PULP4 = (
    ("has no attribute 'dicts'", "PuLP 4 removed LpVariable.dicts: write "
     "prob.add_variable_dicts(\"x\", cells, cat=pulp.LpBinary) (PuLP 3 and 4), or "
     "prob.add_variable(f\"x_{i}_{j}\", cat=pulp.LpBinary) per cell"),
    ("has no attribute 'matrix'", "PuLP 4 removed LpVariable.matrix: write "
     "prob.add_variable_matrix(...) or prob.add_variable(...) per cell"),
    ("module 'pulp' has no attribute", "PuLP 4 removed that name (its status table among "
     "them): build(puzzle) need not solve the model, return it unsolved"),
    ("LpVariable.__init__() got an unexpected keyword", "PuLP 4 creates variables through the "
     "problem: write prob.add_variable(name, lowBound=..., upBound=..., cat=pulp.LpBinary)"),
    ("object cannot be passed as a constraint", "in PuLP 4, x == y between two variables is a "
     "plain True/False, not a constraint: write x - y == 0"),
)


def pulp4_hint(exc: BaseException) -> str:
    """What to write instead, when ``exc`` is PuLP 4 refusing a PuLP 3 idiom."""
    text = str(exc)
    for needle, hint in PULP4:
        if needle in text and isinstance(exc, AttributeError | TypeError):
            return f" -- {hint}"
    return ""


def limit_self(memory_mb: int, cpu_s: int) -> None:
    """Caps on this process, set before any student code runs (the parent holds the clock)."""
    import resource

    def cap(what: int, value: int) -> None:
        try:
            hard = resource.getrlimit(what)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(what, (value, hard))
        except (ValueError, OSError):
            pass

    cap(resource.RLIMIT_AS, memory_mb << 20)  # a MemoryError instead of the machine's swap
    cap(resource.RLIMIT_CORE, 0)
    cap(resource.RLIMIT_FSIZE, 64 << 20)  # files the student writes
    cap(resource.RLIMIT_CPU, cpu_s)  # a backstop behind the parent's wall clock


def _await_turn(control: int) -> None:
    """Wait until the grader has ended every process the last step started, end at once
    whatever escaped it (in the box), then collect the ones that were this process's
    children; the grader's closing the pipe ends us."""
    from thermomilp.teach.confine import end_step

    try:
        go = os.read(control, 1)
    except OSError:
        go = b""
    if not go:
        os._exit(0)
    end_step()
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except InterruptedError:
            continue
        if pid == 0:
            return


def main(argv: list[str]) -> None:
    fd, control, grader = int(argv[0]), int(argv[1]), int(argv[2])
    out = os.fdopen(fd, "w", encoding="utf-8")
    # the request arrives on stdin and nowhere else; stdin is then closed for the student
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    from thermomilp.teach.confine import drop_privileges, enter

    # a PID namespace with a process limit; the grader's process stays outside and waits
    missing = enter(int(request["limits"]["tasks"]), grader)
    limit_self(int(request["limits"]["memory_mb"]), int(request["limits"]["cpu_s"]))
    home = os.getcwd()  # the box's own temporary folder, emptied after every board
    os.environ.clear()  # the parent passes none; this drops what Python itself set (LC_CTYPE)
    os.environ.update({"HOME": home, "TMPDIR": home})
    sys.dont_write_bytecode = True

    def send(record: dict[str, Any]) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    import importlib.util

    from thermomilp.formats.json_format import read
    from thermomilp.teach.extract import extract

    path = request["student"]
    boards = [read(text) for text in request["boards"]]
    from thermomilp.teach.landlock import restrict

    # from here on: no reading the hidden paths, no writing outside the temporary folder
    # readable below a hidden folder: the box and the package (the request), and what this
    # interpreter imports from (sys.path[0] is the package's parent folder, set by the boot)
    readable = [*request.get("readable", []), *sys.path[1:], sys.prefix, sys.base_prefix,
                sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    why = restrict(request.get("hidden", []), [home, os.devnull], readable)
    if why:
        missing.append(f"landlock: {why}")
    missing += drop_privileges()
    del request
    send({"event": "sandbox", "missing": missing})  # the last message no student code touched
    _await_turn(control)
    sys.argv = [path]
    try:
        spec = importlib.util.spec_from_file_location("student_model", path)
        if spec is None or spec.loader is None:
            raise ImportError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules["student_model"] = module
        spec.loader.exec_module(module)
        build = getattr(module, "build", None)
        if not callable(build):
            send({"event": "import-failed",
                  "failed": {"kind": "error", "line": None,
                             "message": "defines no function build(puzzle) (see the contract in "
                                        "docs/course/exercise.md)"}})
            os._exit(0)
    except BaseException as exc:  # noqa: BLE001 - the student's code may raise anything
        send({"event": "import-failed", "failed": _failure(exc, path)})
        os._exit(0)
    send({"event": "imported"})
    for k, puzzle in enumerate(boards):
        _await_turn(control)  # what the last step started is gone
        try:
            model = extract(build(puzzle), puzzle)
        except BaseException as exc:  # noqa: BLE001
            send({"event": "board", "k": k, "failed": _failure(exc, path)})
            continue
        send({"event": "board", "k": k, "model": model.to_json()})
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no student atexit handler runs after the report


if __name__ == "__main__":  # pragma: no cover - run by sandbox.py
    main(sys.argv[1:])
