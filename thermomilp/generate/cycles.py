"""Rivals without a solver: short cycles of one-cell thermometer moves.

Filling a thermometer's next cell ``(r, c)`` is an arc ``r -> c``, emptying its
top filled cell an arc ``c -> r``; a directed cycle of such arcs over distinct
thermometers keeps every line's count: it is a rival (docs/generate.md, "`repair`").
Breadth-first search starts from the arcs on backward cells
(`thermomilp.generate.repair.LineOrder.backward`). It is not complete (one-level
moves only, and a shortest cycle that reuses a thermometer is dropped): the
repair loop asks the MILP when it finds nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from thermomilp.core.puzzle import Cell, Grid, grid_from_ones
from thermomilp.generate.paths import PathTiling
from thermomilp.generate.peel import Line
from thermomilp.generate.rivals import check_rival, tiling_puzzle

Arc = tuple[Line, Line, int, Cell]  # tail, head, thermometer, cell that changes


def move_arcs(tiling: PathTiling) -> list[Arc]:
    """The one-level moves of every thermometer as arcs (see the module docstring)."""
    arcs: list[Arc] = []
    for t, path in enumerate(tiling.paths()):
        level = sum(cell in tiling.ones for cell in path)
        if level < len(path):
            r, c = path[level]
            arcs.append((("r", r), ("c", c), t, path[level]))
        if level > 0:
            r, c = path[level - 1]
            arcs.append((("c", c), ("r", r), t, path[level - 1]))
    return arcs


def cycle_rival(tiling: PathTiling, backward: Iterable[Cell] | None = None,
                max_arcs: int = 12) -> Grid | None:
    """A rival made of one-level moves along a shortest cycle, or None (module doc).

    ``backward``: start only from arcs on these cells (None: from every arc).
    ``max_arcs``: the longest cycle looked for.
    """
    arcs = move_arcs(tiling)
    out: dict[Line, list[int]] = {}
    for k, (tail, _, _, _) in enumerate(arcs):
        out.setdefault(tail, []).append(k)
    starts = range(len(arcs)) if backward is None else \
        [k for k, arc in enumerate(arcs) if arc[3] in set(backward)]
    for first in starts:
        cycle = _shortest_cycle(arcs, out, first, max_arcs)
        if cycle is not None:
            # a slip here must not pass as a rival
            return check_rival(tiling_puzzle(tiling), _apply(tiling, [arcs[k][3] for k in cycle]))
    return None


def _shortest_cycle(arcs: list[Arc], out: dict[Line, list[int]], first: int,
                    max_arcs: int) -> list[int] | None:
    """Arc indices of a shortest cycle through ``first`` with distinct thermometers."""
    tail, head, therm, _ = arcs[first]
    parent: dict[Line, int] = {}
    depth = {head: 1}
    queue = deque([head])
    while queue:
        node = queue.popleft()
        if depth[node] >= max_arcs:
            break
        for k in out.get(node, ()):
            nxt = arcs[k][1]
            if arcs[k][2] == therm or nxt in depth:
                continue
            parent[nxt] = k
            depth[nxt] = depth[node] + 1
            if nxt == tail:
                cycle = [first]
                walk = tail
                while walk != head:
                    cycle.append(parent[walk])
                    walk = arcs[parent[walk]][0]
                used = [arcs[j][2] for j in cycle]
                return cycle if len(set(used)) == len(used) else None
            queue.append(nxt)
    return None


def _apply(tiling: PathTiling, cells: list[Cell]) -> Grid:
    """The planted grid with ``cells`` (distinct) flipped."""
    return grid_from_ones(tiling.height, tiling.width, tiling.ones.symmetric_difference(cells))
