"""Hints for the page: the next deduction from the player's marks, with its rule's name.

``next_hint(puzzle, marks)`` is the one call the API makes: for Aquarium it asks
``thermomilp.logic.aquarium_hints`` (gravity, subset_sum), then
``thermomilp.logic.hints``; for Thermometers and pool-rule Aquarium (on its layer
trees, ``thermomilp.logic.tree``) ``thermomilp.logic.hints`` alone. Their stable rule
ids are shown by the names in `RULE_NAMES`. Every hint is a `Deduction`; `page_json`
is what the page receives.

Marks use the notation of `thermomilp.core.notation`; the JSON's cells are 0-based, a
hint's message counts from 1. Marks are checked before any engine deduces anything
(``thermomilp.logic.mistakes``): a wrong mark is named (rule ``mistake``) and nothing is
deduced from it.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Mapping, Sequence

from thermomilp.core.notation import EMPTY, FILLED, cell_name
from thermomilp.core.puzzle import Cell, Puzzle
from thermomilp.logic import aquarium_hints, hints
from thermomilp.logic.deduction import Deduction
from thermomilp.logic.mistakes import Completion, find_mistake, line_mistake, solution_mistake
from thermomilp.logic.search import search_solutions
from thermomilp.logic.steps import mistake_of
from thermomilp.logic.tree import tree_mistake

LOGIC_UNIQUE_CELLS = 225  # boards up to 15x15: the logic's search words "the solution"
PAIR_PROBE_CELLS = 225  # pair probing (seconds when single probing stalls) up to 15x15


# The logic engines' stable rule ids -> the names the page shows.
RULE_NAMES = {"bookkeeping": "bookkeeping", "line_count": "one line's count",
              "chained_count": "chained counts", "probe": "probe", "pair_probe": "pair probe",
              "contradiction": "mistake", "mistake": "mistake", "subset_sum": "subset-sum",
              "gravity": "gravity", "reveal": "reveal", "stuck": "stuck"}
# The module behind each rule the page shows (``milp``: read from the MILP solution).
RULE_ENGINES = {"gravity": aquarium_hints.__name__, "subset_sum": aquarium_hints.__name__,
                "mistake": "thermomilp.logic.mistakes", "reveal": "milp", "stuck": "milp"}


def page_json(hint: Deduction) -> dict[str, Any]:
    """A hint as the page shows it: the rule's name, the cells with ``#``/``.``
    values -- or, for marks to blame, the cells that clash and no values."""
    mistake = hint.blames_marks or bool(hint.wrong)
    cells = list(hint.wrong) if mistake else [cell for cell, _ in hint.cells]
    values = [] if mistake else [FILLED if v else EMPTY for _, v in hint.cells]
    return {"rule": RULE_NAMES.get(hint.rule, hint.rule.replace("_", " ")),
            "message": hint.text, "value": values[0] if len(set(values)) == 1 else None,
            "cells": [list(c) for c in cells], "values": values, "reasons": [],
            "engine": RULE_ENGINES.get(hint.rule, hints.__name__), "mistake": mistake}


def next_hint(puzzle: Puzzle, marks: Sequence[str],
              solution: Callable[[], Sequence[str] | None] | None = None,
              complete: Completion | None = None,
              ) -> Deduction | None:
    """The next deduction, or ``None`` when every cell is marked and nothing is wrong.

    First the marks are checked (`mistake_hint`; ``complete(fixed)`` is
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
    why = "No rule decides more."
    # a pool-rule board has no tank levels for the Aquarium DP; logic.hints routes it to
    # the tree engine (thermomilp.logic.tree)
    chains_aquarium = puzzle.kind == "aquarium" and puzzle.all_chains
    # the marks were checked above (mistake_hint, with the MILP)
    logic = partial(hints.next_hint, checked=True,
                    pairs=puzzle.height * puzzle.width <= PAIR_PROBE_CELLS)
    for engine in (aquarium_hints.next_hint, logic) if chains_aquarium else (logic,):
        step = engine(puzzle, written)
        if step is None or step.rule == "stalled":
            why = f"{step.text}." if step is not None and step.text else why
            continue
        if step.rule == "solved":
            return None
        return step
    if len(written) == puzzle.height * puzzle.width:
        return None
    return _reveal(puzzle, marks, solution, why)


def mistake_hint(puzzle: Puzzle, written: Mapping[Cell, int],
                 complete: Completion | None = None,
                 ) -> Deduction | None:
    """A ``mistake`` naming the wrong marks, or None."""
    def unique() -> bool | None:
        if puzzle.height * puzzle.width > LOGIC_UNIQUE_CELLS:
            return None
        return sum(1 for _ in search_solutions(puzzle, "probing", 2)) == 1

    if not puzzle.all_chains:  # the pool rule: the tree order, the lines, then the solution
        found = tree_mistake(puzzle, written) or line_mistake(puzzle, written) or (
            solution_mistake(puzzle, written, complete) if complete and written else None)
    else:
        found = find_mistake(puzzle, written, complete, unique)
    return mistake_of(found)


def _reveal(puzzle: Puzzle, marks: Sequence[str],
            solution: Callable[[], Sequence[str] | None] | None, why: str) -> Deduction | None:
    grid = solution() if solution is not None else None
    if grid is None:
        return Deduction("stuck", (), f"{why} The board has no solution to reveal a cell from.")
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if marks[r][c] not in (FILLED, EMPTY):
                word = "filled" if ch == FILLED else "empty"
                return Deduction("reveal", (((r, c), int(ch == FILLED)),),
                                 f"{why} The MILP solution has cell {cell_name((r, c))} {word}.")
    return None
