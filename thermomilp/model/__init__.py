"""Puzzle -> Formulation -> a PuLP, Pyomo, highspy or OR-Tools CP-SAT model.

Each builder module opens with the formulation it builds; the constraint
numbers (0)-(4) match ``docs/formulation.md``. Heavy libraries are imported
inside the builder that needs them. Which builder makes which model is the one
registry [`thermomilp.model.registry.MODELS`][thermomilp.model.registry.MODELS], keyed by
(formulation, layer).
"""

from __future__ import annotations

from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Backend, FormulationKind
from thermomilp.model.formulation import Formulation, formulate
from thermomilp.model.registry import BuildOptions, BuiltModel, build, formulation_for


def build_model(puzzle: Puzzle, backend: Backend | str = Backend.HIGHS,
                formulation: FormulationKind | str = FormulationKind.CELL) -> BuiltModel:
    """The model of ``puzzle`` in the chosen modelling layer, with its variable map.

    It unpacks, so the raw PuLP problem is one line:

        prob, x = thermomilp.build_model(puzzle, backend="pulp")
        prob.solve(pulp.HiGHS(msg=False))

    Args:
        puzzle: the board, a [`Puzzle`][thermomilp.core.puzzle.Puzzle].
        backend: the modelling layer, ``highs`` (the default: highspy direct), ``pulp``,
            ``pyomo`` or ``cpsat`` (OR-Tools' ``CpModel``).
        formulation: ``cell`` (the default: one binary per cell), ``compact`` (one binary
            per tank row / vessel layer, `thermomilp.model.compact`) or ``level`` (one
            binary per vessel and level, `thermomilp.model.level_pulp`).

    Returns:
        A [`BuiltModel`][thermomilp.model.BuiltModel]: the layer's own model object
        (``.model``) and its variables by name (``.x``).

    Raises:
        ConfigError: a backend or formulation outside the known names (or the level
            formulation of a pool-rule board).
    """
    layer = Backend.parse(backend, "backend")
    form = formulation_for(puzzle, formulation)
    from thermomilp.model.highs_model import hide_banner

    hide_banner()  # a layer's own HiGHS (PuLP's, Pyomo's) would print it on stdout
    return build(form, layer, BuildOptions(names=True))


__all__ = ["BuiltModel", "Formulation", "build_model", "formulate"]
