"""Hints for the page: the next deduction from the player's marks, with its rule's name.

``next_hint(puzzle, marks)`` is the one call the API makes. It asks the
logic engines when they are installed, in turn, until one decides something:
for Aquarium ``thermomilp.logic.aquarium_hints`` (gravity, subset-sum) and
then ``thermomilp.logic.hints``; for Thermometers ``thermomilp.logic.hints``
(bookkeeping, line_count, chained_count, probe); for a pool-rule Aquarium
only ``thermomilp.logic.hints``, which reasons on its layer trees
(``thermomilp.logic.tree``). Their stable rule ids are
shown by the names in :data:`RULE_NAMES`. When no engine decides more (the
board needs search), the ``reveal`` rule reads one cell from the MILP
solution. Without any logic module, the small built-in rule set below keeps
the page working:

* **bookkeeping** -- a vessel fills from the bottom: a filled cell fills every
  lower rank of its vessel (and its whole tank row); an empty cell empties
  every higher rank.
* **one line's count** -- a row/column whose clue is reached has its unknown
  cells empty; one that needs all its unknown cells has them filled.
* **probe** -- assume a cell filled (or empty), apply the two rules above until
  nothing changes; a contradiction proves the opposite value.
* **reveal** -- none of the above applies: one cell is read from the MILP
  solution.

Marks are rows of ``#`` (filled), ``.`` (empty) and ``?`` (unknown); rows and
columns are numbered from 0, as everywhere in thermomilp. Marks are checked
before any engine deduces anything (``thermomilp.logic.mistakes``: against
the rules, then against the solution): a wrong mark is named (rule
``mistake``) and nothing is deduced from it -- the Aquarium gravity rule
included.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from thermomilp.puzzle import Cell, Puzzle

FILLED, EMPTY, UNKNOWN = "#", ".", "?"
PROBE_SECONDS = 2.0
LOGIC_UNIQUE_CELLS = 225  # boards up to 15x15: the logic's search words "the solution"
PAIR_PROBE_CELLS = 225  # pair probing (seconds when single probing stalls) up to 15x15


@dataclass(frozen=True)
class Hint:
    """One deduction: ``cells[k]`` gets ``values[k]`` (``#``/``.``) because of ``reasons``.

    ``mistake`` hints carry no values: ``cells`` are the marks that clash.
    """

    rule: str
    message: str
    cells: tuple[Cell, ...]
    values: tuple[str, ...]
    reasons: tuple[Cell, ...] = field(default_factory=tuple)
    engine: str = "built-in"
    mistake: bool = False

    @property
    def value(self) -> str | None:
        """The one value every cell gets, or None when they differ (or there are none)."""
        return self.values[0] if self.values and len(set(self.values)) == 1 else None

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message, "value": self.value,
                "cells": [list(c) for c in self.cells], "values": list(self.values),
                "reasons": [list(c) for c in self.reasons], "engine": self.engine,
                "mistake": self.mistake}


def _hint(rule: str, message: str, cells: Sequence[Cell], value: str | None,
          reasons: Sequence[Cell] = ()) -> Hint:
    cells = tuple(cells)
    return Hint(rule, message, cells, tuple(value for _ in cells) if value else (),
                tuple(reasons))


class Contradiction(Exception):
    def __init__(self, message: str, cells: Sequence[Cell]):
        super().__init__(message)
        self.message = message
        self.cells = tuple(cells)


# The logic engines' stable rule ids -> the names the page shows.
RULE_NAMES = {"bookkeeping": "bookkeeping", "line_count": "one line's count",
              "chained_count": "chained counts", "probe": "probe", "pair_probe": "pair probe",
              "contradiction": "mistake", "mistake": "mistake",
              "subset-sum": "subset-sum", "subset_sum": "subset-sum", "gravity": "gravity"}


def next_hint(puzzle: Puzzle, marks: Sequence[str],
              solution: Callable[[], Sequence[str] | None] | None = None,
              complete: Callable[[Mapping[Cell, int]], Sequence[str] | None] | None = None,
              ) -> Hint | None:
    """The next deduction, or ``None`` when every cell is marked and nothing is wrong.

    First the marks are checked (:func:`mistake_hint`; ``complete(fixed)`` is
    a solution agreeing with ``fixed`` or None -- the server passes the MILP,
    the default is the logic's search). Then the logic engines for the
    puzzle's kind are asked in turn (the first one that decides something
    wins); when none does, ``reveal`` reads a cell from ``solution()``
    (called lazily). Without any logic engine the built-in rules answer.
    """
    written = {(r, c): 1 if ch == FILLED else 0 for r, row in enumerate(marks)
               for c, ch in enumerate(row) if ch in (FILLED, EMPTY)}
    wrong = mistake_hint(puzzle, written, complete)
    if wrong is not None:
        return wrong
    engines = [(name, engine) for name in _engines(puzzle.kind, puzzle.all_chains)
               if (engine := _load(name)) is not None]
    if not engines:
        return builtin_hint(puzzle, marks, solution)
    why = "No rule decides more."
    for module_name, engine in engines:
        if module_name == "thermomilp.logic.hints":
            # the marks were checked above (mistake_hint, with the MILP)
            step = engine(puzzle, written, checked=True,
                          pairs=puzzle.height * puzzle.width <= PAIR_PROBE_CELLS)
        else:
            step = engine(puzzle, written)
        rule = str(getattr(step, "rule", "") or "")
        text = str(getattr(step, "text", None) or getattr(step, "message", None) or "")
        if step is None or rule == "stalled":
            why = f"{text}." if text else why
            continue
        if rule == "solved":
            return None
        return _translate(step, rule, text, module_name)
    if len(written) == puzzle.height * puzzle.width:
        return None
    return _reveal(puzzle, marks, solution, why)


def mistake_hint(puzzle: Puzzle, written: Mapping[Cell, int],
                 complete: Callable[[Mapping[Cell, int]], Sequence[str] | None] | None = None,
                 ) -> Hint | None:
    """A ``mistake`` hint naming the wrong marks, or None (also without the logic module)."""
    try:
        from thermomilp.logic.mistakes import find_mistake, line_mistake, solution_mistake
        from thermomilp.logic.search import search_solutions
        from thermomilp.logic.tree import tree_mistake
    except ImportError:
        return None

    def unique() -> bool | None:
        if puzzle.height * puzzle.width > LOGIC_UNIQUE_CELLS:
            return None
        return sum(1 for _ in search_solutions(puzzle, "probing", 2)) == 1

    if not puzzle.all_chains:  # the pool rule: the tree order, the lines, then the solution
        found = tree_mistake(puzzle, written) or line_mistake(puzzle, written) or (
            solution_mistake(puzzle, written, complete) if complete and written else None)
    else:
        found = find_mistake(puzzle, written, complete, unique)  # type: ignore[arg-type]
    if found is None:
        return None
    return Hint("mistake", found.text, found.cells, (), (), "thermomilp.logic.mistakes",
                mistake=True)


def _engines(kind: str, chains: bool = True) -> tuple[str, ...]:
    """The hint engines to ask, in turn; a pool-rule board (layer trees) has no tank levels
    for the Aquarium DP, and :mod:`thermomilp.logic.hints` routes it to the tree engine."""
    if kind == "aquarium" and chains:
        return ("thermomilp.logic.aquarium_hints", "thermomilp.logic.hints")
    return ("thermomilp.logic.hints",)


def _load(module_name: str) -> Callable | None:
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, "next_hint", None)


def _translate(step: object, rule: str, text: str, module_name: str) -> Hint:
    """A logic engine's step as a Hint, whichever of the two step shapes it has.

    ``thermomilp.logic.hints.Step.cells`` is ``((cell, 1|0), ...)``;
    ``thermomilp.logic.aquarium_hints.Hint`` has ``cells`` (a set) and
    ``values`` (cell -> 1|0), empty when the marks clash.
    """
    values_map = getattr(step, "values", None)
    raw_cells = getattr(step, "cells", ()) or ()
    if isinstance(values_map, Mapping):
        pairs = sorted(values_map.items())
        clash = sorted(tuple(c) for c in raw_cells)
    else:
        pairs = [(tuple(cell), value) for cell, value in raw_cells]
        clash = []
    name = RULE_NAMES.get(rule, rule.replace("_", " "))
    if rule in ("contradiction", "mistake") or not pairs:
        clash = clash or sorted(tuple(c) for c in getattr(step, "wrong", ()) or ())
        return Hint(name, text, tuple(clash), (), (), module_name, mistake=True)
    cells = tuple(tuple(cell) for cell, _ in pairs)
    values = tuple(FILLED if value in (1, True, FILLED) else EMPTY for _, value in pairs)
    return Hint(name, text, cells, values, (), module_name)


def _reveal(puzzle: Puzzle, marks: Sequence[str],
            solution: Callable[[], Sequence[str] | None] | None, why: str) -> Hint | None:
    grid = solution() if solution is not None else None
    if grid is None:
        return _hint("stuck", f"{why} The board has no solution to reveal a cell from.", (), None)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if marks[r][c] not in (FILLED, EMPTY):
                word = "filled" if ch == FILLED else "empty"
                return _hint("reveal", f"{why} The MILP solution has cell ({r},{c}) {word}.",
                             ((r, c),), ch)
    return None


# --------------------------------------------------------------------------
# The built-in rules
# --------------------------------------------------------------------------


def _lines(puzzle: Puzzle) -> list[tuple[str, int | None, list[Cell]]]:
    lines: list[tuple[str, int | None, list[Cell]]] = []
    for i, clue in enumerate(puzzle.rows):
        lines.append((f"row {i}", clue, [(i, j) for j in range(puzzle.width)]))
    for j, clue in enumerate(puzzle.cols):
        lines.append((f"column {j}", clue, [(i, j) for i in range(puzzle.height)]))
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
            return _hint("bookkeeping", f"{_vessel_name(puzzle, index)} fills from the "
                        "bottom: below a filled cell every cell is filled", tuple(fill), FILLED,
                        why[:1])
        empty = [c for layer in vessel.layers[low_empty:] for c in layer if c not in known]
        if empty:
            why = tuple(c for c in vessel.layers[low_empty] if known.get(c) == EMPTY)
            return _hint("bookkeeping", f"{_vessel_name(puzzle, index)} fills from the "
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
            return _hint("one line's count", f"{name} already has its {clue} filled "
                        f"cell{'' if clue == 1 else 's'}: the rest are empty", tuple(unknown), EMPTY)
        if unknown and filled + len(unknown) == clue:
            return _hint("one line's count", f"{name} needs {clue - filled} more filled "
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
                    return _hint("probe", f"if cell ({r},{c}) were {word}, then "
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
        return Hint("mistake", f"your marks break a rule: {exc.message}", exc.cells, (),
                    mistake=True)
    if hint is not None or len(known) == puzzle.height * puzzle.width:
        return hint
    return _reveal(puzzle, marks, solution, "No short deduction applies.")
