"""Hints for the page: the next deduction from the player's marks, with its rule's name.

``next_hint(puzzle, marks)`` is the one call the API makes. It asks the
logic engine (``thermomilp.logic.hints`` for Thermometers,
``thermomilp.logic.aquarium_hints`` for Aquarium) when that module is
installed, and otherwise uses the small rule set below, so the page works on
any build. The built-in rules, tried in order, each on the marks as they are:

* **bookkeeping** -- a vessel fills from the bottom: a filled cell fills every
  lower rank of its vessel (and its whole tank row); an empty cell empties
  every higher rank.
* **one line's count** -- a row/column whose clue is reached has its unknown
  cells empty; one that needs all its unknown cells has them filled.
* **probe** -- assume a cell filled (or empty), apply the two rules above until
  nothing changes; a contradiction proves the opposite value.
* **reveal** -- none of the above applies: one cell is read from the MILP
  solution (the board needs a longer chain of reasoning than these rules).

Marks are rows of ``#`` (filled), ``.`` (empty) and ``?`` (unknown).
A mark that breaks a rule is reported first (rule ``mistake``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from thermomilp.puzzle import Cell, Puzzle

FILLED, EMPTY, UNKNOWN = "#", ".", "?"
PROBE_SECONDS = 2.0


@dataclass(frozen=True)
class Hint:
    """One deduction: ``cells`` get ``value`` because of ``reasons``."""

    rule: str
    message: str
    cells: tuple[Cell, ...]
    value: str | None
    reasons: tuple[Cell, ...] = field(default_factory=tuple)
    engine: str = "built-in"

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message, "value": self.value,
                "cells": [list(c) for c in self.cells],
                "reasons": [list(c) for c in self.reasons], "engine": self.engine}


class Contradiction(Exception):
    def __init__(self, message: str, cells: Sequence[Cell]):
        super().__init__(message)
        self.message = message
        self.cells = tuple(cells)


def next_hint(puzzle: Puzzle, marks: Sequence[str],
              solution: Callable[[], Sequence[str] | None] | None = None) -> Hint | None:
    """The next deduction, or ``None`` when every cell is marked.

    ``solution`` is called (lazily) only by the last-resort ``reveal`` rule.
    """
    engine = _logic_engine(puzzle.kind)
    if engine is not None:
        return engine(puzzle, marks)
    return builtin_hint(puzzle, marks, solution)


def _logic_engine(kind: str) -> Callable[[Puzzle, Sequence[str]], Hint | None] | None:
    """The logic helper's hint function for ``kind``, adapted, if installed."""
    module_name = ("thermomilp.logic.hints" if kind == "thermometers"
                   else "thermomilp.logic.aquarium_hints")
    try:
        module = __import__(module_name, fromlist=["next_hint"])
    except ImportError:
        return None
    engine = getattr(module, "next_hint", None)
    if engine is None:
        return None

    def adapted(puzzle: Puzzle, marks: Sequence[str]) -> Hint | None:
        return _adapt(engine(puzzle, marks), module_name)
    return adapted


def _adapt(found: object, module_name: str) -> Hint | None:
    """Accept the logic engine's hint object, whatever its exact field names."""
    if found is None or isinstance(found, Hint):
        return found

    def pick(*names: str, default=None):
        for name in names:
            if isinstance(found, dict) and name in found:
                return found[name]
            if hasattr(found, name):
                return getattr(found, name)
        return default
    cells = tuple(tuple(c) for c in pick("cells", default=()) or ())
    value = pick("value")
    if isinstance(value, bool):
        value = FILLED if value else EMPTY
    elif isinstance(value, int):
        value = FILLED if value else EMPTY
    return Hint(str(pick("rule", "name", default="logic")),
                str(pick("message", "explanation", "text", default="")),
                cells, value, tuple(tuple(c) for c in pick("reasons", "because", default=()) or ()),
                module_name)


# --------------------------------------------------------------------------
# The built-in rules
# --------------------------------------------------------------------------


def _lines(puzzle: Puzzle) -> list[tuple[str, int | None, list[Cell]]]:
    lines: list[tuple[str, int | None, list[Cell]]] = []
    for i, clue in enumerate(puzzle.rows):
        lines.append((f"row {i + 1}", clue, [(i, j) for j in range(puzzle.width)]))
    for j, clue in enumerate(puzzle.cols):
        lines.append((f"column {j + 1}", clue, [(i, j) for i in range(puzzle.height)]))
    return lines


def _vessel_name(puzzle: Puzzle, index: int) -> str:
    return ("thermometer " if puzzle.kind == "thermometers" else "tank ") \
        + puzzle.vessels[index].label


