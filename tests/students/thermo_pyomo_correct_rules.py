import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.R = pyo.Set(initialize=range(puzzle.height))
    m.C = pyo.Set(initialize=range(puzzle.width))
    m.x = pyo.Var(m.R, m.C, within=pyo.Binary)
    pairs = [(a, b) for t in puzzle.vessels for a, b in zip(t.cells, t.cells[1:])]
    m.P = pyo.Set(initialize=range(len(pairs)))
    clued_r = [r for r in m.R if puzzle.rows[r] is not None]
    clued_c = [c for c in m.C if puzzle.cols[c] is not None]
    m.row = pyo.Constraint(clued_r, rule=lambda m, r: sum(m.x[r, c] for c in m.C) == puzzle.rows[r])
    m.col = pyo.Constraint(clued_c, rule=lambda m, c: sum(m.x[r, c] for r in m.R) == puzzle.cols[c])
    m.order = pyo.Constraint(m.P, rule=lambda m, k: m.x[pairs[k][1]] <= m.x[pairs[k][0]])
    m.o = pyo.Objective(expr=sum(m.x[r, c] for r in m.R for c in m.C), sense=pyo.minimize)
    return m
