"""Classic mistake (Aquarium): gravity per column, but a tank row need not be level."""

import pulp

PUZZLE = "aquarium"  # `thermomilp grade` grades this file on Aquarium boards


def build(puzzle):
    prob = pulp.LpProblem("aquarium", pulp.LpMinimize)
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
    for tank in puzzle.vessels:
        cells = set(tank.cells)
        for (i, j) in cells:
            if (i + 1, j) in cells:  # water needs the cell below it ...
                prob += x[i, j] <= x[i + 1, j], f"fall_{i}_{j}"
        # (forgot: ... and every cell of a tank row at the same level)
    return prob
