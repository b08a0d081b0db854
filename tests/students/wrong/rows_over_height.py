"""Each row summed over range(height) instead of the width (right on square boards)."""
import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i in range(H):
        if puzzle.rows[i] is not None:
            prob += pulp.lpSum(x[i, j] for j in range(H) if (i, j) in x) == puzzle.rows[i]
    for j in range(W):
        if puzzle.cols[j] is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == puzzle.cols[j]
    for therm in puzzle.vessels:
        for pred, succ in zip(therm.cells, therm.cells[1:]):
            prob += x[succ] <= x[pred]
    return prob
