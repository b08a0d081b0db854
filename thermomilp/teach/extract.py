"""Turn what a student's ``build(puzzle)`` returned into a :class:`LinearModel`.

Runs in the child process (:mod:`thermomilp.teach.runner`), right after the
student's code; the grader's process only ever sees the data.

The contract (docs/course/exercise.md): a ``pulp.LpProblem`` whose cell
variables are named ``x_i_j`` (PuLP's name for ``LpVariable.dicts("x", ...)``
indexed by ``(i, j)``, ``x_(i,_j)``, is accepted too), or a Pyomo model with a
component ``x`` indexed by ``(i, j)`` -- a ``Var`` or an ``Expression``.
"""

from __future__ import annotations

import math
import re
from typing import Any

from thermomilp.core.errors import ContractError
from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.linear import INF, MAX_NONZEROS, LinearModel, Row

CONTRACT = "docs/course/exercise.md"


def extract(built: Any, puzzle: Puzzle) -> LinearModel:
    from thermomilp.model.registry import BuiltModel

    if isinstance(built, BuiltModel):  # thermomilp.build_model's answer: the layer's model
        built = built.model
    module = type(built).__module__
    if module.startswith(("pulp", "pyomo")):
        from_model = _from_pulp if module.startswith("pulp") else _from_pyomo
        model = from_model(built, puzzle)
        nonzeros = model.size()[2]
        if nonzeros > MAX_NONZEROS:
            raise ContractError(f"the model has {nonzeros} non-zeros, more than the grader takes "
                                f"({MAX_NONZEROS}) for a {puzzle.height}x{puzzle.width} board")
        return model
    raise ContractError(f"build(puzzle) returned a {type(built).__name__}; the contract asks for "
                        f"a pulp.LpProblem or a Pyomo model ({CONTRACT})")


def _bound(v: Any, default: float) -> float:
    if v is None:
        return default
    v = float(v)
    return v if math.isfinite(v) else (INF if v > 0 else -INF)


# --------------------------------------------------------------------------
# PuLP (3.x and 4.x)
# --------------------------------------------------------------------------


def _from_pulp(prob: Any, puzzle: Puzzle) -> LinearModel:
    variables = list(prob.variables())
    index = {v.name: k for k, v in enumerate(variables)}
    names = [v.name for v in variables]
    lower = [_bound(v.lowBound, -INF) for v in variables]
    upper = [_bound(v.upBound, INF) for v in variables]
    integer = [str(v.cat) in ("Integer", "Binary") for v in variables]
    _check_cell_names(names, puzzle)
    cells = {}
    declared = len(names)
    for i in range(puzzle.height):
        for j in range(puzzle.width):
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
        rows.append(Row(terms, lo, up, f"{con.name}: {con}" if con.name else str(con)))
    objective = {}
    if prob.objective is not None:
        objective = {index[v.name]: float(a) for v, a in prob.objective.items() if a}
    return LinearModel(names, lower, upper, integer, rows, objective, int(prob.sense) == -1, cells)


CELL_NAME = re.compile(r"x_(?:(\d+)_(\d+)|\((\d+),_(\d+)\))")


def _check_cell_names(names: list[str], puzzle: Puzzle) -> None:
    """Cell variables named from 1, or beyond the board: a clear message, not a shifted model."""
    h, w = puzzle.height, puzzle.width
    cells = set()
    for name in names:
        m = CELL_NAME.fullmatch(name)
        if m:
            i, j = (int(v) for v in (m.group(1) or m.group(3), m.group(2) or m.group(4)))
            cells.add((i, j))
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


# --------------------------------------------------------------------------
# Pyomo
# --------------------------------------------------------------------------


def _from_pyomo(m: Any, puzzle: Puzzle) -> LinearModel:
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
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            try:
                item = x[i, j]
            except (KeyError, IndexError):
                h, w = puzzle.height, puzzle.width
                hint = ""
                try:
                    x[h, w]
                    hint = (f" -- your x is numbered from 1: the contract numbers rows and "
                            f"columns from 0 (x[0, 0] is the top-left cell, x[{h - 1}, {w - 1}] "
                            "the bottom-right one)")
                except (KeyError, IndexError, TypeError):
                    pass
                raise ContractError(f"the Pyomo model's x has no entry x[{i}, {j}]; the "
                                    f"contract asks for one per cell{hint}") from None
            cells[i, j] = linear(item, f"x[{i}, {j}]")
    rows = []
    for con in m.component_data_objects(pyo.Constraint, active=True):
        terms, const = linear(con.body, f"constraint {con.name}")
        lo = _bound(pyo.value(con.lower) if con.has_lb() else None, -INF) - const
        up = _bound(pyo.value(con.upper) if con.has_ub() else None, INF) - const
        rows.append(Row(terms, lo, up, f"{con.name}: {con.expr}"))
    objective: dict[int, float] = {}
    maximize = False
    objs = list(m.component_data_objects(pyo.Objective, active=True))
    if objs:
        objective, _ = linear(objs[0].expr, "the objective")
        maximize = objs[0].sense == pyo.maximize
    # variables that appear nowhere but belong to the model still count as declared
    for v in m.component_data_objects(pyo.Var, descend_into=True):
        var_index(v)
    return LinearModel(names, lower, upper, integer, rows, objective, maximize, cells)
