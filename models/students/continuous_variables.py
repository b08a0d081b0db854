"""Classic mistake: cell variables in [0, 1] but not binary -- an LP, not a MILP."""

import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(puzzle.height), range(puzzle.width), bounds=(0, 1))  # no domain=Binary
    m.obj = pyo.Objective(expr=0)
    m.rules = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.rules.add(sum(m.x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.rules.add(sum(m.x[i, j] for i in range(puzzle.height)) == clue)
    for therm in puzzle.vessels:
        for pred, succ in zip(therm.cells, therm.cells[1:]):
            m.rules.add(m.x[succ] <= m.x[pred])
    return m
