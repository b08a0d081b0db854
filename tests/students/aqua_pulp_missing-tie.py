import pulp


def build(puzzle):
    prob = pulp.LpProblem("aquarium", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(puzzle.height) for j in range(puzzle.width)}
    prob += pulp.lpSum([])
    for i, k in enumerate(puzzle.rows):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == k
    for j, k in enumerate(puzzle.cols):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == k
    for tank in puzzle.vessels:
        # water needs the row below: each cell is tied to one representative cell of the
        # row below -- but the row itself is never tied
        for lower, upper in zip(tank.layers, tank.layers[1:]):
            for cell in upper:
                prob += x[cell] <= x[lower[0]]
    return prob
