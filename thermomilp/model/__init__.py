"""Puzzle -> Formulation -> a PuLP, Pyomo or highspy model.

Each builder module opens with the formulation it builds; the constraint
numbers (0)-(4) match ``docs/formulation.md``. Heavy libraries are imported
inside the builder that needs them.
"""

from __future__ import annotations

from typing import Any

from thermomilp.model.formulation import Formulation, formulate
from thermomilp.puzzle import Puzzle

BACKENDS = ("highs", "pulp", "pyomo")


def build_model(puzzle: Puzzle, backend: str = "highs") -> Any:
    """The raw model of ``puzzle`` in the chosen modelling layer, for inspection.

    ``pulp`` gives an ``LpProblem``, ``pyomo`` a ``ConcreteModel``, ``highs``
    a ``highspy.Highs`` holding the model.
    """
    form = formulate(puzzle)
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


__all__ = ["BACKENDS", "Formulation", "build_model", "formulate"]
