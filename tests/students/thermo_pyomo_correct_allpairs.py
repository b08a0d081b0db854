import pyomo.environ as pyo


def build(puzzle):
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, puzzle.height - 1)
    m.J = pyo.RangeSet(0, puzzle.width - 1)
    m.x = pyo.Var(m.I, m.J, domain=pyo.Binary)
    rows = [i for i in m.I if puzzle.rows[i] is not None]
    cols = [j for j in m.J if puzzle.cols[j] is not None]
    m.R = pyo.Set(initialize=rows)
    m.C = pyo.Set(initialize=cols)
    m.row = pyo.Constraint(m.R, rule=lambda m, i: sum(m.x[i, j] for j in m.J) == puzzle.rows[i])
    m.col = pyo.Constraint(m.C, rule=lambda m, j: sum(m.x[i, j] for i in m.I) == puzzle.cols[j])
    pairs = [(a, b) for v in puzzle.vessels for k, a in enumerate(v.cells)
             for b in v.cells[k + 1:]]  # every earlier cell, not only the previous one
    m.P = pyo.Set(initialize=range(len(pairs)))
    m.prec = pyo.Constraint(m.P, rule=lambda m, p: m.x[pairs[p][1]] <= m.x[pairs[p][0]])
    m.obj = pyo.Objective(expr=0)
    return m
