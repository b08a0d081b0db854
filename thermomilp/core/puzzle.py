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
package but [`thermomilp.core.errors`][thermomilp.core.errors].
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import groupby
from operator import itemgetter
from typing import Iterable, Iterator, Literal, Mapping, Sequence

from thermomilp.core.errors import BoardTooLarge, NotMonotoneError, PuzzleError, RuleNotSupported
from thermomilp.core.notation import EMPTY, FILLED, column_name, indexed_cell_name, row_name

Cell = tuple[int, int]
Grid = tuple[str, ...]
"""A filled board: one string per row, ``#`` filled, ``.`` empty."""

Kind = Literal["thermometers", "aquarium"]
KINDS: tuple[str, ...] = ("thermometers", "aquarium")

GRADES: tuple[str, ...] = ("intervals", "probing", "pairs", "search")
"""The logic grades a generator records
([`thermomilp.logic.grade.grade`][thermomilp.logic.grade.grade])."""

RULES: tuple[str, ...] = ("tank", "pool")
"""Aquarium rules: ``tank`` = one waterline per tank; ``pool`` = one level per
connected body of water inside a tank (puzz.link without the ``r`` flag)."""


@dataclass(frozen=True)
class SizeLimits:
    """The largest board a reader or constructor builds, checked before any
    allocation: a tiny input must not ask for a huge grid."""

    max_side: int = 10_000
    max_cells: int = 4_000_000

    def check(self, height: int, width: int) -> None:
        """Raise [`BoardTooLarge`][thermomilp.core.errors.BoardTooLarge] when a ``height`` x
        ``width`` board is too large."""
        for what, side in (("rows", height), ("columns", width)):
            if side > self.max_side:
                raise BoardTooLarge(f"the board is {height}x{width}: {side} {what}; the limit "
                                    f"is {self.max_side}")
        if height * width > self.max_cells:
            raise BoardTooLarge(f"the board is {height}x{width} = {height * width} cells; "
                                f"the limit is {self.max_cells}")


GENEROUS = SizeLimits()
"""The default limits (the command line): a 2000x2000 board reads."""
STRICT = SizeLimits(max_side=200, max_cells=40_000)
"""Limits for a server reading untrusted boards (``serve``)."""


@dataclass(frozen=True)
class Vessel:
    """One thermometer or tank.

    ``layers[k]`` holds the cells of rank ``k + 1``; the cells of one layer
    fill together. The layers form a tree: ``parent_of(k)`` is the layer that
    may hold water (mercury) only when layer ``k`` is full. Usually the tree is
    a **chain** (``parent`` is ``None`` and the parent of layer ``k`` is
    ``k + 1``): a vessel at level ``L`` has exactly the cells of
    ``layers[:L]`` filled. A tank under the ``pool`` rule is a true tree (one
    layer per body of water per row, see [`pool_layers`][thermomilp.core.puzzle.pool_layers]): its
    filled layers are any set closed under children -- a union of whole subtrees.
    A parent always comes after its children in ``layers``.
    """

    label: str
    layers: tuple[tuple[Cell, ...], ...]
    parent: tuple[int | None, ...] | None = None
    region_id: int | str | None = None
    """A tank's id as the file gave it (``1`` and ``"1"`` are two tanks); ``label`` is
    how pictures and hints name it (``str(region_id)``, unique within the board).
    None for thermometers and for vessels made by the program."""

    @property
    def depth(self) -> int:
        """The highest level: the number of layers."""
        return len(self.layers)

    @property
    def is_chain(self) -> bool:
        return self.parent is None

    def parent_of(self, k: int) -> int | None:
        if self.parent is not None:
            return self.parent[k]
        return k + 1 if k + 1 < len(self.layers) else None

    def children(self) -> tuple[tuple[int, ...], ...]:
        """For each layer, the layers whose parent it is (the ones below it)."""
        below: list[list[int]] = [[] for _ in self.layers]
        for k in range(self.depth):
            p = self.parent_of(k)
            if p is not None:
                below[p].append(k)
        return tuple(tuple(ks) for ks in below)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """All cells in fill order (a thermometer: bulb first)."""
        return tuple(c for layer in self.layers for c in layer)

    def filled_cells(self, level: int) -> tuple[Cell, ...]:
        return tuple(c for layer in self.layers[:level] for c in layer)


