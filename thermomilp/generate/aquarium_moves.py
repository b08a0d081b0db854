"""Rivals without a solver: chains of one-row moves of single-cell surfaces.

Raising a tank whose next layer is one cell ``(r, c)`` is an arc ``row r -> column c``,
lowering one whose top wet layer is one cell an arc ``column c -> row r``. A directed
**cycle** over distinct tanks is a rival of a board with every clue; a directed
**path** between two lines without a clue is a rival of a board missing those clues
(for the deletion of clue ``l``, a path from or to line ``l``). Breadth-first search
finds the shortest; every candidate grid is checked with the independent checker.
Finding none proves nothing: the MILP is asked next.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from thermomilp.core.puzzle import Grid, Puzzle, grid_from_levels, levels_from_grid
from thermomilp.core.verify import solution_problems

Line = tuple[str, int]
"""A line of the board, a node of the move graph: ``("row", i)`` or ``("col", j)``."""

MAX_ARCS = 10


def move_arcs(puzzle: Puzzle, levels: Sequence[int]) -> dict[Line, list[tuple[Line, int, int]]]:
    """For each line, the one-cell moves leaving it: (line reached, tank, new level)."""
    out: dict[Line, list[tuple[Line, int, int]]] = {}
    for t, (vessel, level) in enumerate(zip(puzzle.vessels, levels, strict=True)):
        if level < vessel.depth and len(vessel.layers[level]) == 1:
            (r, c), = vessel.layers[level]
            out.setdefault(("row", r), []).append((("col", c), t, level + 1))
        if level > 0 and len(vessel.layers[level - 1]) == 1:
            (r, c), = vessel.layers[level - 1]
            out.setdefault(("col", c), []).append((("row", r), t, level - 1))
    return out


def move_rival(puzzle: Puzzle, deleted: Line | None = None) -> Grid | None:
    """A rival made of one-cell moves along a short path or cycle, or None (not a proof).

    ``deleted``: the line whose clue was just deleted; the moves must then change
    its sum (a path from or to it, other end at a line without clue). Otherwise a
    cycle (every clued line keeps its sum)."""
    planted = puzzle.solution
    if planted is None or puzzle.rule != "tank":
        return None
    levels = levels_from_grid(puzzle, planted)
    arcs = move_arcs(puzzle, levels)
    if deleted is None:
        starts = [(node, {node}) for node in sorted(arcs)]
    else:
        unclued = ({("row", i) for i, v in enumerate(puzzle.rows) if v is None}
                   | {("col", j) for j, v in enumerate(puzzle.cols) if v is None})
        starts = [(deleted, unclued - {deleted})]
    # a deleted clue's line: paths to it count as well as paths from it
    graphs = [arcs] if deleted is None else [arcs, _reversed(arcs)]
    for start, goals in starts:
        for graph in graphs:
            for path in _paths(graph, start, goals):
                grid = _apply(puzzle, planted, levels, path)
                if grid is not None:
                    return grid
    return None


def _reversed(arcs):
    back: dict[Line, list[tuple[Line, int, int]]] = {}
    for node, outs in arcs.items():
        for to, t, level in outs:
            back.setdefault(to, []).append((node, t, level))
    return back


def _paths(arcs, start: Line, goals: set[Line]):
    """Shortest walks (breadth first, at most ``MAX_ARCS`` arcs) from ``start`` to a
    goal, as lists of (tank, new level); one per goal node reached."""
    parent: dict[Line, tuple[Line, int, int] | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        node, depth = queue.popleft()
        if depth >= MAX_ARCS:
            continue
        for to, t, level in arcs.get(node, ()):
            if to in goals:
                moves, step = [(t, level)], parent[node]
                while step is not None:
                    back, pt, pl = step
                    moves.append((pt, pl))
                    step = parent[back]
                yield moves
            if to not in parent:
                parent[to] = (node, t, level)
                queue.append((to, depth + 1))


def _apply(puzzle: Puzzle, planted: Grid, levels: Sequence[int],
           moves: list[tuple[int, int]]) -> Grid | None:
    """The rival the moves make of the planted ``levels``, if it is one."""
    moved = dict(moves)
    if len(moved) != len(moves):  # a tank moved twice
        return None
    grid = grid_from_levels(puzzle, [moved.get(t, level) for t, level in enumerate(levels)])
    if grid == planted or solution_problems(puzzle, grid):
        return None
    return grid
