"""Level domains of vessels and the per-line contribution tables (docs/logic.md).

A vessel ``v`` stands at one level ``L in 0..depth(v)``; its **contribution** to a
line is the number of its filled cells there, non-decreasing in ``L``. Lines are
numbered ``0..H-1`` for the rows and ``H..H+W-1`` for the columns. A **domain** is a
list of Python ints used as bitsets: bit ``L`` of ``dom[v]`` is set iff level ``L``
of vessel ``v`` is still possible.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate
from operator import or_
from typing import Callable, Mapping

from thermomilp.core.deadline import TimeUp
from thermomilp.core.notation import line_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle, require_levels

Domains = list[int]
UNKNOWN = -1


@dataclass(frozen=True)
class LineTables:
    """What the propagators need, precomputed once per puzzle.

    ``line_vessels[l]`` / ``line_tables[l]`` list the vessels with a cell in
    clued line ``l`` and their contribution tables (``table[L]`` for every
    level ``L``); ``vessel_lines[v]`` the clued lines vessel ``v`` crosses.
    """

    height: int
    width: int
    depths: tuple[int, ...]
    clues: tuple[int | None, ...]
    line_vessels: tuple[tuple[int, ...], ...]
    line_tables: tuple[tuple[tuple[int, ...], ...], ...]
    vessel_lines: tuple[tuple[int, ...], ...]
    cell_rank: Mapping[Cell, tuple[int, int]]
    vessel_cells: tuple[tuple[tuple[Cell, int], ...], ...]  # (cell, rank) in fill order

    @property
    def n_vessels(self) -> int:
        return len(self.depths)

    @cached_property
    def line_masks(self) -> tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]:
        """Per clued line, per vessel on it (as in ``line_vessels``): ``(at_least,
        at_most)``, where ``at_least[x]`` / ``at_most[x]`` is the bitmask of the levels
        contributing at least / at most ``x`` cells to the line (``x`` from 0 to the
        vessel's largest contribution) -- the interval revision's cut, by lookup. Most
        tables of a board are short and alike (``(0, 1)``, ``(0, 1, 1, 2)``): each is
        worked out once per board."""
        memo: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        return tuple(tuple(memo[tab] if tab in memo else memo.setdefault(tab, _masks(tab))
                           for tab in tabs) for tabs in self.line_tables)

    def __getstate__(self) -> dict[str, object]:
        """Pickle the tables, not what a process derived from them (the compiled
        kernel's arrays, `thermomilp.logic.propagation`, are rebuilt on demand)."""
        return {k: v for k, v in self.__dict__.items() if k != "_kernel_board"}

    def line_name(self, line: int) -> str:
        return line_name(line, self.height)


def _masks(tab: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``(at_least, at_most)`` of one contribution table (see ``line_masks``), for
    ``x`` from 0 to ``tab[-1]``: the levels of each count gathered once, then
    accumulated from either end (linear in the table, not quadratic)."""
    top = tab[-1]
    exact = [0] * (top + 2)  # exact[x]: the levels contributing x cells; [top + 1]: more
    for level, count in enumerate(tab):
        exact[min(count, top + 1)] |= 1 << level
    at_least = tuple(accumulate(reversed(exact), or_))[::-1]
    return at_least[:top + 1], tuple(accumulate(exact[:top + 1], or_))


def line_tables(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> LineTables:
    """The contribution tables of ``puzzle``, built anew at each call (a solve keeps
    its board's in its [`BoardLogic`][thermomilp.logic.presolve.BoardLogic]); ``stop`` is asked
    every 4096 vessels while they are built (True: TimeUp)."""
    require_levels(puzzle, "the logic engine")
    H, W = puzzle.height, puzzle.width
    clues = tuple(puzzle.rows) + tuple(puzzle.cols)
    line_vessels: list[list[int]] = [[] for _ in clues]
    line_tabs: list[list[tuple[int, ...]]] = [[] for _ in clues]
    vessel_lines: list[list[int]] = []
    for v, vessel in enumerate(puzzle.vessels):
        if stop is not None and not v & 4095 and stop():
            raise TimeUp("the logic tables were not built before the deadline")
        # per line, the running count of this vessel's cells after each level
        counts: dict[int, list[int]] = {}
        for k, layer in enumerate(vessel.layers):
            for r, c in layer:
                for line in (r, H + c):
                    counts.setdefault(line, [0] * (vessel.depth + 1))[k + 1] += 1
        mine = []
        for line in sorted(counts):
            if clues[line] is None:
                continue
            line_vessels[line].append(v)
            line_tabs[line].append(tuple(accumulate(counts[line])))
            mine.append(line)
        vessel_lines.append(mine)
    vessel_cells = tuple(tuple((cell, k + 1) for k, layer in enumerate(vessel.layers)
                               for cell in layer) for vessel in puzzle.vessels)
    return LineTables(H, W, tuple(v.depth for v in puzzle.vessels), clues,
                      tuple(map(tuple, line_vessels)),
                      tuple(tuple(t) for t in line_tabs),
                      tuple(map(tuple, vessel_lines)), puzzle.rank_of, vessel_cells)


def full_domains(tables: LineTables) -> Domains:
    return [(1 << (d + 1)) - 1 for d in tables.depths]


def low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def levels_in(mask: int) -> list[int]:
    return [L for L in range(mask.bit_length()) if mask >> L & 1]


def clamp_with_marks(tables: LineTables, dom: Domains, marks: Mapping[Cell, int]) -> bool:
    """Apply user marks (cell -> 1 mercury / 0 empty); False if a domain empties."""
    for cell, value in marks.items():
        v, rank = tables.cell_rank[cell]
        below = (1 << rank) - 1  # the levels leaving the cell empty
        dom[v] &= ~below if value else below  # ~below: infinite to the left, fine for AND
        if not dom[v]:
            return False
    return True


def cell_states(tables: LineTables, dom: Domains) -> dict[Cell, int]:
    """cell -> 1 (filled under every surviving level), 0 (empty under all), or UNKNOWN."""
    states: dict[Cell, int] = {}
    for v, cells in enumerate(tables.vessel_cells):
        lo, hi = low(dom[v]), high(dom[v])
        for cell, rank in cells:
            states[cell] = 1 if lo >= rank else 0 if hi < rank else UNKNOWN
    return states


def is_decided(dom: Domains) -> bool:
    """Every vessel has exactly one level left."""
    return all(m and not m & (m - 1) for m in dom)


def grid_of(tables: LineTables, dom: Domains) -> Grid:
    """The grid of a fully decided domain."""
    states = cell_states(tables, dom)
    return tuple("".join("#" if states[(r, c)] == 1 else "." for c in range(tables.width))
                 for r in range(tables.height))
