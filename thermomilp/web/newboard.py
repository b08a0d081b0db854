"""Fresh boards for the page's "New" button.

Both kinds are made the write-up's way: a random partition into vessels, a
random level for each, clues counted from that planted grid, then the MILP
uniqueness check; a board with a second solution is thrown away and a new
one drawn ("reroll"), up to a time budget. Small boards (up to about 6x6)
are unique within a few tries; larger ones rarely are, and the answer then
says ``unique: false`` rather than pretending.

Thermometers use :func:`thermomilp.generate.random_board.planted_board`;
Aquarium uses the aquarium generator when it is installed
(``thermomilp.generate.aquarium``) and otherwise the planted tank board below.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from thermomilp.generate.random_board import clues_of, planted_board
from thermomilp.puzzle import Cell, Puzzle, aquarium, grid_from_levels

REROLL_SECONDS = 4.0


DIFFICULTIES = ("any", "easy", "medium", "hard")


@dataclass(frozen=True)
class NewBoard:
    puzzle: Puzzle
    unique: bool
    tries: int
    seed: int
    difficulty: str | None = None  # easy | medium | hard, when the logic grader is installed


def new_board(kind: str, height: int, width: int, seed: int | None = None, *,
              difficulty: str = "any", backend: str = "highs", solver: str = "highs",
              budget: float = REROLL_SECONDS) -> NewBoard:
    """A random board of ``kind``, unique when the reroll finds one in ``budget`` seconds.

    ``difficulty`` (easy / medium / hard, graded by ``thermomilp.logic.grade``:
    the weakest rule set that finishes the board) is a wish: when no unique
    board of that grade turns up in time, the last unique board of another
    grade is returned, and its ``difficulty`` says which.
    """
    from thermomilp.solve import count_solutions

    seed = random.randrange(1 << 30) if seed is None else seed
    rng = random.Random(seed)
    make = _thermometers if kind == "thermometers" else _aquarium_maker()
    deadline = time.perf_counter() + budget
    tries, puzzle, fallback = 0, None, None
    while True:
        tries += 1
        puzzle = make(height, width, rng)
        count = count_solutions(puzzle, 2, backend, solver, time_limit=max(budget, 1.0))
        if count == 1:
            graded = difficulty_of(puzzle)
            found = NewBoard(_named(puzzle, kind, seed), True, tries, seed, graded)
            if difficulty == "any" or graded is None or graded == difficulty:
                return found
            fallback = found
        if time.perf_counter() > deadline:
            if fallback is not None:
                return NewBoard(fallback.puzzle, True, tries, seed, fallback.difficulty)
            return NewBoard(_named(puzzle, kind, seed), False, tries, seed, "hard")


def difficulty_of(puzzle: Puzzle) -> str | None:
    """easy / medium / hard from the logic grader, or None when it is not installed."""
    try:
        from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade
    except ImportError:
        return None
    return GRADE_TO_DIFFICULTY[grade(puzzle)]


def _named(puzzle: Puzzle, kind: str, seed: int) -> Puzzle:
    return Puzzle(puzzle.kind, puzzle.rows, puzzle.cols, puzzle.vessels,
                  f"new {kind} {puzzle.height}x{puzzle.width} (seed {seed})",
                  "thermomilp serve generator", puzzle.solution)


def _thermometers(height: int, width: int, rng: random.Random) -> Puzzle:
    return planted_board(height, width, rng, max_length=min(5, max(height, width)))


def _aquarium_maker():
    try:
        from thermomilp.generate.aquarium import generate_aquarium  # type: ignore
    except ImportError:
        return planted_aquarium

    def make(height: int, width: int, rng: random.Random) -> Puzzle:
        return generate_aquarium(height, width, rng)
    return make


def planted_aquarium(height: int, width: int, rng: random.Random) -> Puzzle:
    """Tanks grown from random seeds (connected by construction), random waterlines."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    n_tanks = max(2, (height * width) // 5)
    seeds = rng.sample(cells, n_tanks)
    owner: dict[Cell, int] = {cell: t for t, cell in enumerate(seeds)}
    frontier = list(seeds)
    while len(owner) < len(cells):
        r, c = frontier[rng.randrange(len(frontier))]
        options = [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                   if 0 <= r + dr < height and 0 <= c + dc < width and (r + dr, c + dc) not in owner]
        if not options:
            frontier.remove((r, c))
            continue
        nxt = rng.choice(options)
        owner[nxt] = owner[(r, c)]
        frontier.append(nxt)
    labels = _labels(n_tanks)
    regions = [[labels[owner[(r, c)]] for c in range(width)] for r in range(height)]
    skeleton = aquarium([0] * height, [0] * width, regions)
    levels = [rng.randint(0, v.depth) for v in skeleton.vessels]
    grid = grid_from_levels(skeleton, levels)
    rows, cols = clues_of(grid)
    return aquarium(rows, cols, regions, solution=grid)


def _labels(n: int) -> list[str]:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        label, i2 = "", i
        while True:
            label = alphabet[i2 % len(alphabet)] + label
            i2 = i2 // len(alphabet) - 1
            if i2 < 0:
                break
        out.append(label)
    return out
