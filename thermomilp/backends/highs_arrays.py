"""HiGHS on a MILP given as numbers: the two queries that are not a board's session.

`run_cell_model` and `ask_cell_model` (the same question with HiGHS's quirks
handled, from the data of `thermomilp.core.engines`) answer the generator's rival
search (`thermomilp.solving.engine.find_other`); `run_rows` the autograder's copy
of a student's model (`thermomilp.solving.engine.solve_rows`). This module is the
only place that reads a HiGHS model status for these queries; the callers in the
solve layer decide what an outcome means (verification, confirmation, errors).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from thermomilp.core.engines import ENGINES
from thermomilp.core.settings import Solver
from thermomilp.model.formulation import Formulation

ArrayStatus = Literal["optimal", "infeasible", "unbounded", "limit", "error"]


@dataclass(frozen=True)
class RunOptions:
    """How to run HiGHS. ``max_nodes``/``first_improving`` make a bounded probe."""

    presolve_off: bool = False        # HiGHS's presolve off (engines.ENGINES' options)
    seed: int = 0
    time_limit: float | None = None
    max_nodes: int | None = None
    first_improving: bool = False     # stop at the first improving solution


@dataclass(frozen=True)
class ArrayOutcome:
    """What HiGHS said. ``status`` is ``optimal`` (solved to the end), ``infeasible``,
    ``unbounded`` (or unbounded-or-infeasible), ``limit`` (time, node or solution
    limit) or ``error``. ``x`` is the column vector whenever HiGHS has a feasible
    point (also at a limit); it is not verified here. ``raised``: HiGHS raised an
    exception while running (``message`` holds it) rather than ending in a status."""

    status: ArrayStatus
    x: np.ndarray | None = None
    message: str = ""
    raised: bool = False


def _outcome(h: Any) -> ArrayOutcome:
    import highspy

    S = highspy.HighsModelStatus
    kinds: dict[Any, ArrayStatus] = {
        S.kOptimal: "optimal", S.kInfeasible: "infeasible", S.kUnbounded: "unbounded",
        S.kUnboundedOrInfeasible: "unbounded", S.kTimeLimit: "limit", S.kSolutionLimit: "limit"}
    status = h.getModelStatus()
    feasible_point = status == S.kOptimal or h.getInfo().primal_solution_status == 2
    x = np.asarray(h.getSolution().col_value, dtype=float) if feasible_point else None
    return ArrayOutcome(kinds.get(status, "error"), x, h.modelStatusToString(status))


def run_cell_model(form: Formulation, rows: Sequence[tuple[float, np.ndarray, np.ndarray]] = (),
                   cost: tuple[np.ndarray, np.ndarray] | None = None,
                   options: RunOptions = RunOptions()) -> ArrayOutcome:
    """Solve the cell model of ``form`` plus ``rows`` (``(lower, indices, values)``,
    upper bound infinite: a no-good cut), minimising ``cost`` (``(indices, values)``)
    if given, once."""
    from thermomilp.model.highs_model import build_highs

    h = build_highs(form, names=False)
    h.setOptionValue("random_seed", options.seed)
    if options.presolve_off:
        for name, value in ENGINES[Solver.HIGHS].presolve_off:
            h.setOptionValue(name, value)
    if options.time_limit is not None:
        h.setOptionValue("time_limit", float(max(options.time_limit, 0.01)))
    for lower, cols, coef in rows:
        h.addRow(lower, np.inf, cols.size, cols, coef)
    if options.first_improving:
        h.setOptionValue("mip_max_improving_sols", 1)
    if options.max_nodes is not None:
        h.setOptionValue("mip_max_nodes", max(1, options.max_nodes))
    if cost is not None:
        cols, values = cost
        h.changeColsCost(len(cols), cols, values)
    h.run()
    return _outcome(h)


@dataclass(frozen=True)
class Answer:
    """What `ask_cell_model` ended with. ``confirmed``: the outcome is an
    "infeasible" HiGHS gave in its second-opinion configuration (or HiGHS needs
    none). ``message``: the outcome's, and whether the retry with presolve off ended
    in an error too."""

    outcome: ArrayOutcome
    confirmed: bool = False
    message: str = ""


def ask_cell_model(form: Formulation, rows: Sequence[tuple[float, np.ndarray, np.ndarray]] = (),
                   cost: tuple[np.ndarray, np.ndarray] | None = None,
                   options: RunOptions = RunOptions(), *, end: float | None = None,
                   confirm: bool = False, said_none: bool = False) -> Answer:
    """`run_cell_model` with HiGHS's quirks handled. An error is asked again
    with presolve off (the engine's ``presolve_off``), within what is left before
    ``end``, a `time.perf_counter` time. ``confirm``: an
    "infeasible" not given in the engine's second-opinion configuration (presolve
    off) is asked again in it, when time is left; ``said_none``: the question has
    already been called infeasible elsewhere (a bounded probe), ask only that
    confirmation."""
    traits = ENGINES[Solver.HIGHS]
    answer = Answer(ArrayOutcome("infeasible"))
    if not said_none:
        answer = _retried(form, rows, cost, options, end)
        if not confirm or answer.confirmed or answer.outcome.status != "infeasible":
            return answer
    if not traits.second_opinion:
        return Answer(answer.outcome, True, answer.message)
    if end is not None:
        left = min(options.time_limit or np.inf, end - time.perf_counter())
        if left <= 0:
            return answer
        options = replace(options, time_limit=left)
    return _retried(form, rows, cost, replace(options, presolve_off=True), end)


def _retried(form: Formulation, rows: Sequence[tuple[float, np.ndarray, np.ndarray]],
             cost: tuple[np.ndarray, np.ndarray] | None, options: RunOptions,
             end: float | None) -> Answer:
    traits = ENGINES[Solver.HIGHS]
    ran = options
    outcome = run_cell_model(form, rows, cost, options)
    message = outcome.message
    if outcome.status == "error" and traits.presolve_off and not options.presolve_off:
        limit = options.time_limit if end is None else end - time.perf_counter()
        if limit is None or limit > 0:
            ran = replace(options, presolve_off=True, time_limit=limit)
            outcome = run_cell_model(form, rows, cost, ran)
            message = outcome.message + (" (also with presolve off)"
                                         if outcome.status == "error" else "")
    confirmed = outcome.status == "infeasible" and (ran.presolve_off
                                                    or not traits.second_opinion)
    return Answer(outcome, confirmed, message)


def run_rows(lower: Sequence[float], upper: Sequence[float], integer: Sequence[int],
             rows: Sequence[Any], cost: dict[int, float], maximize: bool = False,
             time_limit: float | None = None) -> ArrayOutcome:
    """Solve ``min/max cost.x`` over rows (anything with ``terms``, ``lower``, ``upper``),
    variable bounds and the integer variables ``integer``. An exception inside
    HiGHS's run is an ``error`` outcome, with the exception in the message."""
    import highspy

    from thermomilp.model.highs_model import new_highs

    h = new_highs()
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    for k in range(len(lower)):  # an infinite bound is HiGHS's own (kHighsInf is inf)
        h.addVar(lower[k], upper[k])
        if cost.get(k, 0.0):
            h.changeColCost(k, cost[k])
    if integer:
        h.changeColsIntegrality(len(integer), list(integer),
                                [highspy.HighsVarType.kInteger] * len(integer))
    if maximize:
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for row in rows:
        idx = list(row.terms)
        h.addRow(row.lower, row.upper, len(idx), idx, [row.terms[k] for k in idx])
    try:
        h.run()
    except Exception as exc:  # noqa: BLE001 - an engine failure is an outcome, not a traceback
        return ArrayOutcome("error", message=str(exc), raised=True)
    return _outcome(h)
