"""The benchmark corpora, rebuilt from fixed seeds on every run (nothing stored).

* ``published``: boards with a unique solution, 6x6 to 15x15 -- the sizes
  puzzle sites publish. A planted board is *rerolled* until it is unique:
  while a second solution exists, every thermometer on which the two
  solutions differ gets a new extreme level (empty or full) and the clues are
  recomputed from the planted grid. Extreme levels pin a thermometer's cells,
  so a few rerolls usually remove every alternative.
* ``planted-N``: plain planted random N x N boards (N = 20, 40, 60, 100);
  the task is to *decide* uniqueness (a second solution, or a proof of none).
* ``aquarium``: uniquely solvable boards from thermomilp's Aquarium
  generator (``thermomilp.generate.aquarium_gen``, seeded), 6x6 to 15x15.

Uniqueness of the rerolled boards is decided with thermomilp while building
the corpus; the harness checks every method's verdict against the others.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from thermomilp.core.puzzle import Puzzle, grid_from_levels, thermometers
from thermomilp.generate.random_board import clues_of, random_partition


@dataclass(frozen=True)
class Board:
    name: str
    puzzle: Puzzle


def _planted(therms, levels, h, w) -> Puzzle:
    skeleton = thermometers([0] * h, [0] * w, therms)
    grid = grid_from_levels(skeleton, levels)
    rows, cols = clues_of(grid)
    return thermometers(rows, cols, therms, solution=grid)


def unique_board(size: int, rng: random.Random, max_rerolls: int = 200) -> Puzzle:
    """A planted board rerolled until its solution is unique (see module doc)."""
    from thermomilp.solving import solve

    while True:
        therms = random_partition(size, size, rng, max_length=6)
        levels = [rng.choice((0, len(t))) if rng.random() < 0.5 else rng.randint(0, len(t))
                  for t in therms]
        for _ in range(max_rerolls):
            puzzle = _planted(therms, levels, size, size)
            result = solve(puzzle)
            if result.status == "unique":
                return puzzle
            first, second = result.grid, result.second
            differ = {(r, c) for r in range(size) for c in range(size)
                      if first[r][c] != second[r][c]}
            for t, cells in enumerate(therms):
                if differ.intersection(map(tuple, cells)):
                    levels[t] = rng.choice((0, len(cells)))


def published(per_size: int = 4, sizes=(6, 8, 10, 12, 15), seed: int = 2026) -> list[Board]:
    rng = random.Random(seed)
    return [Board(f"u{n}x{n}-{k}", unique_board(n, rng)) for n in sizes for k in range(per_size)]


def planted(size: int, count: int, seed: int = 60) -> list[Board]:
    from thermomilp.generate.random_board import planted_board

    rng = random.Random(seed * 1000 + size)
    return [Board(f"p{size}x{size}-{k}", planted_board(size, size, rng)) for k in range(count)]


def aquariums(per_size: int = 3, sizes=(6, 8, 10, 12, 15), seed: int = 7) -> list[Board]:
    from thermomilp.generate.aquarium_gen import generate_aquarium

    rng = random.Random(seed)
    return [Board(f"a{n}x{n}-{k}", generate_aquarium(n, n, seed=rng.randrange(1 << 30)))
            for n in sizes for k in range(per_size)]


def held_out_stand_in(folder, count: int = 251, janko=None, seed: int = 28) -> list[str]:
    """Files standing in for the issue's 251 held-out published boards (not shipped):
    the janko 6x6 boards of ``janko`` (a folder, where present), then generated unique
    8x8 and 10x10 boards written to ``folder``, alternately, with the grade mix of the
    held-out janko 8x8/10x10 boards (docs/logic.md: 155 of 220 decided by intervals,
    the rest by probing): ``easy`` boards, one ``medium`` in every 3.5. Returns the paths
    (``count`` in all), in order."""
    from pathlib import Path

    from thermomilp.formats import dumps
    from thermomilp.generate.thermometers_gen import generate_thermometers

    files = sorted(str(p) for p in Path(janko).glob("*.txt")) if janko else []
    files = files[:count]
    for k in range(count - len(files)):
        size = (8, 10)[k % 2]
        difficulty = "medium" if k % 7 in (2, 5) else "easy"
        board = generate_thermometers(size, size, seed=seed, index=k,
                                      difficulty=difficulty).puzzle
        path = Path(folder) / f"g{k:03d}_{size}x{size}_{difficulty}.txt"
        path.write_text(dumps(board))
        files.append(str(path))
    return files
