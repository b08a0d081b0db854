"""Random Thermometers boards with a planted solution.

``random_partition`` tiles the grid with thermometers whose lengths look like
published puzzles' (target lengths from ``LENGTH_WEIGHTS``), grown by
Warnsdorff's rule; a single cell left over joins a neighbour or takes its end
cell (``_steal``). The steps: docs/generate.md, "`repair`", step 1.

``planted_board`` gives each thermometer a random level and sets every clue
from the planted grid, so the board has at least that solution. This is the
write-up's generator step before its uniqueness check (``--strategy reroll``).
"""

from __future__ import annotations

import heapq
import random
from typing import Sequence

from thermomilp.core.puzzle import Cell, Puzzle, grid_from_levels, thermometers
from thermomilp.generate.paths import STEPS, PathTiling

# relative frequency of target lengths (published boards: mostly 2..6)
LENGTH_WEIGHTS = {2: 3.0, 3: 4.0, 4: 3.5, 5: 2.5, 6: 1.5, 7: 0.7, 8: 0.4}


def draw_length(rng: random.Random, max_length: int) -> int:
    lengths = [n for n in LENGTH_WEIGHTS if n <= max_length] or [max(1, max_length)]
    weights = [LENGTH_WEIGHTS.get(n, 1.0) for n in lengths]
    if max_length > max(LENGTH_WEIGHTS):
        lengths += list(range(max(LENGTH_WEIGHTS) + 1, max_length + 1))
        weights += [0.2] * (max_length - max(LENGTH_WEIGHTS))
    return rng.choices(lengths, weights)[0]


def random_partition(height: int, width: int, rng: random.Random, *, max_length: int = 6,
                     straight: bool = False) -> list[list[Cell]]:
    """Cover the grid with thermometers, bulb first, lengths 1..max_length (see module doc)."""
    free = {(r, c) for r in range(height) for c in range(width)}

    def free_degree(cell: Cell) -> int:
        r, c = cell
        return sum((r + dr, c + dc) in free for dr, dc in STEPS)

    order = sorted(free)
    rng.shuffle(order)
    position = {cell: k for k, cell in enumerate(order)}
    # The next bulb is the free cell of least free degree, first in ``order`` on
    # ties. A heap with an entry per (cell, degree) finds it in O(log n); degrees
    # only fall, so entries whose degree is no longer current are skipped.
    heap = [(free_degree(cell), position[cell], cell) for cell in order]
    heapq.heapify(heap)

    def take(cell: Cell) -> None:
        free.discard(cell)
        r, c = cell
        for dr, dc in STEPS:
            nb = (r + dr, c + dc)
            if nb in free:
                heapq.heappush(heap, (free_degree(nb), position[nb], nb))

    therms: list[list[Cell]] = []
    while free:
        degree, _, start = heapq.heappop(heap)
        if start not in free or degree != free_degree(start):
            continue
        take(start)
        chain = [start]
        target = draw_length(rng, max_length)
        direction = None
        while len(chain) < target:
            r, c = chain[-1]
            steps = [direction] if straight and direction else list(STEPS)
            rng.shuffle(steps)
            options = [((r + dr, c + dc), (dr, dc)) for dr, dc in steps
                       if (r + dr, c + dc) in free]
            if not options:
                break
            nxt, direction = min(options, key=lambda o: free_degree(o[0]))
            chain.append(nxt)
            take(nxt)
        therms.append(chain)
    if rng.random() < 0.5:  # the walk grew tip-wards or bulb-wards: pick at random per board
        therms = [t[::-1] if rng.random() < 0.5 else t for t in therms]
    tiling = PathTiling(height, width, therms, max_length=max_length, straight=straight)
    tiling.absorb_short(rng)
    _steal(tiling, rng)
    return tiling.paths()


def _steal(tiling: PathTiling, rng: random.Random) -> None:
    """Give each remaining single cell the end cell of a neighbour of 3+ cells."""
    for cell in list(tiling.cells()):
        if cell in tiling.pred or cell in tiling.succ:
            continue
        neighbours = list(tiling.neighbours(cell))
        for nb in rng.sample(neighbours, k=len(neighbours)):
            path = tiling.path_of(nb)
            if len(path) < 3 or nb not in (path[0], path[-1]):
                continue
            if nb == path[-1]:
                tiling.cut_before(nb)
                if tiling.can_join(nb, cell):
                    tiling.join(nb, cell)
                    break
                tiling.join(path[-2], nb)
            else:
                tiling.cut_after(nb)
                if tiling.can_join(cell, nb):
                    tiling.join(cell, nb)
                    break
                tiling.join(nb, path[1])


def clues_of(grid: Sequence[str]) -> tuple[list[int], list[int]]:
    rows = [row.count("#") for row in grid]
    cols = [sum(row[j] == "#" for row in grid) for j in range(len(grid[0]))]
    return rows, cols


def planted_board(height: int, width: int, rng: random.Random, *, max_length: int = 6,
                  straight: bool = False, missing: float = 0.0) -> Puzzle:
    """A board whose clues come from random levels; ``missing`` = chance a clue is dropped."""
    therms = random_partition(height, width, rng, max_length=max_length, straight=straight)
    skeleton = thermometers([0] * height, [0] * width, therms)
    levels = [rng.randint(0, len(t)) for t in therms]
    grid = grid_from_levels(skeleton, levels)
    rows, cols = clues_of(grid)
    rows_m = [None if rng.random() < missing else v for v in rows]
    cols_m = [None if rng.random() < missing else v for v in cols]
    return thermometers(rows_m, cols_m, therms, solution=grid)
