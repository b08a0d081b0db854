"""Rival solutions of a planted board: the MILP question "is there another one?".

A rival is a solution ``y`` of the board's clues and thermometers with
``y != x*`` (the planted filling), found with the cell model plus the
canonical no-good cut of ``x*`` (see [`thermomilp.solving`][thermomilp.solving]):

    sum_{c : x*_c = 1} (1 - y_c) + sum_{c : x*_c = 0} y_c >= 1

``find_rival(tiling, window=...)`` asks the same question with every cell
outside a rectangle fixed to ``x*``: a tiny model HiGHS presolves away in a
few milliseconds. Any rival it finds is a rival of the whole board, so the
repair loop sweeps windows first and asks the whole board last.

The model is built straight from the tiling (arcs ``x_succ <= x_pred``) so no
[`Puzzle`][thermomilp.core.puzzle.Puzzle] has to be validated per question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError, GenerationTimeUp, SolveError
from thermomilp.core.puzzle import Cell, Grid, Puzzle, grid_from_ones, thermometers
from thermomilp.core.verify import candidate_problems, solution_problems
from thermomilp.generate.paths import PathTiling
from thermomilp.model.formulation import Formulation
from thermomilp.solving.engine import find_other


class _RivalUndecided(GenerationError):
    """The engine could not answer a rival question about this board, even after the
    retry of `thermomilp.solving.engine.find_other` with presolve off. Not a time
    limit: the generator drops this board (or
    keeps the clue it wanted to delete) and goes on with the next one."""


def check_time(deadline: Deadline | None, where: str) -> None:
    """Stop a generator loop at its time limit:
    [`GenerationTimeUp`][thermomilp.core.errors.GenerationTimeUp] past ``deadline`` (``where``: the
    step that was running, for the message)."""
    if deadline is not None and deadline.expired():
        raise GenerationTimeUp(f"gave up: no board within the time limit ({where}, "
                               f"{deadline.elapsed():.1f} s)", where)


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
    def starts(n: int) -> list[int]:  # every ``step`` cells, and the last window's start
        last = max(0, n - size)
        return [*range(0, last, step), last]

    return [Window(r, c, min(size, height), min(size, width))
            for r in starts(height) for c in starts(width)]


def bounding_box(cells: set[Cell]) -> Window:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return Window(min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1)


def find_rival(tiling: PathTiling, rows: list[int | None] | None = None,
               cols: list[int | None] | None = None, *, window: Window | None = None,
               time_limit: float | None = None, nearest: bool = False,
               fixed: dict[Cell, int] | None = None,
               backward: set[Cell] | None = None,
               region: set[Cell] | None = None, probe: float | None = None,
               deadline: Deadline | None = None) -> Grid | None:
    """A solution other than the planted one (within ``window`` if given), or None.

    Args:
        tiling: the planted board: its thermometers and its filling ``x*``.
        rows: the row clues; default those of the planted filling (all given).
        cols: the column clues, likewise.
        window: ask with every cell outside this rectangle fixed to ``x*``: the model
            holds only the window's cells (clues lose what the fixed cells contribute,
            an arc crossing the edge becomes a bound).
        fixed: cells known to hold these values in every solution (the logic presolve's
            sound deductions), bounds for the whole-board model.
        backward: the cells whose change would run against a line order (`LineOrder`);
            every rival changes one, so the no-good cut runs over these only
            (docs/generate.md); needs every line clue.
        nearest: the rival closest to ``x*``, the smallest local swap.
        probe: first ask for a rival within this many branch-and-bound nodes
            (`thermomilp.solving.engine.find_other`).
        region: only these cells may change; like a window, any shape.
        time_limit: seconds for HiGHS.
        deadline: the board's clock; HiGHS gets at most the time left on it.

    The engine is asked through `thermomilp.solving.engine.find_other`: a whole-board
    "no rival" is confirmed (presolve off), a window's or region's is not, and an
    undecided window or region question finds no rival there (it only costs time:
    the whole board is asked last). Every rival is checked against the board here.

    Raises:
        _RivalUndecided: HiGHS could not decide the whole-board question (an engine
            error after the retry).
        GenerationTimeUp: ``deadline`` had passed, or HiGHS stopped at the time it left.
        GenerationError: HiGHS stopped at ``time_limit``, or returned a rival that
            is not a solution.
    """
    if deadline is not None:
        check_time(deadline, "rival search")
        time_limit = deadline.within(time_limit)
    if rows is None or cols is None:
        planted_rows, planted_cols = tiling.clues()
        rows, cols = list[int | None](planted_rows), list[int | None](planted_cols)
    if region is not None:
        window = bounding_box(region)
    local = window is not None
    box = window or Window(0, 0, tiling.height, tiling.width)
    inside_ones = [(r - box.top, c - box.left) for r, c in tiling.ones if (r, c) in box]
    form = (_window_formulation(tiling, rows, cols, box, inside_ones) if local else
            Formulation(height=tiling.height, width=tiling.width,  # the whole board
                        row_clues={i: v for i, v in enumerate(rows) if v is not None},
                        col_clues={j: v for j, v in enumerate(cols) if v is not None},
                        arcs=tuple((b, a) for a, b in tiling.succ.items()),
                        ties=(), fixed=dict(fixed or {})))
    if region is not None:
        for r in range(box.top, box.top + box.height):
            for c in range(box.left, box.left + box.width):
                if (r, c) not in region:
                    form.fixed[(r - box.top, c - box.left)] = int((r, c) in tiling.ones)
    cut_cells = None
    if backward is not None:
        if any(v is None for v in list(rows) + list(cols)):
            raise ValueError("the backward-cell cut needs every line clue")
        cut_cells = {(r - box.top, c - box.left) for r, c in backward
                     if (r, c) in box and (region is None or (r, c) in region)}

    def placed(inside: Grid) -> Grid:
        """The whole board's grid: the planted one with ``inside`` in the box."""
        rows_ = [list(row) for row in tiling.grid()]
        for r, line in enumerate(inside):
            rows_[box.top + r][box.left:box.left + box.width] = line
        return tuple("".join(row) for row in rows_)

    # the no-good in board cells: over the cells it runs over (None = every cell)
    in_box = (cut_cells if cut_cells is not None else
              None if not local else {(r, c) for r in range(box.height) for c in range(box.width)})
    cut = (frozenset(tiling.ones),
           None if in_box is None else frozenset((r + box.top, c + box.left) for r, c in in_box))

    def check(inside: Grid) -> list[str]:
        return candidate_problems(tiling_puzzle(tiling, rows, cols), placed(inside),
                                  fixed=None if local else fixed, cuts=[cut])

    try:
        x = find_other(form, inside_ones, check=check, over=cut_cells, nearest=nearest,
                       probe_nodes=probe, time_limit=time_limit, confirm=not local)
    except SolveError as exc:
        if exc.status == "timeout":
            if deadline is not None:  # the limit HiGHS had is (at most) the board's
                raise GenerationTimeUp(f"gave up: no board within the time limit (rival "
                                       f"search, {deadline.elapsed():.1f} s)",
                                       "rival search") from exc
            raise GenerationError(f"the rival question: {exc}") from exc
        if local:
            return None
        raise _RivalUndecided(f"the rival question: {exc}") from exc
    if x is None:
        return None
    # checked inside find_other: candidate_problems of the whole board
    return placed(grid_from_ones(box.height, box.width, form.ones_from_values(x)))


