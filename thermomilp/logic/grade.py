"""Difficulty grade: the weakest rule set that finishes a board.

``grade(puzzle)`` is ``"intervals"`` when interval propagation alone decides
every vessel (or proves the board has no solution), ``"probing"`` when
interval propagation plus probing does, and ``"search"`` otherwise (the board
needs branching -- which includes every board with two or more solutions).
The generator maps grades to difficulties with :data:`GRADE_TO_DIFFICULTY`.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.logic.domains import full_domains, is_decided, line_tables
from thermomilp.logic.intervals import propagate
from thermomilp.logic.probing import probe_fixpoint
from thermomilp.puzzle import Puzzle

GRADES = ("intervals", "probing", "search")
GRADE_TO_DIFFICULTY = {"intervals": "easy", "probing": "medium", "search": "hard"}


def grade(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> str:
    """``stop``: see :func:`thermomilp.logic.probing.probe_fixpoint` (raises TimeUp)."""
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    if not propagate(tables, dom) or is_decided(dom):
        return "intervals"
    if not probe_fixpoint(tables, dom, stop) or is_decided(dom):
        return "probing"
    return "search"
