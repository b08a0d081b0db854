"""A correct student model in Pyomo: ``x[i, j]`` indexed by (row, column)."""

import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, puzzle.height - 1)
    m.J = pyo.RangeSet(0, puzzle.width - 1)
    m.x = pyo.Var(m.I, m.J, domain=pyo.Binary)
    m.obj = pyo.Objective(expr=0)
    m.clues = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for j in m.J) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.clues.add(sum(m.x[i, j] for i in m.I) == clue)
    m.prec = pyo.ConstraintList()
    for therm in puzzle.vessels:
        for pred, succ in zip(therm.cells, therm.cells[1:]):
            m.prec.add(m.x[succ] <= m.x[pred])
    return m
