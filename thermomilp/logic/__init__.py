"""Reasoning on vessel levels: brute force, propagation, probing, hints.

See ``docs/logic.md``. Entry points: [`thermomilp.logic.grade.grade`][thermomilp.logic.grade.grade],
[`thermomilp.logic.presolve.presolve_cells`][thermomilp.logic.presolve.presolve_cells],
[`thermomilp.logic.hints.next_hint`][thermomilp.logic.hints.next_hint] /
[`explain`][thermomilp.logic.hints.explain],
[`thermomilp.logic.search.search_solutions`][thermomilp.logic.search.search_solutions]. Depends only
on [`thermomilp.core.puzzle`][thermomilp.core.puzzle] (and
[`thermomilp.core.errors`][thermomilp.core.errors]).
"""
