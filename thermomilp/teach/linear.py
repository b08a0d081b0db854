"""A student's model as plain data: variables, linear rows, the cell expressions.

The student's code runs in a child process (`thermomilp.teach.runner`);
what crosses back to the grader is a `LinearModel` -- numbers and
names, nothing executable. Every check then solves that data with HiGHS in
the grader's process, so a solve never runs student code and the same
checks serve PuLP and Pyomo models (and every PuLP version).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from thermomilp.core.errors import ModelDataError
from thermomilp.core.notation import cell_name
from thermomilp.core.puzzle import Cell, Grid, grid_from_ones, ones_of
from thermomilp.teach.runner import MAX_NONZEROS

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

    @classmethod
    def from_json(cls, data: Any, shape: tuple[int, int] | None = None) -> LinearModel:
        """The model the child sent, checked number by number
        ([`ModelDataError`][thermomilp.core.errors.ModelDataError]).

        ``shape`` (height, width): the cells must be exactly the board's."""
        return _read_model(data, shape)

    # -- facts about the model ------------------------------------------------
    def size(self) -> tuple[int, int, int]:
        """Variables (used by some row), constraints, non-zeros."""
        used = {k for r in self.rows for k in r.terms}
        return len(used), len(self.rows), sum(len(r.terms) for r in self.rows)

    def var_of(self, cell: Cell) -> int | None:
        """The variable that is exactly ``cell`` (``x_i_j`` itself), None for an expression."""
        terms, const = self.cells[cell]
        return next(iter(terms)) if len(terms) == 1 and const == 0 and 1 in terms.values() \
            else None

    def cell_var(self) -> dict[int, Cell]:
        """Variables that are exactly one cell (``x_i_j`` itself), by index."""
        return {k: c for c in self.cells if (k := self.var_of(c)) is not None}


MAX_VARIABLES = 1_000_000
MAX_ROWS = 1_000_000
MAX_TEXT = 300  # characters of a constraint's text kept for the report


def one_line(text: str, limit: int) -> str:
    """``text`` as one printable line of at most ``limit`` characters (then "...")."""
    kept = "".join(ch if ch.isprintable() else " " for ch in text[:limit + 1])
    return kept if len(kept) <= limit else kept[:limit] + "..."


def _read_model(data: Any, shape: tuple[int, int] | None) -> LinearModel:
    def need(ok: bool, what: str) -> None:
        if not ok:
            raise ModelDataError(what)

    need(isinstance(data, dict), "not an object")
    names, lower, upper, integer = (data.get(k) for k in ("names", "lower", "upper", "integer"))
    need(isinstance(names, list) and len(names) <= MAX_VARIABLES, "bad variable list")
    n = len(names)
    need(all(isinstance(x, str) for x in names), "a variable name is not a string")
    for what, seq in (("lower", lower), ("upper", upper), ("integer", integer)):
        need(isinstance(seq, list) and len(seq) == n, f"{what} bounds do not match the variables")

    def finite(v: Any, what: str) -> float:
        need(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
             f"{what}: {str(v)[:40]}")
        return float(v)

    def bound(v: Any) -> float:
        return INF if v == "inf" else -INF if v == "-inf" else finite(v, "a bound is not a number")

    def coef(v: Any) -> float:
        return finite(v, "a coefficient is not a finite number")

    budget = [MAX_NONZEROS]

    def terms(pairs: Any) -> Terms:
        need(isinstance(pairs, list), "terms are not a list")
        budget[0] -= len(pairs)
        need(budget[0] >= 0, f"more than {MAX_NONZEROS} non-zeros")
        out: Terms = {}
        for pair in pairs:
            need(isinstance(pair, list) and len(pair) == 2, "a term is not [index, coefficient]")
            k, a = pair
            need(isinstance(k, int) and not isinstance(k, bool) and 0 <= k < n,
                 "a term names no variable")
            need(k not in out, "a variable appears twice in one row")
            out[k] = coef(a)
        return out

    rows_in = data.get("rows")
    need(isinstance(rows_in, list) and len(rows_in) <= MAX_ROWS, "bad constraint list")
    rows = []
    for r in rows_in:
        need(isinstance(r, list) and len(r) == 4, "a constraint is not [terms, lower, upper, text]")
        need(isinstance(r[3], str), "a constraint's text is not a string")
        rows.append(Row(terms(r[0]), bound(r[1]), bound(r[2]), one_line(r[3], MAX_TEXT)))
    maximize = data.get("maximize")
    need(isinstance(maximize, bool), "the objective's sense is not true/false")
    need(all(isinstance(v, bool) for v in integer), "an integrality flag is not true/false")
    cells_in = data.get("cells")
    need(isinstance(cells_in, list), "bad cell list")
    cells: dict[Cell, tuple[Terms, float]] = {}
    for c in cells_in:
        need(isinstance(c, list) and len(c) == 4, "a cell is not [i, j, terms, constant]")
        i, j = c[0], c[1]
        need(all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (i, j)),
             "a cell's row or column is not an index")
        need((i, j) not in cells, f"cell ({i}, {j}) appears twice")
        cells[i, j] = (terms(c[2]), coef(c[3]))
    if shape is not None:
        h, w = shape
        need(set(cells) == {(i, j) for i in range(h) for j in range(w)},
             f"the cells are not those of a {h}x{w} board")
    return LinearModel([x[:MAX_TEXT] for x in names], [bound(v) for v in lower],
                       [bound(v) for v in upper], list(integer), rows,
                       terms(data.get("objective")), maximize, cells)


