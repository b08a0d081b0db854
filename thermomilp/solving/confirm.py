"""The second opinion on "infeasible": an exact logic search, on a budget.

No checker can verify an engine's "infeasible" -- the verdict behind both
"no solution" and "unique" -- so the solve layer confirms it by a second,
independent method before believing it. The cheapest one on published
boards is exact search over vessel levels (probing propagation plus
branching, the building blocks of :mod:`thermomilp.logic.search`, sharing
no code with the MILP builders or the engines): it enumerates the grids
that satisfy the board and the cells fixed in the model, skips those the
session's no-good cuts removed, and

* finds none: the "infeasible" is confirmed (``CONFIRMED``) -- as it is at
  once when every line is clued and the row clues and the column clues add
  up to different totals;
* finds one: the engine missed a solution -- it is returned, and the facade
  verifies it like any other grid;
* runs out of its node or work budget (:func:`thermomilp.logic.presolve.search_work`,
  counted in the load-independent ticks of :mod:`thermomilp.logic.budget`, so the
  same board is always confirmed the same way) or reaches the board's deadline:
  ``UNDECIDED``, and the facade asks
  the engine again in another configuration instead -- at once, without a
  search, when the probing presolve's own search of the board already ran
  out of its budget (:func:`thermomilp.logic.presolve.search_gave_up`; on a
  hard 25x25 board the search would spend 6.6 s to give up, the engine's
  second opinion takes 0.9 s).

The search starts from the probing fixpoint the logic presolve already
reached on the board (:func:`thermomilp.logic.presolve.probed_root`, with the
witnesses of its probes), clamped by the fixed cells; it does not probe the
levels of the excluded solution while that solution lies inside a node's
domains (no sound rule erases them). It takes milliseconds on published
sizes (docs/performance.md), where the engine's own second opinion (a
re-solve with presolve off) costs as much as the first solve.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from thermomilp.core.deadline import TimeUp
from thermomilp.core.puzzle import Cell, Grid, Puzzle, levels_from_grid, ones_of
from thermomilp.core.verify import Cut, cut_off
from thermomilp.logic.domains import clamp_with_marks, line_tables

CONFIRMED = "confirmed"
UNDECIDED = "undecided"
MAX_NODES = 20_000
"""Search nodes before the logic gives the question back to the engine."""



def clue_sums_disagree(puzzle: Puzzle) -> bool:
    """Every row and column clued, and the row clues add up to another number than
    the column clues: both count the filled cells, so no grid exists."""
    if None in puzzle.rows or None in puzzle.cols:
        return False
    return sum(c or 0 for c in puzzle.rows) != sum(c or 0 for c in puzzle.cols)


def _known_levels(puzzle: Puzzle, cuts: list[Cut]) -> list[int] | None:
    """One bit per vessel: the levels of the first grid cut off whole that is a solution
    (:mod:`thermomilp.core.verify` checks it), or None."""
    from thermomilp.core.verify import solution_problems

    for ones, over in cuts:
        if over is None:
            grid = tuple("".join("#" if (r, c) in ones else "." for c in range(puzzle.width))
                         for r in range(puzzle.height))
            if not solution_problems(puzzle, grid):
                return [1 << level for level in levels_from_grid(puzzle, grid)]
    return None


def confirm_infeasible(puzzle: Puzzle, fixed: Mapping[Cell, int] | None, cuts: Iterable[Cut],
                       deadline: Callable[[], bool] | None, max_nodes: int = MAX_NODES,
                       work: int | None = None) -> str | Grid:
    """``CONFIRMED``, ``UNDECIDED`` or a grid the cuts and ``fixed`` allow (a solution
    the engine missed; the caller verifies it). ``deadline``: True once the board's
    time is up (e.g. :meth:`thermomilp.core.deadline.Deadline.expired`); ``work``: the
    budget in work ticks (default :func:`thermomilp.logic.presolve.search_work`)."""
    from thermomilp.logic.budget import Work
    from thermomilp.logic.presolve import probed_root, search_gave_up, search_work
    from thermomilp.logic.search import OutOfBudget, search_solutions

    if clue_sums_disagree(puzzle):
        return CONFIRMED
    if not puzzle.all_chains:  # a pool-rule tank has no levels: the engine decides
        return UNDECIDED
    if search_gave_up(puzzle):  # the presolve's search of this board ran out: so would we
        return UNDECIDED
    cuts = list(cuts)
    try:
        # the probing fixpoint of the board alone: the presolve's, when it ran
        root, witnesses = probed_root(puzzle, deadline)
        if root is None or (fixed and not clamp_with_marks(line_tables(puzzle), root, fixed)):
            return CONFIRMED
        halt = Work(search_work(puzzle) if work is None else work, deadline)
        for grid in search_solutions(puzzle, "probing", start=root, stop=halt,
                                     max_nodes=max_nodes, known=_known_levels(puzzle, cuts),
                                     witnesses=witnesses):
            if not cut_off(ones_of(grid), cuts):
                return grid
    except (OutOfBudget, TimeUp, RecursionError):  # Recursion: a board of very many vessels
        return UNDECIDED
    return CONFIRMED
