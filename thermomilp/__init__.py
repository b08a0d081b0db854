"""thermomilp: MILP models, logic and generators for monotone-fill puzzles.

The classroom path::

    import thermomilp
    p = thermomilp.load("instances/thermometers/t03_6x6.txt")
    r = thermomilp.solve(p, logic="none")  # the MILP does the work (solver="cbc": CBC)
    print(r)

Heavy libraries (PuLP, Pyomo, highspy, numpy) are imported only when a
model is built, so importing the package is cheap: the names of
:data:`_LAZY` are imported on first use (``dir(thermomilp)`` lists them too).
``__all__`` is the whole public API; it and the error hierarchy are documented
in ``docs/api.md``.
"""

from __future__ import annotations

import typing
from typing import Any

from thermomilp.core.errors import (
    ApiError,
    BindError,
    BoardTooLarge,
    ConfigError,
    ContractError,
    ExportError,
    GenerationError,
    GradeError,
    ModelDataError,
    NotMonotoneError,
    PuzzleError,
    RuleNotSupported,
    SolveError,
    SolverUnavailable,
    ThermomilpError,
    ThermomilpWarning,
    WaterlineRuleWarning,
    WriteError,
)
from thermomilp.core.puzzle import (
    Puzzle,
    SizeLimits,
    Vessel,
    aquarium,
    grid_from_levels,
    levels_from_grid,
    thermometers,
)
from thermomilp.core.settings import Backend, FormulationKind, Logic, Settings, Solver
from thermomilp.core.verify import is_solution, solution_problems
from thermomilp.formats import dumps, load, loads

# ``thermomilp.solve`` is the function; its package is ``thermomilp.solving``.
from thermomilp.solving import SolveResult, count_solutions, enumerate_solutions, is_unique, solve
from thermomilp.version import __version__

if typing.TYPE_CHECKING:  # the lazy names of _LAZY, seen by type checkers and the API reference
    from thermomilp.model import build_model
    from thermomilp.pictures.text import render_board

# name -> module: imported on first access (they pull in numpy or a solver library)
_LAZY = {
    "build_model": "thermomilp.model",
    "render_board": "thermomilp.pictures.text",
}


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'thermomilp' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    # puzzles and files
    "Puzzle", "SizeLimits", "Vessel", "aquarium", "dumps", "grid_from_levels", "levels_from_grid",
    "load", "loads", "thermometers",
    # solving and checking
    "Backend", "FormulationKind", "Logic", "Settings", "SolveResult", "Solver",
    "build_model", "count_solutions", "enumerate_solutions",
    "is_solution", "is_unique", "render_board", "solution_problems", "solve",
    # errors and warnings (thermomilp.core.errors)
    "ApiError", "BindError", "BoardTooLarge", "ConfigError", "ContractError", "ExportError",
    "GenerationError", "GradeError", "ModelDataError", "NotMonotoneError", "PuzzleError",
    "RuleNotSupported",
    "SolveError", "SolverUnavailable", "ThermomilpError", "ThermomilpWarning",
    "WaterlineRuleWarning", "WriteError",
    "__version__",
]
