"""Subset-sum DP filtering of waterlines, and a counter built on it (docs/aquarium.md,
"Subset-sum DP filtering").

State: the **domain** of every vessel is a bitmask over its levels ``0..depth``
(bit ``L`` set = level ``L`` still possible); a tank's level is its number of wet rows.

Line rule: vessel ``v`` at level ``L`` puts ``w_v(L)`` filled cells into a clued line,
which holds iff ``sum_v w_v(L_v) = clue``. With the vessels in a fixed order
``v_1..v_m``, prefix sums ``P_0 = {0}``, ``P_{i+1} = union_{L in D(v_{i+1})} (P_i +
w(L))`` and completable sums ``N_m = {clue}``, ``N_i = union_{L in D(v_{i+1})}
(N_{i+1} - w(L))``; level ``L`` of ``v_i`` survives iff ``(P_{i-1} + w(L)) ∩ N_i ≠ ∅``
-- generalized arc consistency for one line (sets are Python ints used as bitsets).
Lines are re-filtered to a fixpoint; an empty domain is a contradiction. Probing and
the counting search: `WaterlineDP.level_solutions`.

Works for any vessels (a thermometer's layers are single cells); imports only
[`thermomilp.core.puzzle`][thermomilp.core.puzzle].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Callable, Iterator, Sequence

from thermomilp.core.errors import TimeUp
from thermomilp.core.notation import column_name, row_name
from thermomilp.core.puzzle import (
    Grid,
    Puzzle,
    Vessel,
    grid_from_levels,
    require_levels,
)

AUTO_PROBE_NODES = 100


@dataclass(frozen=True)
class Line:
    """One clued row or column as a knapsack over the vessels crossing it."""

    axis: str  # "row" or "column"
    index: int
    clue: int
    vessels: tuple[int, ...]
    groups: tuple[tuple[tuple[int, int], ...], ...]
    """Per crossing vessel: (contribution w, bitmask of the levels giving w)."""
    sums: int = 0
    """The sums the line may take, as a bitmask; 0 means exactly ``clue``. A rival
    question sets it to "anything but the planted sum" on a line whose clue was
    just deleted (`WaterlineDP.__init__`'s ``other_than``)."""

    @property
    def targets(self) -> int:
        return self.sums or 1 << self.clue

    @property
    def name(self) -> str:
        return row_name(self.index) if self.axis == "row" else column_name(self.index)


@lru_cache(maxsize=64)
def _line_groups(vessels: tuple[Vessel, ...], height: int, width: int,
                 ) -> tuple[tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...], ...]:
    """For axis 0 (rows) and 1 (columns), per line: (vessel, groups) of every vessel
    crossing it. Depends on the tanks only, so boards differing in clues share it."""
    out = []
    for pos, size in ((0, height), (1, width)):
        per_line: list[list[tuple[int, tuple[tuple[int, int], ...]]]] = [[] for _ in range(size)]
        for v, vessel in enumerate(vessels):
            counts: dict[int, list[int]] = {}
            for k, layer in enumerate(vessel.layers):
                for cell in layer:
                    counts.setdefault(cell[pos], [0] * vessel.depth)[k] += 1
            for index, per_layer in counts.items():
                by_w: dict[int, int] = {}
                for level, w in enumerate(accumulate(per_layer, initial=0)):
                    by_w[w] = by_w.get(w, 0) | (1 << level)
                per_line[index].append((v, tuple(sorted(by_w.items()))))
        out.append(tuple(tuple(items) for items in per_line))
    return tuple(out)


def _lines(puzzle: Puzzle, other_than: dict[tuple[str, int], int] | None = None,
           ) -> tuple[Line, ...]:
    require_levels(puzzle, "the Aquarium dynamic programme")
    groups = _line_groups(puzzle.vessels, puzzle.height, puzzle.width)
    other_than = other_than or {}
    lines = []
    for axis, clues, pos in (("row", puzzle.rows, 0), ("column", puzzle.cols, 1)):
        length = puzzle.width if pos == 0 else puzzle.height
        for index, clue in enumerate(clues):
            items = groups[pos][index]
            vessels, per_vessel = tuple(v for v, _ in items), tuple(g for _, g in items)
            if clue is not None:
                lines.append(Line(axis, index, clue, vessels, per_vessel))
            elif (axis, index) in other_than:
                sums = ((1 << (length + 1)) - 1) & ~(1 << other_than[axis, index])
                lines.append(Line(axis, index, other_than[axis, index], vessels, per_vessel,
                                  sums))
    return tuple(lines)


