"""The LP relaxation of the cell formulation on HiGHS (for ``thermomilp analyze``).

0 <= x <= 1 instead of binaries: whether the polytope is empty, the share of
variables integral at the vertex HiGHS returns, and the cells the LP alone
decides -- those whose minimum and maximum over the polytope are equal (2 LPs
per cell, warm-started on one HiGHS object), within the caller's deadline
(``analyze``'s clock for the board: its time limit; a run it stops is a
[`SolveError`][thermomilp.core.errors.SolveError] with status ``timeout``).
"""

from __future__ import annotations

from thermomilp.core.deadline import Deadline
from thermomilp.core.engines import ENGINES, Solver
from thermomilp.core.errors import SolveError
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import build_highs


def _relaxed(form: Formulation, deadline: Deadline | None = None):
    """(HiGHS object holding the solved relaxation, cells, feasible)."""
    import highspy
    import numpy as np

    h = build_highs(form, names=False)
    n = form.height * form.width
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kContinuous))
    return h, n, _run(h, deadline)


def _run(h, deadline: Deadline | None) -> bool:
    """Run HiGHS within what is left of ``deadline``: True when the LP is solved,
    False when it is infeasible.

    Raises:
        SolveError: the clock ran out before or during the run (status ``timeout``).
    """
    import highspy

    if deadline is not None and deadline.expired():
        raise SolveError(TIME_UP, status="timeout")
    left = None if deadline is None else deadline.remaining()
    if left is not None:
        h.setOptionValue(ENGINES[Solver.HIGHS].time_options[0], float(left))
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kTimeLimit:
        raise SolveError(TIME_UP, status="timeout")
    return status == highspy.HighsModelStatus.kOptimal


TIME_UP = "the time limit was reached in the LP relaxation"


def vertex(form: Formulation, tol: float) -> list[float] | None:
    """The vertex HiGHS returns, per cell in row-major order (values within ``tol`` of
    0 or 1 snapped), or None when the relaxation is infeasible (the page shades it)."""
    h, n, ok = _relaxed(form)
    if not ok:
        return None
    x = [min(1.0, max(0.0, float(v))) for v in h.getSolution().col_value[:n]]
    return [0.0 if v < tol else 1.0 if v > 1 - tol else v for v in x]


def relax(form: Formulation, decide: bool, tol: float, deadline: Deadline | None = None
          ) -> tuple[bool, float | None, float | None, int | None, int | None, int]:
    """(feasible, objective, integral share, decided cells, decided filled, cells)."""
    import numpy as np

    h, n, ok = _relaxed(form, deadline)
    if not ok:
        return False, None, None, None, None, n
    x = np.asarray(h.getSolution().col_value)
    objective = float(h.getInfo().objective_function_value)
    integral = float(np.mean(np.minimum(np.abs(x), np.abs(1 - x)) < tol))
    if not decide:
        return True, objective, integral, None, None, n
    decided = filled = 0
    for k in range(n):
        bounds = []
        for sense in (1.0, -1.0):  # min x_k, then max x_k
            h.changeColCost(k, sense)
            _run(h, deadline)
            bounds.append(h.getSolution().col_value[k])
        h.changeColCost(k, 0.0)
        if abs(bounds[0] - bounds[1]) < tol:
            decided += 1
            filled += bounds[0] > 0.5
    return True, objective, integral, decided, filled, n
