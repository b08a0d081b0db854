"""``generate --puzzle aquarium``: one Aquarium board of a seeded series, graded."""

from __future__ import annotations

import hashlib

from thermomilp.core.puzzle import Puzzle
from thermomilp.generate.aquarium_gen import generate_aquarium


def aquarium_board(height: int, width: int, seed: int | str, index: int,
                   rule: str = "tank", time_limit: float | None = None, *,
                   minimal_clues: bool = False, missing_clues: int = 0,
                   strategy: str | None = None) -> Puzzle:
    """One graded board (a pool-rule board is graded on its layer trees,
    :func:`thermomilp.logic.tree.grade`): every clue, a minimal clue set
    (``minimal_clues``) or ``missing_clues`` clues deleted. ``strategy``: ``peel`` or
    ``repair`` (None: by size, :func:`~thermomilp.generate.aquarium_gen.default_strategy`).

    Raises:
        GenerationError: a size no board has, no unique board was found, or
            ``time_limit`` seconds passed.
    """
    board = generate_aquarium(height, width, _int_seed(seed, index),
                              minimal_clues=minimal_clues, rule=rule, time_limit=time_limit,
                              missing_clues=missing_clues, strategy=strategy)
    from thermomilp.logic.grade import grade

    return board.with_grade(grade(board))


def _int_seed(seed: int | str, index: int) -> int:
    """One integer per (series seed, board index), stable across runs."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
