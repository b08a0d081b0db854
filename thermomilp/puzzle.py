"""Puzzles as vessels that fill monotonically.

Thermometers and Aquarium are one object (see ``docs/formulation.md``):

* a grid of binary cells (1 = mercury / water);
* cells grouped into **vessels** (a thermometer, a tank) whose state is one
  **level**: the vessel's cells are split into ranked **layers**, and a cell is
  filled iff the level reaches its layer;
* **line clues** count the filled cells of a row / column, ``None`` = missing.

A thermometer's layers hold one cell each, bulb first. A tank's layers are
its rows, lowest row first (cells of a tank in one row fill together).

This module holds the frozen data types, their validation, and the adapter
between cell grids and levels. It imports nothing from the rest of the
package but :mod:`thermomilp.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Literal, Mapping, Sequence

from thermomilp.errors import NotMonotoneError, PuzzleError

Cell = tuple[int, int]
Grid = tuple[str, ...]
"""A filled board: one string per row, ``#`` filled, ``.`` empty."""

Kind = Literal["thermometers", "aquarium"]
KINDS: tuple[str, ...] = ("thermometers", "aquarium")

FILLED = "#"
EMPTY = "."


@dataclass(frozen=True)
class Vessel:
    """One thermometer or tank.

    ``layers[k]`` holds the cells of rank ``k + 1``; a vessel at level ``L``
    has exactly the cells of ``layers[:L]`` filled.
    """

    label: str
    layers: tuple[tuple[Cell, ...], ...]

    @property
    def depth(self) -> int:
        """The highest level: the number of layers."""
        return len(self.layers)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """All cells in fill order (a thermometer: bulb first)."""
        return tuple(c for layer in self.layers for c in layer)

    def filled_cells(self, level: int) -> tuple[Cell, ...]:
        return tuple(c for layer in self.layers[:level] for c in layer)


@dataclass(frozen=True)
class Puzzle:
    """A Thermometers or Aquarium board. Build it with :func:`thermometers`
    or :func:`aquarium`, which validate; the constructor itself trusts its input."""

    kind: Kind
    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]
    vessels: tuple[Vessel, ...]
    name: str | None = None
    source: str | None = None
    solution: Grid | None = field(default=None, compare=False)
    grade: str | None = field(default=None, compare=False)
    """The logic grade a generator recorded (``intervals``/``probing``/``pairs``/``search``)."""

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @cached_property
    def rank_of(self) -> Mapping[Cell, tuple[int, int]]:
        """cell -> (vessel index, 1-based rank)."""
        return {
            cell: (v, k + 1)
            for v, vessel in enumerate(self.vessels)
            for k, layer in enumerate(vessel.layers)
            for cell in layer
        }

    def with_solution(self, solution: Grid | None) -> "Puzzle":
        return Puzzle(self.kind, self.rows, self.cols, self.vessels, self.name, self.source,
                      None if solution is None else tuple(solution), self.grade)

    def with_clues(self, rows: Sequence[int | None], cols: Sequence[int | None]) -> "Puzzle":
        return Puzzle(self.kind, tuple(rows), tuple(cols), self.vessels, self.name, self.source,
                      self.solution, self.grade)

    def with_grade(self, grade: str | None) -> "Puzzle":
        return Puzzle(self.kind, self.rows, self.cols, self.vessels, self.name, self.source,
                      self.solution, grade)

    def region_grid(self) -> tuple[tuple[str, ...], ...]:
        """The label of the vessel covering each cell, row by row."""
        labels = [[""] * self.width for _ in range(self.height)]
        for vessel in self.vessels:
            for r, c in vessel.cells:
                labels[r][c] = vessel.label
        return tuple(tuple(row) for row in labels)


# --------------------------------------------------------------------------
# Construction with validation
# --------------------------------------------------------------------------


