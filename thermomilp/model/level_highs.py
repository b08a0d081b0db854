"""The level formulation straight into highspy (see level_pulp.py for the algebra).

    z_vk in {0, 1}                              v in V, k in K_v        (L0)
    sum_k z_vk = 1                              every vessel v          (L1)
    sum_j x_ij = R_i                            every clued row i       (L3)
    sum_i x_ij = C_j                            every clued column j    (L4)

with (L2) ``x_c = sum_{k >= rank(c)} z_{v(c),k}`` substituted: in row i the
coefficient of ``z_vk`` is the number of cells of vessel v in row i whose
rank is at most k. A cell fixed by the presolve (``form.fixed``) becomes
the row ``sum_{k >= rank(c)} z_{v(c),k} = value``. Column ``k`` of the
model is the k-th pair (vessel, level) of ``LevelFormulation.pairs``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import accumulate
from typing import Any

import numpy as np

from thermomilp.core.puzzle import Cell
from thermomilp.model.highs_model import csr, highs_of, name_all


def level_arrays(form) -> tuple[np.ndarray, ...]:
    """CSR arrays ``(lower, upper, starts, indices, values)`` of rows (L1), (L3), (L4) and
    the fixed cells."""
    puzzle = form.puzzle
    start = list(accumulate((vessel.depth + 1 for vessel in puzzle.vessels), initial=0))

    def cells_row(cells: Iterable[Cell]) -> list[tuple[int, float]]:
        """(L2) substituted: each cell adds 1 to every z of its vessel that reaches it."""
        row: dict[int, float] = {}
        for cell in cells:
            v, rank = puzzle.rank_of[cell]
            for level in range(rank, puzzle.vessels[v].depth + 1):
                row[start[v] + level] = row.get(start[v] + level, 0.0) + 1.0
        return sorted(row.items())

    rows = [[(start[v] + level, 1.0) for level in range(vessel.depth + 1)]  # (L1)
            for v, vessel in enumerate(puzzle.vessels)]
    rhs = [1.0] * len(rows)
    for axis, clues in ((0, puzzle.rows), (1, puzzle.cols)):  # (L3), (L4)
        for line, clue in enumerate(clues):
            if clue is not None:
                rows.append(cells_row(cell for cell in puzzle.rank_of if cell[axis] == line))
                rhs.append(float(clue))
    for cell, value in sorted(form.fixed.items()):
        rows.append(cells_row([cell]))
        rhs.append(float(value))
    return csr(rows, rhs, rhs)


def build_highs_level(form, *, names: bool = False, verbose: bool = False) -> Any:
    """A ``highspy.Highs`` holding the level model of ``form`` (a LevelFormulation);
    ``names``: its columns and rows named as PuLP's and Pyomo's (``z_3_1``,
    ``level_3``, ``row_2``, ``col_4``, ``fix_2_4``), for the LP and MPS exports."""
    h = highs_of(form.n_vars, {}, level_arrays(form), verbose)  # (L0), (L1), (L3), (L4)
    if names:
        puzzle = form.puzzle
        name_all(h, [f"z_{v}_{level}" for v, level in form.pairs],
                 [f"level_{v}" for v in range(len(puzzle.vessels))]
                 + [f"row_{i}" for i, clue in enumerate(puzzle.rows) if clue is not None]
                 + [f"col_{j}" for j, clue in enumerate(puzzle.cols) if clue is not None]
                 + [f"fix_{i}_{j}" for i, j in sorted(form.fixed)])
    return h
