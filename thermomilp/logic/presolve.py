"""Logic as a MILP presolve: fix every cell the propagation decides.

``presolve_cells(puzzle, mode)`` runs interval propagation (``intervals``)
or interval propagation plus probing (``probing``) from the empty board and
returns

* ``(None, None, "infeasible")`` when the logic proves there is no solution;
* ``(fixed, grid, "solved")`` when every cell is decided (``grid`` is the
  only candidate; [`thermomilp.solving.solve`][thermomilp.solving.solve] still verifies it);
* ``(fixed, grid, "multiple")`` when the search (``probing`` with ``search_nodes``)
  found two distinct solutions (each leaf of the search is checked against every
  clue; the solve layer checks both with [`thermomilp.core.verify`][thermomilp.core.verify] before
  it answers): ``grid`` is the first, and both are in the ``board``'s
  `BoardLogic.solutions`;
* ``(fixed, None, "open")`` otherwise, ``fixed`` mapping each decided cell
  to 0/1 -- the builders turn it into variable bounds.

All deductions are sound, so fixing them removes no solution: presolve can
change the speed of a solve, never its answer (``tests/test_logic_presolve.py``).

What the logic learns about the board (line tables, probing fixpoint and witnesses,
the work it took, whether the search gave up, the verdict) is one `BoardLogic`, made
once per solve by `presolve` and handed by the solve layer to its confirmation of an
engine's "infeasible" (`thermomilp.solving.confirm`), which searches on from there. No
module cache: one object belongs to one solve, and so to one thread.
"""

from __future__ import annotations

from typing import Callable, Iterator

from thermomilp.core.errors import ConfigError
from thermomilp.core.puzzle import Cell, Grid, Puzzle
from thermomilp.core.settings import Logic
from thermomilp.logic.budget import Work
from thermomilp.logic.domains import (
    UNKNOWN,
    Domains,
    LineTables,
    cell_states,
    full_domains,
    grid_of,
    line_tables,
)
from thermomilp.logic.propagation import (
    Witnesses,
    inherit,
    kernel_for,
    new_witnesses,
    probe_fixpoint,
    propagate,
)

_UNPROBED = object()


