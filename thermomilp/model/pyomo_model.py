"""The cell formulation in Pyomo, as a ``ConcreteModel``.

    x_ij in {0, 1}                                     (0)
    sum_j x_ij = R_i           for every clued row i   (1)
    sum_i x_ij = C_j           for every clued col j   (2)
    x_s <= x_p                 for every (s, p) in A   (3)
    x_a  = x_b                 for every (a, b) in E   (4)

Sets ``I``, ``J``, ``RowsClued``, ``ColsClued``, ``A``, ``E``; parameters
``R`` and ``C``; constraint blocks ``row``, ``col``, ``prec``, ``tie`` --
the same names as docs/formulation.md and models/thermometers_abstract.py.
``nogood`` is an empty ConstraintList the uniqueness loop fills.
"""

from __future__ import annotations

from typing import Any

from thermomilp.model.formulation import Formulation


def build_pyomo(form: Formulation) -> Any:
    import pyomo.environ as pyo

    m = pyo.ConcreteModel(name="thermomilp")

    # Sets
    m.I = pyo.RangeSet(0, form.height - 1, doc="rows")
    m.J = pyo.RangeSet(0, form.width - 1, doc="columns")
    m.RowsClued = pyo.Set(initialize=sorted(form.row_clues), doc="rows with a clue")
    m.ColsClued = pyo.Set(initialize=sorted(form.col_clues), doc="columns with a clue")
    m.A = pyo.Set(dimen=4, initialize=[s + p for s, p in form.arcs],
                  doc="precedence arcs (s_i, s_j, p_i, p_j): x_s <= x_p")
    m.E = pyo.Set(dimen=4, initialize=[a + b for a, b in form.ties],
                  doc="ties (a_i, a_j, b_i, b_j): x_a = x_b")

    # Parameters
    m.R = pyo.Param(m.RowsClued, initialize=form.row_clues, doc="row clues")
    m.C = pyo.Param(m.ColsClued, initialize=form.col_clues, doc="column clues")

    # Variables (0)
    m.x = pyo.Var(m.I, m.J, domain=pyo.Binary, doc="1 = filled")
    for cell, value in form.fixed.items():
        m.x[cell].fix(value)

    # Objective: none needed; a constant keeps every solver interface happy
    m.obj = pyo.Objective(expr=0)

    # Equations
    m.row = pyo.Constraint(m.RowsClued, rule=lambda m, i: sum(m.x[i, j] for j in m.J) == m.R[i],
                           doc="(1) row clues")
    m.col = pyo.Constraint(m.ColsClued, rule=lambda m, j: sum(m.x[i, j] for i in m.I) == m.C[j],
                           doc="(2) column clues")
    m.prec = pyo.Constraint(m.A, rule=lambda m, si, sj, pi, pj: m.x[si, sj] <= m.x[pi, pj],
                            doc="(3) precedence")
    m.tie = pyo.Constraint(m.E, rule=lambda m, ai, aj, bi, bj: m.x[ai, aj] == m.x[bi, bj],
                           doc="(4) tank rows fill together")
    m.nogood = pyo.ConstraintList(doc="no-good cuts of solutions already found")
    return m


def build_pyomo_compact(form) -> Any:
    """The compact model (docs: (0')-(3')) as a ``ConcreteModel`` with variables ``y``."""
    import pyomo.environ as pyo

    m = pyo.ConcreteModel(name="thermomilp_compact")

    # Sets
    m.L = pyo.RangeSet(0, form.n_vars - 1, doc="layers (a tank row, a thermometer cell)")
    m.RowsClued = pyo.Set(initialize=sorted(form.row_clues), doc="rows with a clue")
    m.ColsClued = pyo.Set(initialize=sorted(form.col_clues), doc="columns with a clue")
    m.P = pyo.Set(dimen=2, initialize=list(form.chains),
                  doc="chain pairs (u, l): layer u sits directly above layer l")

    # Parameters
    m.R = pyo.Param(m.RowsClued, initialize=form.row_clues, doc="row clues")
    m.C = pyo.Param(m.ColsClued, initialize=form.col_clues, doc="column clues")

    # Variables (0')
    m.y = pyo.Var(m.L, domain=pyo.Binary, doc="1 = the layer is filled")
    for layer, value in form.fixed.items():
        m.y[layer].fix(value)

    m.obj = pyo.Objective(expr=0)

    # Equations
    m.row = pyo.Constraint(m.RowsClued, rule=lambda m, i: sum(
        n * m.y[l] for l, n in form.row_terms[i]) == m.R[i], doc="(1') row clues")
    m.col = pyo.Constraint(m.ColsClued, rule=lambda m, j: sum(
        n * m.y[l] for l, n in form.col_terms[j]) == m.C[j], doc="(2') column clues")
    m.prec = pyo.Constraint(m.P, rule=lambda m, u, l: m.y[u] <= m.y[l],
                            doc="(3') a layer fills only above a filled layer")
    m.nogood = pyo.ConstraintList(doc="no-good cuts of solutions already found")
    return m
