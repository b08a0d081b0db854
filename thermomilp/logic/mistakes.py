"""Wrong marks, found before anything is deduced from them (docs/logic.md, "Mistakes first").

The first wrong mark is named (which cell, and why) against **the rules** (a vessel's
order, a line's clue), then against **the solution**, through a completion oracle
``complete(marks) -> grid | None`` (a solution agreeing with the marks, or None): by
default the logic's own search (`thermomilp.logic.search`), on the web page the MILP.
A board with no solution blames no mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping

from thermomilp.core.notation import cell_name, cells_name, line_name, vessel_name
from thermomilp.core.puzzle import Cell, Grid, Puzzle

Completion = Callable[[Mapping[Cell, int]], "Grid | None"]


@dataclass(frozen=True)
class Mistake:
    """The marks to blame (``cells``), the sentence saying why, and the pass that found it."""

    cells: tuple[Cell, ...]
    text: str
    source: str  # "rules" or "solution"
    line: str | None = None
    vessel: str | None = None


def vessel_mistake(puzzle: Puzzle, marks: Mapping[Cell, int]) -> Mistake | None:
    """A vessel filled above an empty mark (or, in a tank, a row partly wet)."""
    for vessel in puzzle.vessels:
        filled = [(k, c) for k, layer in enumerate(vessel.layers) for c in layer
                  if marks.get(c) == 1]
        empty = [(k, c) for k, layer in enumerate(vessel.layers) for c in layer
                 if marks.get(c) == 0]
        if not filled or not empty:
            continue
        top, wet = max(filled)
        bottom, dry = min(empty)
        if top < bottom:
            continue
        name = vessel_name(puzzle.kind, vessel.label)
        if puzzle.kind == "thermometers":
            why = (f"{cell_name(wet)} is filled but {cell_name(dry)} nearer the bulb of {name} is "
                   "marked empty: mercury fills a thermometer from the bulb with no gap")
        elif top == bottom:
            why = (f"{cell_name(wet)} is water but {cell_name(dry)} in the same row of {name} is "
                   "marked air: the water in a tank is level")
        else:
            why = (f"{cell_name(wet)} is water but {cell_name(dry)} lower in {name} is marked air: "
                   "water fills a tank from the bottom")
        return Mistake((wet, dry), why + "; one of these marks is wrong", "rules", vessel=name)
    return None


def line_cells(puzzle: Puzzle, line: int) -> list[Cell]:
    """The cells of line ``line`` (rows first, then columns), in order."""
    if line < puzzle.height:
        return [(line, c) for c in range(puzzle.width)]
    return [(r, line - puzzle.height) for r in range(puzzle.height)]


def line_mistake(puzzle: Puzzle, marks: Mapping[Cell, int]) -> Mistake | None:
    """A line with more filled marks than its clue, or too many empty marks to reach it."""
    clues = list(puzzle.rows) + list(puzzle.cols)
    for line, clue in enumerate(clues):
        if clue is None:
            continue
        cells = line_cells(puzzle, line)
        filled = [c for c in cells if marks.get(c) == 1]
        empty = [c for c in cells if marks.get(c) == 0]
        name = line_name(line, puzzle.height)
        if len(filled) > clue:
            if clue == 0:
                text = f"{cells_name(filled)} {'is' if len(filled) == 1 else 'are'} filled but " \
                       f"{name}'s clue is 0"
            else:
                text = (f"{name} has {len(filled)} filled marks ({cells_name(filled)}) but its "
                        f"clue is {clue}; at least {len(filled) - clue} of them "
                        f"{'is' if len(filled) - clue == 1 else 'are'} wrong")
            return Mistake(tuple(filled), text, "rules", line=name)
        room = len(cells) - len(empty)
        if room < clue:
            text = (f"{name} has {len(empty)} cells marked empty ({cells_name(empty)}), so at "
                    f"most {room} can be filled, but its clue is {clue}; at least "
                    f"{clue - room} of these marks {'is' if clue - room == 1 else 'are'} wrong")
            return Mistake(tuple(empty), text, "rules", line=name)
    return None


def logic_completion(puzzle: Puzzle) -> Completion:
    """The default oracle: a solution agreeing with the marks, by the logic's own search."""
    from thermomilp.logic.search import search_solutions

    return lambda marks: next(iter(search_solutions(puzzle, "probing", 1, marks=marks)), None)


def solution_mistake(puzzle: Puzzle, marks: Mapping[Cell, int], complete: Completion,
                     unique: Callable[[], bool | None] = lambda: None) -> Mistake | None:
    """Marks that fit no solution, named against a solution of the board.

    ``unique()`` (asked only when a mark is wrong) changes the wording: "the
    solution" when the board is unique, "the solution found" otherwise or
    when it is not known (None).
    """
    if not marks or complete(marks) is not None:
        return None
    solution = complete({})
    if solution is None:
        return None  # the board has no solution: not a mark's fault
    wrong = tuple(cell for cell, value in sorted(marks.items())
                  if (solution[cell[0]][cell[1]] == "#") != bool(value))
    is_unique = unique()
    the = "the solution" if is_unique else "the solution found"
    parts = []
    for cell in wrong[:6]:
        said = "filled" if marks[cell] else "empty"
        does = "leaves it empty" if marks[cell] else "fills it"
        parts.append(f"{cell_name(cell)} is marked {said} but {the} {does}")
    text = "; ".join(parts)
    if len(wrong) > 6:
        text += f"; and {len(wrong) - 6} more"
    if not is_unique:
        text += " (your marks fit no solution of this board)"
    return Mistake(wrong, text, "solution")


def find_mistake(puzzle: Puzzle, marks: Mapping[Cell, int],
                 complete: Completion | None = None,
                 unique: Callable[[], bool | None] = lambda: None) -> Mistake | None:
    """The first wrong mark: against the rules first, then against the solution."""
    if not marks:
        return None
    found = vessel_mistake(puzzle, marks) or line_mistake(puzzle, marks)
    if found:
        return found
    if complete is None:
        from thermomilp.logic.search import search_solutions

        complete = logic_completion(puzzle)
        unique = lambda: sum(1 for _ in search_solutions(puzzle, "probing", 2)) == 1  # noqa: E731
    return solution_mistake(puzzle, marks, complete, unique)
