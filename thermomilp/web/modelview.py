"""What the page needs to teach the model: its rows per cell, and the LP relaxation.

* `model_rows` lists every row (constraint) of the cell formulation
  (docs/formulation.md) under the name the LP file gives it (``row_3``,
  ``col_0``, ``prec_2_1_2_0``, ``tie_4_1_4_0``), with its terms, sense and
  right-hand side: the page highlights the rows of a clicked cell in the LP
  text and typesets them (MathML, rendered by the browser: nothing loaded
  from the network).
* `relaxation` is the LP relaxation (``0 <= x <= 1``) at the vertex
  HiGHS returns, per cell, from the solve layer (`thermomilp.solving.engine.lp_vertex`);
  the page shades fractional cells.
"""

from __future__ import annotations

from typing import Any

from thermomilp.core.puzzle import Puzzle
from thermomilp.model.formulation import cell_name, formulate


def _row(name: str, kind: str, terms: list[tuple[tuple[int, int], int]], sense: str,
         rhs: int) -> dict[str, Any]:
    return {"name": name, "kind": kind, "sense": sense, "rhs": rhs,
            "terms": [{"cell": list(cell), "coef": coef} for cell, coef in terms]}


def model_rows(puzzle: Puzzle) -> list[dict[str, Any]]:
    """Every row of the cell formulation, named as in the LP file."""
    form = formulate(puzzle)
    rows = [_row(f"row_{i}", "row", [((i, j), 1) for j in range(form.width)], "=", clue)
            for i, clue in sorted(form.row_clues.items())]
    rows += [_row(f"col_{j}", "col", [((i, j), 1) for i in range(form.height)], "=", clue)
             for j, clue in sorted(form.col_clues.items())]
    rows += [_row(f"prec_{cell_name(s)}_{cell_name(p)}", "prec", [(s, 1), (p, -1)], "<=", 0)
             for s, p in form.arcs]
    rows += [_row(f"tie_{cell_name(a)}_{cell_name(b)}", "tie", [(a, 1), (b, -1)], "=", 0)
             for a, b in form.ties]
    return rows


def relaxation(puzzle: Puzzle) -> dict[str, Any]:
    """The LP relaxation's values per cell (a vertex), and which cells are fractional."""
    from thermomilp.solving.engine import lp_vertex

    values = lp_vertex(puzzle)
    if values is None:
        return {"feasible": False, "values": None, "fractional": [],
                "message": "the LP relaxation is infeasible: no solution, not even a "
                           "fractional one"}
    fractional = [[r, c] for r, row in enumerate(values) for c, v in enumerate(row)
                  if 0.0 < v < 1.0]
    share = len(fractional) / (puzzle.height * puzzle.width)
    return {"feasible": True, "values": [list(row) for row in values],
            "fractional": fractional,
            "message": (f"LP relaxation: {len(fractional)} fractional cell"
                        f"{'' if len(fractional) == 1 else 's'} ({100 * share:.0f}%) at the "
                        "vertex HiGHS returns" if fractional else
                        "LP relaxation: the vertex HiGHS returns is already integral -- it "
                        "is a solution")}
