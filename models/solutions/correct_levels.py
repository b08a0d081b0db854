"""A correct student model with level variables (Task 4), in Pyomo.

One binary z[t, k] per thermometer t and level k = 0..len(t); the cells are
an ``Expression`` x[i, j] = sum of the levels that reach the cell. No
precedence constraint is needed: every choice of levels is a legal filling.
"""

import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    therms = puzzle.vessels
    m.TK = pyo.Set(dimen=2, initialize=[(t, k) for t, therm in enumerate(therms)
                                        for k in range(len(therm.cells) + 1)])
    m.z = pyo.Var(m.TK, domain=pyo.Binary)
    m.obj = pyo.Objective(expr=0)
    m.one_level = pyo.Constraint(range(len(therms)), rule=lambda m, t: sum(
        m.z[t, k] for k in range(len(therms[t].cells) + 1)) == 1)

    position = {cell: (t, p) for t, therm in enumerate(therms)
                for p, cell in enumerate(therm.cells, start=1)}

    def cell(m, i, j):
        t, p = position[i, j]  # cell (i, j) is the p-th cell of thermometer t
        return sum(m.z[t, k] for k in range(p, len(therms[t].cells) + 1))

    m.x = pyo.Expression(range(puzzle.height), range(puzzle.width), rule=cell)
    m.clues = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for i in range(puzzle.height)) == clue)
    return m
