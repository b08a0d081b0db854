import pulp


def build(puzzle):
    prob = pulp.LpProblem("t", pulp.LpMinimize)
    n = puzzle.height
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(n) for j in range(puzzle.width)}
    for a in range(n):
        if puzzle.rows[a] is not None:
            prob += pulp.lpSum(x[b, a] for b in range(n)) == puzzle.rows[a]
        if puzzle.cols[a] is not None:
            prob += pulp.lpSum(x[a, b] for b in range(n)) == puzzle.cols[a]
    for v in puzzle.vessels:
        for lo, hi in zip(v.cells, v.cells[1:]):
            prob += x[hi] <= x[lo]
    return prob
