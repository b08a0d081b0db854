"""The second opinion on "infeasible": an exact logic search, on a budget.

No checker can verify an engine's "infeasible" -- the verdict behind both "no solution"
and "unique" -- so the solve layer confirms it by a second, independent method
(docs/performance.md, item 6). The cheapest is exact search over vessel levels
(the building blocks of `thermomilp.logic.search`, sharing no code with the MILP
builders or the engines): it enumerates the grids that satisfy the board and the cells
fixed in the model, skips those the session's no-good cuts removed, and

* finds none: the "infeasible" is confirmed (``CONFIRMED``) -- at once when every line
  is clued and the row and column clues add up to different totals;
* finds one: the engine missed a solution; it is returned and the facade verifies it;
* runs out of its node or work budget (`thermomilp.logic.presolve.BoardLogic.search_work`, in the
  load-independent ticks of `thermomilp.logic.budget`) or reaches the board's deadline:
  ``UNDECIDED``. It does not search at all when the presolve's own search already gave
  up (``BoardLogic.search_gave_up``) or the board is past the presolve's search size
  and probing leaves it open.

**CP-SAT, where OR-Tools is installed**: where the search is hopeless or runs out,
`confirm_by_cpsat` puts the same question to CP-SAT on a cell model built here (sharing
nothing with the MILP builders or the engines) with a deterministic budget
(`CPSAT_WORK`, one worker, a fixed seed): ``confirmed_by: "cpsat"``; never when the
engine being confirmed is CP-SAT. Otherwise the engine's second opinion follows.

The search starts from the probing fixpoint in the solve's
[`BoardLogic`][thermomilp.logic.presolve.BoardLogic] (or reaches it itself under
``logic="none"``), clamped by the fixed cells, and does not probe the levels of the
excluded solution while it lies inside the domains (no sound rule erases them).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Iterable, Iterator, Mapping

from thermomilp.core.deadline import Deadline, TimeUp
from thermomilp.core.errors import OutOfBudget
from thermomilp.core.puzzle import Cell, Grid, Puzzle, grid_from_ones, levels_from_grid, ones_of
from thermomilp.core.verify import Cut, cut_off
from thermomilp.logic.budget import Work
from thermomilp.logic.domains import clamp_with_marks, grid_of, is_decided
from thermomilp.logic.presolve import BoardLogic, board_logic

CONFIRMED = "confirmed"
CONFIRMED_BY_CPSAT = "confirmed by cpsat"
UNDECIDED = "undecided"
MAX_NODES = 20_000
"""Search nodes before the logic gives the question back to the engine."""
CPSAT_WORK = 10.0
"""CP-SAT's budget in its deterministic time units (``max_deterministic_time``, one
worker): the same board always ends the same way, whatever the machine's load. Past it
the engine's second opinion decides (the runs that set it: docs/journal.md, "Issue 38's
acceptance criteria", and 2026-12-03)."""



def clue_sums_disagree(puzzle: Puzzle) -> bool:
    """Every row and column clued, and the row clues add up to another number than
    the column clues: both count the filled cells, so no grid exists."""
    if None in puzzle.rows or None in puzzle.cols:
        return False
    return sum(c or 0 for c in puzzle.rows) != sum(c or 0 for c in puzzle.cols)


def _known_levels(puzzle: Puzzle, cuts: list[Cut]) -> list[int] | None:
    """One bit per vessel: the levels of the first grid cut off whole that is a solution
    ([`thermomilp.core.verify`][thermomilp.core.verify] checks it), or None."""
    from thermomilp.core.verify import solution_problems

    for ones, over in cuts:
        if over is None:
            grid = grid_from_ones(puzzle.height, puzzle.width, ones)
            if not solution_problems(puzzle, grid):
                return [1 << level for level in levels_from_grid(puzzle, grid)]
    return None


def cpsat_available() -> bool:
    """Whether CP-SAT's library is installed, as its engine record names it (looked up,
    not imported: the ``cpsat`` extra)."""
    from thermomilp.backends.matrix import engine_found
    from thermomilp.core.settings import Solver

    return engine_found(Solver.CPSAT)


