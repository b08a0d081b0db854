"""User marks: which cells a solver has already decided.

A mark says a cell holds mercury / water (``1``) or is empty (``0``). Three
spellings are accepted (``docs/logic.md``):

* a **list**: ``"0,1=# 2,3=x"`` -- items ``ROW,COL=#`` (filled) or
  ``ROW,COL=x`` (empty), 0-based, separated by spaces or ``;``
  (``1``/``0`` and ``-`` are accepted for ``#``/``x``);
* a **grid** inline, rows separated by ``/``: ``"#x../..#./..../...."``;
* a **grid file**: one line per row, ``#`` filled, ``x`` empty, ``.`` or
  ``?`` not decided (spaces ignored, blank lines skipped).

``.`` has one meaning everywhere: *not decided* (a pencil-and-paper board), never
*empty*. In the list form an item ``0,3=.`` would mark a cell as undecided, which
says nothing; it was once read as *empty*, so it is refused with a message that
says to write ``x`` rather than silently changing its meaning.
"""

from __future__ import annotations

import os
import re

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import Cell, Grid, Puzzle

FILLED_MARKS = {"#": 1, "1": 1}
EMPTY_MARKS = {"x": 0, "X": 0, "0": 0, "-": 0}
UNDECIDED = "."
"""Not decided, in every form (a grid's blank; refused as a list item)."""
GRID_GLYPHS = {"#": 1, "x": 0, "X": 0, UNDECIDED: None, "?": None}
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
            raise PuzzleError(f"mark {item!r} is not ROW,COL=# or ROW,COL=x")
        if len(match[1]) > 9 or len(match[2]) > 9:  # int() refuses 4,300+ digits
            raise PuzzleError(f"mark {item[:40]!r}...: the cell is outside the "
                              f"{puzzle.height}x{puzzle.width} grid")
        r, c, glyph = int(match[1]), int(match[2]), match[3]
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
            raise PuzzleError(f"mark {item!r}: cell ({r},{c}) is outside the "
                              f"{puzzle.height}x{puzzle.width} grid")
        if glyph in (UNDECIDED, "?"):
            raise PuzzleError(f"mark {item!r}: {glyph!r} means undecided (as in a marks grid), "
                              f"so it marks nothing; write {r},{c}=x for empty or {r},{c}=# "
                              "for filled")
        if glyph in FILLED_MARKS:
            value = FILLED_MARKS[glyph]
        elif glyph in EMPTY_MARKS:
            value = EMPTY_MARKS[glyph]
        else:
            raise PuzzleError(f"mark {item!r}: {glyph!r} is neither # (filled) nor x (empty)")
        if marks.get((r, c), value) != value:
            raise PuzzleError(f"cell ({r},{c}) is marked both filled and empty")
        marks[(r, c)] = value
    return marks


def _grid_marks(rows: list[str], puzzle: Puzzle, file: str | None) -> dict[Cell, int]:
    if len(rows) != puzzle.height:
        raise PuzzleError(f"the marks grid has {len(rows)} rows, the puzzle {puzzle.height}",
                          file=file)
    marks: dict[Cell, int] = {}
    for r, row in enumerate(rows):
        if len(row) != puzzle.width:
            raise PuzzleError(f"marks row {r} has {len(row)} cells, the puzzle "
                              f"{puzzle.width} (use # filled, x empty, . undecided)",
                              file=file, line=r + 1 if file else None)
        for c, glyph in enumerate(row):
            if glyph not in GRID_GLYPHS:
                raise PuzzleError(f"marks row {r}: {glyph!r} is not # (filled), x (empty) "
                                  "or . (undecided)", file=file, line=r + 1 if file else None)
            value = GRID_GLYPHS[glyph]
            if value is not None:
                marks[(r, c)] = value
    return marks


def marks_grid(puzzle: Puzzle, marks: dict[Cell, int]) -> Grid:
    """The marks as an inline-grid-compatible picture (``#``, ``x``, ``.``)."""
    glyph = {1: "#", 0: "x"}
    return tuple("".join(glyph.get(marks.get((r, c), -1), ".") for c in range(puzzle.width))
                 for r in range(puzzle.height))
