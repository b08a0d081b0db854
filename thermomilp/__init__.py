"""thermomilp: MILP models, logic and generators for monotone-fill puzzles.

The classroom path:

    import thermomilp
    p = thermomilp.load("instances/thermometers/t03_6x6.txt")
    r = thermomilp.solve(p, logic="none")  # the MILP does the work (solver="cbc": CBC)
    print(r)

Heavy libraries (PuLP, Pyomo, highspy, numpy) are imported only when a
model is built, and the package itself imports only its errors: every other
name of ``__all__`` (`_LAZY`) is imported on first use (``dir(thermomilp)``
lists them too), so ``thermomilp --version`` and the command line load what
their command uses and nothing more.
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
    GenerationTimeUp,
    GradeError,
    ModelDataError,
    NotMonotoneError,
    NotRegularFile,
    PuzzleError,
    RuleNotSupported,
    SolveError,
    SolverUnavailable,
    ThermomilpError,
    ThermomilpWarning,
    WaterlineRuleWarning,
    WriteError,
)
from thermomilp.version import __version__

if typing.TYPE_CHECKING:  # the lazy names of _LAZY, seen by type checkers and the API reference
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
    from thermomilp.model import build_model
    from thermomilp.pictures.text import render_board

    # ``thermomilp.solve`` is the function; its package is ``thermomilp.solving``.
    from thermomilp.solving import (
        SolveResult,
        count_solutions,
        enumerate_solutions,
        is_unique,
        solve,
    )

# name -> module: imported on first access, so that `import thermomilp` (and every
# command of the CLI, which imports the package first) loads only the errors: a
# command imports what it uses, and a board the logic decides never loads numpy or
# an engine (tests/test_lazy_imports.py).
_LAZY = {
    **dict.fromkeys(("Puzzle", "SizeLimits", "Vessel", "aquarium", "grid_from_levels",
                     "levels_from_grid", "thermometers"), "thermomilp.core.puzzle"),
    **dict.fromkeys(("Backend", "FormulationKind", "Logic", "Settings", "Solver"),
                    "thermomilp.core.settings"),
    **dict.fromkeys(("is_solution", "solution_problems"), "thermomilp.core.verify"),
    **dict.fromkeys(("dumps", "load", "loads"), "thermomilp.formats"),
    **dict.fromkeys(("SolveResult", "count_solutions", "enumerate_solutions", "is_unique",
                     "solve"), "thermomilp.solving"),
    "build_model": "thermomilp.model",
    "render_board": "thermomilp.pictures.text",
}


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _SUBPACKAGES:  # `import thermomilp; thermomilp.formats.load(...)` as before
        value = importlib.import_module(f"thermomilp.{name}")
    else:
        raise AttributeError(f"module 'thermomilp' has no attribute {name!r}")
    globals()[name] = value  # once: the next access is a plain attribute
    return value


_SUBPACKAGES = frozenset(("backends", "batch", "cli", "core", "formats", "generate", "logic",
                          "model", "pictures", "solving", "teach", "web"))


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
    "GenerationError", "GenerationTimeUp", "GradeError", "ModelDataError", "NotMonotoneError",
    "NotRegularFile", "PuzzleError",
    "RuleNotSupported",
    "SolveError", "SolverUnavailable", "ThermomilpError", "ThermomilpWarning",
    "WaterlineRuleWarning", "WriteError",
    "__version__",
]
