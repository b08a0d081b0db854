"""How every text a person reads names a board's parts and writes its marks.

Rows, columns, cells and thermometers count from 1 in every text a person reads
(a file's own thermometer numbers are kept:
[`thermomilp.core.puzzle.thermometers`][thermomilp.core.puzzle.thermometers]); indices
in JSON, in the API and in Python stay 0-based. The functions here are the one place
that turns an index into the number a person reads, and `index_of` the one place
back. Marks are ``#`` filled, ``.`` empty, ``?`` undecided, everywhere (docs/logic.md,
"Numbers and marks").
"""

from __future__ import annotations

from collections.abc import Iterable

FILLED = "#"
EMPTY = "."
UNDECIDED = "?"


def number(index: int) -> int:
    """The number a person reads for a 0-based ``index`` (row, column, thermometer)."""
    return index + 1


def index_of(number_read: int) -> int:
    """The 0-based index of a number a person wrote (the inverse of `number`)."""
    return number_read - 1


def row_name(i: int) -> str:
    """``row 1`` for the top row (index 0)."""
    return f"row {number(i)}"


def column_name(j: int) -> str:
    """``column 1`` for the leftmost column (index 0)."""
    return f"column {number(j)}"


def line_name(line: int, height: int) -> str:
    """A line numbered rows first (``0..height-1``), then columns: ``row 3`` or ``column 2``."""
    return row_name(line) if line < height else column_name(line - height)


def cell_name(cell: tuple[int, int]) -> str:
    """``(1,1)`` for the top-left cell ``(0, 0)``: row, then column."""
    return f"({number(cell[0])},{number(cell[1])})"


def indexed_cell_name(cell: tuple[int, int]) -> str:
    """A cell a file gave by its indices, for a message about that file: ``(1,2) (index
    [0, 1])`` -- counted from 1 as every text, with the 0-based ``[row, col]`` the file
    (a JSON file) wrote, so the reader finds it in either."""
    return f"{cell_name(cell)} (index [{cell[0]}, {cell[1]}])"


def cells_name(cells: Iterable[tuple[int, int]]) -> str:
    """Cells as `cell_name` writes them, separated by spaces."""
    return " ".join(cell_name(c) for c in cells)


def vessel_word(kind: str) -> str:
    """What texts call a vessel of a puzzle of ``kind``: ``thermometer`` or ``tank``."""
    return "thermometer" if kind == "thermometers" else "tank"


def vessel_name(kind: str, label: str) -> str:
    """``thermometer 3`` or ``tank B``: a vessel by its label (thermometers count from 1)."""
    return f"{vessel_word(kind)} {label}"


def glyph(value: int | None) -> str:
    """The mark glyph of a cell: 1 filled ``#``, 0 empty ``.``, anything else ``?``."""
    return FILLED if value == 1 else EMPTY if value == 0 else UNDECIDED
