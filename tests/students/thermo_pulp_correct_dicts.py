import pulp


def build(puzzle):
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    m = pulp.LpProblem("t", pulp.LpMaximize)
    if hasattr(pulp.LpVariable, "dicts"):
        x = pulp.LpVariable.dicts("x", cells, cat="Binary")
    else:
        x = m.add_variable_dicts("x", cells, cat="Binary")
    m += pulp.lpSum(x.values())  # maximise mercury: any solution is optimal anyway
    for r, need in enumerate(puzzle.rows):
        if need is not None:
            m += pulp.lpSum(x[r, c] for c in range(puzzle.width)) == need
    for c, need in enumerate(puzzle.cols):
        if need is not None:
            m += pulp.lpSum(x[r, c] for r in range(puzzle.height)) == need
    for t in puzzle.vessels:
        chain = t.cells
        for a, b in zip(chain, chain[1:]):
            m += x[b] - x[a] <= 0
    return m
