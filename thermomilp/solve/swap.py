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
grid is checked by :mod:`thermomilp.core.verify` before it is returned.
"""

from __future__ import annotations

import numpy as np

from thermomilp.core.puzzle import Grid, Puzzle
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
