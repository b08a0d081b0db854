"""Terminal pictures of boards and results, with box-drawing characters.

One glyph set for every picture (``show``, ``solve``, a second solution); an unsolved
board is drawn as the empty glass. Below the board a legend gives each vessel's label
(the name the hints use) with a cell to find it by, counted from 1 (`vessel_legend`);
under a Thermometers picture `GLYPH_LEGEND` says which glyph is which, since the
native text format's ``o`` marks a thermometer's *tip*, the drawing's ``○`` a bulb.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any, Sequence

from thermomilp.core.notation import cell_name, vessel_word
from thermomilp.core.puzzle import Puzzle
from thermomilp.core.untrusted import shown

BULB = {True: "●", False: "○"}      # mercury in the bulb / none
TUBE = {True: "■", False: "□"}      # mercury in a tube cell / none
WATER, AIR = "≈", " "
LEGEND_WIDTH = 78
GLYPH_LEGEND = "glyphs: ○ bulb  □ tube  ● ■ with mercury  (in a text file o marks the tip)"


def _clue(v: int | None) -> str:
    return "?" if v is None else str(v)


def render_board(puzzle: Puzzle, grid: Sequence[str] | None = None, *,
                 legend: bool = True) -> str:
    """The board (``grid``: ``#`` filled, anything else empty; None = unsolved)."""
    picture = (_render_thermometers(puzzle, grid) if puzzle.kind == "thermometers"
               else _render_aquarium(puzzle, grid))
    return picture + ("\n" + vessel_legend(puzzle) if legend else "")


def anchor_cell(puzzle: Puzzle, index: int) -> tuple[int, int]:
    """Where to find vessel ``index``: a thermometer's bulb, a tank's top-left cell."""
    vessel = puzzle.vessels[index]
    return vessel.cells[0] if puzzle.kind == "thermometers" else min(vessel.cells)


def vessel_legend(puzzle: Puzzle, width: int = LEGEND_WIDTH) -> str:
    """``thermometers (label at bulb): 1 (1,1)  2 (2,3) ...`` wrapped to ``width``
    (Thermometers: then the `GLYPH_LEGEND` line); cells count from 1."""
    where = "bulb" if puzzle.kind == "thermometers" else "top-left cell"
    items = [f"{shown(v.label)} {cell_name(cell)}" for v, cell in
             ((v, anchor_cell(puzzle, i)) for i, v in enumerate(puzzle.vessels))]
    lines = [f"{vessel_word(puzzle.kind)}s (label at {where}):"]
    for item in items:  # wrap between items, never inside one
        if len(lines[-1]) + 2 + len(item) > width:
            lines.append("")
        lines[-1] += "  " + item
    if puzzle.kind == "thermometers":
        lines.append(GLYPH_LEGEND)
    return "\n".join(lines)


def _render_thermometers(puzzle: Puzzle, grid: Sequence[str] | None) -> str:
    H, W = puzzle.shape
    bulbs = {v.cells[0] for v in puzzle.vessels}
    links = set()
    for vessel in puzzle.vessels:
        for a, b in pairwise(vessel.cells):
            links.add((min(a, b), max(a, b)))
    cw = max(len(_clue(v)) for v in puzzle.cols)
    rw = max(len(_clue(v)) for v in puzzle.rows)
    step = max(cw, 1) + 1  # cell glyph plus one connector column

    def glyph(r: int, c: int) -> str:
        state = grid is not None and grid[r][c] == "#"
        return BULB[state] if (r, c) in bulbs else TUBE[state]

    lines = [" " * (rw + 3) + "".join(_clue(v).ljust(step) for v in puzzle.cols).rstrip()]
    lines.append(" " * (rw + 1) + "┌" + "─" * (W * step + 1) + "┐")
    for r in range(H):
        text = ""
        for c in range(W):
            joined = ((r, c), (r, c + 1)) in links
            text += glyph(r, c) + ("━" if joined else " ") * (step - 1)
        lines.append(_clue(puzzle.rows[r]).rjust(rw) + " │ " + text[:-1].ljust(W * step - 1) + " │")
        if r < H - 1:
            below = "".join(("┃" if ((r, c), (r + 1, c)) in links else " ").ljust(step)
                            for c in range(W))
            lines.append(" " * (rw + 1) + "│ " + below[:-1].ljust(W * step - 1) + " │")
    lines.append(" " * (rw + 1) + "└" + "─" * (W * step + 1) + "┘")
    return "\n".join(lines)


# Junction glyph by the walls meeting at a grid corner: (up, down, left, right).
_JUNCTION = {
    (0, 0, 0, 0): " ", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def _render_aquarium(puzzle: Puzzle, grid: Sequence[str] | None) -> str:
    """Walls between tanks and around the board, with box-drawing junctions; cells of one
    tank are open to each other, so a tank reads as one vessel."""
    H, W = puzzle.shape
    region = puzzle.region_grid()
    cw = max(1, max(len(_clue(v)) for v in puzzle.cols))
    rw = max(len(_clue(v)) for v in puzzle.rows)
    width = cw + 2

    def h_wall(r: int, c: int) -> bool:
        """The wall above cell (r, c), r in 0..H."""
        return 0 <= c < W and (r in (0, H) or region[r - 1][c] != region[r][c])

    def v_wall(r: int, c: int) -> bool:
        """The wall left of cell (r, c), c in 0..W."""
        return 0 <= r < H and (c in (0, W) or region[r][c - 1] != region[r][c])

    def corner(r: int, c: int) -> str:
        """The junction above-left of cell (r, c)."""
        key = (int(v_wall(r - 1, c)), int(v_wall(r, c)), int(h_wall(r, c - 1)),
               int(h_wall(r, c)))
        return _JUNCTION[key]

    def cell(r: int, c: int) -> str:
        wet = grid is not None and grid[r][c] == "#"
        return (WATER if wet else AIR).center(width)

    lines = [" " * (rw + 2) + "".join(_clue(v).center(width + 1) for v in puzzle.cols).rstrip()]
    for r in range(H + 1):
        seg = ""
        for c in range(W + 1):
            seg += corner(r, c)
            if c < W:
                seg += ("─" if h_wall(r, c) else " ") * width
        lines.append(" " * (rw + 1) + seg)
        if r == H:
            break
        row = ""
        for c in range(W + 1):
            row += "│" if v_wall(r, c) else " "
            if c < W:
                row += cell(r, c)
        lines.append(_clue(puzzle.rows[r]).rjust(rw) + " " + row)
    if puzzle.rule == "pool":
        lines.append("rule: pool (one level per connected body of water, not per tank)")
    return "\n".join(lines)


def ran(result: Any) -> str:
    """What ran, AMPL-style: ``highs/highs``, ``solution determined by the logic;
    pyomo/scip not called`` (the logic decided the board and no engine ran), or
    ``highs/highs not called`` (the time ran out before any engine ran)."""
    pair = f"{result.backend}/{result.solver}"
    if getattr(result, "engine_called", True):
        return pair
    if result.status in ("unique", "multiple", "solved"):
        return f"solution determined by the logic; {pair} not called"
    if result.status == "infeasible":
        return f"infeasibility determined by the logic; {pair} not called"
    # a timeout or an error before any engine ran: nothing was determined (the error
    # line says where the time ran out)
    return f"{pair} not called"


def render_result(result: Any) -> str:
    """A [`thermomilp.solving.SolveResult`][thermomilp.solving.SolveResult] as text (duck-typed:
    render sits below solve)."""
    puzzle = result.puzzle
    out = []
    if puzzle is not None and result.grid is not None:
        out.append(render_board(puzzle, result.grid))
    head = f"status: {result.status}"
    if result.proof:
        head += f" (proven by {result.proof})"
    head += f"   [{ran(result)}, {result.time_s:.3f} s]"
    out.append(head)
    if result.levels is not None and puzzle is not None:
        if puzzle.kind == "thermometers":
            out.append("mercury levels: " + " ".join(map(str, result.levels)))
        else:
            pairs = zip(puzzle.vessels, result.levels, strict=True)
            out.append("wet rows per tank: "
                       + " ".join(f"{shown(v.label)}={lvl}" for v, lvl in pairs))
    if result.second is not None and puzzle is not None:
        out.append("another solution:")
        out.append(render_board(puzzle, result.second, legend=False))
    if result.error:
        out.append(f"error: {result.error}")
    if result.status == "infeasible" and getattr(result, "conflict", None) is not None:
        out.append(f"conflict: {result.conflict_text()}")
    return "\n".join(out)
