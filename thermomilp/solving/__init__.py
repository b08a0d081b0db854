"""The solve layer (layer 5 of docs/architecture.md): every engine run goes through it.

* `api` -- ``solve``, ``is_unique``, ``count_solutions``,
  ``enumerate_solutions``, ``SolveResult``: the public solve API, re-exported here;
* `engine` -- the facade ``Engine``, the only door to an engine;
* `confirm` -- the logic confirmation of an engine's "infeasible";
* `conflict` -- the irreducible conflicting clues of a board.

The package is ``thermomilp.solving`` and ``thermomilp.solve`` is the function, so
``import thermomilp.solving.engine as engine`` works.
"""

from thermomilp.solving.api import (
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

__all__ = ["STATUSES", "SolveError", "SolveResult", "Status", "count_solutions",
           "enumerate_solutions", "is_unique", "open_engine", "solve"]
