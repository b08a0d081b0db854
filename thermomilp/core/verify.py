"""The independent checker: is a cell grid a solution of a puzzle?

Every solution an engine or a generator finds passes through
[`candidate_problems`][thermomilp.core.verify.candidate_problems] (the rules of
[`solution_problems`][thermomilp.core.verify.solution_problems], plus the fixed cells, the no-good
cuts and the planted grid of the question asked) before anyone sees it; a candidate is a
[`Grid`][thermomilp.core.puzzle.Grid] from the engine to the result. It is deliberately written from
the rules alone -- it shares no code with the model builders, the level adapter or the logic
engine -- so that a bug there becomes an error instead of a wrong answer.
The pool rule is checked the way puzz.link states it (support and level of
each body of water), not through the layer tree the model is built from.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from thermomilp.core.notation import cell_name, line_name
from thermomilp.core.puzzle import Cell, Puzzle, ones_of

Cut = tuple[frozenset[Cell], "frozenset[Cell] | None"]
"""A no-good cut: the filled cells of the grid it removes, and the cells it runs over
(None = every cell; else every grid that agrees with it on these cells is removed)."""


def solution_problems(puzzle: Puzzle, grid: Sequence[str]) -> list[str]:
    """Every rule the grid breaks, as sentences; empty when it is a solution."""
    problems: list[str] = []
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return [f"the grid is not {puzzle.height}x{puzzle.width}"]
    if any(ch not in "#." for row in grid for ch in row):
        return ["the grid holds characters other than '#' and '.'"]
    lines = [*grid, *("".join(col) for col in zip(*grid, strict=True))]  # rows, then columns
    for line, (clue, cells) in enumerate(zip(puzzle.rows + puzzle.cols, lines, strict=True)):
        got = cells.count("#")
        if clue is not None and got != clue:
            problems.append(f"{line_name(line, puzzle.height)} has {got} filled cells, clue {clue}")
    if puzzle.rule == "pool":
        return problems + _pool_problems(puzzle, grid)
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


def _pool_problems(puzzle: Puzzle, grid: Sequence[str]) -> list[str]:
    """The pool rule as puzz.link checks it (no ``r`` flag), from the tanks alone.

    * support: water beside or above air of its own tank would run into it --
      a wet cell's left, right and lower neighbours in its tank are wet;
    * level: a body of water (wet cells connected inside one tank) stands
      level -- every cell of it below the body's top row has its upper
      neighbour in the tank wet.
    """
    tank = puzzle.region_grid()
    H, W = puzzle.height, puzzle.width

    def same_tank(r: int, c: int, r2: int, c2: int) -> bool:
        return 0 <= r2 < H and 0 <= c2 < W and tank[r2][c2] == tank[r][c]

    problems: list[str] = []
    for r in range(H):
        for c in range(W):
            if grid[r][c] != "#":
                continue
            for r2, c2 in ((r, c - 1), (r, c + 1), (r + 1, c)):
                if same_tank(r, c, r2, c2) and grid[r2][c2] != "#":
                    return [*problems, f"tank {tank[r][c]}: water at {cell_name((r, c))} "
                                       f"would run into the air at {cell_name((r2, c2))}"]
    seen: set[tuple[int, int]] = set()
    for r in range(H):
        for c in range(W):
            if grid[r][c] != "#" or (r, c) in seen:
                continue
            body, todo = [(r, c)], [(r, c)]
            seen.add((r, c))
            while todo:
                a, b = todo.pop()
                for a2, b2 in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                    if (same_tank(a, b, a2, b2) and grid[a2][b2] == "#"
                            and (a2, b2) not in seen):
                        seen.add((a2, b2))
                        body.append((a2, b2))
                        todo.append((a2, b2))
            top = min(a for a, _ in body)
            for a, b in body:
                if a > top and same_tank(a, b, a - 1, b) and grid[a - 1][b] != "#":
                    return [*problems, f"tank {tank[a][b]}: the body of water through "
                                       f"{cell_name((r, c))} is not level (air above "
                                       f"{cell_name((a, b))})"]
    return problems


def is_solution(puzzle: Puzzle, grid: Sequence[str]) -> bool:
    return not solution_problems(puzzle, grid)


def cut_off(ones: frozenset[Cell], cuts: Iterable[Cut]) -> bool:
    """Whether a no-good cut removed the grid whose filled cells are ``ones``."""
    return any(ones == cut_ones if over is None
               else all((cell in ones) == (cell in cut_ones) for cell in over)
               for cut_ones, over in cuts)


def candidate_problems(puzzle: Puzzle, grid: Sequence[str], *,
                       fixed: Mapping[Cell, int] | None = None, cuts: Iterable[Cut] = (),
                       planted: Sequence[str] | None = None) -> list[str]:
    """Why ``grid`` is not an answer to the question asked of ``puzzle``: the rules it
    breaks ([`solution_problems`][thermomilp.core.verify.solution_problems]), a ``fixed`` cell (cell
    -> 0/1) it ignores, a no-good cut that removed it, or its being the ``planted`` grid (a rival
    must differ). Empty when it is an answer."""
    problems = solution_problems(puzzle, grid)
    if problems:
        return problems
    if any((grid[r][c] == "#") != bool(v) for (r, c), v in (fixed or {}).items()):
        return ["it ignores a fixed cell"]
    if planted is not None and tuple(grid) == tuple(planted):
        return ["it is the planted grid"]
    cuts = list(cuts)
    if cuts and cut_off(ones_of(grid), cuts):
        return ["it is a solution already excluded by a no-good cut"]
    return []
