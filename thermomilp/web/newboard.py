"""Fresh boards for the page's "New" button (docs/serve.md, "Pick a puzzle").

Thermometers come from
[`generate_thermometers`][thermomilp.generate.thermometers_gen.generate_thermometers]; a
difficulty wish it cannot meet in time falls back to a board of any grade, then to the
write-up's reroll. Aquarium boards come from
[`generate_aquarium`][thermomilp.generate.aquarium_gen.generate_aquarium], redrawn with new
seeds until the grade matches the wish or the budget runs out. ``unique`` in the answer is
the server's own count with its [`Settings`][thermomilp.core.settings.Settings], not the
generator's word; the generators' rival search runs HiGHS whatever the settings say (a
fixed use, ``core/engines.py``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable

from thermomilp.core.deadline import Deadline
from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Settings
from thermomilp.generate.aquarium_gen import generate_aquarium
from thermomilp.generate.random_board import planted_board

REROLL_SECONDS = 4.0
DIFFICULTIES = ("any", "easy", "medium", "hard")
MAX_SIDE = {"thermometers": 15, "aquarium": 12}


@dataclass(frozen=True)
class NewBoard:
    puzzle: Puzzle
    unique: bool
    tries: int
    seed: int
    difficulty: str | None = None  # easy | medium | hard


def new_board(kind: str, height: int, width: int, seed: int | None = None, *,
              difficulty: str = "any", settings: Settings | None = None,
              budget: float = REROLL_SECONDS) -> NewBoard:
    """A random board of ``kind``; ``difficulty`` is a wish (see the module docstring);
    ``settings`` (default: [`Settings`][thermomilp.core.settings.Settings]) count its solutions."""
    from thermomilp.logic.grade import difficulty as difficulty_of
    from thermomilp.solving import count_solutions

    settings = settings if settings is not None else Settings()
    seed = random.randrange(1 << 30) if seed is None else seed
    if kind == "thermometers":
        puzzle, tries = _thermometers(height, width, seed, difficulty, budget, settings)
    else:
        puzzle, tries = _reroll(lambda rng: generate_aquarium(height, width,
                                                              seed=rng.randrange(2**32)),
                                seed, difficulty, budget, settings)
    unique = count_solutions(puzzle, 2, settings=settings) == 1
    return NewBoard(_named(puzzle, kind, seed), unique, tries, seed,
                    difficulty_of(puzzle) if unique else "hard")


def _named(puzzle: Puzzle, kind: str, seed: int) -> Puzzle:
    return Puzzle(puzzle.kind, puzzle.rows, puzzle.cols, puzzle.vessels,
                  f"new {kind} {puzzle.height}x{puzzle.width} (seed {seed})",
                  "thermomilp serve generator", puzzle.solution)


def _thermometers(height: int, width: int, seed: int, difficulty: str,
                  budget: float, settings: Settings) -> tuple[Puzzle, int]:
    from thermomilp.generate.thermometers_gen import GenerationError, generate_thermometers

    wishes = [None] if difficulty == "any" else [difficulty, None]
    for wish in wishes:
        try:
            made = generate_thermometers(height, width, seed, difficulty=wish,
                                         time_limit=budget)
            return made.puzzle, made.attempts
        except GenerationError:
            continue
    return _reroll(lambda rng: planted_board(height, width, rng,
                                             max_length=min(5, max(height, width))),
                   seed, "any", budget, settings)


def _reroll(make: Callable[[random.Random], Puzzle], seed: int, difficulty: str,
            budget: float, settings: Settings) -> tuple[Puzzle, int]:
    """Draw boards until one is unique with the wished difficulty, or the budget ends.
    Each count runs with ``settings``, within their time limit and the budget (at
    least a second).

    Returns the first match, else the last unique board drawn, else the last board.
    """
    from thermomilp.logic.grade import difficulty as difficulty_of
    from thermomilp.solving import count_solutions

    limit = min(s for s in (settings.time_limit, max(budget, 1.0)) if s is not None)
    rng = random.Random(seed)
    deadline = time.perf_counter() + budget
    tries, fallback = 0, None
    while True:
        tries += 1
        puzzle = make(rng)
        if count_solutions(puzzle, 2, settings=settings, deadline=Deadline(limit)) == 1:
            if difficulty == "any" or difficulty_of(puzzle) == difficulty:
                return puzzle, tries
            fallback = puzzle
        if time.perf_counter() > deadline:
            return (fallback or puzzle), tries
