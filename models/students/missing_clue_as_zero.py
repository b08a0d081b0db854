"""Classic mistake: a missing clue (None) read as 0, so its line must stay empty."""

import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i, clue in enumerate(puzzle.rows):
        prob += pulp.lpSum(x[i, j] for j in range(W)) == (clue or 0), f"row_{i}"
    for j, clue in enumerate(puzzle.cols):
        prob += pulp.lpSum(x[i, j] for i in range(H)) == (clue or 0), f"col_{j}"
    for t, therm in enumerate(puzzle.vessels):
        for k in range(1, len(therm.cells)):
            prob += x[therm.cells[k]] <= x[therm.cells[k - 1]], f"prec_{t}_{k}"
    return prob
