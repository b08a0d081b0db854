"""The scaling strategy: plant a solution, then repair the tiling until no rival is left.

Algorithm (``repair_unique``):

1. Plant: a random tiling (``random_partition``) and a random level per
   thermometer give the filling ``x*``; the clues are read off ``x*``.
2. Find a rival ``y != x*`` (``rivals.find_rival``): first in small windows
   with everything outside fixed to ``x*`` (milliseconds each, only windows
   where the tiling changed since they were last clean), then on the whole
   board once every window is clean.
3. Repair: pick adjacent cells ``p, s`` with ``y_p = 0, y_s = 1`` and make
   ``s`` follow ``p`` in one thermometer (``PathTiling.link``). The new arc
   ``x_s <= x_p`` holds in ``x*`` (we only pick pairs with ``x*_p = 1`` or
   ``x*_s = 0``) and fails in ``y``, so ``y`` is gone while ``x*`` and the
   clues stay. Of all such pairs we take one that leaves the fewest single-cell
   thermometers after ``absorb_short`` (ties broken by the seeded RNG).
4. When no pair exists (rare), move the level of one thermometer where ``x*``
   and ``y`` differ; the clues change with it.
5. Repeat from 2 until the whole-board question is infeasible: the board is
   unique, proven by the MILP. A move budget bounds the loop; when it runs out
   the board is planted afresh.

Cutting links to make room for the new arc can let other rivals in, so the
loop is not monotone; in practice each repair kills a whole family of rivals
(every rival using the same local swap) and the loop converges in a number of
moves roughly proportional to the board's area.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from thermomilp.generate.paths import PathTiling
from thermomilp.generate.random_board import random_partition
from thermomilp.generate.rivals import Window, find_rival, windows
from thermomilp.puzzle import Cell, Grid

WINDOW_SIZE, WINDOW_STEP = 6, 3


@dataclass(frozen=True)
class RepairStats:
    plants: int          # boards planted (1 + restarts after the move budget ran out)
    moves: int           # link moves made
    level_moves: int     # level changes made
    window_solves: int   # window MILPs
    board_solves: int    # whole-board MILPs


def plant(height: int, width: int, rng: random.Random, *, max_length: int,
          straight: bool) -> PathTiling:
    paths = random_partition(height, width, rng, max_length=max_length, straight=straight)
    tiling = PathTiling(height, width, paths, max_length=max_length, straight=straight)
    for path in tiling.paths():
        tiling.set_level(path[0], rng.randint(0, len(path)))
    return tiling


def repair_unique(height: int, width: int, rng: random.Random, *, max_length: int = 6,
                  straight: bool = False, max_plants: int = 50) -> tuple[PathTiling, RepairStats]:
    """A tiling and planted filling whose clues have exactly one solution (module doc)."""
    budget = 6 * height * width + 50
    counts = {"moves": 0, "level_moves": 0, "window_solves": 0, "board_solves": 0}
    for plants in range(1, max_plants + 1):
        tiling = plant(height, width, rng, max_length=max_length, straight=straight)
        if _repair(tiling, rng, budget, counts):
            return tiling, RepairStats(plants, **counts)
    raise RuntimeError(f"no unique {height}x{width} board after {max_plants} plantings")


def _repair(tiling: PathTiling, rng: random.Random, budget: int, counts: dict[str, int]) -> bool:
    all_windows = windows(tiling.height, tiling.width, WINDOW_SIZE, WINDOW_STEP)
    small = len(all_windows) == 1  # the window is the board: ask the board directly
    dirty = set() if small else set(range(len(all_windows)))
    for _ in range(budget):
        rival = None
        while dirty and rival is None:
            k = min(dirty)
            counts["window_solves"] += 1
            rival = find_rival(tiling, window=all_windows[k])
            if rival is None:
                dirty.discard(k)
        if rival is None:
            counts["board_solves"] += 1
            rival = find_rival(tiling)
            if rival is None:
                return True
        touched = _kill(tiling, rival, rng, counts)
        if touched is None:
            dirty = set() if small else set(range(len(all_windows)))
        else:
            dirty |= {k for k, w in enumerate(all_windows) if any(c in w for c in touched)}
    return False


def _kill(tiling: PathTiling, rival: Grid, rng: random.Random,
          counts: dict[str, int]) -> set[Cell] | None:
    """Remove ``rival``; returns the cells whose links changed (None: the clues changed)."""
    ones = tiling.ones
    y = {(r, c) for r, row in enumerate(rival) for c, ch in enumerate(row) if ch == "#"}
    differ = (y - ones) | (ones - y)
    candidates: list[tuple[Cell, Cell]] = []
    for cell in differ:
        for nb in tiling.neighbours(cell):
            for p, s in ((cell, nb), (nb, cell)):
                if p not in y and s in y and (p in ones or s not in ones):
                    candidates.append((p, s))
    rng.shuffle(candidates)
    best: tuple[int, PathTiling] | None = None
    for p, s in candidates[:12]:
        trial = _copy(tiling)
        if not trial.link(p, s, rng):
            continue
        trial.absorb_short(rng)
        singles = sum(1 for path in trial.paths() if len(path) == 1)
        if best is None or singles < best[0]:
            best = (singles, trial)
        if singles == 0:
            break
    if best is None:
        counts["level_moves"] += 1
        bulbs = sorted({tiling.bulb_of(c) for c in differ})
        bulb = rng.choice(bulbs)
        tiling.set_level(bulb, rng.randint(0, len(tiling.path_from(bulb))))
        return None
    counts["moves"] += 1
    trial = best[1]
    touched = {c for c in tiling.cells()
               if trial.succ.get(c) != tiling.succ.get(c) or trial.pred.get(c) != tiling.pred.get(c)}
    tiling.succ, tiling.pred = trial.succ, trial.pred
    return touched


def _copy(tiling: PathTiling) -> PathTiling:
    twin = PathTiling(tiling.height, tiling.width, (), tiling.ones,
                      max_length=tiling.max_length, straight=tiling.straight)
    twin.succ, twin.pred = dict(tiling.succ), dict(tiling.pred)
    twin.ones = tiling.ones  # shared: link/absorb never change the filling
    return twin
