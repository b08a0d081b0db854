"""The program the student's child process runs: a standalone script, not part of the package.

The grader (`sandbox`) copies this file, ``confine.py`` and ``landlock.py`` into the
child's own folder and runs ``python -I runner.py``. Nothing here imports thermomilp
(the standard library only; PuLP and Pyomo inside the functions that read a model); a
stub package ``thermomilp`` first on the child's ``sys.path`` and ``PYTHONPATH`` makes
``import thermomilp`` fail with a message that says so.

It reads the request on its stdin (the student's path, the boards as plain data, never
a solution, and the limits), closes stdin, enters its box (``confine``, ``landlock``),
imports the student's module, calls ``build(board)`` on each board (a `Board` with the
attribute names of ``thermomilp.Puzzle``) and writes one JSON line per step to the
result pipe. Before each step it waits for the grader's go on a second pipe. Events:

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

import contextlib
import importlib.util
import json
import math
import os
import re
import sys
import traceback
from typing import Any

CONTRACT = "docs/course/exercise.md"
INF = float("inf")
MAX_NONZEROS = 2_000_000
"""The most non-zeros a student's model may have, here and in `thermomilp.teach.linear`
(which reads it from here: this file imports nothing of the package)."""
UNAVAILABLE = ("thermomilp is not available while grading: build(board) gets the board as "
               "plain data (board.height, board.width, board.rows, board.cols, board.vessels) "
               "and builds its model with PuLP or Pyomo alone")


class ContractError(Exception):
    """What ``build`` returned breaks the grading contract."""


# -- The board, as plain data ----------------------------------------------


class Vessel:
    """A thermometer (layers of one cell, bulb first) or a tank (its rows, lowest first)."""

    def __init__(self, label: str, layers: tuple[tuple[tuple[int, int], ...], ...],
                 region_id: int | str | None = None) -> None:
        self.label = label
        self.layers = layers
        self.region_id = region_id
        self.parent = None

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """All cells in fill order (a thermometer: bulb first)."""
        return tuple(c for layer in self.layers for c in layer)

    @property
    def depth(self) -> int:
        return len(self.layers)

    @property
    def is_chain(self) -> bool:
        return True

    def parent_of(self, k: int) -> int | None:
        return k + 1 if k + 1 < len(self.layers) else None

    def filled_cells(self, level: int) -> tuple[tuple[int, int], ...]:
        return tuple(c for layer in self.layers[:level] for c in layer)

    def __repr__(self) -> str:
        return f"Vessel(label={self.label!r}, layers={self.layers!r})"


class Board:
    """What ``build(board)`` gets: the attributes of ``thermomilp.Puzzle`` a model uses."""

    def __init__(self, kind: str, rows: tuple[int | None, ...], cols: tuple[int | None, ...],
                 vessels: tuple[Vessel, ...], name: str | None = None,
                 rule: str = "tank") -> None:
        self.kind = kind
        self.rows = rows
        self.cols = cols
        self.vessels = vessels
        self.name = name
        self.rule = rule
        self.solution = None  # never given: the grader finds the solutions itself

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def rank_of(self) -> dict[tuple[int, int], tuple[int, int]]:
        """cell -> (vessel index, 1-based rank)."""
        return {c: (v, k + 1) for v, vessel in enumerate(self.vessels)
                for k, layer in enumerate(vessel.layers) for c in layer}

    @property
    def all_chains(self) -> bool:
        return True

    def region_grid(self) -> tuple[tuple[str, ...], ...]:
        """The label of the vessel covering each cell, row by row."""
        labels = [[""] * self.width for _ in range(self.height)]
        for vessel in self.vessels:
            for r, c in vessel.cells:
                labels[r][c] = vessel.label
        return tuple(tuple(row) for row in labels)

    def __repr__(self) -> str:
        return (f"Board({self.kind}, {self.height}x{self.width}, rows={self.rows}, "
                f"cols={self.cols}, {len(self.vessels)} vessels)")


def board_of(data: dict[str, Any]) -> Board:
    """A `Board` from the grader's plain data (`thermomilp.teach.sandbox.plain`)."""
    def clue(c: Any) -> int | None:
        return None if c is None else int(c)

    vessels = tuple(Vessel(str(v["label"]), tuple(tuple((int(i), int(j)) for i, j in layer)
                                                  for layer in v["layers"]),
                           v.get("region_id")) for v in data["vessels"])
    return Board(str(data["kind"]), tuple(clue(c) for c in data["rows"]),
                 tuple(clue(c) for c in data["cols"]), vessels, data.get("name"),
                 str(data.get("rule", "tank")))


