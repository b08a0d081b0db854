import pulp


def build(puzzle):
    prob = pulp.LpProblem("t", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(puzzle.height) for j in range(puzzle.width)}
    for i, k in enumerate(puzzle.rows):
        if k:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == k
    for j, k in enumerate(puzzle.cols):
        if k:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == k
    for v in puzzle.vessels:
        for lo, hi in zip(v.cells, v.cells[1:]):
            prob += x[hi] <= x[lo]
    return prob
