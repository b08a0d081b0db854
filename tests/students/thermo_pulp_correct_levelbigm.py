import pulp


def build(puzzle):
    # an integer level per thermometer, linked to its cells by a (valid) big-M
    prob = pulp.LpProblem("levels", pulp.LpMaximize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum(x.values())  # maximise the mercury: any objective is allowed
    for i in range(H):
        if puzzle.rows[i] is not None:
            prob += pulp.lpSum(x[i, j] for j in range(W)) == puzzle.rows[i]
    for j in range(W):
        if puzzle.cols[j] is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == puzzle.cols[j]
    for t, therm in enumerate(puzzle.vessels):
        n = len(therm.cells)
        level = prob.add_variable(f"level_{t}", lowBound=0, upBound=n, cat=pulp.LpInteger)
        for k, cell in enumerate(therm.cells, 1):
            prob += k * x[cell] <= level  # filled => level >= k
            prob += level - k + 1 <= n * x[cell]  # level >= k => filled
    return prob
