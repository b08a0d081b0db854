"""Pyomo: one ConcreteModel per puzzle, handed to the engine the user chose.

Two kinds of engine interface (`REACH`):

* persistent, the newer ``pyomo.contrib.solver`` one: ``highs`` (highspy)
  and ``scip`` (``ScipPersistent``, pyscipopt). The solver object keeps the
  model between solves, so a no-good cut is an incremental update rather
  than a rebuild;
* the classic ``SolverFactory`` shell interface: ``cbc`` and ``glpk`` (``glpsol``),
  always at an absolute path (Pyomo would look in the working folder first). Each
  solve writes the model to a file.

Every engine call holds `PYOMO_CALL`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from thermomilp.backends.base import Options, Raw, Session, values_or_none
from thermomilp.backends.highs_backend import set_highs_threads
from thermomilp.backends.matrix import require_program
from thermomilp.core.engines import ENGINES
from thermomilp.core.errors import SolverUnavailable
from thermomilp.core.settings import Backend, Settings, Solver
from thermomilp.core.status import Status
from thermomilp.model.highs_model import hide_banner
from thermomilp.model.registry import BuiltModel

PYOMO_CALL = threading.Lock()
"""Held around every Pyomo engine call and every engine object's creation: Pyomo's
output capture (``pyomo/common/tee.py``), which every engine call and ``SolverFactory``'s
``available()`` go through even with ``tee`` off, swaps process-wide streams and
deadlocks when two of them in two threads overlap."""


class _Persistent:
    """A ``pyomo.contrib.solver`` engine: HiGHS (highspy) or SCIP (pyscipopt). The
    solver object keeps the model between solves; a cut is an incremental update."""

    def __init__(self, engine: Any, settings: Settings, options: Options):
        self.engine, self.settings = engine, settings
        config = engine.config
        config.load_solutions = False
        config.raise_exception_on_nonoptimal_result = False
        config.solver_options.update(options)

    def solve(self, model: Any, time_limit: float | None, extra: Options) -> Raw:
        from pyomo.contrib.solver.common.results import SolutionStatus
        from pyomo.contrib.solver.common.results import TerminationCondition as TC

        config = self.engine.config
        config.time_limit = time_limit
        # Pyomo reads ``tee=True`` as the sys.stdout of the moment it is set: here, inside
        # the skeleton's engine_log_to_stderr, that is stderr
        config.tee = bool(self.settings.verbose)
        saved = dict(config.solver_options)
        config.solver_options.update(extra)
        try:
            set_highs_threads(self.settings.threads)
            results = self.engine.solve(model)
        finally:
            for name in list(config.solver_options):
                del config.solver_options[name]
            config.solver_options.update(saved)
        tc = results.termination_condition
        said = tc.name
        if results.solution_status in (SolutionStatus.feasible, SolutionStatus.optimal):
            results.solution_loader.load_vars()
            return Raw(Status.FEASIBLE, said=said)
        if tc in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
            return Raw(Status.INFEASIBLE, said=said)
        if tc == TC.maxTimeLimit:
            return Raw(Status.TIMEOUT, said=said)
        return Raw(Status.ERROR, said=said, engine_error=tc == TC.error)


class _Shell:
    """A classic ``SolverFactory`` engine on a program at an absolute path: cbc, glpk."""

    def __init__(self, settings: Settings, options: Options):
        import pyomo.environ as pyo

        name = str(settings.solver)
        path = require_program(settings, f"no {name} program for Pyomo")
        self.settings = settings
        # Pyomo warns (with tracebacks) about a solver it cannot find; what we need is
        # ``available()``, and our own error message says the rest.
        logger = logging.getLogger("pyomo")
        level = logger.level
        logger.setLevel(logging.ERROR)
        try:
            # An absolute path, always: left to itself Pyomo looks in the working folder first.
            self.engine = pyo.SolverFactory(name, executable=path)
            if not self.engine.available(exception_flag=False):
                raise SolverUnavailable(f"Pyomo cannot run {name} at {path}")
        finally:
            logger.setLevel(level)
        self.engine.options.update(options)
        self.time_option = ENGINES[settings.solver].time_options[0]

    def solve(self, model: Any, time_limit: float | None, extra: Options) -> Raw:
        from pyomo.opt import SolutionStatus
        from pyomo.opt import TerminationCondition as TC

        options: dict[str, Any] = dict(extra)
        if time_limit:
            options[self.time_option] = time_limit
        for name, value in {**self.engine.options, **options}.items():
            if value is True:
                options[name] = ""  # a switch (Pyomo writes the bare option)
        kwargs: dict[str, Any] = {"tee": bool(self.settings.verbose), "load_solutions": False}
        if options:
            kwargs["options"] = options
        results = self.engine.solve(model, **kwargs)
        tc = results.solver.termination_condition
        said = str(tc)
        has_solution = len(results.solution) > 0 and results.solution(0).status in (
            SolutionStatus.optimal, SolutionStatus.feasible)
        if has_solution:
            model.solutions.load_from(results)
            return Raw(Status.FEASIBLE, said=said)
        if tc in (TC.infeasible, TC.infeasibleOrUnbounded, TC.noSolution):
            return Raw(Status.INFEASIBLE, said=said)
        if tc in (TC.maxTimeLimit, TC.maxIterations, TC.maxEvaluations):
            return Raw(Status.TIMEOUT, said=said)
        return Raw(Status.ERROR, said=said)


def _highs(settings: Settings, options: Options) -> _Persistent:
    from pyomo.contrib.solver.solvers.highs import Highs

    hide_banner(settings.verbose)  # keep the HiGHS banner off stdout
    return _Persistent(Highs(), settings, options)


def _scip(settings: Settings, options: Options) -> _Persistent:
    from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent

    return _Persistent(ScipPersistent(), settings, options)


REACH: dict[Solver, Callable[[Settings, Options], _Persistent | _Shell]] = {
    Solver.HIGHS: _highs, Solver.SCIP: _scip, Solver.CBC: _Shell, Solver.GLPK: _Shell}
"""How Pyomo reaches each engine."""


class PyomoSession(Session):
    backend = Backend.PYOMO
    layer = "Pyomo"

    def _build(self, built: BuiltModel) -> BuiltModel:
        self.model, self.variables = built.model, built.variables
        with PYOMO_CALL:  # asking SolverFactory (available(): a run of the program) too
            self.engine = REACH[self.settings.solver](self.settings, self.options)
        return built

    def _has_rows(self) -> bool:
        import pyomo.environ as pyo

        return next(self.model.component_data_objects(pyo.Constraint, active=True),
                    None) is not None

    def _add_row(self, cols: list[int], coefs: list[float], lower: float, name: str) -> None:
        self.model.nogood.add(sum(c * self.variables[k] for k, c in zip(cols, coefs, strict=True))
                              >= lower)

    def _run(self, time_limit: float | None, extra: Options) -> Raw:
        for var in self.variables:
            if not var.fixed:
                var.set_value(None)  # a stale value must never pass for a new solution
        with PYOMO_CALL:
            raw = self.engine.solve(self.model, time_limit, extra)
        if raw.status is Status.FEASIBLE:
            return Raw(Status.FEASIBLE, values_or_none([v.value for v in self.variables]),
                       raw.said)
        return raw


__all__ = ["PYOMO_CALL", "PyomoSession", "REACH"]