class BoardLogic:
    """What the logic learns about one board, each part made once: its line tables, its
    probing fixpoint and the work that took, the presolve's verdict, whether its search
    gave up, and the two solutions it found."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self._tables: LineTables | None = None
        self._root: object | tuple[Domains | None, Witnesses | None] = _UNPROBED
        self.root_work = 0
        """The work ticks probing the board took (0 until `probed_root` ran)."""
        self.search_work = SEARCH_FLOOR_WORK
        """The work budget of a logic search from the board's probing fixpoint, the
        presolve's (`search_decides`) and the confirmation of an engine's "infeasible"
        (`thermomilp.solving.confirm`) alike: `SEARCH_TIMES_PROBING` times `root_work`,
        by the kernel that runs the board, plus `SEARCH_FLOOR_WORK` (set by
        `probed_root`)."""
        self.status = "open"
        """The presolve's verdict: ``open``, ``solved``, ``infeasible`` or ``multiple``."""
        self.fixed: dict[Cell, int] | None = None
        """The cells the presolve decided (None: none, or the board has no solution)."""
        self.grid: Grid | None = None
        """The only candidate when ``solved``; the first of `solutions` when ``multiple``."""
        self.search_gave_up = False
        """The presolve's search of this board ran out of its budget: a search for the
        same question from the same fixpoint (the confirmation of an engine's "no other
        solution") is not worth starting (docs/performance.md)."""
        self.solutions: tuple[Grid, ...] = ()
        """Two distinct solutions when the presolve's search found them (``multiple``)."""

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

        ``stop``: see `thermomilp.logic.propagation.probe_fixpoint` (raises TimeUp;
        nothing is kept then). ``known``: the levels of a solution, not probed
        (`thermomilp.logic.propagation.sweep`: the same fixpoint and work ticks)."""
        if self._root is _UNPROBED:
            work = Work(None, stop)  # counts what the probing costs (logic/budget.py)
            tables = self.tables(stop)
            dom: Domains | None = full_domains(tables)
            wit: Witnesses | None = new_witnesses(tables)
            if not probe_fixpoint(tables, dom, work, known, witnesses=wit):  # type: ignore[arg-type]
                dom, wit = None, None
            self._root = dom, wit
            self.root_work = work.used
            times = SEARCH_TIMES_PROBING[kernel_for(tables)]
            self.search_work = int(times * work.used) + SEARCH_FLOOR_WORK
        dom, wit = self._root  # type: ignore[misc]
        return (None if dom is None else list(dom)), (None if wit is None else inherit(wit))

    def search_hopeless(self, root: Domains) -> bool:
        """A logic search from ``root`` (this board's probing fixpoint, perhaps clamped)
        would run out of its budget: the presolve's search of this board did, or the
        board is past the size where the presolve searches at all
        (`SEARCH_MAX_VESSELS`) and ``root`` is open."""
        if self.search_gave_up:
            return True
        return search_nodes_for(self.puzzle) == 0 and any(m & (m - 1) for m in root)

    def search(self, root: Domains, witnesses: Witnesses | None,
               stop: Callable[[], bool] | None, work: int | None = None,
               max_nodes: int | None = None, limit: int | None = None,
               known: Domains | None = None) -> Iterator[Grid]:
        """The board's solutions (at most ``limit``) by exact search
        ([`thermomilp.logic.search.search_solutions`][thermomilp.logic.search.search_solutions],
        shaving below its first node) from ``root``, this board's probing fixpoint
        (perhaps clamped), with ``witnesses`` and ``known`` as `probed_root` gave them.
        Raises OutOfBudget past ``max_nodes`` nodes or ``work`` ticks (default
        `search_work`), TimeUp when ``stop`` says so."""
        from thermomilp.logic.search import Propagator, search_solutions

        halt = Work(self.search_work if work is None else work, stop)
        return search_solutions(self.puzzle, Propagator.PROBING, limit, start=root, stop=halt,
                                max_nodes=max_nodes, known=known, witnesses=witnesses,
                                tables=self.tables())

    def _decided(self, status: str, fixed: dict[Cell, int] | None = None,
                 grid: Grid | None = None) -> BoardLogic:
        self.status, self.fixed, self.grid = status, fixed, grid
        return self


def board_logic(puzzle: Puzzle, board: BoardLogic | None) -> BoardLogic:
    """``board`` when it is the logic of ``puzzle``, else a new one."""
    return board if board is not None and board.puzzle is puzzle else BoardLogic(puzzle)


def presolve(puzzle: Puzzle, mode: Logic | str, stop: Callable[[], bool] | None = None,
             search_nodes: int | None = None, board: BoardLogic | None = None) -> BoardLogic:
    """The logic of ``puzzle`` run as the solve layer's presolve: the `BoardLogic` with
    its verdict (``status``, ``fixed``, ``grid``, ``solutions``), made here unless a
    ``board`` of the same puzzle is passed back on purpose. ``mode`` ``none``: an open
    board, nothing fixed.

    ``stop``: see `thermomilp.logic.propagation.probe_fixpoint` (raises TimeUp).
    ``search_nodes`` (``probing`` only): when probing leaves cells open, search on
    (`search_decides`) for at most this many nodes and its default work; None: the
    board's default (`search_nodes_for`), 0: no search (what the rule set alone
    fixes). A board the search proves to have exactly one solution is ``solved``
    (every cell fixed), one with none ``infeasible``, one where it finds two distinct
    solutions ``multiple``, the two kept in ``solutions`` (each leaf of the search is
    checked against every clue; the caller checks what it keeps with
    [`thermomilp.core.verify`][thermomilp.core.verify])."""
    mode = Logic.parse(mode, "logic")
    board = board_logic(puzzle, board)
    if mode is Logic.NONE:
        return board._decided("open")
    if not puzzle.all_chains:  # the pool rule: layer trees
        from thermomilp.logic import tree
        fixed, grid, status = tree.presolve_trees(puzzle, mode, stop)
        return board._decided(status, fixed, grid)
    tables = board.tables(stop)
    if mode is Logic.INTERVALS:
        dom: Domains | None = full_domains(tables)
        if not propagate(tables, dom, stop=stop):  # type: ignore[arg-type]
            dom = None
    else:
        dom = board.probed_root(stop)[0]
    if dom is None:
        return board._decided("infeasible")
    fixed = {cell: s for cell, s in cell_states(tables, dom).items() if s != UNKNOWN}
    if len(fixed) == puzzle.height * puzzle.width:
        return board._decided("solved", fixed, grid_of(tables, dom))
    if search_nodes is None:
        search_nodes = search_nodes_for(puzzle)
    if mode is Logic.PROBING and search_nodes > 0:
        found = search_finds(puzzle, search_nodes, stop, board=board)
        if found is not None and not found:
            return board._decided("infeasible")
        if found is not None and len(found) == 1:
            (decided,) = found
            return board._decided("solved", {(r, c): int(ch == "#") for r, row in
                                             enumerate(decided) for c, ch in enumerate(row)},
                                  decided)
        if found is not None and len(found) == 2 and found[0] != found[1]:
            board.solutions = (found[0], found[1])
            return board._decided("multiple", fixed, found[0])
    return board._decided("open", fixed)


def presolve_cells(puzzle: Puzzle, mode: Logic | str, stop: Callable[[], bool] | None = None,
                   search_nodes: int = 0, board: BoardLogic | None = None
                   ) -> tuple[dict[Cell, int] | None, Grid | None, str]:
    """`presolve`'s verdict as ``(fixed, grid, status)`` (module doc); no search unless
    ``search_nodes`` asks for one, and logic ``none`` is a ConfigError (it fixes no
    cell)."""
    if Logic.parse(mode, "logic") is Logic.NONE:
        raise ConfigError("logic 'none' fixes no cell: there is nothing to presolve")
    board = presolve(puzzle, mode, stop, search_nodes, board)
    return board.fixed, board.grid, board.status


SEARCH_MAX_VESSELS = 200
"""Boards of more vessels get no presolve search (`search_nodes_for`): there the MILP
decides uniqueness for less (docs/journal.md, 2026-12-02 and 2026-12-03;
``python benchmarks/fast_paths.py search_max``)."""


SEARCH_NODES_PER_VESSEL = 32
"""The presolve's search may branch this many times per vessel (plus 20), more than
its work budget (`BoardLogic.search_work`) affords: the work budget is what ends the search on
the boards it cannot decide."""


def search_nodes_for(puzzle: Puzzle) -> int:
    """The default node budget of the presolve's search (`search_decides`):
    `SEARCH_NODES_PER_VESSEL` nodes per vessel (plus 20); 0 (no search) past
    `SEARCH_MAX_VESSELS` vessels."""
    n = len(puzzle.vessels)
    return 0 if n > SEARCH_MAX_VESSELS else SEARCH_NODES_PER_VESSEL * n + 20


SEARCH_TIMES_PROBING = {"compiled": 1024, "python": 32}
"""The presolve's search may do this many times the work probing the board took (plus
`SEARCH_FLOOR_WORK`), in the ticks of `thermomilp.logic.budget.Work`, by the kernel that
runs the board (`thermomilp.logic.propagation.kernel_for`); past it the MILP goes on.
The compiled kernel's budget is where giving up costs about a quarter of what HiGHS
then takes on the hard boards it cannot decide (docs/journal.md, 2026-12-03, "weighted
branching and a larger budget"); the reference, 30-80x slower per tick, gets the budget
past which its search costs more than HiGHS would (same page, "the Python kernel's
budget"). Work, not seconds: whether the logic or the engine decides a board never
depends on the machine's load."""
SEARCH_FLOOR_WORK = 200
"""The work a logic search may always do, however little probing the board took."""


def search_decides(puzzle: Puzzle, max_nodes: int, stop: Callable[[], bool] | None = None,
                   work: int | None = None, board: BoardLogic | None = None
                   ) -> Grid | str | None:
    """The board's only solution, ``"infeasible"`` when it has none, or None when it has
    two or more or the search needs more than ``max_nodes`` nodes or ``work`` ticks
    (default: `SEARCH_TIMES_PROBING` times the probing's, see
    `BoardLogic.probed_root`).

    Exact search
    ([`thermomilp.logic.search.search_solutions`][thermomilp.logic.search.search_solutions], shaving
    below its first node) from the board's probing fixpoint: every erasure is sound and every leaf
    is checked against every clue, so "one solution" means one. Which of the three it answers never
    depends on the budget; only whether it answers does -- and that never on the clock.

    Raises:
        TimeUp: ``stop`` said so.
    """
    found = search_finds(puzzle, max_nodes, stop, work, board)
    if found is None or len(found) > 1:
        return None
    return found[0] if found else "infeasible"


def search_finds(puzzle: Puzzle, max_nodes: int, stop: Callable[[], bool] | None = None,
                 work: int | None = None, board: BoardLogic | None = None
                 ) -> list[Grid] | None:
    """The solutions `search_decides`'s search finds, at most two (none: the board
    has no solution; one: it is the only one; two: two distinct ones), or None when it
    ran out of ``max_nodes`` nodes or ``work`` ticks (then ``board.search_gave_up``).
    Same arguments as `search_decides`; the caller checks the grids it keeps.

    Raises:
        TimeUp: ``stop`` said so.
    """
    from thermomilp.logic.search import OutOfBudget

    board = board_logic(puzzle, board)
    root, witnesses = board.probed_root(stop)
    if root is None:
        return []
    try:
        return list(board.search(root, witnesses, stop, work, max_nodes, limit=2))
    except OutOfBudget:
        board.search_gave_up = True
        return None


def logic_finishes(puzzle: Puzzle, mode: Logic | str = Logic.INTERVALS) -> bool:
    """Does the logic decide every cell? (Then the board has no second solution.)"""
    return presolve_cells(puzzle, mode)[2] == "solved"
