"""A mutable tiling of the grid by thermometers, with a planted filling.

The generator's working state. Thermometers are paths stored as two maps,
``succ`` (cell -> next cell towards the tip) and ``pred`` (its inverse); the
planted solution is the set of filled cells ``ones``. Invariant kept by every
edit: along each path the filled cells form a prefix (mercury from the bulb).

The edits are the moves of the repair strategy (``repair.py``):

* `PathTiling.link` puts cell ``p`` right before cell ``s`` in one
  thermometer, cutting whatever links stood in the way. Its new precedence arc
  ``x_s <= x_p`` is what kills a rival solution with ``y_s = 1, y_p = 0``.
* `PathTiling.absorb_short` joins thermometers shorter than two cells to
  a neighbour (tip to bulb). Joining only ever adds an arc, so it can only
  remove solutions.

Cutting a link is always consistent with the planted filling (a prefix or a
suffix of a monotone path is monotone); joining tip ``a`` to bulb ``b`` is
consistent iff ``a`` is filled or ``b`` is empty (see `can_join`).
"""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Iterable, Iterator, Sequence

from thermomilp.core.puzzle import Cell, Grid, grid_from_ones

STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class PathTiling:
    """Thermometers as linked cells plus a planted filling (see module docstring)."""

    def __init__(self, height: int, width: int, paths: Iterable[Sequence[Cell]],
                 ones: Iterable[Cell] = (), *, max_length: int = 6, straight: bool = False):
        self.height, self.width = height, width
        self.max_length = max_length
        self.straight = straight
        self.succ: dict[Cell, Cell] = {}
        self.pred: dict[Cell, Cell] = {}
        for path in paths:
            for a, b in pairwise(path):
                self.succ[a] = b
                self.pred[b] = a
        self.ones: set[Cell] = set(ones)

    # ------------------------------------------------------------------ reading

    def cells(self) -> Iterator[Cell]:
        return ((r, c) for r in range(self.height) for c in range(self.width))

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        r, c = cell
        for dr, dc in STEPS:
            if 0 <= r + dr < self.height and 0 <= c + dc < self.width:
                yield (r + dr, c + dc)

    def bulb_of(self, cell: Cell) -> Cell:
        while cell in self.pred:
            cell = self.pred[cell]
        return cell

    def path_from(self, bulb: Cell) -> list[Cell]:
        path = [bulb]
        while path[-1] in self.succ:
            path.append(self.succ[path[-1]])
        return path

    def path_of(self, cell: Cell) -> list[Cell]:
        return self.path_from(self.bulb_of(cell))

    def paths(self) -> list[list[Cell]]:
        """Every thermometer, bulb first, ordered by bulb position (row-major)."""
        return [self.path_from(cell) for cell in self.cells() if cell not in self.pred]

    def grid(self) -> Grid:
        return grid_from_ones(self.height, self.width, self.ones)

    def clues(self) -> tuple[list[int], list[int]]:
        rows = [0] * self.height
        cols = [0] * self.width
        for r, c in self.ones:
            rows[r] += 1
            cols[c] += 1
        return rows, cols

    def is_monotone(self) -> bool:
        """The planted filling is a prefix of every path (the invariant)."""
        for path in self.paths():
            filled = [cell in self.ones for cell in path]
            if any(b and not a for a, b in pairwise(filled)):
                return False
        return True

    # ------------------------------------------------------------------ editing

    def cut_after(self, cell: Cell) -> None:
        nxt = self.succ.pop(cell, None)
        if nxt is not None:
            del self.pred[nxt]

    def cut_before(self, cell: Cell) -> None:
        prev = self.pred.get(cell)
        if prev is not None:
            self.cut_after(prev)

    def can_join(self, tip: Cell, bulb: Cell) -> bool:
        """May the path ending at ``tip`` continue into the path starting at ``bulb``?"""
        if tip in self.succ or bulb in self.pred or self.bulb_of(tip) == bulb:
            return False
        if abs(tip[0] - bulb[0]) + abs(tip[1] - bulb[1]) != 1:
            return False
        if tip not in self.ones and bulb in self.ones:
            return False  # mercury would jump over an empty cell
        head, tail = self.path_of(tip), self.path_from(bulb)
        if len(head) + len(tail) > self.max_length:
            return False
        return not self.straight or _straight(head + tail)

    def join(self, tip: Cell, bulb: Cell) -> None:
        self.succ[tip] = bulb
        self.pred[bulb] = tip

    def link(self, p: Cell, s: Cell, rng: random.Random) -> bool:
        """Make ``s`` follow ``p`` directly, cutting links in the way; False if impossible.

        Requires ``p`` filled or ``s`` empty in the planted filling, and ``s``
        not an ancestor of ``p`` (that would close a loop). Pieces left over
        are trimmed to the length limit and straightness, cutting at a random
        admissible point.
        """
        if (p not in self.ones and s in self.ones) or self.succ.get(p) == s:
            return False
        if self.max_length < 2 or p in self.path_from(s):
            return False
        self.cut_after(p)
        self.cut_before(s)
        head = self.path_of(p)           # ends at p
        tail = self.path_from(s)         # starts at s
        if self.straight:
            d = (s[0] - p[0], s[1] - p[1])
            if len(head) > 1 and (p[0] - head[-2][0], p[1] - head[-2][1]) != d:
                self.cut_before(p)
                head = [p]
            if len(tail) > 1 and (tail[1][0] - s[0], tail[1][1] - s[1]) != d:
                self.cut_after(s)
                tail = [s]
        self.join(p, s)
        path = head + tail
        if len(path) > self.max_length:
            # keep p and s (indices k-1, k) in one piece no longer than the limit
            k = len(head)
            start = rng.randint(max(0, k + 1 - self.max_length), k - 1)
            end = min(len(path), start + self.max_length)
            if start > 0:
                self.cut_after(path[start - 1])
            if end < len(path):
                self.cut_after(path[end - 1])
        return True

    def absorb_short(self, rng: random.Random, near: Iterable[Cell] | None = None) -> None:
        """Join every thermometer of a single cell to a neighbour where allowed.

        ``near``: look only at the thermometers through these cells (the ones
        an edit touched) instead of the whole board.
        """
        if near is None:
            bulbs = [c for c in self.cells() if c not in self.pred]
        else:
            bulbs = sorted({self.bulb_of(c) for c in near})
        for bulb in bulbs:
            path = self.path_from(bulb)
            if bulb not in self.pred and len(path) == 1:  # (not joined meanwhile)
                self.join_somewhere(path[-1], bulb, rng)

    def join_somewhere(self, tip: Cell, bulb: Cell, rng: random.Random) -> None:
        """Join ``tip`` to a neighbouring bulb or a neighbouring tip to ``bulb``, one of the
        allowed joins at random (`can_join` refuses a tip that has a successor, a bulb
        that has a predecessor)."""
        options = [(tip, nb) for nb in self.neighbours(tip) if self.can_join(tip, nb)]
        options += [(nb, bulb) for nb in self.neighbours(bulb) if self.can_join(nb, bulb)]
        if options:
            self.join(*rng.choice(options))

    def set_level(self, bulb: Cell, level: int) -> None:
        """Plant a new mercury level in the thermometer starting at ``bulb``."""
        for k, cell in enumerate(self.path_from(bulb)):
            if k < level:
                self.ones.add(cell)
            else:
                self.ones.discard(cell)


def _straight(path: Sequence[Cell]) -> bool:
    if len(path) < 3:
        return True
    d = (path[1][0] - path[0][0], path[1][1] - path[0][1])
    return all((b[0] - a[0], b[1] - a[1]) == d for a, b in pairwise(path))
