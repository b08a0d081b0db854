import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(puzzle.height), range(puzzle.width), domain=pyo.Binary)
    m.c = pyo.ConstraintList()
    for i in range(puzzle.height):
        m.c.add(sum(m.x[i, j] for j in range(puzzle.width)) == (puzzle.rows[i] or 0))
    for j in range(puzzle.width):
        m.c.add(sum(m.x[i, j] for i in range(puzzle.height)) == (puzzle.cols[j] or 0))
    for v in puzzle.vessels:
        for lo, hi in zip(v.cells, v.cells[1:]):
            m.c.add(m.x[hi] <= m.x[lo])
    m.o = pyo.Objective(expr=0)
    return m
