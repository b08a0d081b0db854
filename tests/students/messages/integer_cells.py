"""Cells declared integer without bounds, and clues that let them exceed 1."""
import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMaximize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", lowBound=0, cat=pulp.LpInteger)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for j in range(W)) == clue
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == clue
    for therm in puzzle.vessels:
        for pred, succ in zip(therm.cells, therm.cells[1:]):
            prob += x[succ] <= x[pred]
    return prob
