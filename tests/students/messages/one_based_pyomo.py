"""A correct Pyomo model whose x is indexed from 1."""
import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    H, W = puzzle.height, puzzle.width
    m.x = pyo.Var(range(1, H + 1), range(1, W + 1), domain=pyo.Binary)
    m.c = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.c.add(sum(m.x[i + 1, j + 1] for j in range(W)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.c.add(sum(m.x[i + 1, j + 1] for i in range(H)) == clue)
    for therm in puzzle.vessels:
        for (a, b), (c, d) in zip(therm.cells, therm.cells[1:]):
            m.c.add(m.x[c + 1, d + 1] <= m.x[a + 1, b + 1])
    m.o = pyo.Objective(expr=0)
    return m
