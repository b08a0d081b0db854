"""Solver sessions: one class per modelling layer, any engine it reaches.

``open_session(form, backend, solver, options)`` is the only entry point the
solve layer uses. Each backend module imports its heavy library lazily.
"""

from __future__ import annotations

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.errors import SolverUnavailable
from thermomilp.model.formulation import Formulation

BACKENDS = ("highs", "pulp", "pyomo")


def open_session(form: Formulation, backend: str = "highs", solver: str = "highs",
                 options: SolverOptions | None = None, formulation: str = "cell") -> Session:
    """A session on ``form``; ``formulation="compact"`` solves the one-binary-per-layer
    model (:mod:`thermomilp.model.compact`) and still returns cell sets."""
    options = options or SolverOptions()
    if formulation == "compact" and form.kind == "cell":
        from thermomilp.model.compact import compact_from

        form = compact_from(form)
    elif formulation not in ("cell", "compact"):
        raise SolverUnavailable(f"unknown formulation {formulation!r}; choose cell or compact")
    if backend == "highs":
        if solver != "highs":
            raise SolverUnavailable(
                f"the highs backend drives only the HiGHS engine, not {solver!r}; "
                "use --backend pulp or --backend pyomo for other solvers")
        from thermomilp.backends.highs_backend import HighsSession
        return HighsSession(form, options)
    if backend == "pulp":
        from thermomilp.backends.pulp_backend import PulpSession
        return PulpSession(form, options, solver)
    if backend == "pyomo":
        from thermomilp.backends.pyomo_backend import PyomoSession
        return PyomoSession(form, options, solver)
    raise SolverUnavailable(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


__all__ = ["BACKENDS", "Outcome", "Session", "SolverOptions", "open_session"]
