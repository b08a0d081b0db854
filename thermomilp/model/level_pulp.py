"""The level formulation in PuLP: choose one level per vessel.

Sets and parameters: V vessels; K_v = {0, 1, ..., depth_v} the levels of
vessel v; rank(c) the layer of cell c in its vessel v(c) (1-based); R_i, C_j
the clues of clued rows and columns, as in the cell formulation.

Model (docs/formulation.md, "The level formulation"):

    z_vk in {0, 1}                              v in V, k in K_v        (L0)
    sum_k z_vk = 1                              every vessel v          (L1)
    x_c  = sum_{k >= rank(c)} z_{v(c),k}        (an expression)         (L2)
    sum_j x_ij = R_i                            every clued row i       (L3)
    sum_i x_ij = C_j                            every clued column j    (L4)

``z_vk = 1`` says vessel v stands at level k. A cell is filled iff its
vessel's level reaches the cell's rank, so "fill from the bulb" (3) and
"one tank row fills together" (4) hold by construction: no precedence
constraint is needed, the variables can only describe legal fillings. The
price is more variables (sum of (depth_v + 1) against H*W) and denser clue
rows. Same solutions as the cell model (tests/test_level_model.py).
"""

from __future__ import annotations

from typing import Any

import pulp

from thermomilp.core.puzzle import Puzzle, require_levels


def build_level_pulp(puzzle: Puzzle, name: str = "thermomilp_levels") -> tuple[Any, dict, dict]:
    """Return ``(problem, z, x)``: ``z[(v, k)]`` level indicators, ``x[cell]`` expressions."""
    require_levels(puzzle, "the level formulation")
    prob = pulp.LpProblem(name, pulp.LpMinimize)

    # Variables (L0): z_v_k = 1 iff vessel v stands at level k
    z = {(v, k): prob.add_variable(f"z_{v}_{k}", cat=pulp.LpBinary)
         for v, vessel in enumerate(puzzle.vessels) for k in range(vessel.depth + 1)}
    prob += pulp.lpSum([])  # a feasibility model

    # (L1) one level per vessel
    for v, vessel in enumerate(puzzle.vessels):
        prob += pulp.lpSum(z[v, k] for k in range(vessel.depth + 1)) == 1, f"level_{v}"
    # (L2) x_c: the sum of the level indicators that reach the cell's rank
    x = {cell: pulp.lpSum(z[v, k] for k in range(rank, puzzle.vessels[v].depth + 1))
         for cell, (v, rank) in puzzle.rank_of.items()}
    # (L3) row clues, (L4) column clues
    for i, R_i in enumerate(puzzle.rows):
        if R_i is not None:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == R_i, f"row_{i}"
    for j, C_j in enumerate(puzzle.cols):
        if C_j is not None:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == C_j, f"col_{j}"
    return prob, z, x


def levels_of(puzzle: Puzzle, z: dict) -> tuple[int, ...]:
    """The level of each vessel read from solved z values."""
    return tuple(max(range(vessel.depth + 1), key=lambda k: z[v, k].value() or 0.0)
                 for v, vessel in enumerate(puzzle.vessels))


def add_level_nogood(prob: Any, z: dict, levels: tuple[int, ...], name: str) -> None:
    """Cut off one assignment of levels: not every vessel may keep its level."""
    prob += pulp.lpSum(z[v, k] for v, k in enumerate(levels)) <= len(levels) - 1, name