# -- The model, as numbers (what thermomilp.teach.linear.LinearModel.from_json reads) ---


def _num(v: float) -> float | str:
    return v if abs(v) != INF else ("inf" if v > 0 else "-inf")


def _bound(v: Any, default: float) -> float:
    if v is None:
        return default
    v = float(v)
    return v if math.isfinite(v) else (INF if v > 0 else -INF)


def _terms(terms: dict[int, float]) -> list[list[float]]:
    return [[k, a] for k, a in terms.items()]


def serialise(built: Any, board: Any) -> dict[str, Any]:
    """The model ``build(board)`` returned, as the numbers the grader reads."""
    module = type(built).__module__
    if module.startswith(("pulp", "pyomo")):
        data = (_from_pulp if module.startswith("pulp") else _from_pyomo)(built, board)
        nonzeros = sum(len(r[0]) for r in data["rows"])
        if nonzeros > MAX_NONZEROS:
            raise ContractError(f"the model has {nonzeros} non-zeros, more than the grader takes "
                                f"({MAX_NONZEROS}) for a {board.height}x{board.width} board")
        return data
    raise ContractError(f"build(puzzle) returned a {type(built).__name__}; the contract asks for "
                        f"a pulp.LpProblem or a Pyomo model ({CONTRACT})")


def _model(names: list[str], lower: list[float], upper: list[float], integer: list[bool],
           rows: list[tuple[dict[int, float], float, float, str]], objective: dict[int, float],
           maximize: bool, cells: dict[tuple[int, int], tuple[dict[int, float], float]]
           ) -> dict[str, Any]:
    return {"names": names, "lower": [_num(v) for v in lower],
            "upper": [_num(v) for v in upper], "integer": integer,
            "rows": [[_terms(t), _num(lo), _num(up), text] for t, lo, up, text in rows],
            "objective": _terms(objective), "maximize": maximize,
            "cells": [[i, j, _terms(t), c] for (i, j), (t, c) in cells.items()]}


def _from_pulp(prob: Any, board: Any) -> dict[str, Any]:
    variables = list(prob.variables())
    index = {v.name: k for k, v in enumerate(variables)}
    names = [v.name for v in variables]
    lower = [_bound(v.lowBound, -INF) for v in variables]
    upper = [_bound(v.upBound, INF) for v in variables]
    integer = [str(v.cat) in ("Integer", "Binary") for v in variables]
    _check_cell_names(names, board)
    cells = {}
    declared = len(names)
    for i in range(board.height):
        for j in range(board.width):
            name = next((n for n in (f"x_{i}_{j}", f"x_({i},_{j})") if n in index), None)
            if name is None:
                # PuLP lists only variables some constraint or the objective uses: a cell
                # no constraint mentions is a free binary, so a fresh one stands for it.
                name = f"x_{i}_{j}"
                index[name] = len(names)
                names.append(name)
                lower.append(0.0)
                upper.append(1.0)
                integer.append(True)
            cells[i, j] = ({index[name]: 1.0}, 0.0)
    if all(next(iter(terms)) >= declared for terms, _ in cells.values()):
        raise ContractError("the model has no variable named x_i_j: the contract asks for one "
                            "binary variable x_i_j per cell (row i, column j, 0-based), "
                            f"1 = filled ({CONTRACT})")
    cons = prob.constraints
    rows = []
    for con in (list(cons()) if callable(cons) else list(cons.values())):
        terms = {index[v.name]: float(a) for v, a in con.items() if a}
        rhs = -float(con.constant)
        sense = int(con.sense)  # -1 <=, 0 ==, 1 >=
        lo, up = (-INF, rhs) if sense < 0 else (rhs, INF) if sense > 0 else (rhs, rhs)
        rows.append((terms, lo, up, f"{con.name}: {con}" if con.name else str(con)))
    objective = {}
    if prob.objective is not None:
        objective = {index[v.name]: float(a) for v, a in prob.objective.items() if a}
    return _model(names, lower, upper, integer, rows, objective, int(prob.sense) == -1, cells)


