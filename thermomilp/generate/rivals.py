"""Rival solutions of a planted board: the MILP question "is there another one?".

A rival is a solution ``y`` of the board's clues and thermometers with
``y != x*`` (the planted filling), found with the cell model plus the
canonical no-good cut of ``x*`` (see :mod:`thermomilp.solve`)::

    sum_{c : x*_c = 1} (1 - y_c) + sum_{c : x*_c = 0} y_c >= 1

``find_rival(tiling, window=...)`` asks the same question with every cell
outside a rectangle fixed to ``x*``: a tiny model HiGHS presolves away in a
few milliseconds. Any rival it finds is a rival of the whole board, so the
repair loop sweeps windows first and asks the whole board last.

The model is built straight from the tiling (arcs ``x_succ <= x_pred``) so no
:class:`~thermomilp.puzzle.Puzzle` has to be validated per question.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from thermomilp.generate.paths import PathTiling
from thermomilp.model.formulation import Formulation
from thermomilp.puzzle import Cell, Grid

# the probe's restarts: shares of ``probe`` seconds, one random seed each
PROBE_SHARES = (0.25, 0.25, 0.5, 1.0)


@dataclass(frozen=True)
class Window:
    """Rows ``top .. top+height-1`` and columns ``left .. left+width-1``."""

    top: int
    left: int
    height: int
    width: int

    def __contains__(self, cell: Cell) -> bool:
        r, c = cell
        return (self.top <= r < self.top + self.height
                and self.left <= c < self.left + self.width)


def windows(height: int, width: int, size: int, step: int) -> list[Window]:
    """Overlapping square windows covering the grid."""
    def starts(n: int) -> list[int]:
        if n <= size:
            return [0]
        out = list(range(0, n - size + 1, step))
        if out[-1] != n - size:
            out.append(n - size)
        return out

    return [Window(r, c, min(size, height), min(size, width))
            for r in starts(height) for c in starts(width)]


def bounding_box(cells: set[Cell]) -> Window:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return Window(min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1)


def tiling_formulation(tiling: PathTiling, rows: list[int | None], cols: list[int | None],
                       fixed: dict[Cell, int] | None = None) -> Formulation:
    return Formulation(
        height=tiling.height, width=tiling.width,
        row_clues={i: v for i, v in enumerate(rows) if v is not None},
        col_clues={j: v for j, v in enumerate(cols) if v is not None},
        arcs=tuple((b, a) for a, b in tiling.succ.items()),
        ties=(), fixed=dict(fixed or {}))


def find_rival(tiling: PathTiling, rows: list[int | None] | None = None,
               cols: list[int | None] | None = None, *, window: Window | None = None,
               time_limit: float | None = None, nearest: bool = False,
               fixed: dict[Cell, int] | None = None,
               backward: set[Cell] | None = None,
               region: set[Cell] | None = None, probe: float | None = None) -> Grid | None:
    """A solution other than the planted one (within ``window`` if given), or None.

    ``fixed``: cells known to hold these values in every solution (the logic
    presolve's sound deductions), bounds for the whole-board model.
    ``backward``: when every row and column has its clue and a line order
    labels the cells (:class:`~thermomilp.generate.repair.LineOrder`), the
    cells whose change would run against the order; every rival changes at
    least one of them, so the no-good cut is written over these cells only
    (a much stronger cut, see ``docs/generate.md``).
    Whole-board "no rival" answers are confirmed by a second solve with HiGHS
    presolve off (see ``_solve_with_nogood``); window answers are not (a
    window that misses a rival only costs time, never a wrong board). Every
    rival returned is checked against the clues and the thermometers.
    ``nearest``: the rival closest to ``x*`` (fewest differing cells), whose
    difference is the smallest local swap -- the one a repair kills best.
    ``probe``: ask for a first rival within this many branch-and-bound
    nodes first (see ``_solve_with_nogood``).
    ``region``: only these cells may change (every other cell is fixed to
    ``x*``); like a window, but any shape -- the cells where the last
    whole-board rival differed, which often hold several independent rivals.

    ``rows``/``cols`` default to the clues of the planted filling (all given).
    With a window the model holds only the window's cells: clues lose what the
    fixed cells outside contribute, and an arc crossing the window's edge
    becomes a bound (``x_s <= x_p`` with ``p`` outside and empty fixes ``x_s = 0``;
    with ``s`` outside and filled, ``x_p = 1``).

    Raises:
        RuntimeError: HiGHS ended without deciding (time limit, numerical trouble).
    """
    if rows is None or cols is None:
        rows, cols = tiling.clues()
    if region is not None:
        window = bounding_box(region)
    if window is None:
        form = tiling_formulation(tiling, rows, cols, fixed)
        box = Window(0, 0, tiling.height, tiling.width)
    else:
        form, box = _window_formulation(tiling, rows, cols, window)
    if region is not None:
        for r in range(box.top, box.top + box.height):
            for c in range(box.left, box.left + box.width):
                if (r, c) not in region:
                    form.fixed[(r - box.top, c - box.left)] = int((r, c) in tiling.ones)
    inside_ones = [(r - box.top, c - box.left) for r, c in tiling.ones if (r, c) in box]
    cut_cells = None
    if backward is not None:
        if any(v is None for v in list(rows) + list(cols)):
            raise ValueError("the backward-cell cut needs every line clue")
        cut_cells = {(r - box.top, c - box.left) for r, c in backward
                     if (r, c) in box and (region is None or (r, c) in region)}
    local = window is not None or region is not None
    x = _solve_with_nogood(form, inside_ones, time_limit, nearest, cut_cells, confirm=not local,
                           probe=probe)
    if x is None:
        return None
    grid = [["#" if (r, c) in tiling.ones else "." for c in range(tiling.width)]
            for r in range(tiling.height)]
    for k, value in enumerate(x):
        r, c = divmod(k, box.width)
        grid[box.top + r][box.left + c] = "#" if value else "."
    rival = tuple("".join(row) for row in grid)
    check_rival(tiling, rows, cols, rival)
    return rival


def check_rival(tiling: PathTiling, rows: Sequence[int | None], cols: Sequence[int | None],
                 rival: Grid) -> None:
    """A rival must be a solution other than the planted one; else the engine erred."""
    problems = []
    if rival == tiling.grid():
        problems.append("it is the planted grid")
    for i, clue in enumerate(rows):
        if clue is not None and rival[i].count("#") != clue:
            problems.append(f"row {i} breaks its clue")
    for j, clue in enumerate(cols):
        if clue is not None and sum(row[j] == "#" for row in rival) != clue:
            problems.append(f"column {j} breaks its clue")
    for (ra, ca), (rb, cb) in tiling.succ.items():
        if rival[rb][cb] == "#" and rival[ra][ca] != "#":
            problems.append(f"mercury in {(rb, cb)} above an empty {(ra, ca)}")
    if problems:
        raise RuntimeError(f"HiGHS returned a rival that is not a solution: {problems[0]}")


def _window_formulation(tiling: PathTiling, rows: list[int | None], cols: list[int | None],
                        w: Window) -> tuple[Formulation, Window]:
    row_clues, col_clues = {}, {}
    for i in range(w.height):
        r = w.top + i
        if rows[r] is not None:
            outside = sum((r, c) in tiling.ones for c in range(tiling.width) if (r, c) not in w)
            row_clues[i] = rows[r] - outside
    for j in range(w.width):
        c = w.left + j
        if cols[c] is not None:
            outside = sum((r, c) in tiling.ones for r in range(tiling.height) if (r, c) not in w)
            col_clues[j] = cols[c] - outside
    arcs, fixed = [], {}
    for a, b in tiling.succ.items():      # arc x_b <= x_a
        a_in, b_in = a in w, b in w
        if a_in and b_in:
            arcs.append(((b[0] - w.top, b[1] - w.left), (a[0] - w.top, a[1] - w.left)))
        elif b_in and a not in tiling.ones:
            fixed[(b[0] - w.top, b[1] - w.left)] = 0
        elif a_in and b in tiling.ones:
            fixed[(a[0] - w.top, a[1] - w.left)] = 1
    form = Formulation(height=w.height, width=w.width, row_clues=row_clues,
                       col_clues=col_clues, arcs=tuple(arcs), ties=(), fixed=fixed)
    return form, w


def _solve_with_nogood(form: Formulation, ones: list[Cell], time_limit: float | None,
                       nearest: bool, cut_cells: set[Cell] | None = None,
                       confirm: bool = True, probe: float | None = None) -> np.ndarray | None:
    """The 0/1 cell vector of a solution of ``form`` other than ``ones``, or None.

    ``cut_cells``: write the no-good cut over these cells only (one of them
    must change); None = over every cell (the canonical cut).
    ``probe``: first ask under the distance objective, stopping at the first
    rival HiGHS finds, within this many branch-and-bound nodes (a node budget
    keeps the board independent of the machine's speed); only when the probe ends
    without one is the question asked in full. On whole boards HiGHS finds a
    rival that way in a fraction of a second where the plain feasibility
    question can wander for many seconds, while it proves "no rival" faster
    without an objective (docs/generate.md).

    This is the generator's only contact with the engine.
    """
    import highspy

    from thermomilp.model.highs_model import build_highs, nogood_row

    n = form.height * form.width
    on = [form.index(cell) for cell in ones]
    over = None if cut_cells is None else [form.index(cell) for cell in cut_cells]
    if over == []:
        return None  # no cell may change: no rival
    # HiGHS 1.16 with presolve on can end in "Solve error" and can even call a
    # feasible model infeasible (benchmarks/highs_wrong_infeasible_15x15.txt).
    # A "no rival" answer is what makes a board unique, so with ``confirm`` it
    # must be given twice: with presolve on, then again with presolve off.
    # (presolve, distance objective, time limit, random seed, is a probe)
    plans: list[tuple[str, bool, float | None, int, bool]] = []
    share_of = dict(enumerate(PROBE_SHARES))
    if probe is not None:
        # restarts: HiGHS's time to a first rival varies tenfold with its random seed
        for seed, share in enumerate(PROBE_SHARES):
            plans.append(("choose", True, None, seed, True))
    plans.append(("choose", nearest, time_limit, 0, False))
    if confirm:
        plans.append(("off", nearest, time_limit, 0, False))
    status = None
    said_no = False
    h = None
    end = None if time_limit is None else time.perf_counter() + time_limit
    for presolve, near, limit, seed, probing in plans:
        if said_no and presolve == "choose":
            continue  # already "no rival" with presolve on: confirm it with presolve off
        if end is not None:
            limit = min(limit or np.inf, end - time.perf_counter())
            if limit <= 0:
                break
        h = build_highs(form, names=False)
        h.setOptionValue("random_seed", seed)
        h.setOptionValue("presolve", presolve)
        if limit is not None:
            h.setOptionValue("time_limit", float(max(limit, 0.01)))
        lower, cols, coef = nogood_row(n, on, over)
        h.addRow(lower, np.inf, cols.size, cols, coef)
        if probing:
            h.setOptionValue("mip_max_improving_sols", 1)  # the first rival will do
            # a node budget, not a time limit: the board must not depend on the machine's speed
            h.setOptionValue("mip_max_nodes", max(1, round(probe * share_of[seed])))
        if near:
            # minimise the Hamming distance to x*: the canonical cut's row, as objective
            _, all_cols, distance = nogood_row(n, on)
            h.changeColsCost(n, all_cols, distance)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal or (
                near and h.getInfo().primal_solution_status == 2):
            return np.asarray(h.getSolution().col_value) > 0.5
        if status == highspy.HighsModelStatus.kInfeasible:
            if presolve == "off" or not confirm:
                return None
            said_no = True
        elif not (probing and status in (highspy.HighsModelStatus.kTimeLimit,
                                         highspy.HighsModelStatus.kSolutionLimit)):
            break
    raise RuntimeError("HiGHS could not decide the rival question: "
                       + (h.modelStatusToString(status) if h is not None else "time limit"))
