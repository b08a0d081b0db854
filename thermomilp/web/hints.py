"""Hints for the page: the next deduction from the player's marks, with its rule's name.

``next_hint(puzzle, marks)`` is the one call the API makes. It asks the
logic engines in turn until one decides something: for Aquarium
``thermomilp.logic.aquarium_hints`` (gravity, subset-sum) and then
``thermomilp.logic.hints``; for Thermometers ``thermomilp.logic.hints``
(bookkeeping, line_count, chained_count, probe). Their stable rule ids are
shown by the names in :data:`RULE_NAMES`. When no engine decides more (the
board needs search), the ``reveal`` rule reads one cell from the MILP
solution.

Marks are rows of ``#`` (filled), ``.`` (empty) and ``?`` (unknown); rows and
columns are numbered from 0, as everywhere in thermomilp. Marks are checked
before any engine deduces anything (``thermomilp.logic.mistakes``: against
the rules, then against the solution): a wrong mark is named (rule
``mistake``) and nothing is deduced from it -- the Aquarium gravity rule
included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from thermomilp.logic import aquarium_hints, hints
from thermomilp.logic.mistakes import find_mistake, line_mistake, solution_mistake
from thermomilp.logic.search import search_solutions
from thermomilp.puzzle import Cell, Puzzle

FILLED, EMPTY, UNKNOWN = "#", ".", "?"
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
    engine: str = "milp"  # the logic module that deduced it; ``milp`` for reveal
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
    (called lazily).
    """
    written = {(r, c): 1 if ch == FILLED else 0 for r, row in enumerate(marks)
               for c, ch in enumerate(row) if ch in (FILLED, EMPTY)}
    wrong = mistake_hint(puzzle, written, complete)
    if wrong is not None:
        return wrong
    if not puzzle.all_chains:  # the pool rule: the rule engines reason about levels
        if len(written) == puzzle.height * puzzle.width:
            return None
        return _reveal(puzzle, marks, solution, "The logic rules reason about one level per "
                       "tank and do not apply to the pool rule.")
    why = "No rule decides more."
    for engine in _engines(puzzle.kind):
        if engine is hints:
            # the marks were checked above (mistake_hint, with the MILP)
            step = engine.next_hint(puzzle, written, checked=True,
                                    pairs=puzzle.height * puzzle.width <= PAIR_PROBE_CELLS)
        else:
            step = engine.next_hint(puzzle, written)
        rule = str(getattr(step, "rule", "") or "")
        text = str(getattr(step, "text", None) or getattr(step, "message", None) or "")
        if step is None or rule == "stalled":
            why = f"{text}." if text else why
            continue
        if rule == "solved":
            return None
        return _translate(step, rule, text, engine.__name__)
    if len(written) == puzzle.height * puzzle.width:
        return None
    return _reveal(puzzle, marks, solution, why)


def mistake_hint(puzzle: Puzzle, written: Mapping[Cell, int],
                 complete: Callable[[Mapping[Cell, int]], Sequence[str] | None] | None = None,
                 ) -> Hint | None:
    """A ``mistake`` hint naming the wrong marks, or None."""
    def unique() -> bool | None:
        if puzzle.height * puzzle.width > LOGIC_UNIQUE_CELLS:
            return None
        return sum(1 for _ in search_solutions(puzzle, "probing", 2)) == 1

    if not puzzle.all_chains:  # the pool rule: no vessel order to check, and no level search
        found = line_mistake(puzzle, written) or (
            solution_mistake(puzzle, written, complete) if complete and written else None)
    else:
        found = find_mistake(puzzle, written, complete, unique)  # type: ignore[arg-type]
    if found is None:
        return None
    return Hint("mistake", found.text, found.cells, (), (), "thermomilp.logic.mistakes",
                mistake=True)


def _engines(kind: str) -> tuple:
    return (aquarium_hints, hints) if kind == "aquarium" else (hints,)


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