def bookkeeping(puzzle: Puzzle, known: dict[Cell, str]) -> Hint | None:
    for index, vessel in enumerate(puzzle.vessels):
        top_filled = max((k for k, layer in enumerate(vessel.layers)
                          if any(known.get(c) == FILLED for c in layer)), default=-1)
        low_empty = min((k for k, layer in enumerate(vessel.layers)
                         if any(known.get(c) == EMPTY for c in layer)), default=vessel.depth)
        if top_filled >= low_empty:
            what = ("has a tank row that is partly wet: water in a tank row is level"
                    if top_filled == low_empty else "is filled above an empty cell")
            raise Contradiction(f"{_vessel_name(puzzle, index)} {what}",
                                tuple(dict.fromkeys(vessel.layers[top_filled]
                                                    + vessel.layers[low_empty])))
        fill = [c for layer in vessel.layers[:top_filled + 1] for c in layer if c not in known]
        if fill:
            why = tuple(c for c in vessel.layers[top_filled] if known.get(c) == FILLED)
            return Hint("bookkeeping", f"{_vessel_name(puzzle, index)} fills from the "
                        "bottom: below a filled cell every cell is filled", tuple(fill), FILLED,
                        why[:1])
        empty = [c for layer in vessel.layers[low_empty:] for c in layer if c not in known]
        if empty:
            why = tuple(c for c in vessel.layers[low_empty] if known.get(c) == EMPTY)
            return Hint("bookkeeping", f"{_vessel_name(puzzle, index)} fills from the "
                        "bottom: above an empty cell every cell is empty", tuple(empty), EMPTY,
                        why[:1])
    return None


def one_line_count(puzzle: Puzzle, known: dict[Cell, str]) -> Hint | None:
    for name, clue, cells in _lines(puzzle):
        if clue is None:
            continue
        filled = sum(known.get(c) == FILLED for c in cells)
        unknown = [c for c in cells if c not in known]
        if filled > clue:
            raise Contradiction(f"{name} has {filled} filled cells but its clue is {clue}", cells)
        if filled + len(unknown) < clue:
            raise Contradiction(f"{name} can reach at most {filled + len(unknown)} filled "
                                f"cells but its clue is {clue}", cells)
        if unknown and filled == clue:
            return Hint("one line's count", f"{name} already has its {clue} filled "
                        f"cell{'' if clue == 1 else 's'}: the rest are empty", tuple(unknown), EMPTY)
        if unknown and filled + len(unknown) == clue:
            return Hint("one line's count", f"{name} needs {clue - filled} more filled "
                        f"cell{'' if clue - filled == 1 else 's'} and has exactly "
                        f"{len(unknown)} unknown", tuple(unknown), FILLED)
    return None


def propagate(puzzle: Puzzle, known: dict[Cell, str]) -> dict[Cell, str]:
    """Apply bookkeeping and line counts until nothing changes; raises Contradiction."""
    known = dict(known)
    while True:
        hint = bookkeeping(puzzle, known) or one_line_count(puzzle, known)
        if hint is None:
            return known
        for cell in hint.cells:
            known[cell] = hint.value  # type: ignore[assignment]


def probe(puzzle: Puzzle, known: dict[Cell, str], budget: float = PROBE_SECONDS) -> Hint | None:
    deadline = time.perf_counter() + budget
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            if (r, c) in known:
                continue
            for guess, other in ((FILLED, EMPTY), (EMPTY, FILLED)):
                if time.perf_counter() > deadline:
                    return None
                try:
                    propagate(puzzle, {**known, (r, c): guess})
                except Contradiction as exc:
                    word = "filled" if guess == FILLED else "empty"
                    return Hint("probe", f"if cell ({r + 1},{c + 1}) were {word}, then "
                                f"{exc.message}: so it is the opposite", ((r, c),), other,
                                exc.cells[:4])
    return None


def builtin_hint(puzzle: Puzzle, marks: Sequence[str],
                 solution: Callable[[], Sequence[str] | None] | None = None) -> Hint | None:
    known = {(r, c): ch for r, row in enumerate(marks) for c, ch in enumerate(row)
             if ch in (FILLED, EMPTY)}
    try:
        hint = bookkeeping(puzzle, known) or one_line_count(puzzle, known) or probe(puzzle, known)
    except Contradiction as exc:
        return Hint("mistake", f"your marks break a rule: {exc.message}", exc.cells, None)
    if hint is not None or len(known) == puzzle.height * puzzle.width:
        return hint
    grid = solution() if solution is not None else None
    if grid is None:
        return Hint("stuck", "no rule applies and the board has no solution to reveal from",
                    (), None)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if (r, c) not in known:
                return Hint("reveal", f"no short deduction applies: the MILP solution has "
                            f"cell ({r + 1},{c + 1}) {'filled' if ch == FILLED else 'empty'}",
                            ((r, c),), ch)
    return None
