import pulp


def build(puzzle):
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
        for layer in tank.layers:
            for a, b in zip(layer, layer[1:]):
                prob += x[a] - x[b] == 0  # PuLP 4: x[a] == x[b] alone is a plain bool
        for low, high in zip(tank.layers, tank.layers[1:]):
            prob += x[low[0]] <= x[high[0]]  # water rises from the top
    return prob
