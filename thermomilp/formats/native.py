"""thermomilp's native text format: a board a person can type and read (docs/formats.md,
"Native text", for both puzzles).

A header line ``thermometers`` or ``aquarium`` with an optional size ``HxW``, optional
``key: value`` lines (`META`) and ``#`` comments, the column clues, then per row its clue
and one token per cell -- where a thermometer's mercury goes next (`ARROWS`, `TIP` for its
last cell) or a tank's label -- and an optional ``solution`` block of ``#`` and ``.``.
"""

from __future__ import annotations

import re
from itertools import pairwise

from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import cell_name, row_name
from thermomilp.core.puzzle import (
    GENEROUS,
    GRADES,
    RULES,
    Cell,
    Puzzle,
    SizeLimits,
    aquarium,
    thermometers,
    token_id,
)
from thermomilp.formats.tokens import whole_number

ARROWS = {">": (0, 1), "<": (0, -1), "^": (-1, 0), "v": (1, 0)}
TIP = "o"
MISSING = ("?", "-")
HEADER = re.compile(r"^(thermometers|aquarium)(?:\s+(\d+)\s*[xX]\s*(\d+))?\s*$")
META = re.compile(r"^(name|source|grade|rule)\s*:\s?(.*)$")
LABEL = re.compile(r"^[A-Za-z0-9]+$")


