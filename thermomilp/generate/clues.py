"""Missing-clue boards: delete line clues while the board stays unique.

Clues are tried in a seeded random order; a clue is deleted when the board
without it still has no rival (``rivals.find_rival``, the MILP with the
planted solution's no-good cut). Stopping after ``count`` deletions gives the
``--missing-clues K`` variant; trying every clue gives a **minimal** clue set
(``--minimal-clues``): every clue left is load-bearing. Greedy deletion is
enough for minimality because uniqueness is monotone in the clue set --
a clue whose deletion broke uniqueness while more clues were present breaks
it also after further deletions (fewer clues, more rivals).
"""

from __future__ import annotations

import random
import time
from typing import Callable

from thermomilp.generate.paths import PathTiling
from thermomilp.generate.rivals import find_rival

Clues = list[int | None]


def delete_clues(tiling: PathTiling, rows: Clues, cols: Clues, rng: random.Random, *,
                 count: int | None = None,
                 until: Callable[[Clues, Clues], bool] | None = None,
                 deadline: float | None = None) -> tuple[Clues, Clues, int]:
    """Clues with up to ``count`` (None: as many as possible) deleted; and how many were.

    ``until(rows, cols)``, when given, is asked after each deletion and stops
    the deletions when it returns True (the generator's "hard enough yet?").
    ``deadline`` (a ``time.perf_counter()`` value): past it :class:`TimeoutError`.
    """
    rows, cols = list(rows), list(cols)
    slots = [("r", i) for i, v in enumerate(rows) if v is not None]
    slots += [("c", j) for j, v in enumerate(cols) if v is not None]
    rng.shuffle(slots)
    deleted = 0
    for line, k in slots:
        if count is not None and deleted >= count:
            break
        target = rows if line == "r" else cols
        kept = target[k]
        target[k] = None
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            raise TimeoutError("clue deletion ran out of time")
        if find_rival(tiling, rows, cols, time_limit=left) is None:
            deleted += 1
            if until is not None and until(rows, cols):
                break
        else:
            target[k] = kept
    return rows, cols, deleted


def load_bearing(tiling: PathTiling, rows: Clues, cols: Clues) -> list[tuple[str, int]]:
    """The clues whose single deletion lets a rival in (all of them, for a minimal set)."""
    bearing = []
    for line, clues in (("row", rows), ("col", cols)):
        for k, v in enumerate(clues):
            if v is None:
                continue
            trial = list(clues)
            trial[k] = None
            r, c = (trial, cols) if line == "row" else (rows, trial)
            if find_rival(tiling, r, c) is not None:
                bearing.append((line, k))
    return bearing
