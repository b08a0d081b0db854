import pulp


def build(puzzle):
    # each tank filled like a thermometer: cell after cell, bottom row first
    prob = pulp.LpProblem("aq", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(puzzle.height) for j in range(puzzle.width)}
    for i, k in enumerate(puzzle.rows):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == k
    for j, k in enumerate(puzzle.cols):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == k
    for tank in puzzle.vessels:
        chain = [cell for layer in tank.layers for cell in layer]
        for before, after in zip(chain, chain[1:]):
            prob += x[after] <= x[before]
    return prob
