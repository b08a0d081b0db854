"""Pyomo: HiGHS through the persistent ``pyomo.contrib.solver`` interface.

The solver object keeps the model between solves, so a no-good cut is an
incremental update rather than a rebuild.
"""

from __future__ import annotations

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.errors import SolverUnavailable
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import new_highs
from thermomilp.model.pyomo_model import build_pyomo, build_pyomo_compact, nogood_vars_expr


class PyomoSession(Session):
    backend = "pyomo"

    def __init__(self, form: Formulation, options: SolverOptions, solver: str = "highs"):
        super().__init__(form, options)
        self.solver = solver
        if form.kind == "compact":
            self.model = build_pyomo_compact(form)
            self.variables = [self.model.y[k] for k in range(form.n_vars)]
        else:
            self.model = build_pyomo(form)
            self.variables = [self.model.x[cell] for cell in form.cells]
        if solver != "highs":
            raise SolverUnavailable(f"solver {solver!r} is not wired to the pyomo backend")
        from pyomo.contrib.solver.solvers.highs import Highs

        new_highs()  # keep the HiGHS banner off stdout

        self.engine = Highs()
        self.engine.config.load_solutions = False
        self.engine.config.raise_exception_on_nonoptimal_result = False
        self.engine.config.tee = bool(options.verbose)
        if options.threads is not None:
            self.engine.config.threads = options.threads
        if options.seed is not None:
            self.engine.config.solver_options["random_seed"] = int(options.seed)

    def solve(self, time_limit: float | None = None) -> Outcome:
        from pyomo.contrib.solver.common.results import TerminationCondition as TC

        self.engine.config.time_limit = time_limit
        try:
            results = self.engine.solve(self.model)
        except Exception as exc:  # the engine's own failure becomes an error status
            return Outcome("error", message=f"HiGHS via Pyomo failed: {exc}")
        tc = results.termination_condition
        if tc == TC.convergenceCriteriaSatisfied:
            results.solution_loader.load_vars()
            values = [v.value or 0.0 for v in self.variables]
            return Outcome("feasible", self.form.ones_from_values(values))
        if tc in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
            return Outcome("infeasible")
        if tc == TC.maxTimeLimit:
            return Outcome("timeout", message="HiGHS via Pyomo reached the time limit")
        return Outcome("error", message=f"HiGHS via Pyomo ended with {tc.name}")

    def exclude(self, ones) -> None:
        self.model.nogood.add(nogood_vars_expr(self.variables,
                                               self.form.vars_of(frozenset(ones))))
        self.cuts += 1
