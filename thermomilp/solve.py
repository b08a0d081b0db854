"""Solve, prove uniqueness, count and enumerate -- on any backend.

Uniqueness is one extra solve: after a solution ``x*`` is found, the
canonical no-good cut

    sum_{c : x*_c = 1} (1 - x_c) + sum_{c : x*_c = 0} x_c >= 1

removes exactly ``x*`` (every other 0/1 vector differs from it in at least
one cell); the puzzle is unique iff the cut model is infeasible. Before that
solve, :func:`thermomilp.swap.swap_rival` looks for a second solution one
four-vessel swap away (a verified witness of ``multiple``, found in
milliseconds); only when there is none does the cut model run. Counting
repeats the cut until the model is infeasible or the limit is reached.

Every grid a backend returns is checked by :mod:`thermomilp.verify` before
it is used; a grid that breaks a rule turns the result into status
``error`` -- a solver bug never becomes a printed answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Literal

from thermomilp.backends import SolverOptions, open_session
from thermomilp.backends.base import Session
from thermomilp.errors import SolveError
from thermomilp.model.formulation import formulate
from thermomilp.puzzle import Cell, Grid, Puzzle, levels_from_grid
from thermomilp.verify import solution_problems

Status = Literal["unique", "multiple", "infeasible", "solved", "timeout", "error"]
STATUSES: tuple[str, ...] = ("unique", "multiple", "infeasible", "solved", "timeout", "error")


@dataclass(frozen=True)
class SolveResult:
    """What one solve found. ``grid``/``levels`` are set for unique, multiple and solved."""

    status: Status
    grid: Grid | None
    levels: tuple[int, ...] | None
    second: Grid | None
    backend: str
    solver: str
    time_s: float
    error: str | None = None
    proof: str | None = None
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    # For an infeasible board: an irreducible set of conflicting rules, a tuple of
    # thermomilp.conflict.Part (set by the caller that asked for an explanation).
    conflict: tuple[Any, ...] | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.status in ("unique", "multiple", "solved")

    def levels_json(self) -> Any:
        """Thermometers: a list in input order; Aquarium: region id -> wet rows."""
        if self.levels is None or self.puzzle is None:
            return None
        if self.puzzle.kind == "thermometers":
            return list(self.levels)
        return {v.label: lvl for v, lvl in zip(self.puzzle.vessels, self.levels)}

    def to_json(self, file: str | None = None) -> dict[str, Any]:
        """The DESIGN.md CLI record (one JSON Lines object)."""
        record: dict[str, Any] = {
            "file": file,
            "puzzle": self.puzzle.kind if self.puzzle else None,
            "status": self.status,
            "grid": list(self.grid) if self.grid is not None else None,
            "levels": self.levels_json(),
            "second": list(self.second) if self.second is not None else None,
            "backend": self.backend,
            "solver": self.solver,
            "time_s": round(self.time_s, 6),
        }
        if self.status == "error":
            record["error"] = self.error
        if self.proof is not None:
            record["proof"] = self.proof
        if self.status == "infeasible" and self.conflict is not None:
            record["conflict"] = {"parts": [part.to_json() for part in self.conflict],
                                  "text": self.conflict_text()}
        return record

    def conflict_text(self) -> str | None:
        """``row 3 (clue 5), ... and thermometer 7 cannot all hold``, when explained."""
        if self.conflict is None:
            return None
        from thermomilp.conflict import describe

        return describe(self.conflict)

    def __str__(self) -> str:
        from thermomilp.render import render_result

        return render_result(self)


def _grid_of(puzzle: Puzzle, ones: frozenset[Cell]) -> Grid:
    return tuple("".join("#" if (r, c) in ones else "." for c in range(puzzle.width))
                 for r in range(puzzle.height))


class _Search:
    """A session plus the bookkeeping of one solve call: deadline, verification."""

    def __init__(self, puzzle: Puzzle, backend: str, solver: str, options: SolverOptions,
                 time_limit: float | None, fixed: dict[Cell, int] | None = None,
                 formulation: str = "cell"):
        self.puzzle = puzzle
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        self.session: Session = open_session(formulate(puzzle, fixed), backend, solver, options,
                                             formulation)

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(self.deadline - time.perf_counter(), 1e-3)

    def next_solution(self) -> tuple[str, Grid | None, str]:
        """("feasible", grid, "") or (status, None, message); the grid is verified."""
        outcome = self.session.solve(self.remaining())
        if outcome.status == "infeasible":
            # No checker can verify "infeasible": get a second opinion first.
            outcome = self.session.second_opinion(self.remaining())
        if outcome.status != "feasible":
            return outcome.status, None, outcome.message
        grid = _grid_of(self.puzzle, outcome.ones or frozenset())
        problems = solution_problems(self.puzzle, grid)
        if problems:
            return ("error", None, f"{self.session.solver} via {self.session.backend} returned "
                    f"a grid that is not a solution: {problems[0]}")
        return "feasible", grid, ""

    def exclude(self, grid: Grid) -> None:
        ones = frozenset((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row)
                         if ch == "#")
        self.session.exclude(ones)


def solve(puzzle: Puzzle, backend: str = "highs", solver: str = "highs", *, unique: bool = True,
          time_limit: float | None = None, options: SolverOptions | None = None,
          presolve: str = "none", formulation: str = "cell") -> SolveResult:
    """Solve ``puzzle`` and, unless ``unique=False``, prove whether it is unique.

    Args:
        backend: modelling layer, ``highs`` (highspy direct), ``pulp`` or ``pyomo``.
        solver: engine, ``highs`` by default.
        unique: make the extra no-good solve that decides uniqueness.
        time_limit: seconds for the whole call (all solves together).
        presolve: ``none``, ``intervals`` or ``probing``: fix the cells the
            logic engine decides before the MILP sees the board. On boards of
            :data:`LARGE_BOARD` cells or more, ``probing`` fixes by intervals
            first and probes only when no four-vessel swap shows a second
            solution (same answers, less time on boards with many solutions).
        formulation: ``cell`` (one binary per cell) or ``compact`` (one per
            tank row / vessel layer); both give the same solutions.

    Returns:
        A :class:`SolveResult`; its status is ``error`` rather than a wrong grid
        when an engine misbehaves.

    Raises:
        SolverUnavailable: the (backend, solver) pair is not installed.
    """
    options = options or SolverOptions()
    start = time.perf_counter()

    def result(status: Status, grid: Grid | None = None, second: Grid | None = None,
               error: str | None = None, proof: str | None = None) -> SolveResult:
        levels = levels_from_grid(puzzle, grid) if grid is not None else None
        return SolveResult(status, grid, levels, second, backend, solver,
                           time.perf_counter() - start, error, proof, puzzle)

    # Large boards: probing costs more than it saves when the board has several
    # solutions (docs/performance.md: 0.8 s at 100x100, 11 s at 200x200, where the
    # whole MILP decision takes 0.4 s / 1.8 s). Run the cheap interval logic first
    # and probe only if the swap finds no second solution.
    deferred_probing = presolve == "probing" and puzzle.height * puzzle.width >= LARGE_BOARD
    fixed, logic_grid, logic_status = _presolve(
        puzzle, "intervals" if deferred_probing else presolve)
    if logic_status == "infeasible":
        return result("infeasible", proof="logic")
    if logic_grid is not None and solution_problems(puzzle, logic_grid) == []:
        # The logic fixed every cell: the board is unique without a MILP solve.
        return result("unique" if unique else "solved", logic_grid, proof="logic")

    search = _Search(puzzle, backend, solver, options, time_limit, fixed, formulation)
    status, first, message = search.next_solution()
    if status != "feasible":
        return result(status, error=message or None)  # type: ignore[arg-type]
    if not unique:
        return result("solved", first)
    from thermomilp.swap import swap_rival  # numpy: kept out of `thermomilp --help`

    rival = swap_rival(puzzle, first)
    if rival is not None:  # a verified second solution without a second solve
        return result("multiple", first, rival)
    if deferred_probing:
        _, logic_grid, logic_status = _presolve(puzzle, "probing")
        if logic_status == "infeasible":  # sound logic cannot refute a verified solution
            return result("error", error="the probing logic refuted a verified solution")
        if logic_grid is not None and logic_grid == first:
            return result("unique", first, proof="logic")
    search.exclude(first)
    status, second, message = search.next_solution()
    if status == "infeasible":
        return result("unique", first, proof="milp")
    if status == "feasible":
        return result("multiple", first, second)
    if status == "timeout":
        return result("timeout", first, error=message or None)
    return result("error", error=message)


LARGE_BOARD = 400
"""Cells from which ``presolve="probing"`` probes only after the swap search fails."""


def _presolve(puzzle: Puzzle, presolve: str) -> tuple[dict[Cell, int] | None, Grid | None, str]:
    """Cells fixed by the logic engine, the grid when it decides all, and its status.

    The logic engine reasons about vessel levels; a pool-rule tank has none,
    so such a board goes to the MILP unfixed (the same answer, no shortcut)."""
    if presolve == "none" or not puzzle.all_chains:
        return None, None, "open"
    from thermomilp.logic.presolve import presolve_cells

    return presolve_cells(puzzle, presolve)


def enumerate_solutions(puzzle: Puzzle, limit: int | None = None, backend: str = "highs",
                        solver: str = "highs", *, time_limit: float | None = None,
                        options: SolverOptions | None = None,
                        formulation: str = "cell") -> Iterator[Grid]:
    """Yield distinct verified solutions, at most ``limit``, by repeated no-good cuts.

    Raises:
        SolveError: an engine timed out or failed before the enumeration ended.
    """
    search = _Search(puzzle, backend, solver, options or SolverOptions(), time_limit,
                     formulation=formulation)
    found = 0
    while limit is None or found < limit:
        status, grid, message = search.next_solution()
        if status == "infeasible":
            return
        if status != "feasible" or grid is None:
            raise SolveError(f"enumeration stopped after {found} solutions: {status}"
                             + (f" ({message})" if message else ""))
        yield grid
        found += 1
        search.exclude(grid)


def count_solutions(puzzle: Puzzle, limit: int | None = None, backend: str = "highs",
                    solver: str = "highs", *, time_limit: float | None = None,
                    options: SolverOptions | None = None, formulation: str = "cell") -> int:
    """The number of solutions, capped at ``limit`` (``None`` = count them all)."""
    return sum(1 for _ in enumerate_solutions(puzzle, limit, backend, solver,
                                              time_limit=time_limit, options=options,
                                              formulation=formulation))


def is_unique(puzzle: Puzzle, backend: str = "highs", solver: str = "highs", *,
              time_limit: float | None = None, options: SolverOptions | None = None,
              formulation: str = "cell") -> bool:
    """True iff the puzzle has exactly one solution."""
    return count_solutions(puzzle, 2, backend, solver, time_limit=time_limit,
                           options=options, formulation=formulation) == 1
