"""A correct model whose cells are named from 1 (x_1_1 is the top-left cell)."""
import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i + 1}_{j + 1}", cat=pulp.LpBinary)
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
