"""Rivals of a planted Aquarium: "is there a second solution, and which?".

A rival is a solution of the board other than its planted one (``puzzle.solution``).
Two exact counters answer, the cheap one first (docs/generate.md, "Aquarium"):

1. **The subset-sum DP** (tank rule only, `thermomilp.logic.aquarium_dp`) with a node
   budget: it decides small boards' questions in milliseconds and large boards' not at all.
2. **The MILP** (HiGHS, the cell model plus a no-good cut of the planted grid,
   `thermomilp.solving.engine.find_other`), a "no rival" confirmed with presolve off.

`RivalSearch` keeps the DP's record over one board: once the DP has spent its budget
``DP_GIVE_UPS`` times, later questions go to the MILP directly. The record depends on
node counts only, never on the clock, so a seed gives the same board on any machine.

**Checking only what a deletion can change.** When the board was unique and clue ``l``
is deleted, a rival must break line ``l``'s planted sum ``s``, so the MILP question is
asked as two, line ``l`` at most ``s - 1`` and at least ``s + 1`` (each "none"
confirmed): side rows that tighten the LP relaxation far more than the no-good cut.

Every rival returned passes
[`thermomilp.core.verify.candidate_problems`][thermomilp.core.verify.candidate_problems] and
differs from the planted grid.
"""

from __future__ import annotations

from collections.abc import Callable

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationTimeUp, SolveError, TimeUp
from thermomilp.core.puzzle import (
    Cell,
    Grid,
    Puzzle,
    grid_from_levels,
    grid_from_ones,
    levels_from_grid,
    ones_of,
)
from thermomilp.core.verify import candidate_problems
from thermomilp.generate.aquarium_moves import Line, move_rival
from thermomilp.generate.rivals import Window, _RivalUndecided, check_rival, check_time, windows
from thermomilp.logic.aquarium_dp import WaterlineDP
from thermomilp.logic.mistakes import line_cells
from thermomilp.model.formulation import formulate
from thermomilp.solving.engine import find_other

DP_NODES = 400
"""Search nodes the DP may spend on one question before the MILP takes it."""
DP_GIVE_UPS = 2
"""After this many questions the DP could not finish, the board goes to the MILP only."""

_UNDECIDED = ("undecided",)
"""What `RivalSearch._dp_rival` returns when the DP spent its node budget."""