def confirm_by_cpsat(puzzle: Puzzle, fixed: Mapping[Cell, int] | None, cuts: Iterable[Cut],
                     seconds_left: float | None = None,
                     work: float = CPSAT_WORK) -> str | Grid:
    """The same question put to OR-Tools CP-SAT, an independent method (a clause-learning
    solver on a cell model built here from the board, sharing nothing with the MILP
    builders or the engines): ``CONFIRMED_BY_CPSAT`` when no grid satisfies the board,
    ``fixed`` and the ``cuts``; such a grid (the caller verifies it); or ``UNDECIDED``
    when CP-SAT ends undecided within ``work`` deterministic time units (one worker, a
    fixed seed) or the board's ``seconds_left``."""
    from ortools.sat.python import cp_model

    H, W = puzzle.height, puzzle.width
    model = cp_model.CpModel()
    x = {(r, c): model.new_bool_var(f"x{r}_{c}") for r in range(H) for c in range(W)}
    for r, clue in enumerate(puzzle.rows):
        if clue is not None:
            model.add(sum(x[r, c] for c in range(W)) == clue)
    for c, clue in enumerate(puzzle.cols):
        if clue is not None:
            model.add(sum(x[r, c] for r in range(H)) == clue)
    for vessel in puzzle.vessels:
        for layer in vessel.layers:  # a layer fills as one
            for a, b in pairwise(layer):
                model.add(x[a] == x[b])
        for k, layer in enumerate(vessel.layers):  # a layer fills only after the one below
            above = vessel.parent_of(k)
            if above is not None:
                model.add_implication(x[vessel.layers[above][0]], x[layer[0]])
    for cell, value in (fixed or {}).items():
        model.add(x[cell] == int(value))
    for ones, over in cuts:  # every allowed grid differs from the cut one somewhere on `over`
        cells = x if over is None else over
        model.add_bool_or([x[cell].Not() if cell in ones else x[cell] for cell in cells])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_deterministic_time = work
    if seconds_left is not None:
        solver.parameters.max_time_in_seconds = max(seconds_left, 0.001)
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return CONFIRMED_BY_CPSAT
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return grid_from_ones(H, W, (cell for cell, var in x.items() if solver.value(var)))
    return UNDECIDED


def _candidates(puzzle: Puzzle, fixed: Mapping[Cell, int] | None, cuts: list[Cut],
                expired, max_nodes: int, work: int | None,
                board: BoardLogic | None) -> Iterator[Grid]:
    """Every grid the exact search finds that meets the board and ``fixed``, cut off or
    not; OutOfBudget past its budget, or at once when a search is hopeless
    (`BoardLogic.search_hopeless`).

    A pool-rule tank has no levels: the search runs on its layer trees
    (`thermomilp.logic.tree.search_trees`, ``work`` nodes, default ``max_nodes``).
    Otherwise it starts from the probing fixpoint of the board alone -- the presolve's,
    when it ran; the excluded solution's levels need no probe (no sound rule erases
    them) -- clamped by ``fixed``."""
    if not puzzle.all_chains:
        from thermomilp.logic.tree import search_trees

        yield from search_trees(puzzle, marks=fixed,
                                stop=Work(max_nodes if work is None else work, expired))
        return
    board = board_logic(puzzle, board)
    known = _known_levels(puzzle, cuts)
    root, witnesses = board.probed_root(expired, known)
    decided = root is not None and is_decided(root)  # before ``fixed`` clamps it
    if root is None or (fixed and not clamp_with_marks(board.tables(), root, fixed)):
        return
    if decided:
        # one grid left, each clued line at its clue (the propagator's check of a
        # leaf): the search would visit that one leaf
        yield grid_of(board.tables(), root)
    elif board.search_hopeless(root):
        raise OutOfBudget("the presolve's search of this board gave up")
    else:
        yield from board.search(root, witnesses, expired, work, max_nodes, known=known)


def confirm_infeasible(puzzle: Puzzle, fixed: Mapping[Cell, int] | None, cuts: Iterable[Cut],
                       deadline: Deadline | None, max_nodes: int = MAX_NODES,
                       work: int | None = None, cpsat: bool = True,
                       board: BoardLogic | None = None) -> str | Grid:
    """``CONFIRMED`` (by the logic), ``CONFIRMED_BY_CPSAT``, ``UNDECIDED`` or a grid
    the cuts and ``fixed`` allow (a solution the engine missed; the caller verifies
    it). ``deadline``: the board's clock (the logic stops when it expires, CP-SAT gets
    what remains of it; None: no limit); ``work``:
    the logic's budget in work ticks (default
    `thermomilp.logic.presolve.BoardLogic.search_work`); ``cpsat``: False when the engine
    being confirmed is CP-SAT itself (then it would not be a second method);
    ``board``: what the logic learned about ``puzzle`` in this solve (its probing
    fixpoint, whether the presolve's search gave up), a new one when None.

    The logic search answers unless it is hopeless (`BoardLogic.search_hopeless`) or
    runs out of its budget; then CP-SAT, where OR-Tools is installed; when neither
    answers, ``UNDECIDED`` (the engine's second opinion follows)."""
    if clue_sums_disagree(puzzle):
        return CONFIRMED
    cuts = list(cuts)
    expired = None if deadline is None else deadline.expired
    try:
        for grid in _candidates(puzzle, fixed, cuts, expired, max_nodes, work, board):
            if not cut_off(ones_of(grid), cuts):
                return grid
    except TimeUp:
        return UNDECIDED
    except (OutOfBudget, RecursionError):  # Recursion: a board of very many vessels
        if not cpsat or not cpsat_available() or (expired is not None and expired()):
            return UNDECIDED
        try:
            return confirm_by_cpsat(puzzle, fixed, cuts,
                                    None if deadline is None else deadline.remaining())
        except (ImportError, OSError):  # a broken OR-Tools install: the engine decides
            return UNDECIDED
    return CONFIRMED