def tiling_puzzle(tiling: PathTiling, rows: Sequence[int | None] | None = None,
                  cols: Sequence[int | None] | None = None) -> Puzzle:
    """The board the tiling and the clues make (what the one checker reads)."""
    if rows is None or cols is None:
        rows, cols = tiling.clues()
    return thermometers(list(rows), list(cols), tiling.paths(), solution=tiling.grid())


def check_rival(puzzle: Puzzle, rival: Grid | None) -> Grid | None:
    """A rival must be a solution other than the planted one; else whatever found it erred
    ([`thermomilp.core.verify.candidate_problems`][thermomilp.core.verify.candidate_problems], the
    one checker)."""
    problems = [] if rival is None else candidate_problems(puzzle, rival,
                                                          planted=puzzle.solution)
    if problems:
        raise GenerationError(f"a rival that is not a solution: {problems[0]}")
    return rival


def prove_unique(puzzle: Puzzle, rival: Callable[[], Grid | None] | None) -> None:
    """The planted grid passes the independent checker, and ``rival()`` finds no rival.

    The rival question ("another solution than the planted one?") was usually
    answered last by the loop that made the board (repair, reroll, clue
    deletion) for exactly these clues: then it is not asked twice (``rival`` None).
    When the loop stopped because logic decided every cell, it is asked here.
    """
    problems = solution_problems(puzzle, puzzle.solution or ())
    if problems:
        raise GenerationError(f"internal error: the planted grid breaks a rule: {problems[0]}")
    if rival is not None and rival() is not None:
        raise GenerationError("internal error: a generated board has a second solution")


def _window_formulation(tiling: PathTiling, rows: list[int | None], cols: list[int | None],
                        w: Window, inside: list[Cell]) -> Formulation:
    """``inside``: the planted filled cells in ``w``, in window coordinates."""
    full_rows, full_cols = tiling.clues()

    def clues(given: list[int | None], full: list[int], start: int, n: int,
              axis: int) -> dict[int, int]:  # a clue less what the cells outside hold
        held = Counter(cell[axis] for cell in inside)
        return {i: v - full[start + i] + held[i]
                for i, v in enumerate(given[start:start + n]) if v is not None}

    arcs, fixed = [], {}
    for a, b in tiling.succ.items():      # arc x_b <= x_a
        a_in, b_in = a in w, b in w
        if a_in and b_in:
            arcs.append(((b[0] - w.top, b[1] - w.left), (a[0] - w.top, a[1] - w.left)))
        elif b_in and a not in tiling.ones:
            fixed[(b[0] - w.top, b[1] - w.left)] = 0
        elif a_in and b in tiling.ones:
            fixed[(a[0] - w.top, a[1] - w.left)] = 1
    return Formulation(height=w.height, width=w.width,
                       row_clues=clues(rows, full_rows, w.top, w.height, 0),
                       col_clues=clues(cols, full_cols, w.left, w.width, 1),
                       arcs=tuple(arcs), ties=(), fixed=fixed)
