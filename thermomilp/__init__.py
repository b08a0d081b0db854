"""thermomilp: MILP models, logic and generators for monotone-fill puzzles.

The classroom path::

    import thermomilp
    p = thermomilp.load("instances/thermometers/t05_6x6.txt")
    r = thermomilp.solve(p, backend="pyomo")
    print(r)

Heavy libraries (PuLP, Pyomo, highspy) are imported only when a model is
built, so importing the package is cheap.
"""

from __future__ import annotations

from thermomilp.errors import (ConfigError, NotMonotoneError, PuzzleError, SolverUnavailable,
                               ThermomilpError)
from thermomilp.formats import dumps, load, loads
from thermomilp.puzzle import Puzzle, Vessel, aquarium, grid_from_levels, levels_from_grid, thermometers
from thermomilp.verify import is_solution, solution_problems

from thermomilp.version import __version__  # noqa: E402,F401


def __getattr__(name: str):
    # Solving pulls in numpy and the backends: load it on first use.
    if name in ("solve", "is_unique", "count_solutions", "enumerate_solutions", "SolveResult"):
        import thermomilp.solve as _solve

        return getattr(_solve, name)
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
