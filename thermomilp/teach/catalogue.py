"""The mistakes the grader names: stable ids, what each means, how to fix it.

docs/course/grader.md lists the same ids with the evidence that proves each
(tests/test_teach_docs.py keeps the two in step).
"""

from __future__ import annotations

MISTAKES: dict[str, str] = {
    "continuous-variables":
        "your cell variables are continuous (an LP, not a MILP): give them cat=pulp.LpBinary / "
        "domain=pyo.Binary. An LP optimum may fill a cell by a fraction.",
    "cells-not-binary":
        "a cell variable takes a value above 1 (or below 0): an integer without bounds. Give it "
        "cat=pulp.LpBinary / domain=pyo.Binary (or bounds 0 and 1).",
    "missing-precedence":
        "the fill order is missing: mercury (water) may sit above an empty cell. Add "
        "x_succ <= x_pred for every two consecutive cells (layers) of a vessel.",
    "reversed-precedence":
        "the fill order is written the wrong way round (the vessel fills from its tip): it "
        "must read x_succ <= x_pred, a cell fills only if the one before it (towards the bulb "
        "or the bottom) does.",
    "precedence-skips-cells":
        "your fill-order constraints jump over cells (every cell tied to the bulb or bottom "
        "only): a gap in the middle of a vessel is allowed. Link each cell to the one just "
        "before it.",
    "rows-cols-swapped":
        "rows and columns are swapped: row i is sum over j of x[i, j] = R_i (puzzle.rows[i]); "
        "column j is sum over i of x[i, j] = C_j (puzzle.cols[j]).",
    "zero-clue-dropped":
        "a clue of 0 constrains nothing in your model (`if clue:` is false for 0): test "
        "`if clue is not None:` so that a 0 clue empties its line.",
    "missing-clue-as-zero":
        "a missing clue (None) is treated as 0, so its line must stay empty: a line without "
        "a clue is free -- add no constraint for it.",
    "clue-as-upper-bound":
        "a clue is written as an upper bound (<=): a line must hold exactly its clue (==).",
    "missing-tie":
        "the cells of one tank row are not tied: water lies level, so every cell of a tank "
        "row must equal the others (x_a - x_b == 0 in PuLP).",
    "tank-as-chain":
        "a tank is modelled as one chain of cells (each cell after the one before it, row by "
        "row), like a thermometer: a tank row can then be partly wet. Water lies level: tie the "
        "cells of each tank row (x_a - x_b == 0) and order the rows, not the cells.",
}

# Verdicts of a board that are not `right`, from the checks and from the sandbox.
VERDICTS: dict[str, str] = {
    "right": "the model's solution is a solution, it accepts every real solution and finds "
             "no forbidden second grid",
    "wrong": "the model's optimum is not a solution of the board",
    "infeasible": "the model has no solution but the board has one",
    "rejects-solution": "the model forbids a real solution",
    "accepts-forbidden": "the model accepts a grid the rules forbid",
    "fractional": "the model's optimum fills some cell by a fraction",
    "error": "the file breaks the contract, or HiGHS could not solve the model",
    "timeout": "importing the file or build(puzzle) took longer than the limit; the student's "
               "process was stopped",
    "crashed": "the student's code raised an exception (file and line given) or died by a signal",
    "exited": "the student's code ended its process (sys.exit, os._exit, or a silent death)",
    "output-limit": "the student's code printed more than the limit; its process was stopped",
}
