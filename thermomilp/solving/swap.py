"""A fast witness of non-uniqueness: the four-vessel swap.

Given a solution, call a filled layer whose parent layer is empty (or that
has none) a *tip* -- it can be emptied -- and an empty layer whose child
layers are all filled a *next* -- it can be filled. In a chain (a
thermometer, a tank under the tank rule) these are the top filled layer and
the first empty one; a pool-rule tank (a layer tree) may have several of
each. Only single-cell layers take part. If four different vessels have

    tip at (r1, a)    next at (r1, b)
    next at (r2, a)   tip at (r2, b)

then emptying both tips and filling both nexts keeps every row and column
count (each row and each column loses one cell and gains one) and keeps every
vessel's filling legal (each makes one such move) -- a second solution, found without a
solver. Random planted boards are full of such rectangles, and on large
boards this replaces a hard second MILP solve (the dense no-good row stalls
HiGHS' heuristics: 200x200 took 85 s). When no rectangle exists the MILP
decides as before, so the search may only save time, never change a status.

The row pairs are found with two boolean matrix products: ``(T @ N.T)[r1, r2]``
counts columns ``a`` with a tip in ``r1`` and a next in ``r2``. The rival
grid is checked by [`thermomilp.core.verify`][thermomilp.core.verify] before it is returned.
"""

from __future__ import annotations

import numpy as np

from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.core.verify import solution_problems

MAX_CANDIDATES = 200  # row pairs tried before giving up (each try is cheap)


def swap_rival(puzzle: Puzzle, grid: Grid) -> Grid | None:
    """Another solution of ``puzzle`` one four-vessel swap away from ``grid``, or None."""
    H, W = puzzle.height, puzzle.width
    tip_of = np.full((H, W), -1, dtype=np.int64)   # vessel with a single-cell tip here
    next_of = np.full((H, W), -1, dtype=np.int64)  # vessel with a single-cell next here
    for v, vessel in enumerate(puzzle.vessels):
        filled = [grid[layer[0][0]][layer[0][1]] == "#" for layer in vessel.layers]
        empty_child = [False] * vessel.depth  # some child layer of k is empty
        for k in range(vessel.depth):
            p = vessel.parent_of(k)
            if p is not None and not filled[k]:
                empty_child[p] = True
        for k, layer in enumerate(vessel.layers):
            if len(layer) != 1:
                continue
            p = vessel.parent_of(k)
            if filled[k] and (p is None or not filled[p]):
                tip_of[layer[0]] = v
            elif not filled[k] and not empty_child[k]:
                next_of[layer[0]] = v
    tips = (tip_of >= 0).astype(np.int32)
    nexts = (next_of >= 0).astype(np.int32)
    # pairs (r1, r2) with a column a: tip (r1, a), next (r2, a); and a column b: next (r1, b),
    # tip (r2, b)
    both = (tips @ nexts.T > 0) & (nexts @ tips.T > 0)
    np.fill_diagonal(both, False)
    for r1, r2 in np.argwhere(both)[:MAX_CANDIDATES]:
        cols_a = np.flatnonzero((tip_of[r1] >= 0) & (next_of[r2] >= 0))
        cols_b = np.flatnonzero((next_of[r1] >= 0) & (tip_of[r2] >= 0))
        for a in cols_a:
            for b in cols_b:
                four = {tip_of[r1, a], next_of[r2, a], next_of[r1, b], tip_of[r2, b]}
                if a == b or len(four) < 4:
                    continue
                rows = [list(line) for line in grid]
                rows[r1][a], rows[r2][b] = ".", "."
                rows[r2][a], rows[r1][b] = "#", "#"
                rival = tuple("".join(line) for line in rows)
                if not solution_problems(puzzle, rival):
                    return rival
    return None


def rival_moves(puzzle: Puzzle, grid: Grid) -> tuple[frozenset[Cell], frozenset[Cell]] | None:
    """Two sparse rows that, among the solutions, cut off exactly ``grid``; or None.

    Returns ``(rises, falls)``: a cell of the first empty layer of every vessel
    that is not full, and a cell of the top filled layer of every vessel that
    is not empty. "Some cell of ``rises`` is filled" holds exactly when some
    vessel stands higher than in ``grid``; "some cell of ``falls`` is empty"
    exactly when some vessel stands lower (a vessel fills from the bottom).

    Every other solution satisfies both: its levels differ from ``grid``'s
    (a chain vessel's cells are its level), and when every row (or every
    column) is clued the number of filled cells is the same in both, so a
    vessel that rises needs one that falls and the other way round (every
    layer holds at least one cell). And a grid that satisfies either row is
    not ``grid``. So the two rows remove ``grid`` and no other solution -- the
    no-good cut's job -- with one +1 per vessel instead of a coefficient on
    every cell: on the shipped 15x15 boards HiGHS proves the cut model
    infeasible 1.5x faster in total (docs/performance.md).

    None when the argument does not hold: a pool-rule tank (a layer tree, not
    a chain), a row and a column both unclued (the count of filled cells may
    change), or a side with no cell at all (every vessel full or every vessel
    empty) -- the caller then writes the plain no-good cut.
    """
    if not puzzle.all_chains:
        return None
    if None in puzzle.rows and None in puzzle.cols:
        return None
    rises: set[Cell] = set()
    falls: set[Cell] = set()
    for vessel in puzzle.vessels:
        level = sum(1 for layer in vessel.layers if grid[layer[0][0]][layer[0][1]] == "#")
        if level < vessel.depth:
            rises.add(vessel.layers[level][0])
        if level > 0:
            falls.add(vessel.layers[level - 1][0])
    if not rises or not falls:
        return None
    return frozenset(rises), frozenset(falls)
