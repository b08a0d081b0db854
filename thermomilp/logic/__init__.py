"""Reasoning on vessel levels: brute force, propagation, probing, hints.

See ``docs/logic.md``. Entry points: :func:`thermomilp.logic.grade.grade`,
:func:`thermomilp.logic.presolve.presolve_cells`,
:func:`thermomilp.logic.hints.next_hint` / :func:`~thermomilp.logic.hints.explain`,
:func:`thermomilp.logic.search.search_solutions`. Depends only on
:mod:`thermomilp.core.puzzle` (and :mod:`thermomilp.core.errors`).
"""
