"""Logic as a MILP presolve: fix every cell the propagation decides.

``presolve_cells(puzzle, mode)`` runs interval propagation (``intervals``)
or interval propagation plus probing (``probing``) from the empty board and
returns

* ``(None, None, "infeasible")`` when the logic proves there is no solution;
* ``(fixed, grid, "solved")`` when every cell is decided (``grid`` is the
  only candidate; :func:`thermomilp.solving.solve` still verifies it);
* ``(fixed, grid, "multiple")`` when the search (``probing`` with ``search_nodes``)
  found two distinct solutions, each checked by :mod:`thermomilp.core.verify`:
  ``grid`` is the first, and both are in the ``board``'s
  :attr:`~thermomilp.logic.board.BoardLogic.solutions`;
* ``(fixed, None, "open")`` otherwise, ``fixed`` mapping each decided cell
  to 0/1 -- the builders turn it into variable bounds.

All deductions are sound, so fixing them removes no solution: presolve can
change the speed of a solve, never its answer (``tests/test_logic_presolve.py``).

What the logic learns about the board -- its line tables, its probing fixpoint
with the witnesses of its probes, whether the search ran out of its budget -- is
kept in the :class:`~thermomilp.logic.board.BoardLogic` the caller passes
(``board``), not in a module cache: the solve layer hands the same object to its
confirmation of an engine's "infeasible" (:mod:`thermomilp.solving.confirm`),
which searches on from there instead of probing the same board again.
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.core.settings import Logic
from thermomilp.logic.board import BoardLogic, board_logic
from thermomilp.logic.budget import Work
from thermomilp.logic.domains import (
    UNKNOWN,
    Domains,
    cell_states,
    full_domains,
    grid_of,
)
from thermomilp.logic.intervals import propagate


def presolve_cells(puzzle: Puzzle, mode: Logic | str, stop: Callable[[], bool] | None = None,
                   search_nodes: int = 0, solution: Grid | None = None,
                   board: BoardLogic | None = None
                   ) -> tuple[dict[Cell, int] | None, Grid | None, str]:
    """``stop``: see :func:`thermomilp.logic.probing.probe_fixpoint` (raises TimeUp).
    ``board``: what the logic already learned about ``puzzle``, and where what it
    learns now is kept (default: a new :class:`~thermomilp.logic.board.BoardLogic`).

    ``search_nodes`` (``probing`` only): when probing leaves cells open, search on
    (:func:`search_decides`) for at most this many nodes and its default work; a
    board the search proves to have exactly one solution is ``solved`` (every cell
    fixed), one with none ``infeasible``, one where it finds two distinct solutions
    (both checked by :mod:`thermomilp.core.verify`) ``multiple``, the two kept in
    ``board.solutions`` (pass a ``board`` to read them). Zero: no search (what the rule
    set alone fixes).
    ``solution``: a solution already found (an engine's, the caller verified it), whose
    levels the search need not probe (see :func:`search_decides`)."""
    mode = Logic.parse(mode, "logic")
    if mode is Logic.NONE:
        raise ConfigError("logic 'none' fixes no cell: there is nothing to presolve")
    if not puzzle.all_chains:  # the pool rule: layer trees
        from thermomilp.logic import tree
        return tree.presolve_cells(puzzle, mode, stop)
    board = board_logic(puzzle, board)
    tables = board.tables(stop)
    if mode is Logic.INTERVALS:
        dom: Domains | None = full_domains(tables)
        if not propagate(tables, dom, stop=stop):  # type: ignore[arg-type]
            dom = None
    else:
        dom = board.probed_root(stop, _levels_of(puzzle, solution))[0]
    if dom is None:
        return None, None, "infeasible"
    fixed = {cell: s for cell, s in cell_states(tables, dom).items() if s != UNKNOWN}
    if len(fixed) == puzzle.height * puzzle.width:
        return fixed, grid_of(tables, dom), "solved"
    if mode is Logic.PROBING and search_nodes > 0:
        found = search_finds(puzzle, search_nodes, stop, solution=solution, board=board)
        if found is not None and not found:
            return None, None, "infeasible"
        if found is not None and len(found) == 1:
            (decided,) = found
            return {(r, c): int(ch == "#") for r, row in enumerate(decided)
                    for c, ch in enumerate(row)}, decided, "solved"
        if found is not None and _two_solutions(puzzle, found):
            board.solutions = (found[0], found[1])
            return fixed, found[0], "multiple"
    return fixed, None, "open"


SEARCH_MAX_VESSELS = 200
"""Boards of more vessels get no presolve search (:func:`search_nodes_for`): there the
MILP decides uniqueness for less (a hard 30x30 board of 252 vessels: 0.34 s without the
search, 0.95 s with it; planted 60x60-200x200 boards)."""


SEARCH_NODES_PER_VESSEL = 8
"""The presolve's search may branch this many times per vessel (plus 20): most hard
generated boards the search decides take fewer than one node per vessel, one
(h22x22_s204 of ``benchmarks/hard/``) 6; the work budget (:func:`search_work`) is what
ends the search on the boards it cannot decide (docs/journal.md, 2026-12-02)."""


def search_nodes_for(puzzle: Puzzle) -> int:
    """The default node budget of the presolve's search (:func:`search_decides`):
    :data:`SEARCH_NODES_PER_VESSEL` nodes per vessel (plus 20); 0 (no search) past
    :data:`SEARCH_MAX_VESSELS` vessels."""
    n = len(puzzle.vessels)
    return 0 if n > SEARCH_MAX_VESSELS else SEARCH_NODES_PER_VESSEL * n + 20


SEARCH_TIMES_PROBING = 128
"""The presolve's search may do this many times the work probing the board took (plus
:data:`SEARCH_FLOOR_WORK`), in the ticks of :class:`thermomilp.logic.budget.Work`:
the hard 15x15-20x20 boards of ``benchmarks/hard/`` that it decides take less; where
it would take more (a 25x25 one) the MILP goes on. Work, not seconds: whether the
logic or the engine decides a board never depends on the machine's load."""
SEARCH_FLOOR_WORK = 200


