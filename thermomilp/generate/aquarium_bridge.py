"""``generate --puzzle aquarium``: one Aquarium board of a seeded series, graded.

``difficulty`` works as the page's "New" button does (`thermomilp.web.newboard`):
boards are drawn with minimal clues (unless a clue request says otherwise) and drawn
again, with the next seed of the attempt, until the grade matches. Every board is named
after the seed the user gave (``aquarium 6x6 seed 3:0``: series seed 3, board 0), and
its ``source:`` line is the command that makes it again.
"""

from __future__ import annotations

import dataclasses
import hashlib

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError, GenerationTimeUp, TimeUp
from thermomilp.core.puzzle import Puzzle
from thermomilp.generate.aquarium_gen import generate_aquarium
from thermomilp.generate.rivals import check_time

DIFFICULTY_ATTEMPTS = 200
"""Boards drawn for a ``difficulty`` before giving up."""


def aquarium_board(height: int, width: int, seed: int | str, index: int,
                   rule: str = "tank", time_limit: float | None = None, *,
                   minimal_clues: bool = False, missing_clues: int = 0,
                   strategy: str | None = None, difficulty: str | None = None) -> Puzzle:
    """One graded board (a pool-rule board is graded on its layer trees,
    `thermomilp.logic.tree.grade`): every clue, a minimal clue set
    (``minimal_clues``) or ``missing_clues`` clues deleted. ``strategy``: ``peel`` or
    ``repair`` (None: by size, `default_strategy`).
    ``difficulty`` (``easy``/``medium``/``hard``): drawn again until the grade matches
    (module doc); without a clue request the boards have minimal clues, as the page's.

    Raises:
        GenerationTimeUp: ``time_limit`` seconds passed (for the whole board, every
            attempt and grade included).
        GenerationError: a size no board has, or no unique board (of the difficulty) was
            found.
    """
    from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade

    if difficulty is not None and not missing_clues:
        minimal_clues = True  # as the page draws them: full clues are nearly always easy
    clock = Deadline(time_limit)
    attempts = 1 if difficulty is None else DIFFICULTY_ATTEMPTS
    seen: dict[str, int] = {}
    for attempt in range(attempts):
        check_time(clock if time_limit is not None else None, "next attempt")
        board = generate_aquarium(height, width, _int_seed(seed, index, attempt),
                                  minimal_clues=minimal_clues, rule=rule,
                                  time_limit=clock.remaining(), missing_clues=missing_clues,
                                  strategy=strategy)
        try:
            board_grade = grade(board, stop=clock.expired if time_limit is not None else None)
        except TimeUp:
            raise GenerationTimeUp(f"gave up: no {height}x{width} board within the time "
                                   "limit (grading)", "grading") from None
        got = GRADE_TO_DIFFICULTY[board_grade]
        if difficulty is None or got == difficulty:
            return _named(board.with_grade(board_grade), height, width, seed, index, rule,
                          minimal_clues, missing_clues, strategy, difficulty)
        seen[got] = seen.get(got, 0) + 1
    made = ", ".join(f"{n} {d}" for d, n in sorted(seen.items()))
    raise GenerationError(f"no {difficulty} {height}x{width} Aquarium in {attempts} attempts "
                          f"(drawn: {made})" + ("; hard Aquarium boards are rare below 10x10"
                                                if difficulty == "hard" else ""))


def _named(board: Puzzle, height: int, width: int, seed: int | str, index: int, rule: str,
           minimal_clues: bool, missing_clues: int, strategy: str | None,
           difficulty: str | None) -> Puzzle:
    """The board named after the user's seed, with the command that makes it again."""
    variant = (" minimal clues" if minimal_clues else
               f" {missing_clues} missing clues" if missing_clues else " full clues")
    words = [f"thermomilp generate --puzzle aquarium --size {height}x{width} --seed {seed}",
             f"--rule {rule}"]
    if strategy:
        words.append(f"--strategy {strategy}")
    if missing_clues:
        words.append(f"--missing-clues {missing_clues}")
    elif minimal_clues and difficulty is None:
        words.append("--minimal-clues")
    if difficulty:
        words.append(f"--difficulty {difficulty}")
    return dataclasses.replace(board, name=f"aquarium {height}x{width} seed {seed}:{index}"
                                           f"{variant}",
                               source=" ".join(words) + f" (board {index})")


def _int_seed(seed: int | str, index: int, attempt: int = 0) -> int:
    """One integer per (series seed, board index, attempt), stable across runs; attempt 0
    is the board's first draw (the same as before attempts existed)."""
    tag = f"{seed}:{index}" if attempt == 0 else f"{seed}:{index}:{attempt}"
    digest = hashlib.sha256(tag.encode()).digest()
    return int.from_bytes(digest[:4], "big")
