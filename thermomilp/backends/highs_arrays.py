"""HiGHS on a MILP given as numbers: the two queries that are not a board's session.

* :func:`run_cell_model` -- the cell model of a :class:`~thermomilp.model.formulation.Formulation`
  plus extra rows (a no-good cut), an optional objective and run options
  (presolve, random seed, time limit, node cap, stop at the first improving
  solution): the generator's rival search, asked through
  :func:`thermomilp.solving.engine.find_other`.
* :func:`run_rows` -- a model of variables and rows read back as numbers (the
  autograder's copy of a student's model), asked through
  :func:`thermomilp.solving.engine.solve_rows`.

Both return an :class:`ArrayOutcome`; this module is the only place that reads
a HiGHS model status for these queries. The callers in the solve layer decide
what an outcome means (verification, confirmation, errors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from thermomilp.model.formulation import Formulation

ArrayStatus = Literal["optimal", "infeasible", "unbounded", "limit", "error"]
INF = float("inf")


@dataclass(frozen=True)
class RunOptions:
    """How to run HiGHS. ``max_nodes``/``first_improving`` make a bounded probe."""

    presolve: str = "choose"          # "choose" | "off"
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
    status = h.getModelStatus()
    feasible_point = status == S.kOptimal or h.getInfo().primal_solution_status == 2
    x = np.asarray(h.getSolution().col_value, dtype=float) if feasible_point else None
    if status == S.kOptimal:
        kind: ArrayStatus = "optimal"
    elif status == S.kInfeasible:
        kind = "infeasible"
    elif status in (S.kUnbounded, S.kUnboundedOrInfeasible):
        kind = "unbounded"
    elif status in (S.kTimeLimit, S.kSolutionLimit):
        kind = "limit"
    else:
        kind = "error"
    return ArrayOutcome(kind, x, h.modelStatusToString(status))


def run_cell_model(form: Formulation, rows: Sequence[tuple[float, np.ndarray, np.ndarray]] = (),
                   cost: tuple[np.ndarray, np.ndarray] | None = None,
                   options: RunOptions = RunOptions()) -> ArrayOutcome:
    """Solve the cell model of ``form`` plus ``rows`` (``(lower, indices, values)``,
    upper bound infinite), minimising ``cost`` (``(indices, values)``) if given."""
    from thermomilp.model.highs_model import build_highs

    h = build_highs(form, names=False)
    h.setOptionValue("random_seed", options.seed)
    h.setOptionValue("presolve", options.presolve)
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


def run_rows(lower: Sequence[float], upper: Sequence[float], integer: Sequence[int],
             rows: Sequence[Any], cost: dict[int, float], maximize: bool = False,
             time_limit: float | None = None) -> ArrayOutcome:
    """Solve ``min/max cost.x`` over rows (anything with ``terms``, ``lower``, ``upper``),
    variable bounds and the integer variables ``integer``. An exception inside
    HiGHS's run is an ``error`` outcome, with the exception in the message."""
    import highspy

    from thermomilp.model.highs_model import new_highs

    h = new_highs()
    h.setOptionValue("output_flag", False)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    inf = highspy.kHighsInf

    def bound(v: float) -> float:
        return inf if v == INF else (-inf if v == -INF else v)

    for k in range(len(lower)):
        h.addVar(bound(lower[k]), bound(upper[k]))
        if cost.get(k, 0.0):
            h.changeColCost(k, cost[k])
    if integer:
        h.changeColsIntegrality(len(integer), list(integer),
                                [highspy.HighsVarType.kInteger] * len(integer))
    if maximize:
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for row in rows:
        idx = list(row.terms)
        h.addRow(bound(row.lower), bound(row.upper), len(idx), idx,
                 [row.terms[k] for k in idx])
    try:
        h.run()
    except Exception as exc:  # noqa: BLE001 - an engine failure is an outcome, not a traceback
        return ArrayOutcome("error", message=str(exc), raised=True)
    return _outcome(h)