CELL_NAME = re.compile(r"x_(?:(\d+)_(\d+)|\((\d+),_(\d+)\))")


def _check_cell_names(names: list[str], board: Any) -> None:
    """Cell variables named from 1, or beyond the board: a clear message, not a shifted model."""
    h, w = board.height, board.width
    cells = {(int(m[1] or m[3]), int(m[2] or m[4])) for name in names
             if (m := CELL_NAME.fullmatch(name))}
    outside = sorted(c for c in cells if c[0] >= h or c[1] >= w)
    if not outside:
        return
    i, j = outside[0]
    from_one = (h, w) in cells or (not any(c[0] == 0 for c in cells)
                                   and not any(c[1] == 0 for c in cells))
    hint = (" -- your names start at 1: the contract numbers rows and columns from 0 "
            f"(x_0_0 is the top-left cell, x_{h - 1}_{w - 1} the bottom-right one)"
            if from_one else "")
    raise ContractError(f"the model has a variable x_{i}_{j}, but this board is {h}x{w}: "
                        f"rows 0..{h - 1}, columns 0..{w - 1} (0-based){hint} ({CONTRACT})")


def _from_pyomo(m: Any, board: Any) -> dict[str, Any]:
    import pyomo.environ as pyo
    from pyomo.repn import generate_standard_repn

    x = m.component("x")
    if x is None:
        raise ContractError("the Pyomo model has no component named x: the contract asks for "
                            f"x[i, j], one per cell (row i, column j) ({CONTRACT})")
    names: list[str] = []
    lower: list[float] = []
    upper: list[float] = []
    integer: list[bool] = []
    index: dict[int, int] = {}

    def var_index(v: Any) -> int:
        key = id(v)
        if key not in index:
            index[key] = len(names)
            names.append(v.name)
            lower.append(_bound(v.lb, -INF))
            upper.append(_bound(v.ub, INF))
            integer.append(bool(v.is_integer() or v.is_binary()))
        return index[key]

    def linear(expr: Any, what: str) -> tuple[dict[int, float], float]:
        repn = generate_standard_repn(expr, compute_values=True)
        if not repn.is_linear():
            raise ContractError(f"{what} is not linear: {expr}")
        terms: dict[int, float] = {}
        for v, a in zip(repn.linear_vars, repn.linear_coefs, strict=True):
            if v.fixed:
                continue
            k = var_index(v)
            terms[k] = terms.get(k, 0.0) + float(a)
        pairs = zip(repn.linear_vars, repn.linear_coefs, strict=True)
        const = float(repn.constant or 0.0) + sum(float(a) * float(v.value)
                                                  for v, a in pairs if v.fixed)
        return {k: a for k, a in terms.items() if a}, const

    cells = {}
    for i in range(board.height):
        for j in range(board.width):
            try:
                item = x[i, j]
            except (KeyError, IndexError):
                h, w = board.height, board.width
                hint = ""
                with contextlib.suppress(KeyError, IndexError, TypeError):
                    x[h, w]
                    hint = (f" -- your x is numbered from 1: the contract numbers rows and "
                            f"columns from 0 (x[0, 0] is the top-left cell, x[{h - 1}, {w - 1}] "
                            "the bottom-right one)")
                raise ContractError(f"the Pyomo model's x has no entry x[{i}, {j}]; the "
                                    f"contract asks for one per cell{hint}") from None
            cells[i, j] = linear(item, f"x[{i}, {j}]")
    rows = []
    for con in m.component_data_objects(pyo.Constraint, active=True):
        terms, const = linear(con.body, f"constraint {con.name}")
        lo = _bound(pyo.value(con.lower) if con.has_lb() else None, -INF) - const
        up = _bound(pyo.value(con.upper) if con.has_ub() else None, INF) - const
        rows.append((terms, lo, up, f"{con.name}: {con.expr}"))
    objective: dict[int, float] = {}
    maximize = False
    objs = list(m.component_data_objects(pyo.Objective, active=True))
    if objs:
        objective, _ = linear(objs[0].expr, "the objective")
        maximize = objs[0].sense == pyo.maximize
    # variables that appear nowhere but belong to the model still count as declared
    for v in m.component_data_objects(pyo.Var, descend_into=True):
        var_index(v)
    return _model(names, lower, upper, integer, rows, objective, maximize, cells)


