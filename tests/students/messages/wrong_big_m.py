"""A level per thermometer linked to its cells with a big-M that is too small (M = 1)."""
import pulp


def build(puzzle):
    prob = pulp.LpProblem("thermometers", pulp.LpMinimize)
    H, W = puzzle.height, puzzle.width
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(H) for j in range(W)}
    prob += pulp.lpSum([])
    for i, clue in enumerate(puzzle.rows):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for j in range(W)) == clue, f"row_{i}"
    for j, clue in enumerate(puzzle.cols):
        if clue is not None:
            prob += pulp.lpSum(x[i, j] for i in range(H)) == clue, f"col_{j}"
    M = 1
    for t, therm in enumerate(puzzle.vessels):
        level = prob.add_variable(f"level_{t}", lowBound=0, upBound=len(therm.cells),
                                  cat=pulp.LpInteger)
        for k, cell in enumerate(therm.cells, 1):
            prob += k * x[cell] <= level, f"low_{t}_{k}"
            prob += level - k + 1 <= M * x[cell], f"bigM_{t}_{k}"
    return prob
