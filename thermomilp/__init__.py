"""thermomilp: MILP models, logic and generators for monotone-fill puzzles.

The classroom path::

    import thermomilp
    p = thermomilp.load("instances/thermometers/t05_6x6.txt")
    r = thermomilp.solve(p, backend="pyomo")
    print(r)

Heavy libraries (PuLP, Pyomo, highspy, numpy) are imported only when a
model is built, so importing the package is cheap.
"""

from __future__ import annotations

from thermomilp.errors import (ConfigError, NotMonotoneError, PuzzleError, SolverUnavailable,
                               ThermomilpError)
from thermomilp.formats import dumps, load, loads
from thermomilp.puzzle import Puzzle, Vessel, aquarium, grid_from_levels, levels_from_grid, thermometers
from thermomilp.verify import is_solution, solution_problems
# Bound eagerly: the submodule ``thermomilp.solve`` would otherwise shadow the
# function ``thermomilp.solve`` as soon as anything imported the submodule.
from thermomilp.solve import (SolveResult, count_solutions, enumerate_solutions, is_unique,
                              solve)

from thermomilp.version import __version__  # noqa: E402,F401


def __getattr__(name: str):
    if name == "build_model":
        from thermomilp.model import build_model

        return build_model
    if name == "render_board":
        from thermomilp.render import render_board

        return render_board
    raise AttributeError(f"module 'thermomilp' has no attribute {name!r}")


__all__ = [
    "ConfigError", "NotMonotoneError", "Puzzle", "PuzzleError", "SolverUnavailable",
    "ThermomilpError", "Vessel", "aquarium", "build_model", "count_solutions", "dumps",
    "enumerate_solutions", "grid_from_levels", "is_solution", "is_unique", "levels_from_grid",
    "load", "loads", "render_board", "solution_problems", "solve", "thermometers",
]
