import pulp


def build(puzzle):
    lp = pulp.LpProblem("integers", pulp.LpMaximize)
    x = {(r, c): lp.add_variable(f"x_{r}_{c}", lowBound=0, cat=pulp.LpInteger)  # no upper bound
         for r in range(puzzle.height) for c in range(puzzle.width)}
    lp += pulp.lpSum(x[r, 0] for r in range(puzzle.height))
    for r, k in enumerate(puzzle.rows):
        if k is not None:
            lp += pulp.lpSum(x[r, c] for c in range(puzzle.width)) == k
    for c, k in enumerate(puzzle.cols):
        if k is not None:
            lp += pulp.lpSum(x[r, c] for r in range(puzzle.height)) == k
    for therm in puzzle.vessels:
        for a, b in zip(therm.cells, therm.cells[1:]):
            lp += x[b] <= x[a]
    return lp