@dataclass(frozen=True)
class Puzzle:
    """A Thermometers or Aquarium board. Build it with
    [`thermometers`][thermomilp.core.puzzle.thermometers] or
    [`aquarium`][thermomilp.core.puzzle.aquarium], which validate; the constructor itself trusts its
    input."""

    kind: Kind
    rows: tuple[int | None, ...]
    cols: tuple[int | None, ...]
    vessels: tuple[Vessel, ...]
    name: str | None = None
    source: str | None = None
    solution: Grid | None = field(default=None, compare=False)
    grade: str | None = field(default=None, compare=False)
    """The logic grade a generator recorded (``intervals``/``probing``/``pairs``/``search``)."""
    rule: str = "tank"
    """Aquarium: ``tank`` or ``pool`` ([`RULES`][thermomilp.core.puzzle.RULES]); Thermometers:
    always ``tank``."""

    def __hash__(self) -> int:
        """The hash of the compared fields, worked out once (hashing every vessel is not
        cheap)."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.kind, self.rows, self.cols, self.vessels, self.name,
                           self.source, self.rule))
            self.__dict__["_hash"] = cached  # frozen: set as cached_property does
        return cached

    def __getstate__(self) -> dict[str, object]:
        """What pickling keeps: never the cached hash (a string's hash differs from one
        process to the next, and a pool worker gets its boards pickled)."""
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    @property
    def all_chains(self) -> bool:
        """True when every vessel is a chain: the level-based engines apply."""
        return all(v.is_chain for v in self.vessels)

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

    def with_solution(self, solution: Sequence[str] | None) -> "Puzzle":
        """This board with ``solution`` (rows of ``#``/``.`` of the board's size, or None).

        Raises:
            PuzzleError: the solution is not a grid of this board's size.
        """
        return replace(self, solution=_check_solution(solution, self.height, self.width))

    def with_clues(self, rows: Sequence[int | None], cols: Sequence[int | None]) -> "Puzzle":
        """This board with other line clues: one per row and per column of the same grid
        (the vessels stay as they are, so the grid's size cannot change).

        Raises:
            PuzzleError: a list of the wrong length (a shorter one would leave vessel
                cells outside the grid, a longer one cells in no vessel) or a clue that
                is not a whole number from 0 to the line's length, or None.
        """
        rows_t, cols_t = _check_clues(rows, cols, self.height, self.width)
        return replace(self, rows=rows_t, cols=cols_t)

    def with_grade(self, grade: str | None) -> "Puzzle":
        """This board with a recorded logic grade ([`GRADES`][thermomilp.core.puzzle.GRADES], or
        None).

        Raises:
            PuzzleError: ``grade`` is not one of [`GRADES`][thermomilp.core.puzzle.GRADES].
        """
        if grade is not None and grade not in GRADES:
            raise PuzzleError(f"grade {grade!r} is not one of {', '.join(GRADES)}")
        return replace(self, grade=grade)

    def region_grid(self) -> tuple[tuple[str, ...], ...]:
        """The label of the vessel covering each cell, row by row."""
        labels = [[""] * self.width for _ in range(self.height)]
        for vessel in self.vessels:
            for r, c in vessel.cells:
                labels[r][c] = vessel.label
        return tuple(tuple(row) for row in labels)


# -- Construction with validation ------------------------------------------


def _check_clues(rows: Sequence[object], cols: Sequence[object], height: int | None,
                 width: int | None, limits: SizeLimits = GENEROUS,
                 ) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    for what, clues in (("row", rows), ("column", cols)):
        if isinstance(clues, (str, bytes)) or not isinstance(clues, Sequence):
            raise PuzzleError(f"the {what} clues must be a list, not {type(clues).__name__}")
    if not rows:
        raise PuzzleError("the puzzle has no rows (the row clue list is empty)")
    if not cols:
        raise PuzzleError("the puzzle has no columns (the column clue list is empty)")
    limits.check(len(rows), len(cols))
    if height is not None and len(rows) != height:
        raise PuzzleError(f"{len(rows)} row clues given but the grid has {height} rows")
    if width is not None and len(cols) != width:
        raise PuzzleError(f"{len(cols)} column clues given but the grid has {width} columns")
    out = []
    for what, clues, length, name in (("row", rows, len(cols), row_name),
                                      ("column", cols, len(rows), column_name)):
        checked: list[int | None] = []
        for i, clue in enumerate(clues):
            if clue is None:
                checked.append(None)
                continue
            if isinstance(clue, bool) or not isinstance(clue, int):
                raise PuzzleError(f"{name(i)} clue {clue!r} is not a whole number or null")
            if clue < 0:
                raise PuzzleError(f"{name(i)} clue is {clue}, below 0")
            if clue > length:
                raise PuzzleError(f"{name(i)} clue is {clue} but the {what} has {length} cells")
            checked.append(clue)
        out.append(tuple(checked))
    return out[0], out[1]


def _check_cell(cell: object, height: int, width: int, where: str) -> Cell:
    if type(cell) in (list, tuple):  # the common case, without the general tests below
        pair: Sequence[object] = cell  # type: ignore[assignment]
        if len(pair) == 2:
            row, col = pair
            if type(row) is int and type(col) is int and 0 <= row < height \
                    and 0 <= col < width:
                return (row, col)
    if (not isinstance(cell, (tuple, list)) or len(cell) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
        raise PuzzleError(f"{where}: {cell!r} is not a cell [row, col]")
    r, c = cell
    if not (0 <= r < height and 0 <= c < width):
        raise PuzzleError(f"{where}: cell {indexed_cell_name((r, c))} is outside the "
                          f"{height}x{width} grid")
    return (r, c)


def _check_solution(solution: Sequence[str] | None, height: int, width: int) -> Grid | None:
    if solution is None:
        return None
    if isinstance(solution, (str, bytes)) or not isinstance(solution, Sequence) \
            or len(solution) != height:
        raise PuzzleError(f"the solution must have {height} rows")
    for i, row in enumerate(solution):
        if not isinstance(row, str) or len(row) != width or set(row) - {FILLED, EMPTY}:
            raise PuzzleError(
                f"solution {row_name(i)} must be {width} characters of '#' (filled) and "
                "'.' (empty)")
    return tuple(solution)


def thermometers(rows: Sequence[int | None], cols: Sequence[int | None],
                 thermometers: Iterable[Sequence[Sequence[int]]], *, name: str | None = None,
                 source: str | None = None, solution: Sequence[str] | None = None,
                 limits: SizeLimits = GENEROUS, labels: Sequence[str] | None = None) -> Puzzle:
    """A validated Thermometers puzzle; each thermometer is its cells, bulb first.

    Thermometers are counted from 1, as the puzzle sites count them: the first one
    listed is labelled ``1`` in pictures, hints and messages (its index in the JSON
    lists stays 0). ``labels``: other names, one per thermometer (janko.at's own
    numbers), all different.
    """
    rows_t, cols_t = _check_clues(rows, cols, None, None, limits)
    height, width = len(rows_t), len(cols_t)
    owner: dict[Cell, int] = {}
    vessels = []
    if isinstance(thermometers, (str, bytes)) or not isinstance(thermometers, Iterable):
        raise PuzzleError("the thermometers must be a list of thermometers (lists of cells)")
    names: list[str] = []
    for t, therm in enumerate(thermometers):
        tag = str(t + 1) if labels is None or t >= len(labels) else str(labels[t])
        names.append(tag)
        if type(therm) not in (list, tuple) and (isinstance(therm, (str, bytes))
                                                 or not isinstance(therm, Sequence)):
            raise PuzzleError(f"thermometer {tag} is not a list of cells")
        if len(therm) == 0:
            raise PuzzleError(f"thermometer {tag} is empty")
        cells = [_check_cell(cell, height, width, f"thermometer {tag}") for cell in therm]
        for k, cell in enumerate(cells):
            if cell in owner:
                other = owner[cell]
                who = "itself" if other == t else f"thermometer {names[other]}"
                raise PuzzleError(f"thermometer {tag} uses cell {indexed_cell_name(cell)} "
                                  f"already used by {who}")
            owner[cell] = t
            if k:
                (r0, c0), (r1, c1) = cells[k - 1], cell
                if abs(r0 - r1) + abs(c0 - c1) != 1:
                    raise PuzzleError(
                        f"thermometer {tag}: cells {indexed_cell_name(cells[k - 1])} and "
                        f"{indexed_cell_name(cell)} are consecutive but not orthogonally "
                        "adjacent")
        vessels.append(Vessel(tag, tuple((c,) for c in cells)))
    if not vessels:
        raise PuzzleError("the puzzle has no thermometers")
    if labels is not None and (len(labels) != len(vessels) or len(set(names)) != len(names)):
        raise PuzzleError(f"{len(labels)} thermometer labels for {len(vessels)} thermometers "
                          "(one each, all different)")
    missing = [(r, c) for r in range(height) for c in range(width) if (r, c) not in owner]
    if missing:
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        raise PuzzleError(f"cell {indexed_cell_name(missing[0])} is covered by no "
                          f"thermometer{more}")
    return Puzzle("thermometers", rows_t, cols_t, tuple(vessels), name, source,
                  _check_solution(solution, height, width))


def aquarium(rows: Sequence[int | None], cols: Sequence[int | None],
             regions: Sequence[Sequence[object]], *, name: str | None = None,
             source: str | None = None, solution: Sequence[str] | None = None,
             rule: str = "tank", limits: SizeLimits = GENEROUS) -> Puzzle:
    """A validated Aquarium puzzle; ``regions[r][c]`` is the tank id of a cell.

    Ids are kept as given ([`region_key`][thermomilp.core.puzzle.region_key]), each in its
    vessel's ``region_id``, with a unique ``label``
    ([`tank_labels`][thermomilp.core.puzzle.tank_labels]).

    Tanks are listed in order of first appearance, row by row. Each tank must
    be orthogonally connected. Under the ``tank`` rule its layers are its rows,
    lowest first (a chain); under the ``pool`` rule they are its bodies of
    water row by row, a tree ([`pool_layers`][thermomilp.core.puzzle.pool_layers]).
    """
    if rule not in RULES:
        raise PuzzleError(f"unknown Aquarium rule {rule!r}: expected 'tank' or 'pool'")
    rows_t, cols_t = _check_clues(rows, cols, None, None, limits)
    height, width = len(rows_t), len(cols_t)
    if isinstance(regions, (str, bytes)) or not isinstance(regions, Sequence):
        raise PuzzleError("the region grid must be a list of rows of tank labels")
    if len(regions) != height:
        raise PuzzleError(f"the region grid has {len(regions)} rows but there are "
                          f"{height} row clues")
    cells_of: dict[int | str, list[Cell]] = {}
    for r, line in enumerate(regions):
        if isinstance(line, (str, bytes)) or not isinstance(line, Sequence) or len(line) != width:
            got = len(line) if isinstance(line, Sequence) else "no"
            raise PuzzleError(f"region grid {row_name(r)} has {got} cells but there are "
                              f"{width} column clues (the grid must be rectangular)")
        for c, label in enumerate(line):
            if label is None or (isinstance(label, str) and not label.strip()):
                raise PuzzleError(f"cell {indexed_cell_name((r, c))} is in no tank")
            cells_of.setdefault(region_key(label), []).append((r, c))
    names = tank_labels(list(cells_of))
    vessels = []
    for key, cells in cells_of.items():
        label = names[key]
        _check_connected(label, cells)
        if rule == "pool":
            vessels.append(Vessel(label, *pool_layers(cells), region_id=key))
            continue
        layers = tuple(_rows_lowest_first(cells))
        vessels.append(Vessel(label, layers, region_id=key))
    return Puzzle("aquarium", rows_t, cols_t, tuple(vessels), name, source,
                  _check_solution(solution, height, width), rule=rule)


def region_key(label: object) -> int | str:
    """A tank id as [`aquarium`][thermomilp.core.puzzle.aquarium] keeps it: a whole number stays a
    number, anything else is its text -- so ``1`` and ``"1"`` are two tanks (docs/contract.md:
    region ids are kept as given, never merged by value)."""
    if isinstance(label, int) and not isinstance(label, bool):
        return label
    return str(label)


def token_id(token: str) -> int | str:
    """The id of a tank label read from text, where ids have no type: a plain decimal
    number (``7``, not ``07`` or ``²``) is the number, anything else stays text. So
    ``07`` and ``7`` stay two tanks, and a board read from text writes its numeric ids
    to JSON as numbers."""
    if token.isascii() and token.isdigit() and str(int(token)) == token:
        return int(token)
    return token


def tank_labels(keys: Sequence[int | str]) -> dict[int | str, str]:
    """The label (picture, hints, the ``levels`` record) of each tank id: its text, and
    when a number and a text id read alike (``1`` and ``"1"``) every text id is
    quoted as JSON writes it (``"1"``), so no two tanks share a name."""
    import json

    numbers = {str(k) for k in keys if isinstance(k, int)}
    clash = any(isinstance(k, str) and k in numbers for k in keys)
    return {k: (json.dumps(k, ensure_ascii=False) if clash and isinstance(k, str) else str(k))
            for k in keys}


def pool_layers(cells: Sequence[Cell]) -> tuple[tuple[tuple[Cell, ...], ...],
                                               tuple[int | None, ...]]:
    """The layer tree of one tank under the ``pool`` rule.

    For a row ``i``, two cells of the tank in row ``i`` hold water together
    exactly when they are connected through cells of the tank in rows ``>= i``
    (at or below row ``i``): water finds its level within such a body. So the
    layers of row ``i`` are the row-``i`` cells grouped by the connected
    components of the tank below and at row ``i``; the parent of a layer is
    the first layer further up whose component swallows its component (water
    there would spill down into it). Built bottom up with a union-find, in
    near-linear time. Returns the layers (lowest rows first, a parent after
    its children) and each layer's parent index (``None`` for the top one).
    """
    members = set(cells)
    up: dict[Cell, Cell] = {}

    def find(cell: Cell) -> Cell:
        while up[cell] != cell:
            up[cell] = up[up[cell]]
            cell = up[cell]
        return cell

    layers: list[tuple[Cell, ...]] = []
    parent: list[int | None] = []
    waiting: dict[Cell, list[int]] = {}  # component root -> layers still without a parent
    for row in _rows_lowest_first(cells):
        r = row[0][0]
        for cell in row:
            up[cell] = cell
        for cell in row:
            for nb in ((r, cell[1] + 1), (r + 1, cell[1])):
                if nb in members and nb in up:
                    a, b = find(cell), find(nb)
                    if a != b:
                        up[b] = a
                        waiting.setdefault(a, []).extend(waiting.pop(b, []))
        groups: dict[Cell, list[Cell]] = {}
        for cell in row:
            groups.setdefault(find(cell), []).append(cell)
        for root, group in groups.items():
            index = len(layers)
            layers.append(tuple(group))
            parent.append(None)
            for child in waiting.pop(root, []):
                parent[child] = index
            waiting[root] = [index]
    return tuple(layers), tuple(parent)


def _rows_lowest_first(cells: Iterable[Cell]) -> Iterator[tuple[Cell, ...]]:
    """A tank's cells row by row, the lowest row first, each row left to right."""
    lowest_first = sorted(cells, key=lambda cell: (-cell[0], cell[1]))
    for _, row in groupby(lowest_first, itemgetter(0)):
        yield tuple(row)


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
        raise PuzzleError(f"tank {label!r} is not orthogonally connected: cell "
                          f"{indexed_cell_name(apart)} cannot be reached from "
                          f"{indexed_cell_name(cells[0])}")


def require_levels(puzzle: Puzzle, tool: str) -> None:
    """Raise [`RuleNotSupported`][thermomilp.core.errors.RuleNotSupported] unless every vessel of
    ``puzzle`` is a chain."""
    if not puzzle.all_chains:
        raise RuleNotSupported(f"{tool} reasons about one level per vessel and does not "
                               "support the pool rule; solve (the MILP) and the brute-force "
                               "counter do")


# -- Adapter: cells <-> levels ---------------------------------------------


def ones_of(grid: Sequence[str]) -> frozenset[Cell]:
    """The filled cells (``#``) of a grid."""
    return frozenset((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row)
                     if ch == "#")


def grid_from_ones(height: int, width: int, ones: Iterable[Cell]) -> Grid:
    """The ``height`` x ``width`` grid whose filled cells are ``ones`` (of
    [`ones_of`][thermomilp.core.puzzle.ones_of])."""
    filled = frozenset(ones)
    return tuple("".join("#" if (r, c) in filled else "." for c in range(width))
                 for r in range(height))


def grid_from_levels(puzzle: Puzzle, levels: Sequence[int]) -> Grid:
    """The cell grid in which vessel ``v`` stands at ``levels[v]``."""
    if len(levels) != len(puzzle.vessels):
        raise ValueError(f"{len(levels)} levels for {len(puzzle.vessels)} vessels")
    board = [[EMPTY] * puzzle.width for _ in range(puzzle.height)]
    for vessel, level in zip(puzzle.vessels, levels, strict=True):
        if not vessel.is_chain:
            raise ValueError(f"tank {vessel.label} follows the pool rule: its water is not "
                             "one level")
        if not 0 <= level <= vessel.depth:
            raise ValueError(f"level {level} outside 0..{vessel.depth} for vessel {vessel.label}")
        for r, c in vessel.filled_cells(level):
            board[r][c] = FILLED
    return tuple("".join(row) for row in board)


def levels_from_grid(puzzle: Puzzle, grid: Sequence[str]) -> tuple[int, ...]:
    """The level of every vessel in a cell grid.

    Raises [`NotMonotoneError`][thermomilp.core.errors.NotMonotoneError] when some vessel's filled
    cells are not a prefix of its layers (mercury above a gap, water in a tank arm above
    an air cell of the same tank, a half-filled tank row).

    A pool-rule tank (a layer tree) has no single level: its entry is the
    number of its rows holding water, after checking that its filled layers
    are closed under children (no water above air it could spill into).
    """
    levels = []
    for vessel in puzzle.vessels:
        if not vessel.is_chain:  # a pool-rule tank: its filled layers closed under children
            wet = list(_filled_layers(vessel, grid))
            for k in range(vessel.depth):
                p = vessel.parent_of(k)
                if p is not None and wet[p] and not wet[k]:
                    raise NotMonotoneError(f"tank {vessel.label}: layer {p + 1} holds water above "
                                           f"the empty layer {k + 1} it would run into")
            levels.append(len({vessel.layers[k][0][0] for k in range(vessel.depth) if wet[k]}))
            continue
        level = 0
        for k, filled in enumerate(_filled_layers(vessel, grid)):
            if filled and level < k:
                raise NotMonotoneError(
                    f"vessel {vessel.label}: layer {k + 1} is filled above an empty layer "
                    f"{level + 1}")
            if filled:
                level = k + 1
        levels.append(level)
    return tuple(levels)


def _filled_layers(vessel: Vessel, grid: Sequence[str]) -> Iterator[bool]:
    """Whether each layer of ``vessel`` is filled, in order; a half-filled one is a
    NotMonotoneError when it is reached."""
    for k, layer in enumerate(vessel.layers):
        states = {grid[r][c] == FILLED for r, c in layer}
        if len(states) > 1:
            who, what = (("vessel", "") if vessel.is_chain
                         else ("tank", " (one body of water in one row)"))
            raise NotMonotoneError(f"{who} {vessel.label}: the cells of layer {k + 1}{what} "
                                   "are not all filled or all empty")
        yield states.pop()