# -- Solving the data with HiGHS -------------------------------------------


@dataclass(frozen=True)
class Run:
    status: str  # feasible | infeasible | unbounded | timeout | error
    values: dict[Cell, float] | None = None
    message: str = ""

    def grid(self, height: int, width: int) -> Grid | None:
        if self.values is None:
            return None
        return grid_from_ones(height, width, (c for c, v in self.values.items() if v > 0.5))

    def fractional_cells(self) -> list[tuple[Cell, float]]:
        """Cells strictly between 0 and 1."""
        return [(c, v) for c, v in sorted((self.values or {}).items()) if TOL < v < 1 - TOL]

    def cells_out_of_range(self) -> list[tuple[Cell, float]]:
        """Cells below 0 or above 1 (an integer cell without bounds)."""
        return [(c, v) for c, v in sorted((self.values or {}).items())
                if v < -TOL or v > 1 + TOL]


def fix_rows(model: LinearModel, grid: Sequence[str]) -> list[Row]:
    """Rows fixing every cell expression to the grid."""
    return [Row(terms, (v := float(grid[i][j] == "#") - const), v,
                f"grader fixes cell {cell_name((i, j))}")
            for (i, j), (terms, const) in model.cells.items()]


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
          time_limit: float | None = None) -> Run:
    """Solve the model plus ``extra`` rows; ``objective=False`` asks for any feasible point.

    The engine runs behind the solve layer (`thermomilp.solving.engine.solve_rows`);
    this function only says what its outcome means for a student's model."""
    from thermomilp.solving.engine import solve_rows

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
        return Run("timeout", message=f"HiGHS hit the {time_limit or 0:g} s limit on your model "
                                      "(grade --time-limit)")
    if outcome.raised:
        return Run("error", message=f"HiGHS failed on your model: {outcome.message}")
    return Run("error", message=f"HiGHS ended with status {outcome.message}")


def accepts(model: LinearModel, grid: Sequence[str],
            time_limit: float | None = None) -> bool | None:
    """Is the model feasible with its cells fixed to ``grid``? None when HiGHS cannot tell."""
    run = solve(model, fix_rows(model, grid), objective=False, time_limit=time_limit)
    return {"feasible": True, "infeasible": False}.get(run.status)


