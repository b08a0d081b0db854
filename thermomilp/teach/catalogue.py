"""The mistakes the grader names: stable ids, the rule each breaks, how to fix it.

A report says which rule the model breaks (`MISTAKES`), not the line of code that
fixes it; a course turns the fixes on with ``thermomilp grade --hints`` (`HINTS`).

docs/course/grader.md lists the same ids with the evidence that proves each
(tests/test_teach_docs.py keeps the two in step).
"""

from __future__ import annotations

MISTAKES: dict[str, str] = {  # what rule the model breaks (shown in every report)
    "continuous-variables":
        "your cell variables are continuous (an LP, not a MILP): an optimum may fill a cell "
        "by a fraction, and a cell is either filled or empty.",
    "cells-not-binary":
        "a cell variable can take a value above 1 (or below 0); a cell is either filled (1) "
        "or empty (0).",
    "missing-precedence":
        "the fill order is missing: mercury (water) may sit above an empty cell of the same "
        "vessel.",
    "reversed-precedence":
        "the fill order runs the wrong way: your model fills a vessel from its tip (top), "
        "where it must fill from its bulb (bottom).",
    "precedence-skips-cells":
        "the fill order has gaps: a cell in the middle of a vessel may stay empty while a "
        "cell after it is filled.",
    "rows-cols-swapped":
        "rows and columns are swapped: a row's clue counts the filled cells of that row, a "
        "column's clue those of that column.",
    "zero-clue-dropped":
        "a clue of 0 constrains nothing in your model: a line whose clue is 0 must stay "
        "empty.",
    "missing-clue-as-zero":
        "a missing clue is treated as 0: a line without a clue is free.",
    "clue-as-upper-bound":
        "a clue is treated as a maximum: a line must hold exactly its clue.",
    "missing-tie":
        "the cells of one tank row are not tied together: water lies level, so a tank row "
        "is all wet or all dry.",
    "tank-as-chain":
        "a tank fills like a thermometer, cell after cell: a tank row can then be partly "
        "wet, where water lies level.",
}

HINTS: dict[str, str] = {  # how to fix it (shown with --hints only)
    "continuous-variables": "give the cell variables cat=pulp.LpBinary / domain=pyo.Binary.",
    "cells-not-binary": "give the cell variable cat=pulp.LpBinary / domain=pyo.Binary (or "
                        "bounds 0 and 1).",
    "missing-precedence": "add x_succ <= x_pred for every two consecutive cells (layers) of "
                          "a vessel.",
    "reversed-precedence": "it must read x_succ <= x_pred: a cell fills only if the one "
                           "before it (towards the bulb or the bottom) does.",
    "precedence-skips-cells": "link each cell to the one just before it, not to the bulb or "
                              "bottom only.",
    "rows-cols-swapped": "row i is sum over j of x[i, j] = R_i (puzzle.rows[i]); column j is "
                         "sum over i of x[i, j] = C_j (puzzle.cols[j]).",
    "zero-clue-dropped": "`if clue:` is false for 0: test `if clue is not None:`.",
    "missing-clue-as-zero": "add no constraint for a clue that is None.",
    "clue-as-upper-bound": "write == for a clue, not <=.",
    "missing-tie": "tie every cell of a tank row to the others (x_a - x_b == 0 in PuLP).",
    "tank-as-chain": "tie the cells of each tank row (x_a - x_b == 0) and order the rows, not "
                     "the cells.",
}
