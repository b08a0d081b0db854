"""What the logic learns about one board, kept in one object passed down, not in a cache.

A `BoardLogic` is made once per solve (``thermomilp.solving.api``) and handed to
whatever needs what the logic learned: the presolve, its search, and the solve layer's
confirmation of an engine's "infeasible". It holds the board's line tables, its probing
fixpoint with the witnesses of the probes and the work that probing took (the search
budget is a multiple of it), and whether the presolve's search ran out of its budget.

A second solve of the same board in one process makes a new object and does the same
work as the first; a caller that wants the work kept passes the object back on purpose.
One object belongs to one solve, and so to one thread: nothing here is shared.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.puzzle import Grid, Puzzle
from thermomilp.logic.budget import Work
from thermomilp.logic.domains import Domains, LineTables, full_domains, line_tables
from thermomilp.logic.probing import Witnesses, inherit, new_witnesses, probe_fixpoint

_UNPROBED = object()


class BoardLogic:
    """One board's line tables, probing fixpoint and search outcome, each made once."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self._tables: LineTables | None = None
        self._root: object | tuple[Domains | None, Witnesses | None] = _UNPROBED
        self.root_work = 0
        """The work ticks probing the board took (0 until `probed_root` ran)."""
        self.search_gave_up = False
        """The presolve's search of this board ran out of its budget: a search for the
        same question from the same fixpoint (the confirmation of an engine's "no other
        solution") is not worth starting (docs/performance.md)."""
        self.solutions: tuple[Grid, ...] = ()
        """Two distinct verified solutions when the presolve's search found them (the
        board is ``multiple``:
        [`thermomilp.logic.presolve.presolve_cells`][thermomilp.logic.presolve.presolve_cells])."""

    def tables(self, stop: Callable[[], bool] | None = None) -> LineTables:
        """The board's line tables, built at the first call (``stop``: see
        `thermomilp.logic.domains.line_tables`; TimeUp keeps nothing)."""
        if self._tables is None:
            self._tables = line_tables(self.puzzle, stop)
        return self._tables

    def probed_root(self, stop: Callable[[], bool] | None = None,
                    known: Domains | None = None) -> tuple[Domains | None, Witnesses | None]:
        """The interval-plus-probing fixpoint from the full domains (None: the board
        has no solution) and the witnesses of its probes, both the caller's to change;
        probed at the first call.

        ``stop``: see `thermomilp.logic.probing.probe_fixpoint` (raises TimeUp;
        nothing is kept then). ``known``: the levels of a verified solution, not probed
        (`thermomilp.logic.probing.sweep`: the same fixpoint and work ticks)."""
        if self._root is _UNPROBED:
            work = Work(None, stop)  # counts what the probing costs (logic/budget.py)
            tables = self.tables(stop)
            dom: Domains | None = full_domains(tables)
            wit: Witnesses | None = new_witnesses(tables)
            if not probe_fixpoint(tables, dom, work, known, witnesses=wit):  # type: ignore[arg-type]
                dom, wit = None, None
            self._root = dom, wit
            self.root_work = work.used
        dom, wit = self._root  # type: ignore[misc]
        return (None if dom is None else list(dom)), (None if wit is None else inherit(wit))


def board_logic(puzzle: Puzzle, board: BoardLogic | None) -> BoardLogic:
    """``board`` when it is the logic of ``puzzle``, else a new one."""
    return board if board is not None and board.puzzle is puzzle else BoardLogic(puzzle)


__all__ = ["BoardLogic", "board_logic"]
