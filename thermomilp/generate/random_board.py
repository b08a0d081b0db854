"""Random Thermometers boards with a planted solution.

``random_partition`` tiles the grid with thermometers grown as random walks
(or straight runs); ``planted_board`` gives each a random level and sets
every clue from the planted grid, so the board has at least that solution.
This is the write-up's generator step before its uniqueness check.
"""

from __future__ import annotations

import random
from typing import Sequence

from thermomilp.puzzle import Cell, Puzzle, grid_from_levels, thermometers

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def random_partition(height: int, width: int, rng: random.Random, *, max_length: int = 5,
                     straight: bool = False) -> list[list[Cell]]:
    """Cover the grid with thermometers, bulb first, lengths 1..max_length."""
    free = {(r, c) for r in range(height) for c in range(width)}
    order = sorted(free)
    rng.shuffle(order)
    therms: list[list[Cell]] = []
    for start in order:
        if start not in free:
            continue
        target = rng.randint(2, max(2, max_length)) if max_length > 1 else 1
        chain = [start]
        free.discard(start)
        direction = rng.choice(STEPS)
        while len(chain) < target:
            r, c = chain[-1]
            options = [direction] if straight else list(STEPS)
            if not straight:
                rng.shuffle(options)
            nxt = None
            for dr, dc in options:
                cand = (r + dr, c + dc)
                if cand in free:
                    nxt, direction = cand, (dr, dc)
                    break
            if nxt is None:
                break
            chain.append(nxt)
            free.discard(nxt)
        therms.append(chain)
    return therms


def clues_of(grid: Sequence[str]) -> tuple[list[int], list[int]]:
    rows = [row.count("#") for row in grid]
    cols = [sum(row[j] == "#" for row in grid) for j in range(len(grid[0]))]
    return rows, cols


def planted_board(height: int, width: int, rng: random.Random, *, max_length: int = 5,
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
