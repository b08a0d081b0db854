import pulp


def build(puzzle):
    prob = pulp.LpProblem("t", pulp.LpMinimize)
    x = {}
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            x[i, j] = prob.add_variable(f"x_{i}_{j}", lowBound=0, upBound=1)  # no cat
    prob += 0
    for i, k in enumerate(puzzle.rows):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == k
    for j, k in enumerate(puzzle.cols):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == k
    for v in puzzle.vessels:
        for lo, hi in zip(v.cells, v.cells[1:]):
            prob += x[hi] <= x[lo]
    return prob
