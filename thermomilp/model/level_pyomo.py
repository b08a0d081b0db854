"""The level formulation in Pyomo, as a ``ConcreteModel``.

    z_vk in {0, 1}                              v in V, k in K_v        (L0)
    sum_k z_vk = 1                              every vessel v          (L1)
    x_c  = sum_{k >= rank(c)} z_{v(c),k}        (an Expression)         (L2)
    sum_j x_ij = R_i                            every clued row i       (L3)
    sum_i x_ij = C_j                            every clued column j    (L4)

Sets ``I``, ``J``, ``V``, ``VK`` (pairs (v, k)); parameters ``R``, ``C``;
variables ``z``; expression ``x[i, j]``; constraints ``level`` (L1), ``row``,
``col``; ``nogood`` is an empty ConstraintList. See level_pulp.py for why
no precedence constraint is needed.
"""

from __future__ import annotations

from typing import Any

from thermomilp.core.puzzle import Puzzle, require_levels


def build_level_pyomo(puzzle: Puzzle) -> Any:
    require_levels(puzzle, "the level formulation")
    import pyomo.environ as pyo

    m = pyo.ConcreteModel(name="thermomilp_levels")
    rank_of = puzzle.rank_of
    depth = [vessel.depth for vessel in puzzle.vessels]

    # Sets
    m.I = pyo.RangeSet(0, puzzle.height - 1, doc="rows")
    m.J = pyo.RangeSet(0, puzzle.width - 1, doc="columns")
    m.V = pyo.RangeSet(0, len(puzzle.vessels) - 1, doc="vessels")
    m.VK = pyo.Set(dimen=2, initialize=[(v, k) for v in range(len(depth))
                                        for k in range(depth[v] + 1)], doc="(vessel, level)")
    m.RowsClued = pyo.Set(initialize=[i for i, r in enumerate(puzzle.rows) if r is not None])
    m.ColsClued = pyo.Set(initialize=[j for j, c in enumerate(puzzle.cols) if c is not None])

    # Parameters
    m.R = pyo.Param(m.RowsClued, initialize={i: puzzle.rows[i] for i in m.RowsClued})
    m.C = pyo.Param(m.ColsClued, initialize={j: puzzle.cols[j] for j in m.ColsClued})

    # Variables (L0)
    m.z = pyo.Var(m.VK, domain=pyo.Binary, doc="1 = vessel v stands at level k")
    m.obj = pyo.Objective(expr=0)

    # (L1) one level per vessel
    m.level = pyo.Constraint(m.V, rule=lambda m, v: sum(m.z[v, k] for k in
                                                         range(depth[v] + 1)) == 1)

    # (L2) the cell value is the sum of the levels that reach its rank
    def cell_value(m, i, j):
        v, rank = rank_of[i, j]
        return sum(m.z[v, k] for k in range(rank, depth[v] + 1))

    m.x = pyo.Expression(m.I, m.J, rule=cell_value, doc="1 = filled (an expression of z)")

    # (L3), (L4) clues
    m.row = pyo.Constraint(m.RowsClued, rule=lambda m, i: sum(m.x[i, j] for j in m.J) == m.R[i])
    m.col = pyo.Constraint(m.ColsClued, rule=lambda m, j: sum(m.x[i, j] for i in m.I) == m.C[j])
    m.nogood = pyo.ConstraintList(doc="no-good cuts of level assignments already found")
    return m


def levels_of(puzzle: Puzzle, m: Any) -> tuple[int, ...]:
    return tuple(max(range(vessel.depth + 1), key=lambda k: m.z[v, k].value or 0.0)
                 for v, vessel in enumerate(puzzle.vessels))


def level_nogood_expr(m: Any, levels: tuple[int, ...]) -> Any:
    return sum(m.z[v, k] for v, k in enumerate(levels)) <= len(levels) - 1
