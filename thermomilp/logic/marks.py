"""User marks: which cells a solver has already decided (docs/logic.md, "Numbers and marks").

A mark says a cell is filled (``1``) or empty (``0``), written in the notation of the
solution grids (`thermomilp.core.notation`): ``#`` filled, ``.`` empty, ``?`` undecided.
Three spellings are accepted: a **list** ``"1,2=# 3,4=."`` (rows and columns counted
from 1), a **grid** inline with rows separated by ``/``, or a **grid file**. Old
spellings are read only where they cannot be misread.
"""

from __future__ import annotations

import os
import re

from thermomilp.core.errors import PuzzleError
from thermomilp.core.notation import (
    EMPTY,
    FILLED,
    UNDECIDED,
    cell_name,
    glyph,
    index_of,
    number,
    row_name,
)
from thermomilp.core.puzzle import Cell, Grid, Puzzle

LIST_MARKS = {FILLED: 1, EMPTY: 0}
OLD_LIST_MARKS = {"1": FILLED, "x": EMPTY, "X": EMPTY, "0": EMPTY, "-": EMPTY}
"""The old list spelling, written when ROW,COL counted from 0: refused (with its meaning)."""
OLD_EMPTY = ("x", "X")
"""The old grid glyph for empty: still empty, but beside ``.`` it marks the old notation."""
GRID_GLYPHS = {FILLED: 1, EMPTY: 0, UNDECIDED: None, "x": 0, "X": 0}
NOTATION = "# (filled), . (empty) or ? (undecided)"
MARKS_MAX_BYTES = 5_000_000
"""The largest marks file read (as ``formats.MAX_BYTES`` for a board file)."""
_ITEM = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*=\s*(\S)\s*$")


def parse_marks(spec: str | None, puzzle: Puzzle) -> dict[Cell, int]:
    """Marks from a list, an inline grid or a grid file; raises PuzzleError."""
    if spec is None or not spec.strip():
        return {}
    if os.path.isfile(spec):
        from thermomilp.core.files import read_regular

        try:  # a regular file, never a blocking open, bounded like a board file
            raw = read_regular(spec, MARKS_MAX_BYTES + 1)
            if len(raw) > MARKS_MAX_BYTES:
                raise PuzzleError(f"the marks file is larger than "
                                  f"{MARKS_MAX_BYTES // 1_000_000} MB", file=spec)
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PuzzleError(f"cannot read marks file: {exc}", file=spec) from None
        rows = [line.replace(" ", "") for line in text.splitlines() if line.strip()]
        return _grid_marks(rows, puzzle, spec)
    if "=" not in spec:
        return _grid_marks([row.replace(" ", "") for row in spec.split("/")], puzzle, None)
    marks: dict[Cell, int] = {}
    for item in re.split(r"[;\s]+(?=\d)", spec.strip()):
        match = _ITEM.match(item)
        if not match:
            raise PuzzleError(f"mark {item!r} is not ROW,COL=# (filled) or ROW,COL=. (empty)")
        if len(match[1]) > 9 or len(match[2]) > 9:  # int() refuses 4,300+ digits
            raise PuzzleError(f"mark {item[:40]!r}...: the cell is outside the "
                              f"{puzzle.height}x{puzzle.width} grid")
        row, col, mark = int(match[1]), int(match[2]), match[3]
        if mark in OLD_LIST_MARKS:
            raise PuzzleError(f"mark {item!r} is in the old spelling, written when rows and "
                              f"columns counted from 0; now they count from 1, as the hints "
                              f"print them, and {FILLED} is filled, {EMPTY} empty: written for "
                              f"the old count it is {number(row)},{number(col)}="
                              f"{OLD_LIST_MARKS[mark]}")
        if row == 0 or col == 0:
            raise PuzzleError(f"mark {item!r}: rows and columns count from 1, as the hints "
                              f"print them (the top-left cell is 1,1)")
        r, c = index_of(row), index_of(col)
        if not (r < puzzle.height and c < puzzle.width):
            raise PuzzleError(f"mark {item!r}: cell {cell_name((r, c))} is outside the "
                              f"{puzzle.height}x{puzzle.width} grid")
        if mark == UNDECIDED:
            raise PuzzleError(f"mark {item!r}: {mark!r} means undecided, so it marks nothing; "
                              f"write {row},{col}={EMPTY} for empty or {row},{col}={FILLED} "
                              "for filled")
        if mark not in LIST_MARKS:
            raise PuzzleError(f"mark {item!r}: {mark!r} is neither {FILLED} (filled) nor "
                              f"{EMPTY} (empty)")
        value = LIST_MARKS[mark]
        if marks.get((r, c), value) != value:
            raise PuzzleError(f"cell {cell_name((r, c))} is marked both filled and empty")
        marks[(r, c)] = value
    return marks


def _grid_marks(rows: list[str], puzzle: Puzzle, file: str | None) -> dict[Cell, int]:
    if len(rows) != puzzle.height:
        raise PuzzleError(f"the marks grid has {len(rows)} rows, the puzzle {puzzle.height}",
                          file=file)
    if any(g in row for row in rows for g in OLD_EMPTY) and any(EMPTY in row for row in rows):
        raise PuzzleError(f"the marks grid writes both x and {EMPTY}: in the old notation "
                          f"{EMPTY} meant undecided, now it means empty (as in a solution "
                          f"grid); write {UNDECIDED} for an undecided cell and {EMPTY} (or x) "
                          "for an empty one", file=file)
    marks: dict[Cell, int] = {}
    for r, row in enumerate(rows):
        line = r + 1 if file else None
        if len(row) != puzzle.width:
            raise PuzzleError(f"marks {row_name(r)} has {len(row)} cells, the puzzle "
                              f"{puzzle.width} (use {NOTATION})", file=file, line=line)
        for c, mark in enumerate(row):
            if mark not in GRID_GLYPHS:
                raise PuzzleError(f"marks {row_name(r)}: {mark!r} is not {NOTATION}",
                                  file=file, line=line)
            value = GRID_GLYPHS[mark]
            if value is not None:
                marks[(r, c)] = value
    return marks


def marks_grid(puzzle: Puzzle, marks: dict[Cell, int]) -> Grid:
    """The marks as a grid in the marks notation (``#``, ``.``, ``?``), as ``--marks`` reads it."""
    return tuple("".join(glyph(marks.get((r, c))) for c in range(puzzle.width))
                 for r in range(puzzle.height))
