"""Fresh boards for the page's "New" button.

Both kinds are made the write-up's way: a random partition into vessels, a
random level for each, clues counted from that planted grid, then the MILP
uniqueness check; a board with a second solution is thrown away and a new
one drawn ("reroll"), up to a time budget. Small boards (up to about 6x6)
are unique within a few tries; larger ones rarely are, and the answer then
says ``unique: false`` rather than pretending.

Thermometers use :func:`thermomilp.generate.random_board.planted_board`
(planted levels, every clue given); Aquarium uses
:func:`thermomilp.generate.aquarium_gen.generate_aquarium` (unique by
construction, clues deleted while the board stays unique). Either way the
MILP counts the solutions of the result before the page gets it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from thermomilp.generate.aquarium_gen import generate_aquarium
from thermomilp.generate.random_board import planted_board
from thermomilp.puzzle import Puzzle

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
    make = _thermometers if kind == "thermometers" else _aquarium
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


def _aquarium(height: int, width: int, rng: random.Random) -> Puzzle:
    # The aquarium generator proves uniqueness itself (subset-sum DP counter) and deletes
    # the clues that are not needed; the MILP check in new_board confirms it independently.
    return generate_aquarium(height, width, seed=rng.randrange(2**32))
