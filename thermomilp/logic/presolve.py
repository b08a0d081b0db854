"""Logic as a MILP presolve: fix every cell the propagation decides.

``presolve_cells(puzzle, mode)`` runs interval propagation (``intervals``)
or interval propagation plus probing (``probing``) from the empty board and
returns

* ``(None, None, "infeasible")`` when the logic proves there is no solution;
* ``(fixed, grid, "solved")`` when every cell is decided (``grid`` is the
  only candidate; :func:`thermomilp.solving.solve` still verifies it);
* ``(fixed, None, "open")`` otherwise, ``fixed`` mapping each decided cell
  to 0/1 -- the builders turn it into variable bounds.

All deductions are sound, so fixing them removes no solution: presolve can
change the speed of a solve, never its answer (``tests/test_logic_presolve.py``).
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.logic.domains import UNKNOWN, cell_states, full_domains, grid_of, line_tables
from thermomilp.logic.intervals import propagate
from thermomilp.logic.probing import probe_fixpoint

MODES = ("intervals", "probing")


def presolve_cells(puzzle: Puzzle, mode: str, stop: Callable[[], bool] | None = None
                   ) -> tuple[dict[Cell, int] | None, Grid | None, str]:
    """``stop``: see :func:`thermomilp.logic.probing.probe_fixpoint` (raises TimeUp)."""
    if mode not in MODES:
        raise ConfigError(f"presolve mode {mode!r} is unknown; use one of none, "
                          + ", ".join(MODES))
    if not puzzle.all_chains:  # the pool rule: layer trees
        from thermomilp.logic import tree
        return tree.presolve_cells(puzzle, mode, stop)
    tables = line_tables(puzzle, stop)
    dom = full_domains(tables)
    ok = (propagate(tables, dom, stop=stop) if mode == "intervals"
          else probe_fixpoint(tables, dom, stop))
    if not ok:
        return None, None, "infeasible"
    fixed = {cell: s for cell, s in cell_states(tables, dom).items() if s != UNKNOWN}
    if len(fixed) == puzzle.height * puzzle.width:
        return fixed, grid_of(tables, dom), "solved"
    return fixed, None, "open"


def logic_finishes(puzzle: Puzzle, mode: str = "intervals") -> bool:
    """Does the logic decide every cell? (Then the board has no second solution.)"""
    return presolve_cells(puzzle, mode)[2] == "solved"
