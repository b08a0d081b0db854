"""The independent brute-force counter over vessel levels.

It enumerates every combination of levels (depth-first, vessels in input
order) and prunes only on plain arithmetic: a line already over its clue, or
a line that can no longer reach its clue with the vessels still open. It
shares no code with the propagators or the MILP, so agreement between them
means something.
"""

from __future__ import annotations

from typing import Iterator

from thermomilp.puzzle import Grid, Puzzle


def brute_force_solutions(puzzle: Puzzle, limit: int | None = None) -> Iterator[Grid]:
    H, W = puzzle.height, puzzle.width
    vessels = puzzle.vessels
    n = len(vessels)
    # per vessel, per level: cells added by that layer
    row_count = [0] * H
    col_count = [0] * W
    # room[line] = cells of still-unassigned vessels in that line
    row_room = [0] * H
    col_room = [0] * W
    for v in vessels:
        for r, c in v.cells:
            row_room[r] += 1
            col_room[c] += 1
    levels = [0] * n
    found = 0

    def line_ok(count: list[int], room: list[int], clues) -> bool:
        for k, clue in enumerate(clues):
            if clue is not None and not (count[k] <= clue <= count[k] + room[k]):
                return False
        return True

    def grid() -> Grid:
        board = [["."] * W for _ in range(H)]
        for v, level in zip(vessels, levels):
            for r, c in v.filled_cells(level):
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
        for level in range(v.depth + 1):
            if level:
                for r, c in v.layers[level - 1]:
                    row_count[r] += 1
                    col_count[c] += 1
            if line_ok(row_count, row_room, puzzle.rows) and line_ok(col_count, col_room, puzzle.cols):
                levels[i] = level
                yield from rec(i + 1)
                if limit is not None and found >= limit:
                    break
        for layer in v.layers[:level]:
            for r, c in layer:
                row_count[r] -= 1
                col_count[c] -= 1
        for r, c in v.cells:
            row_room[r] += 1
            col_room[c] += 1

    yield from rec(0)


def brute_force_count(puzzle: Puzzle, limit: int | None = None) -> int:
    return sum(1 for _ in brute_force_solutions(puzzle, limit))
