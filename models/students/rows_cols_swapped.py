"""Classic mistake: the row clue summed down a column (and vice versa)."""

import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i, clue in enumerate(puzzle.rows):
        if clue is not None and i < W:
            prob += pulp.lpSum(x[r, i] for r in range(H)) == clue, f"row_{i}"  # sums a column
    for j, clue in enumerate(puzzle.cols):
        if clue is not None and j < H:
            prob += pulp.lpSum(x[j, c] for c in range(W)) == clue, f"col_{j}"  # sums a row
    for t, therm in enumerate(puzzle.vessels):
        cells = therm.cells
        for k in range(1, len(cells)):
            prob += x[cells[k]] <= x[cells[k - 1]], f"prec_{t}_{k}"
    return prob
