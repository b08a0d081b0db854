"""The scaling strategy: plant a solution along a line order, then repair until no rival.

`repair_unique` plants a random tiling and a filling whose levels follow a
`LineOrder`, then asks for a rival (windows, short cycles of one-level moves,
regions, the whole board) and removes each one by re-planting a level or
adding an arc, until no rival is left or propagation decides every cell. The
steps and why they work: ``docs/generate.md``, "`repair`".
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import Cell, Grid, ones_of
from thermomilp.generate.clues import interval_cells
from thermomilp.generate.cycles import cycle_rival
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.peel import line_order
from thermomilp.generate.random_board import random_partition
from thermomilp.generate.rivals import _RivalUndecided, check_time, find_rival, windows

WINDOW_SIZE, WINDOW_STEP = 6, 3
WIDE_SIZE = 12
LEVEL_MOVE_SHARE = 0.5
PROBE = 200  # branch-and-bound nodes for the first-rival probes (then the plain question)
# what `repair_unique` counts: boards planted (1 + restarts after the move budget ran out),
# link moves, level changes, window MILPs, whole-board MILPs, MILPs over the cells where
# the last whole-board rival differed, rivals found as short cycles of one-level moves (no
# solver), plantings dropped because HiGHS could not decide a rival question
COUNTS = ("plants", "moves", "level_moves", "window_solves", "board_solves", "region_solves",
          "cycle_rivals", "undecided")


class LineOrder:
    """A random order of the rows and columns, and the label it gives each cell.

    Cell ``(r, c)`` is ``R`` when row ``r`` comes before column ``c``, else
    ``C``. If every cell a rival fills is ``R`` and every cell it empties is
    ``C``, the rival's difference is a balanced set of arcs ``r -> c`` (fill)
    and ``c -> r`` (empty) that all go forward in the order -- impossible, a
    balanced digraph has a cycle. Planting each level where the cells below
    are ``C`` and the cells above are ``R`` therefore rules out every rival
    that moves levels by at most ``depth`` cells near that frontier.
    """

    def __init__(self, height: int, width: int, rng: random.Random):
        pos = {node: k for k, node in enumerate(line_order(height, width, rng))}
        self.label = {(r, c): "R" if pos[("r", r)] < pos[("c", c)] else "C"
                      for r in range(height) for c in range(width)}

    def backward(self, ones: set[Cell]) -> set[Cell]:
        """Cells whose change runs against the order: empty ``C`` cells, filled ``R`` cells.

        Every rival of a board with all its clues changes one of them (class doc), so the
        rival search cuts over these only.
        """
        return {cell for cell, lab in self.label.items() if (cell in ones) == (lab == "R")}

    def levels(self, path: list[Cell], depth: int) -> list[int]:
        """Levels whose ``depth`` cells below are ``C`` and ``depth`` above are ``R``.

        With ``depth >= 1`` falling back to smaller depths, never empty: a
        path starting ``R`` takes level 0, one ending ``C`` is full, and one
        starting ``C`` and ending ``R`` changes label somewhere.
        """
        n = len(path)
        for d in range(depth, 0, -1):
            good = [L for L in range(n + 1)
                    if all(self.label[path[i]] == "C" for i in range(max(0, L - d), L))
                    and all(self.label[path[i]] == "R" for i in range(L, min(n, L + d)))]
            if good:
                return good
        return list(range(n + 1))


def plant(height: int, width: int, rng: random.Random, *, max_length: int,
          straight: bool, depth: int = 2, ordered: float = 1.0) -> tuple[PathTiling, LineOrder]:
    """A random tiling and filling; a share ``ordered`` of levels follow a line order."""
    paths = random_partition(height, width, rng, max_length=max_length, straight=straight)
    tiling = PathTiling(height, width, paths, max_length=max_length, straight=straight)
    order = LineOrder(height, width, rng)
    for path in tiling.paths():
        if depth > 0 and rng.random() < ordered:
            level = rng.choice(order.levels(path, depth))
        else:
            level = rng.randint(0, len(path))
        tiling.set_level(path[0], level)
    return tiling, order


def repair_unique(height: int, width: int, rng: random.Random, *, max_length: int = 6,
                  straight: bool = False, depth: int = 2, ordered: float = 1.0,
                  max_plants: int = 50, deadline: Deadline | None = None,
                  progress: Callable[[str], None] = lambda _: None,
                  stats: dict[str, Any] | None = None) -> tuple[PathTiling, str]:
    """A tiling and planted filling whose clues have exactly one solution (module doc),
    and how uniqueness was shown: ``milp`` (no rival) or ``logic`` (propagation decided
    every cell). ``stats``: the `COUNTS` of the loop are added to it.

    ``deadline``: the board's clock, checked at every step of the loop (each window,
    region and whole-board question, each move) and handed to every engine call; past
    it [`GenerationTimeUp`][thermomilp.core.errors.GenerationTimeUp]. Raises
    [`GenerationError`][thermomilp.core.errors.GenerationError] after ``max_plants`` plantings whose
    move budget ran out. A planting whose whole-board rival question
    the engine cannot decide (`_RivalUndecided`) is dropped like one whose budget ran out: the next
    planting follows.
    """
    counts = {} if stats is None else stats
    for key in COUNTS:
        counts.setdefault(key, 0)
    undecided: _RivalUndecided | None = None
    dropped = 0
    budget = 4 * (height + width) + 40
    for plants in range(1, max_plants + 1):
        check_time(deadline, "planting")
        counts["plants"] += 1
        tiling, order = plant(height, width, rng, max_length=max_length, straight=straight,
                              depth=depth, ordered=ordered)
        try:
            proof = _repair(tiling, order, depth, rng, budget, counts, deadline, progress)
        except _RivalUndecided as exc:
            counts["undecided"] += 1
            dropped, undecided = dropped + 1, exc
            progress(f"planting {plants} dropped: {exc}")
            continue
        if proof:
            return tiling, proof
    why = (f" ({dropped} dropped because HiGHS could not decide: {undecided})"
           if undecided is not None else "")
    raise GenerationError(f"no unique {height}x{width} board after {max_plants} plantings"
                          + why)


def _repair(tiling: PathTiling, order: LineOrder, depth: int, rng: random.Random, budget: int,
            counts: dict[str, int], deadline: Deadline | None,
            progress: Callable[[str], None]) -> str | None:
    """Repair until unique; returns how uniqueness was shown, None when the budget ran out."""
    # small windows first (lower indices are asked first), then wider ones
    all_windows = windows(tiling.height, tiling.width, WINDOW_SIZE, WINDOW_STEP)
    if max(tiling.height, tiling.width) > WIDE_SIZE:
        all_windows += windows(tiling.height, tiling.width, WIDE_SIZE, WIDE_SIZE // 2)
    small = len(all_windows) == 1  # the window is the board: ask the board directly
    dirty = set() if small else set(range(len(all_windows)))
    # cells where a whole-board rival differed: they often hold several more rivals
    focus: list[set[Cell]] = []
    for _ in range(budget):
        check_time(deadline, "repair loop")
        progress(f"repair, {counts['moves'] + counts['level_moves']} moves")
        rival = None
        while dirty and rival is None:
            k = min(dirty)
            counts["window_solves"] += 1
            rival = find_rival(tiling, window=all_windows[k], nearest=True,
                               backward=order.backward(tiling.ones), deadline=deadline)
            if rival is None:
                dirty.discard(k)
        if rival is None:
            rival = cycle_rival(tiling, order.backward(tiling.ones))
            counts["cycle_rivals"] += rival is not None
        while focus and rival is None:
            counts["region_solves"] += 1
            rival = find_rival(tiling, region=focus[-1], nearest=True,
                               backward=order.backward(tiling.ones), deadline=deadline)
            if rival is None:
                focus.pop()
        if rival is None:
            check_time(deadline, "repair loop")
            fixed, status = interval_cells(tiling)
            if status == "solved":
                return "logic"  # propagation decided every cell: no rival can exist
            counts["board_solves"] += 1
            rival = find_rival(tiling, nearest=False, fixed=fixed, probe=PROBE,
                               backward=order.backward(tiling.ones), deadline=deadline)
            if rival is None:
                return "milp"
            focus.append(_region(tiling, rival))
        touched = _kill(tiling, order, depth, rival, rng, counts)
        if not small:
            dirty |= {k for k, w in enumerate(all_windows) if any(c in w for c in touched)}
    return None


def _region(tiling: PathTiling, rival: Grid) -> set[Cell]:
    """The thermometers where ``rival`` differs from the planted filling."""
    return {cell for diff in ones_of(rival) ^ tiling.ones for cell in tiling.path_of(diff)}


def _kill(tiling: PathTiling, order: LineOrder, depth: int, rival: Grid, rng: random.Random,
          counts: dict[str, int]) -> set[Cell]:
    """Remove ``rival``; returns the cells whose links or filling changed."""
    ones = tiling.ones
    y = {(r, c) for r, row in enumerate(rival) for c, ch in enumerate(row) if ch == "#"}
    differ = (y - ones) | (ones - y)
    # 1. re-plant a level where the rival differs, one cell deeper in the line order
    moves = []
    for bulb in sorted({tiling.bulb_of(c) for c in differ}):
        path = tiling.path_from(bulb)
        level = sum(c in ones for c in path)
        options = [L for L in order.levels(path, depth + 1) if L != level]
        if len(options) < len(path) + 1:  # the order constrains this thermometer
            moves += [(bulb, L) for L in options]
    if moves and rng.random() < LEVEL_MOVE_SHARE:
        counts["level_moves"] += 1
        bulb, level = rng.choice(moves)
        path = tiling.path_from(bulb)
        tiling.set_level(bulb, level)
        return set(path)
    # 2. a new arc p -> s with y_p = 0, y_s = 1 that x* keeps
    candidates: list[tuple[Cell, Cell]] = []
    for cell in differ:
        for nb in tiling.neighbours(cell):
            for p, s in ((cell, nb), (nb, cell)):
                if p not in y and s in y and (p in ones or s not in ones):
                    candidates.append((p, s))
    rng.shuffle(candidates)
    best: tuple[tuple[int, int], PathTiling] | None = None
    for p, s in candidates:
        trial = _copy(tiling)
        if not trial.link(p, s, rng):
            continue
        cut = [a for a, b in tiling.succ.items() if trial.succ.get(a) != b]
        ends = [c for a in cut for c in (a, tiling.succ[a])]
        for cell in ends:  # a tip (bulb) the links left joins a neighbouring bulb (tip)
            trial.join_somewhere(cell, cell, rng)
        ends += [p, s]
        trial.absorb_short(rng, near=ends)  # single cells can only appear where links were cut
        removed = sum(1 for a, b in tiling.succ.items() if trial.succ.get(a) != b)
        singles = sum(1 for c in set(ends) if c not in trial.succ and c not in trial.pred)
        score = (singles, removed)
        if best is None or score < best[0]:
            best = (score, trial)
        if score == (0, 0):
            break
    if best is None:
        counts["level_moves"] += 1
        bulb = rng.choice(sorted({tiling.bulb_of(c) for c in differ}))
        path = tiling.path_from(bulb)
        tiling.set_level(bulb, rng.randint(0, len(path)))
        return set(path)
    counts["moves"] += 1
    trial = best[1]
    touched = {c for c in tiling.cells()
               if trial.succ.get(c) != tiling.succ.get(c)
               or trial.pred.get(c) != tiling.pred.get(c)}
    tiling.succ, tiling.pred = trial.succ, trial.pred
    return touched


def _copy(tiling: PathTiling) -> PathTiling:
    twin = copy.copy(tiling)  # ``ones`` shared: link/absorb never change the filling
    twin.succ, twin.pred = dict(tiling.succ), dict(tiling.pred)
    return twin
