"""The solve layer (layer 5 of docs/architecture.md): every engine run goes through it.

* :mod:`~thermomilp.solve.api` -- ``solve``, ``is_unique``, ``count_solutions``,
  ``enumerate_solutions``, ``SolveResult``: the public solve API, re-exported here, so
  ``from thermomilp.solve import solve`` works as it always did;
* :mod:`~thermomilp.solve.engine` -- the facade ``Engine``, the only door to an engine;
* :mod:`~thermomilp.solve.confirm` -- the logic confirmation of an engine's "infeasible";
* :mod:`~thermomilp.solve.swap` -- the four-vessel swap (a rival one swap away);
* :mod:`~thermomilp.solve.conflict` -- the irreducible conflicting clues of a board.

The attribute ``thermomilp.solve`` is the *function* (``thermomilp/__init__.py`` binds it),
so reach a module of this package with ``from thermomilp.solve import engine``:
``import thermomilp.solve.engine as engine`` looks ``engine`` up on the function and fails.
"""

from thermomilp.solve.api import (
    LARGE_BOARD,
    STATUSES,
    SolveError,
    SolveResult,
    Status,
    count_solutions,
    enumerate_solutions,
    is_unique,
    open_engine,
    solve,
)

__all__ = ["LARGE_BOARD", "STATUSES", "SolveError", "SolveResult", "Status", "count_solutions",
           "enumerate_solutions", "is_unique", "open_engine", "solve"]