# -- Failures, as the student can act on them ------------------------------


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


PACKAGE_FOLDERS: list[str] = []  # where thermomilp is on this machine (set in main)


class _NoThermomilp:
    """First on ``sys.meta_path`` in the child: thermomilp and its modules are not found,
    with `UNAVAILABLE` as the reason (Landlock stops a way around this one)."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] == "thermomilp":
            raise ModuleNotFoundError(UNAVAILABLE, name=name)


def _unavailable(exc: BaseException) -> bool:
    """Is ``exc`` the child failing to read thermomilp (a file of a hidden package folder)?"""
    name = getattr(exc, "filename", None)
    return isinstance(exc, OSError) and isinstance(name, str) and any(
        os.path.realpath(name).startswith(f.rstrip("/") + "/") for f in PACKAGE_FOLDERS)


def _failure(exc: BaseException, path: str) -> dict[str, Any]:
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
    if _unavailable(exc):
        text += f" -- {UNAVAILABLE}"
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
    return next((f" -- {hint}" for needle, hint in PULP4
                 if needle in text and isinstance(exc, AttributeError | TypeError)), "")


# -- What the child may not read: the package and its checkouts ------------


def package_folders(package: str) -> list[str]:
    """The folders that give thermomilp away, from its package folder ``package``: the
    package itself and, when it sits in a checkout of the repository (a folder with
    ``pyproject.toml``, ``setup.py`` or ``.git``: the boards with their solutions, the
    correct models), that checkout and the other worktrees of its git repository."""
    package = os.path.realpath(package)
    out = [package]
    clone = os.path.dirname(package)
    if not any(os.path.exists(os.path.join(clone, f)) for f in ("pyproject.toml", "setup.py",
                                                                ".git")):
        return out
    out.append(clone)
    git = os.path.join(clone, ".git")
    with contextlib.suppress(OSError):
        if os.path.isfile(git):  # a worktree: "gitdir: <repo>/.git/worktrees/<name>"
            with open(git, encoding="utf-8") as f:
                line = f.read().strip()
            if line.startswith("gitdir:"):
                git = os.path.dirname(os.path.dirname(line.split(":", 1)[1].strip()))
                out.append(os.path.dirname(os.path.realpath(git)))
        for name in os.listdir(os.path.join(git, "worktrees")):
            with open(os.path.join(git, "worktrees", name, "gitdir"), encoding="utf-8") as f:
                out.append(os.path.dirname(os.path.realpath(f.read().strip())))
    return sorted({p for p in out if os.path.isdir(p)})


def _installed_package() -> list[str]:
    """Where this interpreter would import thermomilp from (found, never imported)."""
    try:
        spec = importlib.util.find_spec("thermomilp")
    except (ImportError, ValueError):
        return []
    if spec is None:
        return []
    found = [os.path.dirname(spec.origin)] if spec.origin else []
    found += list(spec.submodule_search_locations or [])
    return sorted({p for folder in found for p in package_folders(folder)})


STUB = f"raise ImportError({UNAVAILABLE!r})\n"
"""The ``__init__.py`` of the stub package ``thermomilp`` the grader puts beside this script."""


# -- The child's life ------------------------------------------------------


def limit_self(memory_mb: int, cpu_s: int) -> None:
    """Caps on this process, set before any student code runs (the parent holds the clock)."""
    import resource

    def cap(what: int, value: int) -> None:
        with contextlib.suppress(ValueError, OSError):
            hard = resource.getrlimit(what)[1]
            resource.setrlimit(what, (value if hard == resource.RLIM_INFINITY
                                      else min(value, hard), hard))

    cap(resource.RLIMIT_AS, memory_mb << 20)  # a MemoryError instead of the machine's swap
    cap(resource.RLIMIT_CORE, 0)
    cap(resource.RLIMIT_FSIZE, 64 << 20)  # files the student writes
    cap(resource.RLIMIT_CPU, cpu_s)  # a backstop behind the parent's wall clock


def _load(name: str, path: str) -> Any:
    """The module of the file ``path``, run as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _await_turn(control: int, confine: Any) -> None:
    """Wait until the grader has ended every process the last step started, end at once
    whatever escaped it (in the box), then collect the ones that were this process's
    children; the grader's closing the pipe ends us."""
    try:
        go = os.read(control, 1)
    except OSError:
        go = b""
    if not go:
        os._exit(0)
    confine.end_step()
    confine.reap_children()


