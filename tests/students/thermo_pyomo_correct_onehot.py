"""One-hot levels: y[t, L] = 1 when thermometer t holds L cells; x is a Var tied to y."""
import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    T = list(range(len(puzzle.vessels)))
    TL = [(t, L) for t in T for L in range(len(puzzle.vessels[t].cells) + 1)]
    m.y = pyo.Var(TL, domain=pyo.Binary)
    m.x = pyo.Var(range(puzzle.height), range(puzzle.width), bounds=(0, 1))  # continuous, tied
    m.cons = pyo.ConstraintList()
    for t in T:
        cells = puzzle.vessels[t].cells
        m.cons.add(sum(m.y[t, L] for L in range(len(cells) + 1)) == 1)
        for p, cell in enumerate(cells):
            m.cons.add(m.x[cell] == sum(m.y[t, L] for L in range(p + 1, len(cells) + 1)))
    for r, need in enumerate(puzzle.rows):
        if need is not None:
            m.cons.add(sum(m.x[r, c] for c in range(puzzle.width)) == need)
    for c, need in enumerate(puzzle.cols):
        if need is not None:
            m.cons.add(sum(m.x[r, c] for r in range(puzzle.height)) == need)
    m.obj = pyo.Objective(expr=0)
    return m