def filter_line(line: Line, domains: list[int]) -> list[int] | None:
    """The surviving domain of each vessel of ``line`` (same order), or None if the
    line cannot reach its clue."""
    targets = line.targets
    full = (1 << targets.bit_length()) - 1
    allowed = [[(w, mask & domains[v]) for w, mask in groups if mask & domains[v]]
               for v, groups in zip(line.vessels, line.groups, strict=True)]
    prefix = [1]
    for options in allowed:
        reach = 0
        for w, _ in options:
            reach |= prefix[-1] << w
        prefix.append(reach & full)
    if not prefix[-1] & targets:
        return None
    need = targets
    out = [0] * len(allowed)
    for i in range(len(allowed) - 1, -1, -1):
        kept, before = 0, prefix[i]
        next_need = 0
        for w, mask in allowed[i]:
            if (before << w) & need:
                kept |= mask
            next_need |= need >> w
        out[i] = kept
        need = next_need & full
    return out


class WaterlineDP:
    """The line filters of one puzzle, propagation to a fixpoint and a counting search."""

    def __init__(self, puzzle: Puzzle, other_than: dict[tuple[str, int], int] | None = None):
        """``other_than``: unclued lines (``("row", i)`` or ``("column", j)``) that must
        sum to anything *but* the given value -- the solutions that break a deleted clue."""
        self.puzzle = puzzle
        self.lines = _lines(puzzle, other_than)
        self.lines_of: list[list[int]] = [[] for _ in puzzle.vessels]
        for k, line in enumerate(self.lines):
            for v in line.vessels:
                self.lines_of[v].append(k)
        self.tie_break = [-len(ks) for ks in self.lines_of]

    def full_domains(self) -> list[int]:
        return [(1 << (v.depth + 1)) - 1 for v in self.puzzle.vessels]

    def propagate(self, domains: list[int], todo: set[int] | None = None) -> bool:
        """Filter ``domains`` in place to the fixpoint; False on a contradiction."""
        queue = set(range(len(self.lines))) if todo is None else set(todo)
        while queue:
            k = queue.pop()
            line = self.lines[k]
            kept = filter_line(line, domains)
            if kept is None:
                return False
            for v, mask in zip(line.vessels, kept, strict=True):
                if mask != domains[v]:
                    if not mask:
                        return False
                    domains[v] = mask
                    queue.update(self.lines_of[v])
        return True

    def probe(self, domains: list[int], stop: Callable[[], bool] | None = None) -> bool:
        """Singleton consistency: drop every level whose choice alone makes the line
        filters fail; repeat until nothing changes. False on a contradiction. ``stop``:
        asked before each vessel; True raises [`TimeUp`][thermomilp.core.errors.TimeUp]."""
        changed = True
        while changed:
            changed = False
            for v in range(len(domains)):
                if stop is not None and stop():
                    raise TimeUp("the DP's probing passed its deadline")
                d = domains[v]
                if not d & (d - 1):
                    continue
                for level in range(d.bit_length()):
                    if not (domains[v] >> level) & 1:
                        continue
                    trial = list(domains)
                    trial[v] = 1 << level
                    if self.propagate(trial, set(self.lines_of[v])):
                        continue
                    domains[v] &= ~(1 << level)
                    if not domains[v] or not self.propagate(domains, set(self.lines_of[v])):
                        return False
                    changed = True
        return True

    def level_solutions(self, limit: int | None = None, domains: list[int] | None = None,
                        avoid: Sequence[int] | None = None,
                        probing: str = "auto",
                        max_nodes: int | None = None,
                        stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, ...]]:
        """Every solution as a tuple of levels, at most ``limit``.

        ``avoid`` (a known solution's levels) only orders the branches: levels
        other than the known one are tried first. ``probing``: ``none``;
        ``root`` runs `probe` once before branching; ``all`` at every
        node; ``auto`` (default) searches without probing and, if that takes
        more than ``AUTO_PROBE_NODES`` nodes, starts again with root probing
        (small boards skip the probe's cost, hard ones get its pruning). None
        of them changes the set of solutions. ``max_nodes`` bounds the final
        search (after any probing); use it through `solutions_within`.
        ``stop``: asked at each node and by the root probe (`probe`); True
        raises [`TimeUp`][thermomilp.core.errors.TimeUp].
        """
        start = list(self.full_domains() if domains is None else domains)
        if not self.propagate(start):
            return
        if probing == "auto":
            try:
                found = list(self._search(list(start), limit, avoid, "none", AUTO_PROBE_NODES,
                                          stop))
            except _NodeBudgetSpent:
                probing = "root"
            else:
                yield from found
                return
        if probing in ("root", "all") and not self.probe(start, stop):
            return
        yield from self._search(start, limit, avoid, probing, max_nodes, stop)

    def _search(self, start: list[int], limit: int | None, avoid: Sequence[int] | None,
                probing: str, node_budget: int | None,
                stop: Callable[[], bool] | None = None) -> Iterator[tuple[int, ...]]:
        found = nodes = 0
        stack = [start]
        while stack:
            if stop is not None and stop():
                raise TimeUp("the DP's search passed its deadline")
            doms = stack.pop()
            nodes += 1
            if node_budget is not None and nodes > node_budget:
                raise _NodeBudgetSpent(f"the search passed {node_budget} nodes")
            # fewest surviving levels; ties: the vessel crossing the most clued lines
            open_vessels = [(bin(d).count("1"), self.tie_break[v], v)
                            for v, d in enumerate(doms) if d & (d - 1)]
            if not open_vessels:
                yield tuple(d.bit_length() - 1 for d in doms)
                found += 1
                if limit is not None and found >= limit:
                    return
                continue
            _, _, v = min(open_vessels)
            d = doms[v]
            levels = [L for L in range(d.bit_length()) if (d >> L) & 1]
            if avoid is not None and avoid[v] in levels:
                levels.remove(avoid[v])
                levels.append(avoid[v])
            for level in reversed(levels):  # the stack pops the first level first
                child = list(doms)
                child[v] = 1 << level
                if self.propagate(child, set(self.lines_of[v])) and (
                        probing != "all" or self.probe(child)):
                    stack.append(child)

    def solutions_within(self, limit: int | None, max_nodes: int,
                         domains: list[int] | None = None,
                         avoid: Sequence[int] | None = None,
                         stop: Callable[[], bool] | None = None
                         ) -> list[tuple[int, ...]] | None:
        """Up to ``limit`` solutions, or None when the search needs more than
        ``max_nodes`` nodes (a caller with another counter to fall back on).
        ``stop``: see `probe` (raises [`TimeUp`][thermomilp.core.errors.TimeUp])."""
        try:
            return list(self.level_solutions(limit, domains, avoid, max_nodes=max_nodes,
                                             stop=stop))
        except _NodeBudgetSpent:
            return None


class _NodeBudgetSpent(Exception):
    """A search ran out of its node budget (the unprobed first search of
    ``probing="auto"``, or ``max_nodes``; `WaterlineDP.solutions_within`
    turns it into None)."""


def dp_solutions(puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
    """Solutions as grids, from the DP search (any vessel kind)."""
    for levels in WaterlineDP(puzzle).level_solutions(limit):
        yield grid_from_levels(puzzle, levels)


def dp_count(puzzle: Puzzle, limit: int | None = None) -> int:
    """The number of solutions, capped at ``limit``; ``dp_count(p, 2) == 1`` proves
    uniqueness."""
    return sum(1 for _ in WaterlineDP(puzzle).level_solutions(limit))
