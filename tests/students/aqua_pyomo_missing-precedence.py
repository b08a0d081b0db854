import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(puzzle.height), range(puzzle.width), domain=pyo.Binary)
    m.c = pyo.ConstraintList()
    for i, k in enumerate(puzzle.rows):
        if k is not None:
            m.c.add(sum(m.x[i, j] for j in range(puzzle.width)) == k)
    for j, k in enumerate(puzzle.cols):
        if k is not None:
            m.c.add(sum(m.x[i, j] for i in range(puzzle.height)) == k)
    for tank in puzzle.vessels:
        for layer in tank.layers:
            for a, b in zip(layer, layer[1:]):
                m.c.add(m.x[a] == m.x[b])
    m.o = pyo.Objective(expr=0)
    return m
