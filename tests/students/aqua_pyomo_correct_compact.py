import pyomo.environ as pyo


def build(puzzle):
    # one binary per tank row (layer); a cell is its layer's variable (an Expression)
    m = pyo.ConcreteModel()
    layers = [(t, k) for t, tank in enumerate(puzzle.vessels) for k in range(len(tank.layers))]
    m.y = pyo.Var(layers, domain=pyo.Binary)
    owner = {cell: (t, k) for t, tank in enumerate(puzzle.vessels)
             for k, layer in enumerate(tank.layers) for cell in layer}
    cells = [(i, j) for i in range(puzzle.height) for j in range(puzzle.width)]
    m.x = pyo.Expression(cells, rule=lambda m, i, j: m.y[owner[i, j]])
    m.c = pyo.ConstraintList()
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            m.c.add(sum(m.x[i, j] for j in range(puzzle.width)) == clue)
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            m.c.add(sum(m.x[i, j] for i in range(puzzle.height)) == clue)
    for t, tank in enumerate(puzzle.vessels):
        for k in range(1, len(tank.layers)):
            m.c.add(m.y[t, k] <= m.y[t, k - 1])  # a row is wet only if the one below is
    m.o = pyo.Objective(expr=0)
    return m
