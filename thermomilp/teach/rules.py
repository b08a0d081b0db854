"""The puzzle's rules with one classic mistake made on purpose, as a checker.

A `Rules` names how a model treats each part of the rules: the fill
order, the clues and (Aquarium) the ties that keep a tank row level. The
correct rules are ``Rules()``; every other value is a mistake of the
catalogue in docs/course/grader.md. `obeys` decides whether a grid
satisfies such rules; the grader compares a student's model with these
checkers on probe grids (`thermomilp.teach.probes`).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise, product

from thermomilp.core.puzzle import Puzzle, ones_of

FILL = {"correct": None, "missing": "missing-precedence", "reversed": "reversed-precedence",
        "skips": "precedence-skips-cells"}
CLUES = {"correct": None, "swapped": "rows-cols-swapped", "zero-dropped": "zero-clue-dropped",
         "missing-as-zero": "missing-clue-as-zero", "at-most": "clue-as-upper-bound"}
TIES = {"correct": None, "missing": "missing-tie", "chain": "tank-as-chain"}


@dataclass(frozen=True)
class Rules:
    fill: str = "correct"
    clues: str = "correct"
    ties: str = "correct"

    def mistakes(self) -> frozenset[str]:
        return frozenset(m for m in (FILL[self.fill], CLUES[self.clues], TIES[self.ties]) if m)

    def predicts(self, puzzle: Puzzle) -> bool:
        """Do these rules say which grids a model that makes their mistakes accepts on
        ``puzzle``? Swapped rows and columns say nothing on a board that is not square
        (a model that swaps them crashes there, or sums part of a line: it depends on how
        it is written)."""
        return self.clues != "swapped" or puzzle.height == puzzle.width


def variants(kind: str) -> list[Rules]:
    """Every combination of mistakes a model of ``kind`` may make (the correct rules first)."""
    ties = list(TIES) if kind == "aquarium" else ["correct"]
    # a tank as one chain has its own fill order, and is named only when the rest of the
    # model is right (combined with another mistake it explains nothing: no id is named)
    return [Rules(f, c, t) for f, c, t in product(FILL, CLUES, ties)
            if t != "chain" or (f, c) == ("correct", "correct")]


def allows(puzzle: Puzzle, grid: Sequence[str], rules: Rules = Rules()) -> tuple[bool, bool]:
    """(must, may): must a model that makes ``rules``' mistakes accept ``grid``, and may it?

    Most mistakes are written one way, and `obeys` says exactly what such a model
    accepts (must == may). A missing tie is not: a model may leave its tank rows untied by
    linking each cell to the one below it, or to one representative cell of the row below,
    or its rows' representatives only (the right model without its ties), or ... Each such
    model accepts every grid the same rules with the ties accept (must), and besides those
    only grids that keep its clues and have a tank row partly wet -- or that the
    column-by-column way (`obeys`) accepts (may)."""
    if rules.ties != "missing":
        ok = obeys(puzzle, grid, rules)
        return ok, ok
    must = obeys(puzzle, grid, Rules(rules.fill, rules.clues, "correct"))
    if must:
        return True, True
    filled = ones_of(grid)
    untied = any(any(c in filled for c in layer) and not all(c in filled for c in layer)
                 for v in puzzle.vessels for layer in v.layers)
    return False, (_clues_ok(puzzle, filled, rules.clues) and untied) \
        or obeys(puzzle, grid, rules)


def obeys(puzzle: Puzzle, grid: Sequence[str], rules: Rules = Rules()) -> bool:
    filled = ones_of(grid)
    return _fill_ok(puzzle, filled, rules) and _clues_ok(puzzle, filled, rules.clues)


def _fill_ok(puzzle: Puzzle, filled: frozenset, rules: Rules) -> bool:
    if rules.ties == "chain":  # every cell after the one before it, bottom row first
        return all(not (b in filled and a not in filled)
                   for v in puzzle.vessels for a, b in pairwise(v.cells))
    if rules.ties == "missing" and rules.fill == "correct":
        # the way a missing tie is written: water needs the cell below it (same tank, same
        # column), and nothing keeps a tank row level
        return all(not ((i, j) in filled and (i + 1, j) in cells and (i + 1, j) not in filled)
                   for v in puzzle.vessels for cells in [set(v.cells)] for i, j in cells)
    for vessel in puzzle.vessels:
        states = []
        for layer in vessel.layers:
            wet = [c in filled for c in layer]
            if rules.ties == "correct" and any(wet) != all(wet):
                return False
            states.append(any(wet))
        pairs = list(pairwise(states))
        if rules.fill == "correct" and any(upper and not lower for lower, upper in pairs):
            return False
        if rules.fill == "reversed" and any(lower and not upper for lower, upper in pairs):
            return False
        if rules.fill == "skips" and any(states[1:]) and not states[0]:
            return False
    return True


def _clues_ok(puzzle: Puzzle, filled: frozenset, how: str) -> bool:
    h, w = puzzle.height, puzzle.width
    row_sums = [sum((i, j) in filled for j in range(w)) for i in range(h)]
    col_sums = [sum((i, j) in filled for i in range(h)) for j in range(w)]
    if how == "swapped" and h != w:
        return False
    clues = [*puzzle.cols, *puzzle.rows] if how == "swapped" else [*puzzle.rows, *puzzle.cols]
    if how == "zero-dropped":
        clues = [None if c == 0 else c for c in clues]
    if how == "missing-as-zero":
        clues = [0 if c is None else c for c in clues]
    holds = operator.le if how == "at-most" else operator.eq
    return all(c is None or holds(s, c) for s, c in zip(row_sums + col_sums, clues, strict=True))
