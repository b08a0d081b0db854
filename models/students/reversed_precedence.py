"""Classic mistake: the precedence written the wrong way round.

``x_pred <= x_succ`` fills each thermometer from its tip instead of its bulb.
"""

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
    for t, therm in enumerate(puzzle.vessels):
        cells = therm.cells
        for k in range(1, len(cells)):
            prob += x[cells[k - 1]] <= x[cells[k]], f"prec_{t}_{k}"  # wrong way round
    return prob
