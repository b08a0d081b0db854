"""Difficulty grade: the weakest rule set that finishes a board (docs/logic.md, "Grades").

``grade(puzzle)`` is ``"intervals"``, ``"probing"``, ``"pairs"`` (pair probing,
`thermomilp.logic.pairs`, on top) or ``"search"`` (every board with two or more
solutions); the generator maps grades to difficulties with `GRADE_TO_DIFFICULTY`.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.puzzle import GRADES, Grid, Puzzle, levels_from_grid  # noqa: F401 - re-exported
from thermomilp.logic.domains import full_domains, is_decided, line_tables
from thermomilp.logic.pairs import pair_fixpoint
from thermomilp.logic.propagation import probe_fixpoint, propagate

GRADE_TO_DIFFICULTY = {"intervals": "easy", "probing": "medium", "pairs": "hard",
                       "search": "hard"}


def _up_to_probing(puzzle: Puzzle, stop: Callable[[], bool] | None = None,
                   known: Grid | None = None):
    """(tables, domains after probing, "intervals" | "probing" | None when not finished,
    the levels of ``known`` or None)."""
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    levels = None if known is None else [1 << L for L in levels_from_grid(puzzle, known)]
    if not propagate(tables, dom) or is_decided(dom):
        return tables, dom, "intervals", levels
    if not probe_fixpoint(tables, dom, stop, levels) or is_decided(dom):
        return tables, dom, "probing", levels
    return tables, dom, None, levels


def difficulty(puzzle: Puzzle, stop: Callable[[], bool] | None = None) -> str:
    """``GRADE_TO_DIFFICULTY[grade(puzzle)]`` without pair probing: ``hard`` is decided as
    soon as single probing does not finish (pairs and search are both hard), so a
    generator testing many candidates never pays for pair probing."""
    if not puzzle.all_chains:
        return GRADE_TO_DIFFICULTY[grade(puzzle, stop)]
    return GRADE_TO_DIFFICULTY[_up_to_probing(puzzle, stop)[2] or "search"]


def grade(puzzle: Puzzle, stop: Callable[[], bool] | None = None,
          known: Grid | None = None) -> str:
    """``stop``: see `thermomilp.logic.propagation.sweep` (raises TimeUp). A board with
    layer trees (the pool rule) is graded by `thermomilp.logic.tree.grade`.

    ``known``: a solution of the board, already checked by
    [`thermomilp.core.verify`][thermomilp.core.verify] (the generator's planted grid). Its levels
    are never tested for refutation -- no sound rule erases them -- so the grade is the same and
    comes sooner. A grid that is not a solution may give a wrong grade: never pass an unchecked
    one."""
    if not puzzle.all_chains:
        from thermomilp.logic.tree import grade as tree_grade
        return tree_grade(puzzle, stop)
    tables, dom, done, levels = _up_to_probing(puzzle, stop, known)
    if done:
        return done
    if not pair_fixpoint(tables, dom, stop, levels) or is_decided(dom):
        return "pairs"
    return "search"
