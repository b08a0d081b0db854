"""The independent checker: is a cell grid a solution of a puzzle?

Every solution a backend returns passes through :func:`solution_problems`
before anyone sees it. It is deliberately written from the rules alone --
it shares no code with the model builders, the level adapter or the logic
engine -- so that a bug there becomes an error instead of a wrong answer.
"""

from __future__ import annotations

from typing import Sequence

from thermomilp.puzzle import Puzzle


def solution_problems(puzzle: Puzzle, grid: Sequence[str]) -> list[str]:
    """Every rule the grid breaks, as sentences; empty when it is a solution."""
    problems: list[str] = []
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return [f"the grid is not {puzzle.height}x{puzzle.width}"]
    if any(ch not in "#." for row in grid for ch in row):
        return ["the grid holds characters other than '#' and '.'"]
    for i, clue in enumerate(puzzle.rows):
        got = grid[i].count("#")
        if clue is not None and got != clue:
            problems.append(f"row {i} has {got} filled cells, clue {clue}")
    for j, clue in enumerate(puzzle.cols):
        got = sum(row[j] == "#" for row in grid)
        if clue is not None and got != clue:
            problems.append(f"column {j} has {got} filled cells, clue {clue}")
    for vessel in puzzle.vessels:
        seen_empty = False
        for rank, layer in enumerate(vessel.layers, start=1):
            values = [grid[r][c] for r, c in layer]
            if len(set(values)) != 1:
                problems.append(f"vessel {vessel.label} rank {rank} is partly filled")
                break
            if values[0] == ".":
                seen_empty = True
            elif seen_empty:
                problems.append(f"vessel {vessel.label} is filled at rank {rank} above a gap")
                break
    return problems


def is_solution(puzzle: Puzzle, grid: Sequence[str]) -> bool:
    return not solution_problems(puzzle, grid)
