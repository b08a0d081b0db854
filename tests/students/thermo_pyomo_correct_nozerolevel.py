import pyomo.environ as pyo


def build(puzzle):
    # z[t, k] = 1: thermometer t filled exactly to level k >= 1; no z for level 0 (at most one)
    m = pyo.ConcreteModel()
    idx = [(t, k) for t, th in enumerate(puzzle.vessels) for k in range(1, len(th.cells) + 1)]
    m.z = pyo.Var(idx, domain=pyo.Binary)
    rank = {c: (t, r) for t, th in enumerate(puzzle.vessels) for r, c in enumerate(th.cells, 1)}
    cells = [(i, j) for i in range(puzzle.height) for j in range(puzzle.width)]

    def cell(m, i, j):
        t, r = rank[i, j]
        return sum(m.z[t, k] for k in range(r, len(puzzle.vessels[t].cells) + 1))

    m.x = pyo.Expression(cells, rule=cell)
    m.c = pyo.ConstraintList()
    for t, th in enumerate(puzzle.vessels):
        m.c.add(sum(m.z[t, k] for k in range(1, len(th.cells) + 1)) <= 1)
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.c.add(sum(m.x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.c.add(sum(m.x[i, j] for i in range(puzzle.height)) == clue)
    m.o = pyo.Objective(expr=0)
    return m
