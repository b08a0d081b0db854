"""A student's model as plain data: variables, linear rows, the cell expressions.

The student's code runs in a child process (:mod:`thermomilp.teach.runner`);
what crosses back to the grader is a :class:`LinearModel` -- numbers and
names, nothing executable. Every check then solves that data with HiGHS in
the grader's process, so a solve never runs student code and the same
checks serve PuLP and Pyomo models (and every PuLP version).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from thermomilp.core.puzzle import Cell, Grid, Puzzle

Terms = dict[int, float]  # variable index -> coefficient
INF = float("inf")
TOL = 1e-4  # a cell this close to 0 or 1 is integral (a MIP's tolerance is about 1e-6 per variable)


@dataclass(frozen=True)
class Row:
    """``lower <= sum(coef * var) <= upper``, as the student wrote it (``text``)."""

    terms: Terms
    lower: float
    upper: float
    text: str


@dataclass
class LinearModel:
    names: list[str]
    lower: list[float]
    upper: list[float]
    integer: list[bool]
    rows: list[Row]
    objective: Terms
    maximize: bool
    cells: dict[Cell, tuple[Terms, float]]  # cell -> (terms, constant): 1 = filled
    extra_rows: list[Row] = field(default_factory=list)

    # -- (de)serialisation: the JSON the runner writes -----------------------
    def to_json(self) -> dict[str, Any]:
        def num(v: float) -> float | str:
            return v if abs(v) != INF else ("inf" if v > 0 else "-inf")

        return {"names": self.names, "lower": [num(v) for v in self.lower],
                "upper": [num(v) for v in self.upper], "integer": self.integer,
                "rows": [[_terms_out(r.terms), num(r.lower), num(r.upper), r.text]
                         for r in self.rows],
                "objective": _terms_out(self.objective), "maximize": self.maximize,
                "cells": [[i, j, _terms_out(t), c] for (i, j), (t, c) in self.cells.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LinearModel:
        return cls(list(data["names"]), [float(v) for v in data["lower"]],
                   [float(v) for v in data["upper"]], [bool(v) for v in data["integer"]],
                   [Row(_terms_in(t), float(lo), float(up), str(text))
                    for t, lo, up, text in data["rows"]],
                   _terms_in(data["objective"]), bool(data["maximize"]),
                   {(int(i), int(j)): (_terms_in(t), float(c)) for i, j, t, c in data["cells"]})

    # -- facts about the model ------------------------------------------------
    def size(self) -> tuple[int, int, int]:
        """Variables (used by some row), constraints, non-zeros."""
        used = {k for r in self.rows for k in r.terms}
        return len(used), len(self.rows), sum(len(r.terms) for r in self.rows)

    def cell_variables_continuous(self) -> bool:
        """True when no cell depends on an integer variable: the model is an LP in the cells."""
        return not any(self.integer[k] for terms, _ in self.cells.values() for k in terms)

    def cell_var(self) -> dict[int, Cell]:
        """Variables that are exactly one cell (``x_i_j`` itself), by index."""
        return {next(iter(t)): c for c, (t, const) in self.cells.items()
                if len(t) == 1 and const == 0 and next(iter(t.values())) == 1}

    def rows_broken_by(self, grid: Sequence[str]) -> list[Row]:
        """The student's rows over cell variables only that ``grid`` breaks."""
        var_cell = self.cell_var()
        broken = []
        for row in self.rows:
            if row.terms and all(k in var_cell for k in row.terms):
                value = sum(a * (grid[var_cell[k][0]][var_cell[k][1]] == "#")
                            for k, a in row.terms.items())
                if value < row.lower - 1e-6 or value > row.upper + 1e-6:
                    broken.append(row)
        return broken


def _terms_out(terms: Terms) -> list[list[float]]:
    return [[k, a] for k, a in terms.items()]


def _terms_in(pairs: list) -> Terms:
    return {int(k): float(a) for k, a in pairs}


