"""Puzzle -> Formulation -> a PuLP, Pyomo or highspy model.

Each builder module opens with the formulation it builds; the constraint
numbers (0)-(4) match ``docs/formulation.md``. Heavy libraries are imported
inside the builder that needs them.
"""

from __future__ import annotations

from typing import Any

from thermomilp.core.puzzle import Puzzle
from thermomilp.model.formulation import Formulation, formulate

BACKENDS = ("highs", "pulp", "pyomo")


def build_model(puzzle: Puzzle, backend: str = "highs", formulation: str = "cell") -> Any:
    """The raw model of ``puzzle`` in the chosen modelling layer, for inspection.

    ``pulp`` gives an ``LpProblem``, ``pyomo`` a ``ConcreteModel``, ``highs``
    a ``highspy.Highs`` holding the model. ``formulation`` is ``cell`` (one
    binary per cell), ``compact`` (one binary per tank row / vessel layer,
    :mod:`thermomilp.model.compact`) or ``level`` (one binary per vessel and
    level, :mod:`thermomilp.model.level_pulp`).
    """
    backend, formulation = str(backend).lower(), str(formulation).lower()
    if formulation == "level":
        if backend == "pulp":
            from thermomilp.model.level_pulp import build_level_pulp
            return build_level_pulp(puzzle)[0]
        if backend == "pyomo":
            from thermomilp.model.level_pyomo import build_level_pyomo
            return build_level_pyomo(puzzle)
        if backend == "highs":
            from thermomilp.model.level_highs import build_highs_level
            from thermomilp.model.registry import LevelFormulation
            return build_highs_level(LevelFormulation(puzzle))
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    form = formulate(puzzle)
    if formulation == "compact":
        from thermomilp.model.compact import compact_from

        compact = compact_from(form)
        if backend == "pulp":
            from thermomilp.model.pulp_model import build_pulp_compact
            return build_pulp_compact(compact)[0]
        if backend == "pyomo":
            from thermomilp.model.pyomo_model import build_pyomo_compact
            return build_pyomo_compact(compact)
        if backend == "highs":
            from thermomilp.model.highs_model import build_highs_compact
            return build_highs_compact(compact)
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if formulation != "cell":
        raise ValueError(f"unknown formulation {formulation!r}; choose one of "
                         f"{', '.join(FORMULATIONS)}")
    if backend == "pulp":
        from thermomilp.model.pulp_model import build_pulp
        return build_pulp(form)[0]
    if backend == "pyomo":
        from thermomilp.model.pyomo_model import build_pyomo
        return build_pyomo(form)
    if backend == "highs":
        from thermomilp.model.highs_model import build_highs
        return build_highs(form)
    raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


FORMULATIONS = ("cell", "compact", "level")

__all__ = ["BACKENDS", "FORMULATIONS", "Formulation", "build_model", "formulate"]
