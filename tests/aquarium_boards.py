"""Shared helpers for the Aquarium tests: the public 6x6 and random small boards."""

from __future__ import annotations

import random

from thermomilp.core.puzzle import Puzzle, aquarium, grid_from_levels
from thermomilp.generate.aquarium_gen import random_tanks

# A public 6x6 (tank ids row by row); built here, never shipped in instances/.
PUBLIC_TANKS = "1 1 2 2 3 3 / 4 5 3 3 3 6 / 4 5 3 3 6 6 / 4 5 3 3 3 6 / 5 5 6 6 3 6 / 5 5 6 6 6 6"
PUBLIC_COLS = [2, 1, 3, 3, 3, 5]
PUBLIC_ROWS = [4, 1, 2, 2, 4, 4]


def public_6x6() -> Puzzle:
    return aquarium(PUBLIC_ROWS, PUBLIC_COLS, [r.split() for r in PUBLIC_TANKS.split("/")])


def random_board(rng: random.Random, max_side: int = 6, missing: float = 0.0) -> Puzzle:
    """A random partition with planted waterlines; each clue dropped with prob ``missing``."""
    h, w = rng.randint(1, max_side), rng.randint(1, max_side)
    n_tanks = rng.randint(1, max(1, h * w // 2))
    regions = random_tanks(h, w, rng, n_tanks)
    board = aquarium([0] * h, [0] * w, regions)
    grid = grid_from_levels(board, [rng.randint(0, v.depth) for v in board.vessels])
    rows = [row.count("#") if rng.random() >= missing else None for row in grid]
    cols = [sum(r[j] == "#" for r in grid) if rng.random() >= missing else None
            for j in range(w)]
    return aquarium(rows, cols, regions)


def partition(puzzle: Puzzle) -> set[frozenset]:
    """The tanks as cell sets: equal for two boards that differ only in labels."""
    return {frozenset(v.cells) for v in puzzle.vessels}