def looks_like(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return HEADER.match(stripped) is not None
    return False


def read(text: str, limits: SizeLimits = GENEROUS) -> Puzzle:
    lines = [(n, line.rstrip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    i = 0
    while i < len(lines) and lines[i][1].lstrip().startswith("#"):
        i += 1
    if i == len(lines):
        raise PuzzleError("the file is empty: expected a header line 'thermometers' or 'aquarium'")
    header_line, header = lines[i]
    match = HEADER.match(header.strip())
    if not match:
        raise PuzzleError(f"unknown puzzle type in header {header.strip()!r}: expected "
                          "'thermometers' or 'aquarium', optionally followed by HxW",
                          line=header_line)
    kind = match.group(1)
    size = None
    if match.group(2):
        size = (whole_number(match.group(2), "the row count", header_line),
                whole_number(match.group(3), "the column count", header_line))
        limits.check(*size)
    i += 1
    meta: dict[str, str] = {}
    while i < len(lines):
        stripped = lines[i][1].strip()
        meta_match = META.match(stripped)
        if meta_match:
            meta[meta_match.group(1)] = meta_match.group(2).strip()
        elif not stripped.startswith("#"):
            break
        i += 1
    if i == len(lines):
        raise PuzzleError("the file ends before the column clues", line=lines[-1][0])
    col_line, text_cols = lines[i]
    cols = [_clue(tok, "column", col_line) for tok in text_cols.split()]
    width = len(cols)
    i += 1
    grid_rows: list[tuple[int, list[str]]] = []
    row_clues: list[int | None] = []
    while i < len(lines) and lines[i][1].strip() != "solution":
        n, line = lines[i]
        tokens = line.split()
        row_clues.append(_clue(tokens[0], "row", n))
        cells = tokens[1:]
        if len(cells) == 1 and len(cells[0]) == width and width > 1:
            cells = list(cells[0])
        if len(cells) != width:
            raise PuzzleError(f"{row_name(len(grid_rows))} has {len(cells)} cells but there are "
                              f"{width} column clues", line=n)
        grid_rows.append((n, cells))
        i += 1
    if not grid_rows:
        raise PuzzleError("the file has no grid rows after the column clues", line=col_line)
    if size is not None and size != (len(grid_rows), width):
        raise PuzzleError(f"the header says {size[0]}x{size[1]} but the grid is "
                          f"{len(grid_rows)}x{width}", line=header_line)
    solution = None
    if i < len(lines):
        solution_line = lines[i][0]
        sol = [line.strip() for _, line in lines[i + 1:]]
        if len(sol) != len(grid_rows):
            raise PuzzleError(f"the solution has {len(sol)} rows, the grid {len(grid_rows)}",
                              line=solution_line)
        for k, (n, row) in enumerate(lines[i + 1:]):
            if len(row.strip()) != width or set(row.strip()) - {"#", "."}:
                raise PuzzleError(f"solution {row_name(k)} must be {width} characters of '#' "
                                  "and '.'", line=n)
        solution = sol
    grade = meta.pop("grade", None)
    if grade is not None and grade not in GRADES:
        raise PuzzleError(f"grade {grade!r} is not one of {', '.join(GRADES)}")
    rule = meta.pop("rule", "tank")
    if rule not in RULES or (kind == "thermometers" and rule != "tank"):
        raise PuzzleError(f"rule {rule!r} is not one of tank, pool (pool is for Aquarium)")
    limits.check(len(grid_rows), width)
    if kind == "thermometers":
        therms = _trace_thermometers(grid_rows, width)
        return thermometers(row_clues, cols, therms, solution=solution, limits=limits,
                            **meta).with_grade(grade)
    for n, cells in grid_rows:
        for tok in cells:
            if not LABEL.fullmatch(tok):
                raise PuzzleError(f"tank label {tok!r} must be letters or digits", line=n)
    return aquarium(row_clues, cols, [[token_id(tok) for tok in cells] for _, cells in grid_rows],
                    solution=solution, rule=rule, limits=limits, **meta).with_grade(grade)


def _clue(token: str, what: str, line: int) -> int | None:
    if token in MISSING:
        return None
    if not token.isdigit() or not token.isascii():
        raise PuzzleError(f"{what} clue {token!r} is not a number, '?' or '-'", line=line)
    return whole_number(token, f"a {what} clue", line)


def _trace_thermometers(grid_rows: list[tuple[int, list[str]]], width: int) -> list[list[Cell]]:
    height = len(grid_rows)
    succ: dict[Cell, Cell | None] = {}
    pred: dict[Cell, Cell] = {}
    for r, (n, cells) in enumerate(grid_rows):
        for c, tok in enumerate(cells):
            if tok == TIP:
                succ[(r, c)] = None
                continue
            if tok not in ARROWS:
                raise PuzzleError(f"cell {cell_name((r, c))} has {tok!r}: expected one of "
                                  "> < ^ v o", line=n)
            dr, dc = ARROWS[tok]
            nxt = (r + dr, c + dc)
            if not (0 <= nxt[0] < height and 0 <= nxt[1] < width):
                raise PuzzleError(f"cell {cell_name((r, c))} points with {tok!r} out of the "
                                  "grid", line=n)
            if nxt in pred:
                raise PuzzleError(f"cells {cell_name(pred[nxt])} and {cell_name((r, c))} both "
                                  f"point into {cell_name(nxt)}", line=n)
            succ[(r, c)] = nxt
            pred[nxt] = (r, c)
    therms: list[list[Cell]] = []
    placed: set[Cell] = set()
    for r in range(height):
        for c in range(width):
            if (r, c) in pred:
                continue
            chain: list[Cell] = [(r, c)]
            following = succ[(r, c)]
            while following is not None:
                chain.append(following)
                following = succ[following]
            placed.update(chain)
            therms.append(chain)
    if len(placed) != height * width:
        loop = min(set(succ) - placed)
        raise PuzzleError(f"the arrows through cell {cell_name(loop)} go round in a loop "
                          "with no bulb", line=grid_rows[loop[0]][0])
    return therms


def write(puzzle: Puzzle) -> str:
    if puzzle.kind == "thermometers":
        cells = _arrow_grid(puzzle)
    else:
        cells = [list(row) for row in _writable_labels(puzzle)]
    clue = [("?" if v is None else str(v)) for v in puzzle.rows]
    col = [("?" if v is None else str(v)) for v in puzzle.cols]
    cw = max(len(t) for t in col + [tok for row in cells for tok in row])
    rw = max(len(t) for t in clue)
    out = [f"{puzzle.kind} {puzzle.height}x{puzzle.width}"]
    for key in ("name", "source", "grade"):
        value = getattr(puzzle, key)
        if value is not None:
            out.append(f"{key}: {' '.join(str(value).splitlines()).strip()}")  # one line
    if puzzle.rule != "tank":
        out.append(f"rule: {puzzle.rule}")
    out.append(" " * (rw + 2) + " ".join(t.rjust(cw) for t in col))
    for k, row in enumerate(cells):
        out.append(clue[k].rjust(rw) + "  " + " ".join(t.rjust(cw) for t in row))
    if puzzle.solution is not None:
        out.append("solution")
        out.extend(puzzle.solution)
    return "\n".join(out) + "\n"


def _writable_labels(puzzle: Puzzle) -> tuple[tuple[str, ...], ...]:
    """The tank labels, or -- when some label is not letters and digits, which
    this reader refuses -- the tanks renumbered 1, 2, ... (the board is the same)."""
    if all(LABEL.fullmatch(v.label) for v in puzzle.vessels):
        return puzzle.region_grid()
    number = {v.label: str(k) for k, v in enumerate(puzzle.vessels, start=1)}
    return tuple(tuple(number[label] for label in row) for row in puzzle.region_grid())


def _arrow_grid(puzzle: Puzzle) -> list[list[str]]:
    glyph = {d: a for a, d in ARROWS.items()}
    cells = [[TIP] * puzzle.width for _ in range(puzzle.height)]
    for vessel in puzzle.vessels:
        chain = vessel.cells
        for (r0, c0), (r1, c1) in pairwise(chain):
            cells[r0][c0] = glyph[(r1 - r0, c1 - c0)]
    return cells
