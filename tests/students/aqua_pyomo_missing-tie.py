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
        for low, high in zip(tank.layers, tank.layers[1:]):
            for a in high:  # water never floats ... but a row need not be level
                for b in low:
                    if a[1] == b[1]:
                        m.c.add(m.x[a] <= m.x[b])
    m.o = pyo.Objective(expr=0)
    return m
