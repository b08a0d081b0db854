"""Classic mistake: only the clues, no thermometers at all.

Any grid with the right line counts passes -- mercury may float in mid-tube.
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
    # (forgot: the mercury fills each thermometer from its bulb)
    return prob
