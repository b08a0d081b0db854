"""The one rule that turns a generated board away as degenerate, for every generator.

A board whose planted solution is nearly empty or nearly full, or whose clues are
mostly trivial lines (clue 0 or the line's length), is unique but dull: it solves
itself. `degenerate` says why a planted grid makes such a board (the bounds:
`FILLED_SHARE`, `TRIVIAL_LINE_SHARE`, `MIN_SIDE`); the generators then plant again
(``docs/generate.md``, "Degenerate boards").
"""

from __future__ import annotations

from thermomilp.core.puzzle import Grid
from thermomilp.generate.random_board import clues_of

FILLED_SHARE = (0.2, 0.8)
"""Lowest and highest share of filled cells in the planted solution."""
TRIVIAL_LINE_SHARE = 0.25
"""Largest share of rows and columns whose clue is 0 or the line's length."""
MIN_SIDE = 6
"""Boards with a side below this are never turned away."""


def degenerate(grid: Grid) -> str | None:
    """Why the board planted as ``grid`` (rows of ``#``/``.``) is degenerate, or None."""
    height, width = len(grid), len(grid[0]) if grid else 0
    if min(height, width) < MIN_SIDE:
        return None
    rows, cols = clues_of(grid)
    filled = sum(rows) / (height * width)
    low, high = FILLED_SHARE
    if not low <= filled <= high:
        return f"{filled:.0%} of the cells filled (allowed {low:.0%}-{high:.0%})"
    trivial = sum(k in (0, width) for k in rows) + sum(k in (0, height) for k in cols)
    allowed = int(TRIVIAL_LINE_SHARE * (height + width))
    if trivial > allowed:
        return f"{trivial} of {height + width} lines empty or full (allowed {allowed})"
    return None
