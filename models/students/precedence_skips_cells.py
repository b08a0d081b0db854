"""Classic mistake: every cell chained to the bulb -- a gap in the middle is allowed."""

import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for j in range(W)) == clue, f"row_{i}"
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == clue, f"col_{j}"
    for t, therm in enumerate(puzzle.vessels):
        bulb = therm.cells[0]
        for k, cell in enumerate(therm.cells[1:], start=1):
            prob += x[cell] <= x[bulb], f"prec_{t}_{k}"  # wrong: skips the cells between
    return prob
