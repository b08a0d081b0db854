"""Boards the line logic decides line by line: the filling a line order peels off.

The ``peel`` strategy of the generators (docs/generate.md, "`peel`", with the proof
that the board is unique): walk the rows and columns in a random order and give every
undecided cell of each line the line's default -- **empty in a row, filled in a
column** -- letting its vessel propagate it; the filling at the end is the planted
solution ``x*``, which interval propagation (`thermomilp.logic.propagation`) decides
again in the same order. The generator does not rely on the argument: it runs the
logic, the MILP and the checker on every board it makes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from thermomilp.core.deadline import Deadline
from thermomilp.core.puzzle import Cell
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.random_board import random_partition

Line = tuple[str, int]  # ("r", row) or ("c", column)


def line_order(height: int, width: int, rng: random.Random) -> list[Line]:
    """A uniformly random order of the rows and columns."""
    lines = [("r", i) for i in range(height)] + [("c", j) for j in range(width)]
    rng.shuffle(lines)
    return lines


def peel_levels(vessels: Sequence[Sequence[Sequence[Cell]]], height: int, width: int,
                order: Sequence[Line]) -> list[int]:
    """The level of every vessel (a list of layers, bottom first) the walk gives."""
    where: dict[Cell, tuple[int, int]] = {}   # cell -> (vessel, layer)
    for v, layers in enumerate(vessels):
        for k, layer in enumerate(layers):
            for cell in layer:
                where[cell] = (v, k)
    if len(where) != height * width:
        raise ValueError("the vessels must cover the board")
    low = [0] * len(vessels)                  # layers below ``low`` are filled
    high = [len(layers) for layers in vessels]  # layers from ``high`` on are empty
    for kind, index in order:
        cells = ([(index, c) for c in range(width)] if kind == "r"
                 else [(r, index) for r in range(height)])
        for cell in cells:
            v, k = where[cell]
            if low[v] <= k < high[v]:         # undecided: the line's default
                if kind == "r":
                    high[v] = k
                else:
                    low[v] = k + 1
    if low != high:  # every cell lies in a line, so every layer was decided
        raise AssertionError("the walk left a vessel undecided")
    return low


def plant_peeled(height: int, width: int, rng: random.Random, *, max_length: int,
                 straight: bool) -> tuple[PathTiling, list[Line]]:
    """A random tiling and the filling a random line order peels off (module doc);
    and that order."""
    paths = random_partition(height, width, rng, max_length=max_length, straight=straight)
    tiling = PathTiling(height, width, paths, max_length=max_length, straight=straight)
    order = line_order(height, width, rng)
    levels = peel_levels([[[cell] for cell in path] for path in paths], height, width, order)
    for path, level in zip(paths, levels, strict=True):
        tiling.set_level(path[0], level)
    return tiling, order


def medium_first(tiling: PathTiling, order: Sequence[Line],
                 deadline: Deadline | None = None) -> list[Line]:
    """The lines in the order to try deleting their clue when a ``medium`` board is wanted.

    Deleting the clue of a line late in the walk leaves the board easy (its
    cells were decided before it came); deleting one early usually makes it
    need search, or lets a rival in. The boards probing finishes come from
    lines just before that transition (docs/journal.md, 2026-12-03). So: the lines
    whose deletion interval propagation cannot absorb -- a cheap test -- latest in
    the walk first, then the rest. ``deadline``: asked before each line (a 100x100 board's 200 tests
    take tens of seconds); past it [`GenerationTimeUp`][thermomilp.core.errors.GenerationTimeUp].
    """
    from thermomilp.core.puzzle import thermometers
    from thermomilp.generate.rivals import check_time
    from thermomilp.logic.presolve import logic_finishes

    rows, cols = tiling.clues()
    paths = tiling.paths()

    def absorbed(line: Line) -> bool:
        check_time(deadline, "clue deletion")
        kind, index = line
        r: list[int | None] = list(rows)
        c: list[int | None] = list(cols)
        (r if kind == "r" else c)[index] = None
        return logic_finishes(thermometers(r, c, paths))

    needed = [line for line in reversed(order) if not absorbed(line)]
    return needed + [line for line in reversed(order) if line not in needed]
