"""Turn what a ``build(puzzle)`` returned into a `LinearModel`, in this process.

The student's child reads its model with the standalone runner
(`thermomilp.teach.runner.serialise`, which imports no thermomilp) and sends
the numbers back; the grader reads thermomilp's own models (``package-model``, the flag)
through the same function here, so both are read alike.

The contract (docs/course/exercise.md): a ``pulp.LpProblem`` whose cell variables are
named ``x_i_j`` (PuLP's name for ``LpVariable.dicts("x", ...)`` indexed by ``(i, j)``,
``x_(i,_j)``, is accepted too), or a Pyomo model with a component ``x`` indexed by
``(i, j)`` -- a ``Var`` or an ``Expression``.
"""

from __future__ import annotations

from typing import Any

from thermomilp.core.errors import ContractError
from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.linear import LinearModel


def extract(built: Any, puzzle: Puzzle) -> LinearModel:
    from thermomilp.model.registry import BuiltModel
    from thermomilp.teach import runner

    if isinstance(built, BuiltModel):  # thermomilp.build_model's answer: the layer's model
        built = built.model
    try:
        data = runner.serialise(built, puzzle)
    except runner.ContractError as exc:
        raise ContractError(str(exc)) from None
    return LinearModel.from_json(data, puzzle.shape)