def _check_clues(rows: Sequence[object], cols: Sequence[object], height: int | None,
                 width: int | None) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    if not rows:
        raise PuzzleError("the puzzle has no rows (the row clue list is empty)")
    if not cols:
        raise PuzzleError("the puzzle has no columns (the column clue list is empty)")
    if height is not None and len(rows) != height:
        raise PuzzleError(f"{len(rows)} row clues given but the grid has {height} rows")
    if width is not None and len(cols) != width:
        raise PuzzleError(f"{len(cols)} column clues given but the grid has {width} columns")
    out = []
    for what, clues, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
        checked: list[int | None] = []
        for i, clue in enumerate(clues):
            if clue is None:
                checked.append(None)
                continue
            if isinstance(clue, bool) or not isinstance(clue, int):
                raise PuzzleError(f"{what} {i} clue {clue!r} is not a whole number or null")
            if clue < 0:
                raise PuzzleError(f"{what} {i} clue is {clue}, below 0")
            if clue > length:
                raise PuzzleError(f"{what} {i} clue is {clue} but the {what} has {length} cells")
            checked.append(clue)
        out.append(tuple(checked))
    return out[0], out[1]


def _check_cell(cell: object, height: int, width: int, where: str) -> Cell:
    if (not isinstance(cell, (tuple, list)) or len(cell) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
        raise PuzzleError(f"{where}: {cell!r} is not a cell [row, col]")
    r, c = cell
    if not (0 <= r < height and 0 <= c < width):
        raise PuzzleError(f"{where}: cell ({r},{c}) is outside the {height}x{width} grid")
    return (r, c)


def _check_solution(solution: Sequence[str] | None, height: int, width: int) -> Grid | None:
    if solution is None:
        return None
    if isinstance(solution, str) or len(solution) != height:
        raise PuzzleError(f"the solution must have {height} rows")
    for i, row in enumerate(solution):
        if not isinstance(row, str) or len(row) != width or set(row) - {FILLED, EMPTY}:
            raise PuzzleError(
                f"solution row {i} must be {width} characters of '#' (filled) and '.' (empty)")
    return tuple(solution)


def thermometers(rows: Sequence[int | None], cols: Sequence[int | None],
                 thermometers: Iterable[Sequence[Sequence[int]]], *, name: str | None = None,
                 source: str | None = None, solution: Sequence[str] | None = None) -> Puzzle:
    """A validated Thermometers puzzle; each thermometer is its cells, bulb first."""
    rows_t, cols_t = _check_clues(rows, cols, None, None)
    height, width = len(rows_t), len(cols_t)
    owner: dict[Cell, int] = {}
    vessels = []
    for t, therm in enumerate(thermometers):
        if isinstance(therm, (str, bytes)) or not isinstance(therm, Sequence):
            raise PuzzleError(f"thermometer {t} is not a list of cells")
        if len(therm) == 0:
            raise PuzzleError(f"thermometer {t} is empty")
        cells = [_check_cell(cell, height, width, f"thermometer {t}") for cell in therm]
        for k, cell in enumerate(cells):
            if cell in owner:
                other = owner[cell]
                who = "itself" if other == t else f"thermometer {other}"
                raise PuzzleError(f"thermometer {t} uses cell {cell} already used by {who}")
            owner[cell] = t
            if k:
                (r0, c0), (r1, c1) = cells[k - 1], cell
                if abs(r0 - r1) + abs(c0 - c1) != 1:
                    raise PuzzleError(
                        f"thermometer {t}: cells {cells[k - 1]} and {cell} are consecutive "
                        "but not orthogonally adjacent")
        vessels.append(Vessel(str(t), tuple((c,) for c in cells)))
    if not vessels:
        raise PuzzleError("the puzzle has no thermometers")
    missing = [(r, c) for r in range(height) for c in range(width) if (r, c) not in owner]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise PuzzleError(f"cell {missing[0]} is covered by no thermometer{more}")
    return Puzzle("thermometers", rows_t, cols_t, tuple(vessels), name, source,
                  _check_solution(solution, height, width))


def aquarium(rows: Sequence[int | None], cols: Sequence[int | None],
             regions: Sequence[Sequence[object]], *, name: str | None = None,
             source: str | None = None, solution: Sequence[str] | None = None) -> Puzzle:
    """A validated Aquarium puzzle; ``regions[r][c]`` is the tank label of a cell.

    Tanks are listed in order of first appearance, row by row. Each tank must
    be orthogonally connected; its layers are its rows, lowest first.
    """
    rows_t, cols_t = _check_clues(rows, cols, None, None)
    height, width = len(rows_t), len(cols_t)
    if isinstance(regions, (str, bytes)) or len(regions) != height:
        raise PuzzleError(f"the region grid has {len(regions)} rows but there are "
                          f"{height} row clues")
    cells_of: dict[str, list[Cell]] = {}
    for r, line in enumerate(regions):
        if isinstance(line, (str, bytes)) or not isinstance(line, Sequence) or len(line) != width:
            got = len(line) if isinstance(line, Sequence) else "no"
            raise PuzzleError(f"region grid row {r} has {got} cells but there are "
                              f"{width} column clues (the grid must be rectangular)")
        for c, label in enumerate(line):
            if label is None or (isinstance(label, str) and not label.strip()):
                raise PuzzleError(f"cell ({r},{c}) is in no tank")
            cells_of.setdefault(str(label), []).append((r, c))
    vessels = []
    for label, cells in cells_of.items():
        _check_connected(label, cells)
        by_row: dict[int, list[Cell]] = {}
        for cell in cells:
            by_row.setdefault(cell[0], []).append(cell)
        layers = tuple(tuple(sorted(by_row[r])) for r in sorted(by_row, reverse=True))
        vessels.append(Vessel(label, layers))
    return Puzzle("aquarium", rows_t, cols_t, tuple(vessels), name, source,
                  _check_solution(solution, height, width))


def _check_connected(label: str, cells: list[Cell]) -> None:
    todo, seen, members = [cells[0]], {cells[0]}, set(cells)
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in members and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    if len(seen) != len(members):
        apart = min(members - seen)
        raise PuzzleError(f"tank {label!r} is not orthogonally connected: cell {apart} "
                          f"cannot be reached from {cells[0]}")


# --------------------------------------------------------------------------
# Adapter: cells <-> levels
# --------------------------------------------------------------------------


def grid_from_levels(puzzle: Puzzle, levels: Sequence[int]) -> Grid:
    """The cell grid in which vessel ``v`` stands at ``levels[v]``."""
    if len(levels) != len(puzzle.vessels):
        raise ValueError(f"{len(levels)} levels for {len(puzzle.vessels)} vessels")
    board = [[EMPTY] * puzzle.width for _ in range(puzzle.height)]
    for vessel, level in zip(puzzle.vessels, levels):
        if not 0 <= level <= vessel.depth:
            raise ValueError(f"level {level} outside 0..{vessel.depth} for vessel {vessel.label}")
        for r, c in vessel.filled_cells(level):
            board[r][c] = FILLED
    return tuple("".join(row) for row in board)


def levels_from_grid(puzzle: Puzzle, grid: Sequence[str]) -> tuple[int, ...]:
    """The level of every vessel in a cell grid.

    Raises :class:`NotMonotoneError` when some vessel's filled cells are not
    a prefix of its layers (mercury above a gap, water in a tank arm above
    an air cell of the same tank, a half-filled tank row).
    """
    levels = []
    for vessel in puzzle.vessels:
        level = 0
        for k, layer in enumerate(vessel.layers):
            states = {grid[r][c] == FILLED for r, c in layer}
            if len(states) > 1:
                raise NotMonotoneError(
                    f"vessel {vessel.label}: the cells of layer {k + 1} are not all filled "
                    "or all empty")
            filled = states.pop()
            if filled and level < k:
                raise NotMonotoneError(
                    f"vessel {vessel.label}: layer {k + 1} is filled above an empty layer {level + 1}")
            if filled:
                level = k + 1
        levels.append(level)
    return tuple(levels)
