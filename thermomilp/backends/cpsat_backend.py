"""OR-Tools CP-SAT: the same linear model, solved by clause learning instead of LP bounds.

The registry builds an OR-Tools ``CpModel`` of any formulation
(`thermomilp.model.cpsat_model`: the binaries, the clue rows, the
precedence and tie rows, fixed cells as one-value domains); each cut is one
more linear row of the model; each solve is a fresh ``CpSolver`` run on it
(CP-SAT has no incremental re-solve). The skeleton
([`Session`][thermomilp.backends.Session]) does the rest: verification,
the uniqueness cut, the confirmation of "infeasible".

The common settings reach CP-SAT as ``SatParameters`` (`run_cpsat`): the time
limit as ``max_time_in_seconds``, threads as ``num_workers`` (`DEFAULT_WORKERS`
when not given), the seed as ``random_seed``, the log as ``log_search_progress``
(on stderr), and any ``engine_options`` field by its name, typed by it. Its
``UNKNOWN`` status (a search limit stopped it before it decided) is a timeout.
"""

from __future__ import annotations

from typing import Any

from thermomilp.backends.base import Raw, Session
from thermomilp.backends.engines import set_parameter
from thermomilp.core.settings import Backend, EngineOptionValue
from thermomilp.core.status import Status
from thermomilp.model.cpsat_model import cp_model_module, whole

DEFAULT_WORKERS = 1
"""CP-SAT's own default is every core, whose race makes the found grid vary between
runs; one worker searches the same way every time (``threads`` or ``num_workers``
asks for more)."""


def apply_parameters(params: Any, options: dict[str, EngineOptionValue]) -> None:
    """Set the native ``options`` on a solver's parameters: each checked and typed
    against CP-SAT's ``SatParameters`` message (`engines.set_parameter`), then
    handed over whole. OR-Tools 9.12+ keeps a solver's parameters in C++ (they take
    the message as text, written by protobuf itself from the checked message);
    older releases hold the protobuf message (merged directly)."""
    from google.protobuf import text_format
    from ortools.sat import sat_parameters_pb2

    message = sat_parameters_pb2.SatParameters()
    for name, value in options.items():
        set_parameter(message, name, value)
    if hasattr(params, "merge_text_format"):
        if params.merge_text_format(text_format.MessageToString(message)) is False:
            raise ValueError(f"CP-SAT refused the parameters {sorted(options)}")
    else:
        params.MergeFrom(message)


def run_cpsat(model: Any, variables: Any, time_limit: float | None,
              options: dict[str, EngineOptionValue], verbose: bool = False) -> Raw:
    """Solve ``model`` once with the native ``options``; the values of ``variables``
    (in order) when CP-SAT has a point."""
    cp_model = cp_model_module()
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = DEFAULT_WORKERS
    params.log_search_progress = bool(verbose)
    if options:
        apply_parameters(params, options)
    if time_limit:
        params.max_time_in_seconds = float(time_limit)
    status = solver.solve(model)
    said = solver.status_name(status)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Raw(Status.FEASIBLE, [float(solver.value(v)) for v in variables], said)
    if status == cp_model.INFEASIBLE:
        return Raw(Status.INFEASIBLE, said=said)
    if status == cp_model.UNKNOWN:  # stopped by a limit before deciding
        return Raw(Status.TIMEOUT, said=f"{said}: a search limit stopped it")
    if status == cp_model.MODEL_INVALID:
        return Raw(Status.ERROR, said=f"{said} ({model.validate()})")
    return Raw(Status.ERROR, said=said)


class CpsatSession(Session):
    backend = Backend.CPSAT
    layer = "OR-Tools"

    def _has_rows(self) -> bool:
        return len(self.built.model.proto.constraints) > 0

    def _add_row(self, cols: list[int], coefs: list[float], lower: float, name: str) -> None:
        cp_model = cp_model_module()
        variables = self.built.variables
        expr = cp_model.LinearExpr.weighted_sum([variables[k] for k in cols],
                                                [whole(c) for c in coefs])
        self.built.model.add_linear_constraint(expr, whole(lower),
                                               cp_model.INT_MAX).with_name(name)

    def _run(self, time_limit: float | None, extra: dict[str, EngineOptionValue]) -> Raw:
        return run_cpsat(self.built.model, self.built.variables, time_limit,
                         {**self.options, **extra}, self.settings.verbose)


__all__ = ["CpsatSession", "DEFAULT_WORKERS", "apply_parameters", "run_cpsat"]