def search_work(board: BoardLogic) -> int:
    """The work budget of a logic search from the board's probing fixpoint: the
    presolve's (:func:`search_decides`) and the confirmation of an engine's
    "infeasible" (:mod:`thermomilp.solving.confirm`) alike."""
    return SEARCH_TIMES_PROBING * board.root_work + SEARCH_FLOOR_WORK


def _levels_of(puzzle: Puzzle, solution: Grid | None) -> Domains | None:
    """One bit per vessel: the levels of ``solution`` when :mod:`thermomilp.core.verify`
    finds it a solution of the board, else None."""
    from thermomilp.core.puzzle import levels_from_grid
    from thermomilp.core.verify import solution_problems

    if solution is None or solution_problems(puzzle, solution):
        return None
    return [1 << level for level in levels_from_grid(puzzle, solution)]


def _two_solutions(puzzle: Puzzle, grids: list[Grid]) -> bool:
    """Two distinct grids, each a solution by :mod:`thermomilp.core.verify`."""
    from thermomilp.core.verify import solution_problems

    return (len(grids) == 2 and grids[0] != grids[1]
            and not any(solution_problems(puzzle, grid) for grid in grids))


def search_decides(puzzle: Puzzle, max_nodes: int, stop: Callable[[], bool] | None = None,
                   work: int | None = None, solution: Grid | None = None,
                   board: BoardLogic | None = None) -> Grid | str | None:
    """The board's only solution, ``"infeasible"`` when it has none, or None when it has
    two or more or the search needs more than ``max_nodes`` nodes or ``work`` ticks
    (default: :data:`SEARCH_TIMES_PROBING` times the probing's, see
    :meth:`~thermomilp.logic.board.BoardLogic.probed_root`).

    Exact search (:func:`thermomilp.logic.search.search_solutions`, shaving below its
    first node) from the board's probing fixpoint: every erasure is sound and
    every leaf is checked against every clue, so "one solution" means one. Which of
    the three it answers never depends on the budget; only whether it answers does --
    and that never on the clock.

    ``solution``: a grid known to solve the board (checked here by
    :mod:`thermomilp.core.verify`; ignored if it does not). No sound rule erases its
    levels, so the search does not probe them while it lies inside a node's domains:
    the same erasures, nodes and work ticks -- the same answer -- for fewer line
    revisions.

    Raises:
        TimeUp: ``stop`` said so.
    """
    found = search_finds(puzzle, max_nodes, stop, work, solution, board)
    if found is None or len(found) > 1:
        return None
    return found[0] if found else "infeasible"


def search_finds(puzzle: Puzzle, max_nodes: int, stop: Callable[[], bool] | None = None,
                 work: int | None = None, solution: Grid | None = None,
                 board: BoardLogic | None = None) -> list[Grid] | None:
    """The solutions :func:`search_decides`'s search finds, at most two (none: the board
    has no solution; one: it is the only one; two: two distinct ones), or None when it
    ran out of ``max_nodes`` nodes or ``work`` ticks (then ``board.search_gave_up``).
    Same arguments as :func:`search_decides`; the caller checks the grids it keeps.

    Raises:
        TimeUp: ``stop`` said so.
    """
    from thermomilp.logic.search import OutOfBudget, search_solutions

    board = board_logic(puzzle, board)
    known = _levels_of(puzzle, solution)
    root, witnesses = board.probed_root(stop, known)
    if root is None:
        return []
    halt = Work(search_work(board) if work is None else work, stop)

    try:
        return list(search_solutions(puzzle, "probing", 2, start=root, stop=halt,
                                     max_nodes=max_nodes, witnesses=witnesses, known=known,
                                     tables=board.tables()))
    except OutOfBudget:
        board.search_gave_up = True
        return None


def logic_finishes(puzzle: Puzzle, mode: Logic | str = Logic.INTERVALS) -> bool:
    """Does the logic decide every cell? (Then the board has no second solution.)"""
    return presolve_cells(puzzle, mode)[2] == "solved"
