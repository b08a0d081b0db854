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
* runs out of its node or time budget: ``UNDECIDED``, and the facade asks
  the engine again in another configuration instead.

It takes milliseconds on published sizes (docs/performance.md), where the
engine's own second opinion (a re-solve with presolve off) costs as much as
the first solve.
"""

from __future__ import annotations

import time
from typing import Iterable, Mapping

from thermomilp.core.deadline import TimeUp
from thermomilp.core.puzzle import Cell, Grid, Puzzle, ones_of
from thermomilp.core.verify import Cut, cut_off
from thermomilp.logic.domains import (
    Domains,
    clamp_with_marks,
    full_domains,
    grid_of,
    levels_in,
    line_tables,
)
from thermomilp.logic.probing import probe_fixpoint

CONFIRMED = "confirmed"
UNDECIDED = "undecided"
MAX_NODES = 20_000
"""Search nodes before the logic gives the question back to the engine."""

class _OutOfBudget(Exception):
    pass


def clue_sums_disagree(puzzle: Puzzle) -> bool:
    """Every row and column clued, and the row clues add up to another number than
    the column clues: both count the filled cells, so no grid exists."""
    if None in puzzle.rows or None in puzzle.cols:
        return False
    return sum(c or 0 for c in puzzle.rows) != sum(c or 0 for c in puzzle.cols)


def confirm_infeasible(puzzle: Puzzle, fixed: Mapping[Cell, int] | None, cuts: Iterable[Cut],
                       seconds: float | None, max_nodes: int = MAX_NODES) -> str | Grid:
    """``CONFIRMED``, ``UNDECIDED`` or a grid the cuts and ``fixed`` allow (a solution
    the engine missed; the caller verifies it)."""
    if clue_sums_disagree(puzzle):
        return CONFIRMED
    if not puzzle.all_chains:  # a pool-rule tank has no levels: the engine decides
        return UNDECIDED
    cuts = list(cuts)
    stop = None if seconds is None else time.perf_counter() + seconds
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    if fixed and not clamp_with_marks(tables, dom, fixed):
        return CONFIRMED
    nodes = 0

    def late() -> bool:
        return stop is not None and time.perf_counter() > stop

    def rec(dom: Domains) -> Grid | None:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes or late():
            raise _OutOfBudget
        if not probe_fixpoint(tables, dom, late):
            return None
        open_vessels = [v for v, m in enumerate(dom) if m & (m - 1)]
        if not open_vessels:
            grid = grid_of(tables, dom)
            return None if cut_off(ones_of(grid), cuts) else grid
        v = min(open_vessels, key=lambda u: bin(dom[u]).count("1"))
        for level in levels_in(dom[v]):
            child = dom.copy()
            child[v] = 1 << level
            found = rec(child)
            if found is not None:
                return found
        return None

    try:
        found = rec(dom)
    except (_OutOfBudget, TimeUp, RecursionError):  # Recursion: a board of very many vessels
        return UNDECIDED
    return CONFIRMED if found is None else found