class RivalSearch:
    """Rival questions about boards that share one planted solution (one board's
    planting and clue deletion); counts which counter answered."""

    def __init__(self, dp_nodes: int | None = None, dp_give_ups: int | None = None):
        self.dp_nodes = DP_NODES if dp_nodes is None else dp_nodes
        self.dp_give_ups = DP_GIVE_UPS if dp_give_ups is None else dp_give_ups
        self.stats = {"dp": 0, "dp_gave_up": 0, "milp": 0, "window": 0, "moves": 0,
                      "undecided": 0}

    def rival(self, puzzle: Puzzle, deleted: Line | None = None,
              deadline: Deadline | None = None) -> Grid | None:
        """A solution of ``puzzle`` other than ``puzzle.solution``, or None (proven).

        ``deleted``: the line whose clue was just deleted from a board that was
        unique; the rival is then looked for among grids that change that line.

        Raises:
            _RivalUndecided: HiGHS could not decide, after the retry of
                `find_other`.
            GenerationTimeUp: the MILP could not decide before ``deadline``.
            GenerationError: the MILP misbehaved.
        """
        planted = puzzle.solution
        if planted is None:
            raise ValueError("a rival question needs the planted solution")
        grid = move_rival(puzzle, deleted)  # None unless the tank rule
        if grid is not None:
            self.stats["moves"] += 1
            return check_rival(puzzle, grid)
        if puzzle.rule == "tank" and self.stats["dp_gave_up"] < self.dp_give_ups:
            try:
                grid = self._dp_rival(puzzle, planted,
                                      stop=None if deadline is None else deadline.expired)
            except TimeUp:
                raise GenerationTimeUp("gave up: no board within the time limit (rival "
                                       "search)", "rival search") from None
            if grid is _UNDECIDED:
                self.stats["dp_gave_up"] += 1
            else:
                self.stats["dp"] += 1
                return check_rival(puzzle, grid)
        self.stats["milp"] += 1
        return check_rival(puzzle, _milp_rival(puzzle, planted, deleted, deadline))

    def _dp_rival(self, puzzle: Puzzle, planted: Grid, free: set[int] | None = None,
                  stop: Callable[[], bool] | None = None) -> Grid | None:
        avoid = levels_from_grid(puzzle, planted)
        dp = WaterlineDP(puzzle)
        domains = None
        if free is not None:
            domains = [d if v in free else 1 << avoid[v]
                       for v, d in enumerate(dp.full_domains())]
        found = dp.solutions_within(2, self.dp_nodes, domains, avoid, stop)
        if found is None:
            return _UNDECIDED
        for levels in found:
            if tuple(levels) != avoid:
                return grid_from_levels(puzzle, levels)
        return None

    def window_rival(self, puzzle: Puzzle, clean: set[Window]) -> Grid | None:
        """A rival that changes only tanks lying inside one window (every other tank
        keeps its planted level), or None when no window holds one. ``clean`` holds
        the windows known to hold none; windows found clean are added to it. Only
        the tank rule (the DP, a few tanks free: milliseconds); merges only remove
        solutions, so a clean window of a board stays clean while it is repaired."""
        if puzzle.rule != "tank" or puzzle.solution is None:
            return None
        for window in windows(puzzle.height, puzzle.width, WINDOW, STEP):
            if window in clean:
                continue
            free = {v for v, vessel in enumerate(puzzle.vessels)
                    if all(cell in window for cell in vessel.cells)}
            grid = self._dp_rival(puzzle, puzzle.solution, free) if free else None
            if grid is _UNDECIDED:
                continue
            self.stats["window"] += 1
            if grid is not None:
                return check_rival(puzzle, grid)
            clean.add(window)
        return None


WINDOW, STEP = 8, 4
"""Side and stride of the square windows the planting sweeps before a whole-board question."""


def _milp_rival(puzzle: Puzzle, planted: Grid, deleted: Line | None,
                deadline: Deadline | None) -> Grid | None:
    form, ones = formulate(puzzle), ones_of(planted)
    questions: list[tuple[frozenset[Cell] | None, tuple, bool]] = [(None, (), True)]
    if deleted is not None:
        import numpy as np

        axis, k = deleted
        cells = line_cells(puzzle, k if axis == "row" else puzzle.height + k)  # in order
        idx = np.array([form.index(cell) for cell in cells], dtype=np.int32)
        ones_col = np.ones(len(cells))
        planted_sum = sum(cell in ones for cell in cells)
        sides = []
        if planted_sum > 0:
            sides.append((1.0 - planted_sum, idx, -ones_col))      # sum <= planted - 1
        if planted_sum < len(cells):
            sides.append((planted_sum + 1.0, idx, ones_col))       # sum >= planted + 1
        # Most questions of a large board have a rival, which HiGHS finds fastest with the
        # no-good cut alone; its unconfirmed "none" only sends the question on to the two
        # sides, whose confirmed "none"s are the proof.
        line = frozenset(cells)
        questions = [(line, (), False)] + [(line, (side,), True) for side in sides]
    for over, rows, confirm in questions:
        x = _find_other(puzzle, form, ones, over, rows, deadline, confirm)
        if x is not None:
            return grid_from_ones(puzzle.height, puzzle.width, form.ones_from_values(x))
    return None


def _find_other(puzzle, form, ones, over, rows, deadline, confirm):
    check_time(deadline, "rival search")
    left = None if deadline is None else deadline.remaining()

    def check(grid: Grid) -> list[str]:  # the one checker, with the question's cut
        return candidate_problems(puzzle, grid, cuts=[(frozenset(ones), over)])

    try:
        return find_other(form, ones, check=check, over=over, rows=rows, time_limit=left,
                          confirm=confirm)
    except SolveError as exc:
        if exc.status == "timeout":
            raise GenerationTimeUp("gave up: no board within the time limit (rival search)",
                                   "rival search") from exc
        raise _RivalUndecided(f"the rival question: {exc}") from exc
