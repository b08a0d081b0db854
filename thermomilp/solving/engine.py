"""The only door to an engine: one board, one session, one deadline, every guard
(docs/architecture.md, "One door to the engine").

Every command and library function that needs a MILP answer goes through `Engine`;
none of them opens a session or reads an engine status itself. An `Engine` runs the
logic (`Engine.presolve`), opens a session of the settings' formulation, modelling layer
and solver when an engine is first asked (`open_session`), runs every grid the logic, an
engine or the confirmation returns through
[`thermomilp.core.verify.candidate_problems`][thermomilp.core.verify.candidate_problems]
-- a grid that fails is status ``error``, never an answer -- confirms every "infeasible"
by a second, independent method (`thermomilp.solving.confirm`, else
``Session.second_opinion``) and retries an engine error once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from thermomilp.backends.base import Outcome, Session
from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import SolveError
from thermomilp.core.puzzle import Cell, Grid, Puzzle, grid_from_ones, ones_of
from thermomilp.core.settings import Settings, Solver
from thermomilp.core.status import Status
from thermomilp.core.verify import Cut, candidate_problems

if TYPE_CHECKING:
    from thermomilp.logic.presolve import BoardLogic


@dataclass(frozen=True)
class Found:
    """One answer of the facade. ``grid`` is verified when ``status`` is feasible;
    ``confirmed_by`` says what confirmed an "infeasible" (``logic``, ``cpsat`` or ``engine``)."""

    status: Status
    grid: Grid | None = None
    message: str = ""
    confirmed_by: str | None = None


def open_session(puzzle: Puzzle, settings: Settings, fixed: dict[Cell, int] | None = None,
                 deadline: Deadline | None = None) -> Session:
    """A session of ``puzzle`` in the settings' formulation and pair (the registries),
    timed by ``deadline`` (the board's clock)."""
    from thermomilp.backends import session_for
    from thermomilp.model.registry import formulation_for

    return session_for(formulation_for(puzzle, settings.formulation, fixed), settings, deadline)


class Engine:
    """One board's solve: its settings, deadline, logic, session, cuts and guards. The
    session opens at the first question for the engine, so a board the logic decides
    opens none."""

    def __init__(self, puzzle: Puzzle, settings: Settings | None = None, *,
                 fixed: dict[Cell, int] | None = None, deadline: Deadline | None = None,
                 board: BoardLogic | None = None):
        self.puzzle = puzzle
        self.board = board  # what the logic learned about the board in this solve
        self.settings = settings or Settings()
        self.deadline = deadline or Deadline(self.settings.time_limit)
        self.fixed = dict(fixed or {})
        self.cuts: list[Cut] = []
        self._session: Session | None = None
        self.engine_calls = 0

    @property
    def session(self) -> Session:
        """The board's session, opened at the first use, bounded by the cells fixed so far.
        The process's import of the backend and its library (numpy and highspy, PuLP or
        Pyomo) runs with the board's clock [`paused`][thermomilp.core.deadline.Deadline.paused]:
        it is not the board's time; building the model is."""
        if self._session is None:
            with self.deadline.paused():
                import_backend(self.settings)
            self._session = open_session(self.puzzle, self.settings, self.fixed, self.deadline)
        return self._session

    # -- the logic ------------------------------------------------------------

    def presolve(self) -> BoardLogic:
        """Run the settings' logic on the board (before any engine question): its verdict;
        the cells it fixes bound the model from then on.

        Raises:
            TimeUp: the deadline passed first."""
        from thermomilp.logic.presolve import presolve

        if self._session is not None:
            raise RuntimeError("Engine.presolve comes before the first question for the engine")
        stop = None if self.deadline.end is None else self.deadline.expired
        self.board = presolve(self.puzzle, self.settings.logic, stop, board=self.board)
        self.fixed = {**self.fixed, **(self.board.fixed or {})}
        return self.board

    def logic_solutions(self) -> tuple[Grid, ...]:
        """The presolve's solutions, each verified: its only one when it solved the board,
        its two when it found two; () otherwise, or when one fails the check (the engine
        then decides)."""
        board = self.board
        if board is None or board.status not in ("solved", "multiple"):
            return ()
        grids = (board.grid,) if board.status == "solved" else board.solutions
        if any(grid is None or self._verified(grid, "the logic").status != Status.FEASIBLE
               for grid in grids):
            return ()
        return tuple(grids)  # type: ignore[arg-type]

    # -- asking the engine ----------------------------------------------------

    def _ask(self, call) -> Outcome:
        self.engine_calls += 1
        return call()  # the session reads what is left of the deadline itself

    def next_solution(self) -> Found:
        """A verified solution the cuts so far allow, or why there is none."""
        if self.deadline.expired():
            return Found(Status.TIMEOUT, message="the time limit was reached")
        outcome = self._ask(self.session.solve)
        if outcome.status == Status.ERROR and not self.deadline.expired():
            outcome = self._ask(self.session.solve)  # one retry: engines do hiccup
        if outcome.status == Status.INFEASIBLE:
            return self._confirm()
        return self._checked(outcome)

    def _checked(self, outcome: Outcome) -> Found:
        if outcome.status != Status.FEASIBLE:
            return Found(outcome.status, message=outcome.message)
        who = f"{self.session.solver} via {self.session.backend}"
        if outcome.grid is None:
            return Found(Status.ERROR, message=f"{who} said feasible but gave no grid")
        return self._verified(outcome.grid, who)

    def _verified(self, grid: Grid, who: str) -> Found:
        problems = candidate_problems(self.puzzle, grid, fixed=self.fixed, cuts=self.cuts)
        if problems:
            return Found(Status.ERROR, message=f"{who} returned a grid that is not a solution: "
                                               f"{problems[0]}")
        return Found(Status.FEASIBLE, grid)

    def by_second_method(self) -> Found | None:
        """The logic search's answer to the board's question under the cuts (then
        CP-SAT's, unless CP-SAT is the engine): a verified grid, a confirmed "infeasible",
        or None when neither decides (`thermomilp.solving.confirm`)."""
        import thermomilp.solving.confirm as confirm

        verdict = confirm.confirm_infeasible(self.puzzle, self.fixed, self.cuts, self.deadline,
                                             # a second method only where it is not the first
                                             cpsat=self.settings.solver is not Solver.CPSAT,
                                             board=self.board)
        if verdict == confirm.CONFIRMED:
            return Found(Status.INFEASIBLE, confirmed_by="logic")
        if verdict == confirm.CONFIRMED_BY_CPSAT:
            return Found(Status.INFEASIBLE, confirmed_by="cpsat")
        if verdict != confirm.UNDECIDED:  # a grid the cuts allow
            return self._verified(verdict, "the logic search")  # type: ignore[arg-type]
        return None

    def _confirm(self) -> Found:
        """Believe "infeasible" only when a second method agrees."""
        found = self.by_second_method()
        if found is not None:  # an engine that missed a grid is shown by _verified
            return found
        if self.deadline.expired():
            return Found(Status.TIMEOUT, message="the time limit was reached while confirming "
                                                 "an infeasible verdict")
        outcome = self._engine_again()
        if outcome.status == Status.INFEASIBLE:
            return Found(Status.INFEASIBLE, confirmed_by="engine")
        return self._checked(outcome)

    def _engine_again(self) -> Outcome:
        """The engine's second opinion, never with the user's engine options: with none
        given, the session's own (another configuration where the engine's record asks
        for one); otherwise a new session without them, given the same cuts, solved
        and, if it says "infeasible" too, asked for its second opinion."""
        clean = self.settings.replace(engine_options=())
        if clean == self.settings:
            return self._ask(self.session.second_opinion)
        with open_session(self.puzzle, clean, self.fixed, self.deadline) as session:
            for ones, over in self.cuts:
                session.exclude(ones, over)
            outcome = self._ask(session.solve)
            if outcome.status == Status.INFEASIBLE:
                outcome = self._ask(session.second_opinion)
            return outcome

    # -- cuts, counting, enumerating -----------------------------------------

    def exclude(self, grid: Grid, over: frozenset[Cell] | None = None) -> None:
        """Cut off ``grid`` by the no-good (with ``over``: every grid agreeing with it on
        those cells)."""
        ones = ones_of(grid)
        over = None if over is None else frozenset(over)
        self.session.exclude(ones, over)
        self.cuts.append((ones, over))

    def solutions(self, limit: int | None = None) -> Iterator[Grid]:
        """Distinct verified solutions, at most ``limit``, by repeated no-good cuts.

        Raises:
            SolveError: the engine timed out or failed before the enumeration ended.
        """
        found = 0
        while limit is None or found < limit:
            answer = self.next_solution()
            if answer.status == Status.INFEASIBLE:
                return
            if answer.status != Status.FEASIBLE or answer.grid is None:
                raise SolveError(f"enumeration stopped after {found} solutions: {answer.status}"
                                 + (f" ({answer.message})" if answer.message else ""),
                                 status=answer.status)
            yield answer.grid
            found += 1
            self.exclude(answer.grid)

    def close(self) -> None:
        """Release the session's engine, if a session was opened."""
        if self._session is not None:
            self._session.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def is_feasible(puzzle: Puzzle, settings: Settings | None = None,
                deadline: Deadline | None = None) -> tuple[bool, bool]:
    """(whether ``puzzle`` has a solution, whether an engine was called).

    The exact logic search answers first, within its work budget
    (`thermomilp.logic.presolve.BoardLogic.search_work`); a board it cannot finish goes to
    the engine, with every guard of `Engine.next_solution`.

    Raises:
        SolveError: the engine timed out or failed (``status`` says which).
    """
    with Engine(puzzle, settings, deadline=deadline) as engine:
        found = engine.by_second_method()
        if found is not None and found.status in (Status.FEASIBLE, Status.INFEASIBLE):
            return found.status == Status.FEASIBLE, False
        answer = engine.next_solution()
    if answer.status in (Status.TIMEOUT, Status.ERROR):
        raise SolveError(f"cannot decide: {answer.status} ({answer.message})",
                         status=answer.status)
    return answer.status == Status.FEASIBLE, True


def lp_relaxation(puzzle: Puzzle, decide: bool = True, tol: float = 1e-6,
                  deadline: Deadline | None = None):
    """The LP relaxation of the cell formulation (HiGHS, a fixed use of
    `thermomilp.core.engines`), within ``deadline``: see
    `thermomilp.backends.relaxation.relax` for the tuple it returns.

    Raises:
        SolveError: the deadline passed first (status ``timeout``)."""
    from thermomilp.backends.relaxation import relax
    from thermomilp.model.formulation import formulate

    return relax(formulate(puzzle), decide, tol, deadline)


def lp_vertex(puzzle: Puzzle, tol: float = 1e-6) -> tuple[tuple[float, ...], ...] | None:
    """The LP relaxation's vertex (HiGHS), per cell as rows, or None if infeasible:
    see `thermomilp.backends.relaxation.vertex` (for the page's shading)."""
    from thermomilp.backends.relaxation import vertex
    from thermomilp.model.formulation import formulate

    x = vertex(formulate(puzzle), tol)
    if x is None:
        return None
    W = puzzle.width
    return tuple(tuple(x[r * W:(r + 1) * W]) for r in range(puzzle.height))


def require_available(settings: Settings) -> None:
    """[`SolverUnavailable`][thermomilp.core.errors.SolverUnavailable] now, naming the installed
    pairs, if the settings' pair is not installed (the logic may decide a board without opening a
    session). The layer and the engine are looked up, not imported or run: the engine is probed
    when a session opens ([`thermomilp.backends.session_for`][thermomilp.backends.session_for])."""
    from thermomilp.backends.matrix import require_pair

    require_pair(settings.backend, settings.solver, settings.engine_path, probe=False)


def import_backend(settings: Settings) -> None:
    """Import the settings' backend module and its library (`Engine.session` does, with
    the board's clock paused)."""
    import importlib

    from thermomilp.backends import SESSIONS

    try:
        importlib.import_module(SESSIONS[settings.backend].split(":")[0])
    except ImportError:
        pass  # the solve itself reports the missing library as a record


# -- MILPs given as numbers: the generator's rival search, the autograder ---------

PROBE_SHARES = (0.25, 0.25, 0.5, 1.0)
"""A first-rival probe's restarts: shares of its node budget, one random seed each."""

def find_other(form, planted_ones, *, check: Callable[[Grid], list[str]], over=None,
               nearest: bool = False, probe_nodes: float | None = None,
               time_limit: float | None = None, confirm: bool = True, rows=()):
    """A verified 0/1 cell vector (numpy bool array, row-major) of a solution of the
    cell formulation ``form`` other than ``planted_ones``, or None when there is none.

    Args:
        over: write the no-good cut over these cells only; None = every cell.
        nearest: minimise the Hamming distance to the planted filling.
        probe_nodes: first ask under the distance objective in restarts of
            `PROBE_SHARES` of this many branch-and-bound nodes (machine-independent),
            stopping at the first rival; the full question only when they find none.
        rows: more constraints ``(lower, indices, values)`` (``sum values * x >= lower``)
            every returned vector must meet.
        confirm: confirm a "none" as the engine's quirk data asks
            (`thermomilp.backends.highs_arrays.ask_cell_model`); False believes it.
        check: the caller's translation to
            [`thermomilp.core.verify.candidate_problems`][thermomilp.core.verify.candidate_problems]:
            it gets the vector's grid and returns the problems of the board and question
            it stands for. Every vector returned passes it and ``rows``.

    An engine error is asked again with presolve off.

    Raises:
        SolveError: HiGHS ended without deciding (time limit, numerical trouble),
            or returned a vector that is not a solution.
    """
    import time

    import numpy as np

    from thermomilp.backends.highs_arrays import RunOptions, ask_cell_model
    from thermomilp.model.highs_model import nogood_row

    n = form.height * form.width
    on = [form.index(cell) for cell in planted_ones]
    over_idx = None if over is None else [form.index(cell) for cell in over]
    if over_idx == []:
        return None  # no cell may change: no other solution
    # (distance objective, time limit, random seed, node cap)
    plans: list[tuple[bool, float | None, int, int | None]] = []
    if probe_nodes is not None:
        # restarts with other seeds: HiGHS's time to a first rival varies with its
        # random seed (docs/generate.md, "First-rival probes")
        for seed, share in enumerate(PROBE_SHARES):
            plans.append((True, None, seed, max(1, round(probe_nodes * share))))
    plans.append((nearest, time_limit, 0, None))
    cut = nogood_row(n, on, over_idx)
    _, all_cols, distance = nogood_row(n, on)
    said_no = False
    message = "time limit"
    end = None if time_limit is None else time.perf_counter() + time_limit
    for near, limit, seed, nodes in plans:
        probing = nodes is not None
        if said_no and probing:
            continue  # a probe already said "none": only its confirmation is left
        if end is not None:
            limit = min(limit or np.inf, end - time.perf_counter())
            if limit <= 0:
                break
        answer = ask_cell_model(
            form, [cut, *rows], (all_cols, distance) if near else None,
            RunOptions(seed=seed, time_limit=limit, max_nodes=nodes, first_improving=probing),
            end=end, confirm=confirm and not probing, said_none=said_no)
        outcome, message = answer.outcome, answer.message
        if outcome.x is not None and (outcome.status == "optimal" or near):
            x = outcome.x > 0.5
            problems = check(grid_from_ones(form.height, form.width, form.ones_from_values(x)))
            problems += [f"it breaks extra row {k}" for k, (lower, cols, coef) in enumerate(rows)
                         if float(np.dot(x[cols], coef)) < lower - 1e-9]
            if problems:
                raise SolveError(f"HiGHS returned a solution that is not one: {problems[0]}")
            return x
        if outcome.status == "infeasible":
            if answer.confirmed or not confirm:
                return None
            said_no = True
        elif not (probing and outcome.status == "limit"):
            break
    raise SolveError(f"HiGHS could not decide whether another solution exists: {message}",
                     "timeout" if message.lower().startswith("time") else "error")


def solve_rows(lower, upper, integer, rows, cost, *, maximize: bool = False,
               time_limit: float | None = None):
    """Solve a MILP given as numbers (variable bounds, integer variables, rows with
    ``terms``/``lower``/``upper``, a cost map): the autograder's copy of a student's
    own model, which no formulation describes. Returns an
    `ArrayOutcome` (status ``optimal``,
    ``infeasible``, ``unbounded``, ``limit`` or ``error``, and the vector); the
    caller judges the point, as it judges a student's model."""
    from thermomilp.backends.highs_arrays import run_rows

    return run_rows(lower, upper, integer, rows, cost, maximize, time_limit)


__all__ = ["Engine", "Found", "SolveError", "find_other",
           "is_feasible", "lp_relaxation", "lp_vertex", "open_session", "require_available",
           "solve_rows", "import_backend"]