def main(argv: list[str]) -> None:
    fd, control, grader = int(argv[0]), int(argv[1]), int(argv[2])
    out = os.fdopen(fd, "w", encoding="utf-8")
    # the request arrives on stdin and nowhere else; stdin is then closed for the student
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # confine and landlock, loaded from this script's own folder (never the package)
    here = os.path.dirname(os.path.realpath(__file__))
    confine, landlock = (_load(f"_grader_{name}", os.path.join(here, f"{name}.py"))
                         for name in ("confine", "landlock"))

    # a PID namespace with a process limit; the grader's process stays outside and waits
    missing = confine.enter(int(request["limits"]["tasks"]), grader)
    limit_self(int(request["limits"]["memory_mb"]), int(request["limits"]["cpu_s"]))
    home = os.getcwd()  # the box's own temporary folder, emptied after every board
    stub = os.path.join(here, "stub")  # made by the grader
    package = sorted({*request.get("package", []), *_installed_package()})
    os.environ.clear()  # the parent passes none; this drops what Python itself set (LC_CTYPE)
    # PYTHONPATH: a program the student starts meets the same stub
    os.environ.update({"HOME": home, "TMPDIR": home, "PYTHONPATH": stub})
    sys.path.insert(0, stub)
    sys.meta_path.insert(0, _NoThermomilp)
    PACKAGE_FOLDERS[:] = package
    sys.dont_write_bytecode = True

    def send(record: dict[str, Any]) -> None:
        out.write(json.dumps(record) + "\n")
        out.flush()

    path = request["student"]
    boards = [board_of(b) for b in request["boards"]]

    # from here on: no reading the hidden paths (the package and its checkouts among them),
    # no writing outside the temporary folder. Readable below a hidden folder: the box (the
    # request) and what this interpreter imports from -- never the package itself
    readable = [os.path.realpath(p) for p in
                [*request.get("readable", []), *sys.path[1:], sys.prefix, sys.base_prefix,
                 sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))]]
    packages = [f.rstrip("/") for f in package if os.path.basename(f) == "thermomilp"]
    readable = [p for p in readable if p not in package
                and not any(p == f or p.startswith(f + "/") for f in packages)]
    why = landlock.restrict([*request.get("hidden", []), *package], [home, os.devnull],
                            readable)
    if why:
        missing.append(f"landlock: {why}")
    missing += confine.drop_privileges()
    del request
    send({"event": "sandbox", "missing": missing})  # the last message no student code touched
    _await_turn(control, confine)
    sys.argv = [path]
    try:
        build = getattr(_load("student_model", path), "build", None)
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
    for k, board in enumerate(boards):
        _await_turn(control, confine)  # what the last step started is gone
        try:
            model = serialise(build(board), board)
        except BaseException as exc:  # noqa: BLE001
            send({"event": "board", "k": k, "failed": _failure(exc, path)})
            continue
        send({"event": "board", "k": k, "model": model})
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # no student atexit handler runs after the report


if __name__ == "__main__":  # pragma: no cover - run by sandbox.py in the child
    main(sys.argv[1:])
