"""Thermometers as a Pyomo ``AbstractModel``: models/thermometers.mod, line for line.

The same sets, parameters and constraints as the GMPL file, so the same
``.dat`` (from ``thermomilp export PUZZLE --to dat``) feeds both::

    x[i,j] in {0,1}                                        (0)
    sum_j x[i,j] = R[i]        for every clued row i        (1)
    sum_i x[i,j] = C[j]        for every clued column j     (2)
    x[succ] <= x[pred]         along every thermometer      (3)

Run it as a script::

    python models/thermometers_abstract.py board.dat

It prints the filled grid, one row of ``#`` / ``.`` per line, or
``infeasible``.
"""

from __future__ import annotations

import sys

import pyomo.environ as pyo

model = pyo.AbstractModel(name="thermometers")

# Sets and parameters
model.H = pyo.Param(within=pyo.PositiveIntegers, doc="rows")
model.W = pyo.Param(within=pyo.PositiveIntegers, doc="columns")
model.I = pyo.Set(initialize=lambda m: range(pyo.value(m.H)), ordered=True, doc="0..H-1")
model.J = pyo.Set(initialize=lambda m: range(pyo.value(m.W)), ordered=True, doc="0..W-1")
model.RowsClued = pyo.Set(within=model.I, doc="rows with a clue")
model.ColsClued = pyo.Set(within=model.J, doc="columns with a clue")
model.R = pyo.Param(model.RowsClued, within=pyo.NonNegativeIntegers, doc="row clues")
model.C = pyo.Param(model.ColsClued, within=pyo.NonNegativeIntegers, doc="column clues")
model.T = pyo.Set(doc="thermometers")
model.L = pyo.Param(model.T, within=pyo.PositiveIntegers, doc="length of each thermometer")
model.TK = pyo.Set(dimen=2, initialize=lambda m: [(t, k) for t in m.T
                                                 for k in range(1, m.L[t] + 1)],
                   doc="(thermometer, position) pairs; position 1 is the bulb")
model.tr = pyo.Param(model.TK, within=pyo.NonNegativeIntegers, doc="row of each position")
model.tc = pyo.Param(model.TK, within=pyo.NonNegativeIntegers, doc="column of each position")
model.Steps = pyo.Set(dimen=2, initialize=lambda m: [(t, k) for (t, k) in m.TK if k >= 2],
                      doc="positions that have a predecessor")

# Variables (0)
model.x = pyo.Var(model.I, model.J, domain=pyo.Binary, doc="1 = mercury")

# Objective: none; a constant keeps every solver interface happy
model.obj = pyo.Objective(expr=0)


# Equations
def _row(m, i):
    return sum(m.x[i, j] for j in m.J) == m.R[i]


def _col(m, j):
    return sum(m.x[i, j] for i in m.I) == m.C[j]


def _prec(m, t, k):
    return m.x[m.tr[t, k], m.tc[t, k]] <= m.x[m.tr[t, k - 1], m.tc[t, k - 1]]


model.row = pyo.Constraint(model.RowsClued, rule=_row, doc="(1) row clues")
model.col = pyo.Constraint(model.ColsClued, rule=_col, doc="(2) column clues")
model.prec = pyo.Constraint(model.Steps, rule=_prec, doc="(3) fill from the bulb")


def solve_dat(path: str) -> list[str] | None:
    """Solve the instance in ``path`` with HiGHS; the grid, or None when infeasible."""
    from pyomo.contrib.solver.common.results import TerminationCondition as TC
    from pyomo.contrib.solver.solvers.highs import Highs

    instance = model.create_instance(path)
    engine = Highs()
    engine.config.load_solutions = False
    engine.config.raise_exception_on_nonoptimal_result = False
    results = engine.solve(instance)
    if results.termination_condition in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
        return None
    if results.termination_condition != TC.convergenceCriteriaSatisfied:
        raise RuntimeError(f"HiGHS ended with {results.termination_condition.name}")
    results.solution_loader.load_vars()
    return ["".join("#" if instance.x[i, j].value > 0.5 else "." for j in instance.J)
            for i in instance.I]


if __name__ == "__main__":
    grid = solve_dat(sys.argv[1])
    print("infeasible" if grid is None else "\n".join(grid))