# --------------------------------------------------------------------------
# Solving the data with HiGHS
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    status: str  # feasible | infeasible | unbounded | timeout | error
    values: dict[Cell, float] | None = None
    message: str = ""

    def grid(self, puzzle: Puzzle) -> Grid | None:
        if self.values is None:
            return None
        return tuple("".join("#" if self.values[i, j] > 0.5 else "." for j in range(puzzle.width))
                     for i in range(puzzle.height))

    def fractional_cells(self) -> list[tuple[Cell, float]]:
        """Cells strictly between 0 and 1."""
        if self.values is None:
            return []
        return [(c, v) for c, v in sorted(self.values.items())
                if TOL < v < 1 - TOL]

    def cells_out_of_range(self) -> list[tuple[Cell, float]]:
        """Cells below 0 or above 1 (an integer cell without bounds)."""
        if self.values is None:
            return []
        return [(c, v) for c, v in sorted(self.values.items()) if v < -TOL or v > 1 + TOL]


def fix_rows(model: LinearModel, grid: Sequence[str]) -> list[Row]:
    """Rows fixing every cell expression to the grid."""
    rows = []
    for (i, j), (terms, const) in model.cells.items():
        v = (1.0 if grid[i][j] == "#" else 0.0) - const
        rows.append(Row(terms, v, v, f"grader fixes cell ({i},{j})"))
    return rows


def nogood_row(model: LinearModel, grid: Sequence[str]) -> Row:
    """sum over filled cells of (1 - x) + sum over empty cells of x >= 1."""
    terms: Terms = {}
    rhs = 1.0
    for (i, j), (t, const) in model.cells.items():
        sign = -1.0 if grid[i][j] == "#" else 1.0
        rhs -= sign * const + (1.0 if sign < 0 else 0.0)
        for k, a in t.items():
            terms[k] = terms.get(k, 0.0) + sign * a
    return Row(terms, rhs, INF, "grader's no-good cut")


def solve(model: LinearModel, extra: Sequence[Row] = (), *, objective: bool = True,
          relax: bool = False, integral_cells: bool = False,
          time_limit: float = 30.0) -> Run:
    """Solve the model plus ``extra`` rows; ``objective=False`` asks for any feasible point.

    The engine runs behind the solve layer (:func:`thermomilp.solve.engine.solve_rows`);
    this function only says what its outcome means for a student's model."""
    from thermomilp.solve.engine import solve_rows

    n = len(model.names)
    integer = [] if relax else [k for k in range(n) if model.integer[k]]
    if integral_cells and not relax:
        integer = sorted(set(integer) | {k for t, _ in model.cells.values() for k in t})
    outcome = solve_rows(model.lower, model.upper, integer, list(model.rows) + list(extra),
                         model.objective if objective else {},
                         maximize=objective and model.maximize, time_limit=time_limit)
    if outcome.status == "optimal" and outcome.x is not None:
        x = list(outcome.x)
        values = {c: const + sum(a * x[k] for k, a in t.items())
                  for c, (t, const) in model.cells.items()}
        return Run("feasible", values)
    if outcome.status == "infeasible":
        return Run("infeasible")
    if outcome.status == "unbounded":
        if objective:
            again = solve(model, extra, objective=False, relax=relax,
                          integral_cells=integral_cells, time_limit=time_limit)
            if again.status == "feasible":
                return Run("unbounded", message="your objective is unbounded")
            return again
        return Run("infeasible")
    if outcome.status == "limit" and outcome.message.lower().startswith("time"):
        return Run("timeout", message=f"HiGHS hit the {time_limit:g} s limit on your model")
    if outcome.raised:
        return Run("error", message=f"HiGHS failed on your model: {outcome.message}")
    return Run("error", message=f"HiGHS ended with status {outcome.message}")


def accepts(model: LinearModel, grid: Sequence[str], time_limit: float = 30.0) -> bool | None:
    """Is the model feasible with its cells fixed to ``grid``? None when HiGHS cannot tell."""
    run = solve(model, fix_rows(model, grid), objective=False, time_limit=time_limit)
    return {"feasible": True, "infeasible": False}.get(run.status)
