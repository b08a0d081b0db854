"""Solve, prove uniqueness, count and enumerate -- on any backend.

Uniqueness is one extra solve: after a solution ``x*`` is found, the
canonical no-good cut

    sum_{c : x*_c = 1} (1 - x_c) + sum_{c : x*_c = 0} x_c >= 1

removes exactly ``x*``; the puzzle is unique iff the cut model is infeasible
(docs/uniqueness.md). Counting repeats the cut until the model is infeasible or the
limit is reached. The logic runs first; when it decides the board no engine is called
(``engine_called`` false, ``proof`` ``logic``); every engine run goes through the facade
`thermomilp.solving.engine.Engine` and its guards.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Iterator, Unpack

from thermomilp.core.deadline import Deadline, TimeUp
from thermomilp.core.errors import SolveError
from thermomilp.core.puzzle import Cell, Grid, Puzzle, levels_from_grid
from thermomilp.core.settings import Logic, Settings, SettingsKeywords, settings_from
from thermomilp.core.status import PUBLIC, Status
from thermomilp.solving.engine import Engine, require_available

if TYPE_CHECKING:
    from thermomilp.logic.presolve import BoardLogic

STATUSES: tuple[str, ...] = tuple(PUBLIC)


@dataclass(frozen=True)
class SolveResult:
    """What one solve found. ``grid``/``levels`` are set for unique, multiple and solved."""

    status: Status
    grid: Grid | None
    levels: tuple[int, ...] | None
    second: Grid | None
    backend: str | None  # None: no engine was chosen (a file that could not be read)
    solver: str | None
    time_s: float
    error: str | None = None
    proof: str | None = None
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    # For an infeasible board: an irreducible set of conflicting rules, a tuple of
    # thermomilp.solving.conflict.Part (set by the caller that asked for an explanation).
    conflict: tuple[Any, ...] | None = field(default=None, compare=False)
    # False when the logic decided the board and no engine ran (AMPL: "solution
    # determined by presolve"); "logic" or "engine" when an engine's infeasible
    # verdict was confirmed by that second method.
    engine_called: bool = True
    confirmed_by: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("unique", "multiple", "solved")

    def levels_json(self) -> Any:
        """Thermometers: a list in input order; Aquarium: region id -> wet rows."""
        if self.levels is None or self.puzzle is None:
            return None
        if self.puzzle.kind == "thermometers":
            return list(self.levels)
        return {v.label: lvl for v, lvl in zip(self.puzzle.vessels, self.levels, strict=True)}

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
        record["engine_called"] = self.engine_called
        if self.confirmed_by is not None:
            record["confirmed_by"] = self.confirmed_by
        if self.status == "infeasible" and self.conflict is not None:
            record["conflict"] = {"parts": [part.to_json() for part in self.conflict],
                                  "text": self.conflict_text()}
        return record

    def conflict_text(self) -> str | None:
        """``row 3 (clue 5), ... and thermometer 7 cannot all hold``, when explained."""
        if self.conflict is None:
            return None
        from thermomilp.solving.conflict import describe

        return describe(self.conflict)

    def __str__(self) -> str:
        from thermomilp.pictures.text import render_result

        return render_result(self)


def solve(puzzle: Puzzle, *, unique: bool = True, explain: bool = True,
          settings: Settings | None = None, deadline: Deadline | None = None,
          **given: Unpack[SettingsKeywords]) -> SolveResult:
    """Solve ``puzzle`` and, unless ``unique=False``, prove whether it is unique; unless
    ``explain=False``, an infeasible board's ``conflict`` names an irreducible set of
    rules that cannot all hold (docs/infeasibility.md), found on the same clock.

    The settings are keyword arguments, exactly the fields of
    [`Settings`][thermomilp.core.settings.Settings], on top of an optional whole
    ``settings`` object (the keywords override its fields); left out, each
    has the same default as on the command line:

        solve(p)                                    # logic probing, HiGHS
        solve(p, logic="none")                      # watch the MILP do the work
        solve(p, solver="cbc")                      # CBC, through PuLP (the rule)
        solve(p, solver=pulp.HiGHS(msg=False))      # PuLP's HiGHS
        solve(p, engine_options={"mip_rel_gap": 0})

    Args:
        puzzle: the board, a [`Puzzle`][thermomilp.core.puzzle.Puzzle]
            ([`thermomilp.load`][thermomilp.formats.load] reads one from a file).
        unique: make the extra no-good solve that decides uniqueness. Default True;
            False stops at the first solution (status ``solved``).
        explain: name the conflicting rules of an infeasible board. Default True.
        settings: a base [`Settings`][thermomilp.core.settings.Settings]. Default None:
            ``Settings()``, the command line's defaults.
        deadline: a clock already running for this board (the CLI's). Default None: one
            is started from ``time_limit``.
        **given: any field of [`Settings`][thermomilp.core.settings.Settings] by name
            (``backend``, ``solver``, ``logic``, ``formulation``, ``time_limit``, ``threads``,
            ``seed``, ``verbose``, ``engine_options``, ``engine_path``; each described
            there), overriding those of ``settings``.

    Returns:
        A [`SolveResult`][thermomilp.solving.SolveResult]; its status is ``error`` rather than a
        wrong grid when an engine misbehaves.

    Raises:
        TypeError: a keyword that is not a setting, or a board that is not a Puzzle.
        SolverUnavailable: the (backend, solver) pair is not installed.
        ConfigError: a setting is not one of the known names or is out of range.
    """
    require_puzzle(puzzle)
    chosen = settings_from(settings, **given)
    clock = deadline or Deadline(chosen.time_limit)
    result = _decide(puzzle, unique, chosen, clock)
    if result.status != "infeasible" or not explain:
        return result
    with clock.paused():  # the module's import is the process's, not the board's
        from thermomilp.solving.conflict import find_conflict

    calls: list[int] = []
    conflict = find_conflict(puzzle, settings=chosen, deadline=clock, engine_calls=calls)
    return replace(result, conflict=conflict, time_s=clock.elapsed(),
                   engine_called=result.engine_called or bool(calls))


def _decide(puzzle: Puzzle, unique: bool, chosen: Settings, clock: Deadline) -> SolveResult:
    """[`solve`][thermomilp.solving.solve] without the conflict explanation: the logic,
    then the engine, both through one `Engine`."""
    require_available(chosen)  # first: the logic may decide the board without an engine
    with open_engine(puzzle, chosen, deadline=clock) as engine:
        return _verdict(engine, unique)


def _verdict(engine: Engine, unique: bool) -> SolveResult:
    chosen, clock = engine.settings, engine.deadline

    def result(status: Status | str, grid: Grid | None = None, second: Grid | None = None,
               error: str | None = None, proof: str | None = None,
               confirmed_by: str | None = None) -> SolveResult:
        levels = levels_from_grid(engine.puzzle, grid) if grid is not None else None
        return SolveResult(Status(status), grid, levels, second, str(chosen.backend),
                           str(chosen.solver), clock.elapsed(), error, proof, engine.puzzle,
                           None, engine.engine_calls > 0, confirmed_by)

    try:
        # what the logic learns here stays in the engine, for its confirmation too;
        # probing: a short exact search where probing leaves cells open (hard boards)
        board = engine.presolve()
    except TimeUp:
        return result("timeout", error="the time limit was reached in the logic presolve")
    if board.status == "infeasible":
        return result("infeasible", proof="logic")
    found = engine.logic_solutions()  # verified; the board is unique or has two, no engine
    if found:
        if len(found) == 1 or not unique:
            return result("unique" if unique and len(found) == 1 else "solved", found[0],
                          proof="logic")
        return result("multiple", found[0], found[1], proof="logic")
    if clock.expired():  # building a large model takes a while too: do not start it late
        where = "before the engine was asked" if chosen.logic is Logic.NONE \
            else "in the logic presolve"
        return result("timeout", error=f"the time limit was reached {where}")

    first = engine.next_solution()
    if first.status != "feasible" or first.grid is None:
        # not "feasible" here: infeasible, timeout or error, each a public Status too
        return result(first.status, error=first.message or None,
                      proof="milp" if first.status == "infeasible" else None,
                      confirmed_by=first.confirmed_by)
    if not unique:
        return result("solved", first.grid)
    engine.exclude(first.grid)
    second = engine.next_solution()
    if second.status == "infeasible":
        return result("unique", first.grid, proof="milp", confirmed_by=second.confirmed_by)
    if second.status == "feasible":
        return result("multiple", first.grid, second.grid)
    if second.status == "timeout":
        return result("timeout", first.grid, error=second.message or None)
    return result("error", error=second.message)


def open_engine(puzzle: Puzzle, settings: Settings, *, fixed: dict[Cell, int] | None = None,
                deadline: Deadline | None = None, board: BoardLogic | None = None) -> Engine:
    """The facade for one board (a function of its own so tests can put a fake engine in);
    ``board``: what the logic learned about it in this solve."""
    return Engine(puzzle, settings, fixed=fixed, deadline=deadline, board=board)


def require_puzzle(puzzle: object) -> None:
    """TypeError, naming [`thermomilp.load`][thermomilp.formats.load], for a board that is not a
    Puzzle (a path or a text would fail deep inside with an AttributeError)."""
    if not isinstance(puzzle, Puzzle):
        hint = (" -- read a board with thermomilp.load(path) first"
                if isinstance(puzzle, (str, bytes, os.PathLike)) else "")
        raise TypeError(f"expected a Puzzle, got {type(puzzle).__name__}{hint}")


def enumerate_solutions(puzzle: Puzzle, limit: int | None = None, *,
                        settings: Settings | None = None, deadline: Deadline | None = None,
                        **given: Unpack[SettingsKeywords]) -> Iterator[Grid]:
    """Yield distinct verified solutions, at most ``limit``, by repeated no-good cuts.

    The settings are taken as by [`solve`][thermomilp.solving.solve] (the ``logic`` setting plays no
    part here: every solution comes from the engine).

    Raises:
        SolveError: an engine timed out or failed before the enumeration ended
            (its ``status`` is ``timeout`` or ``error``).
    """
    require_puzzle(puzzle)
    chosen = settings_from(settings, **given)
    with open_engine(puzzle, chosen, deadline=deadline) as engine:
        yield from engine.solutions(limit)


def count_solutions(puzzle: Puzzle, limit: int | None = None, *,
                    settings: Settings | None = None, deadline: Deadline | None = None,
                    **given: Unpack[SettingsKeywords]) -> int:
    """The number of solutions of ``puzzle``, capped at ``limit``, found by repeated
    no-good cuts; every solution counted is verified.

    Args:
        puzzle: the board, a [`Puzzle`][thermomilp.core.puzzle.Puzzle].
        limit: stop counting there. Default None: count them all.
        settings: a base [`Settings`][thermomilp.core.settings.Settings]. Default None:
            ``Settings()``, the command line's defaults.
        deadline: a clock already running for this board. Default None: one is started from
            ``time_limit``.
        **given: any field of [`Settings`][thermomilp.core.settings.Settings] by name
            (``solver="cbc"``, ``time_limit=5``, ...), overriding those of ``settings``.
            The ``logic`` setting plays no part: every solution comes from the engine.

    Returns:
        The number of distinct solutions, at most ``limit``.

    Raises:
        TypeError: a keyword that is not a setting, or a board that is not a Puzzle.
        ConfigError: a setting is not one of the known names or is out of range.
        SolverUnavailable: the (backend, solver) pair is not installed.
        SolveError: an engine timed out or failed before the count ended (its ``status``
            is ``timeout`` or ``error``).
    """
    return sum(1 for _ in enumerate_solutions(puzzle, limit, settings=settings,
                                              deadline=deadline, **given))


def is_unique(puzzle: Puzzle, *, settings: Settings | None = None,
              deadline: Deadline | None = None, **given: Unpack[SettingsKeywords]) -> bool:
    """True iff the puzzle has exactly one solution: [`solve`][thermomilp.solving.solve]'s verdict,
    with the same settings and defaults.

    Raises:
        SolveError: the engine timed out or failed before uniqueness was decided.
    """
    result = solve(puzzle, settings=settings, deadline=deadline, **given)
    if result.status in ("timeout", "error"):
        raise SolveError(f"cannot decide uniqueness: {result.status}"
                         + (f" ({result.error})" if result.error else ""), status=result.status)
    return result.status == "unique"


__all__ = ["STATUSES", "SolveError", "SolveResult", "count_solutions",
           "enumerate_solutions", "is_unique", "open_engine", "solve"]
