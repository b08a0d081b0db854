"""The independent brute-force counter over vessel fillings.

It enumerates every combination of vessel fillings -- levels for a chain,
closed sets of layers for a pool-rule tank -- (depth-first, vessels in input
order) and prunes only on plain arithmetic: a line already over its clue, or
a line that can no longer reach its clue with the vessels still open. It
shares no code with the propagators or the MILP, so agreement between them
means something.
"""

from __future__ import annotations

from typing import Iterator

from thermomilp.core.puzzle import Cell, Grid, Puzzle, Vessel


def vessel_fills(vessel: Vessel) -> list[tuple[Cell, ...]]:
    """Every legal filling of one vessel, as its filled cells.

    A chain: the prefixes of its layers (levels 0..depth). A layer tree (a
    pool-rule tank): every set of layers closed under children, i.e. either
    a layer with its whole subtree, or no water in it and any filling of
    each child subtree independently.
    """
    if vessel.is_chain:
        return [vessel.filled_cells(level) for level in range(vessel.depth + 1)]
    children = vessel.children()

    def subtree(k: int) -> tuple[Cell, ...]:
        return vessel.layers[k] + tuple(c for ch in children[k] for c in subtree(ch))

    def fills(k: int) -> list[tuple[Cell, ...]]:
        partial: list[tuple[Cell, ...]] = [()]
        for ch in children[k]:
            partial = [a + b for a in partial for b in fills(ch)]
        return partial + [subtree(k)]

    return fills(vessel.depth - 1)  # the root: a parent comes after its children


def brute_force_solutions(puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
    H, W = puzzle.height, puzzle.width
    vessels = puzzle.vessels
    n = len(vessels)
    options = [vessel_fills(v) for v in vessels]
    row_count = [0] * H
    col_count = [0] * W
    # room[line] = cells of still-unassigned vessels in that line
    row_room = [0] * H
    col_room = [0] * W
    for v in vessels:
        for r, c in v.cells:
            row_room[r] += 1
            col_room[c] += 1
    chosen: list[tuple[Cell, ...]] = [()] * n
    found = 0

    def line_ok(count: list[int], room: list[int], clues) -> bool:
        return all(clue is None or count[k] <= clue <= count[k] + room[k]
                   for k, clue in enumerate(clues))

    def grid() -> Grid:
        board = [["."] * W for _ in range(H)]
        for cells in chosen:
            for r, c in cells:
                board[r][c] = "#"
        return tuple("".join(row) for row in board)

    def rec(i: int) -> Iterator[Grid]:
        nonlocal found
        if limit is not None and found >= limit:
            return
        if i == n:
            found += 1
            yield grid()
            return
        v = vessels[i]
        for r, c in v.cells:
            row_room[r] -= 1
            col_room[c] -= 1
        for cells in options[i]:
            for r, c in cells:
                row_count[r] += 1
                col_count[c] += 1
            if (line_ok(row_count, row_room, puzzle.rows)
                    and line_ok(col_count, col_room, puzzle.cols)):
                chosen[i] = cells
                yield from rec(i + 1)
            for r, c in cells:
                row_count[r] -= 1
                col_count[c] -= 1
            if limit is not None and found >= limit:
                break
        for r, c in v.cells:
            row_room[r] += 1
            col_room[c] += 1

    yield from rec(0)


def brute_force_count(puzzle: Puzzle, limit: int | None = None) -> int:
    return sum(1 for _ in brute_force_solutions(puzzle, limit))
