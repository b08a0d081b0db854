"""``generate --puzzle aquarium``: the Aquarium generator, graded, when its module is present.

The Aquarium generator (``thermomilp.generate.aquarium_gen.generate_aquarium``)
is written on its own branch; until it is merged this bridge raises a clear
"not available" error instead of an import traceback.
"""

from __future__ import annotations

from thermomilp.errors import ThermomilpError
from thermomilp.puzzle import Puzzle


class AquariumUnavailable(ThermomilpError):
    """The Aquarium generator is not part of this installation."""


def aquarium_board(height: int, width: int, seed: int | str, index: int,
                   rule: str = "tank", time_limit: float | None = None) -> Puzzle:
    """One graded board (a pool-rule board is graded on its layer trees,
    :func:`thermomilp.logic.tree.grade`)."""
    try:
        from thermomilp.generate.aquarium_gen import generate_aquarium
    except ImportError as exc:
        raise AquariumUnavailable("generate --puzzle aquarium is not available in this build: "
                                  "the Aquarium generator (thermomilp.generate.aquarium_gen) "
                                  "is not installed") from exc
    try:
        board = generate_aquarium(height, width, _int_seed(seed, index), minimal_clues=True,
                                  rule=rule, time_limit=time_limit)
    except (ValueError, RuntimeError) as exc:
        raise AquariumUnavailable(f"cannot generate that Aquarium: {exc}") from exc
    board = getattr(board, "puzzle", board)
    from thermomilp.logic.grade import grade

    return board.with_grade(grade(board))


def _int_seed(seed: int | str, index: int) -> int:
    """One integer per (series seed, board index), stable across runs."""
    import hashlib

    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")
