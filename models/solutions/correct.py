"""A correct student model (PuLP): the cell formulation of docs/formulation.md.

The grading contract: ``build(puzzle)`` returns a model whose cell variables
are named ``x_i_j`` (row i, column j, 0-based), 1 = filled.
"""

import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])  # no objective: any feasible grid will do
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:  # a missing clue constrains nothing
            prob += pulp.lpSum(x[i, j] for j in range(W)) == clue, f"row_{i}"
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == clue, f"col_{j}"
    for t, therm in enumerate(puzzle.vessels):
        cells = therm.cells  # bulb first
        for k in range(1, len(cells)):
            prob += x[cells[k]] <= x[cells[k - 1]], f"prec_{t}_{k}"
    return prob