def feasible_grids(model: LinearModel, height: int, width: int, cap: int = 200,
                   time_limit: float | None = None) -> tuple[set[int], bool]:
    """The 0/1 grids the model accepts, as bit sets (bit ``i * width + j`` = cell filled).

    Returns (grids, complete): ``complete`` is False when more than ``cap`` grids were
    found (the set then holds ``cap + 1`` of them) or a solve could not decide.

    A model whose cells are distinct plain variables and whose rows use only those
    is evaluated on every grid at once (numpy); any other model is enumerated with
    no-good cuts, the cells held to 0..1 (`solve`)."""
    order = [k for i in range(height) for j in range(width)  # each cell's variable
             if (k := model.var_of((i, j))) is not None]
    used = set(order)
    if (height * width <= 16 and len(used) == height * width
            and all(k in used for r in model.rows for k in r.terms)):
        return _evaluate_all(model, order, height, width), True
    found: set[int] = set()
    extra = [Row(t, -c, 1.0 - c, f"grader holds cell {cell_name(cell)} in 0..1")
             for cell, (t, c) in model.cells.items()]
    while len(found) <= cap:
        run = solve(model, extra, objective=False, integral_cells=True, time_limit=time_limit)
        grid = run.grid(height, width)  # None unless feasible
        if grid is None:
            return found, run.status == "infeasible"
        bits = sum(1 << (i * width + j) for i, j in ones_of(grid))
        if bits in found:  # HiGHS returned a point the cut should exclude: tolerance
            return found, False
        found.add(bits)
        extra.append(nogood_row(model, grid))
    return found, False


def _evaluate_all(model: LinearModel, order: list[int], height: int, width: int) -> set[int]:
    import numpy as np

    n = height * width
    bits = np.arange(1 << n, dtype=np.int64)
    grids = ((bits[:, None] >> np.arange(n)) & 1).astype(float)  # grid x cell
    ok = np.ones(len(bits), dtype=bool)
    for c, k in enumerate(order):
        for v in (0.0, 1.0):
            if not model.lower[k] - 1e-9 <= v <= model.upper[k] + 1e-9:
                ok &= grids[:, c] != v
    position = {k: c for c, k in enumerate(order)}
    for r in model.rows:
        value = np.zeros(len(bits))
        for k, a in r.terms.items():
            value += a * grids[:, position[k]]
        ok &= (value >= r.lower - 1e-6) & (value <= r.upper + 1e-6)
    return {int(b) for b in bits[ok]}


def blocking_rows(model: LinearModel, grid: Sequence[str], limit: int = 3,
                  time_limit: float | None = None) -> list[Row]:
    """Constraints of the model that forbid ``grid``: the cell-only rows the grid breaks,
    else the rows (a big-M, a linking row) that must bend for the grid to be accepted:
    every row gets slack, the cells are fixed to the grid, the total slack is minimised
    and the rows that kept some are quoted."""
    var_cell = model.cell_var()
    filled = {k for k, (i, j) in var_cell.items() if grid[i][j] == "#"}
    broken = [r for r in model.rows if r.terms and r.terms.keys() <= var_cell.keys()
              and not r.lower - 1e-6 <= sum(a for k, a in r.terms.items() if k in filled)
              <= r.upper + 1e-6]
    if broken:
        return broken[:limit]
    from thermomilp.solving.engine import solve_rows

    # row k gets the slack variables n + 2k (below its lower bound) and n + 2k + 1 (above)
    n, m = len(model.names), len(model.rows)
    rows = [Row({**r.terms, n + 2 * k: 1.0, n + 2 * k + 1: -1.0}, r.lower, r.upper, r.text)
            for k, r in enumerate(model.rows)]
    outcome = solve_rows(model.lower + [0.0] * 2 * m, model.upper + [INF] * 2 * m,
                         [k for k in range(n) if model.integer[k]],
                         rows + fix_rows(model, grid), dict.fromkeys(range(n, n + 2 * m), 1.0),
                         maximize=False, time_limit=time_limit)
    if outcome.status != "optimal" or outcome.x is None:
        return []
    x = list(outcome.x)
    return [r for k, r in enumerate(model.rows) if x[n + 2 * k] + x[n + 2 * k + 1] > 1e-6][:limit]
