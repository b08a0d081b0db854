"""Pyomo: one ConcreteModel per puzzle, handed to the engine the user chose.

Two kinds of engine interface:

* persistent, the newer ``pyomo.contrib.solver`` one: ``highs`` (highspy)
  and ``scip`` (``ScipPersistent``, pyscipopt). The solver object keeps the
  model between solves, so a no-good cut is an incremental update rather
  than a rebuild;
* the classic ``SolverFactory`` shell interface: ``cbc`` (a ``cbc``
  executable: Debian's coinor-cbc, else the one PuLP brings) and ``glpk``
  (``glpsol``), always at an absolute path (Pyomo would look in the working
  folder first). Each solve writes the model to a file.

How the common options reach each engine (Pyomo's / the engine's names)::

    solver  time limit             threads          seed                            log
    highs   config.time_limit      config.threads   random_seed                     tee
    scip    config.time_limit      -                randomization/randomseedshift   tee
    cbc     sec                    threads          randomCbcSeed                   tee
    glpk    tmlim (whole seconds)  -                -                               tee
"""

from __future__ import annotations

import math
import time
from typing import Any

from thermomilp.backends.base import Outcome, Session, engine_log_to_stderr
from thermomilp.backends.highs_backend import set_highs_threads
from thermomilp.backends.pyomo_probe import quiet_pyomo
from thermomilp.core.errors import SolverUnavailable
from thermomilp.core.settings import Settings
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import hide_banner
from thermomilp.model.pyomo_model import build_pyomo, build_pyomo_compact, nogood_vars_expr
from thermomilp.model.registry import Formulated, LevelFormulation

ENGINE_NAMES = {"highs": "HiGHS", "scip": "SCIP", "cbc": "CBC", "glpk": "GLPK"}


class _Persistent:
    """A ``pyomo.contrib.solver`` engine: HiGHS or SCIP."""

    def __init__(self, solver: str, options: Settings):
        self.solver = solver
        if solver == "highs":
            from pyomo.contrib.solver.solvers.highs import Highs

            hide_banner(options.verbose)  # keep the HiGHS banner off stdout
            self.engine = Highs()
            seed_option = "random_seed"
            if options.threads is not None:
                self.engine.config.threads = options.threads
        else:
            from pyomo.contrib.solver.solvers.scip.scip_persistent import ScipPersistent

            self.engine = ScipPersistent()
            seed_option = "randomization/randomseedshift"
        config = self.engine.config
        config.load_solutions = False
        config.raise_exception_on_nonoptimal_result = False
        config.tee = bool(options.verbose)
        if options.seed is not None:
            config.solver_options[seed_option] = int(options.seed)

    def solve(self, model: Any, time_limit: float | None) -> tuple[str, bool, str]:
        from pyomo.contrib.solver.common.results import SolutionStatus
        from pyomo.contrib.solver.common.results import TerminationCondition as TC

        self.engine.config.time_limit = time_limit
        if self.solver == "highs":
            set_highs_threads(self.engine.config.threads)
        results = self.engine.solve(model)
        tc = results.termination_condition
        if self.solver == "highs" and tc == TC.error:
            # HiGHS's MIP presolve can end a feasible board in "Solve error"
            # (see HighsSession._rerun_without_presolve): retry once without it.
            self.engine.config.solver_options["presolve"] = "off"
            try:
                results = self.engine.solve(model)
            finally:
                del self.engine.config.solver_options["presolve"]
            tc = results.termination_condition
        has_solution = results.solution_status in (SolutionStatus.feasible,
                                                   SolutionStatus.optimal)
        if has_solution:
            results.solution_loader.load_vars()
        if tc == TC.convergenceCriteriaSatisfied:
            return "optimal", has_solution, tc.name
        if tc in (TC.provenInfeasible, TC.infeasibleOrUnbounded):
            return "infeasible", False, tc.name
        if tc == TC.maxTimeLimit:
            return "timeout", has_solution, tc.name
        return "other", has_solution, tc.name


class _Shell:
    """A classic ``SolverFactory`` engine: cbc, glpk, or a pass-through name."""

    def __init__(self, solver: str, options: Settings):
        import pyomo.environ as pyo

        self.solver, self.options = solver, options
        from thermomilp.backends.matrix import cbc_executable, glpk_executable

        # An absolute path, always: left to itself Pyomo looks in the working folder first.
        path = (cbc_executable if solver == "cbc" else glpk_executable)(options)
        if path is None:
            raise SolverUnavailable(f"no {solver} executable for Pyomo")
        with quiet_pyomo():
            self.engine = pyo.SolverFactory(solver, executable=path)
        if solver == "cbc":
            if options.threads is not None:
                self.engine.options["threads"] = int(options.threads)
            if options.seed is not None:
                self.engine.options["randomCbcSeed"] = int(options.seed)
        with quiet_pyomo():
            if not self.engine.available(exception_flag=False):
                raise SolverUnavailable(f"Pyomo cannot reach solver {solver!r}")

    def solve(self, model: Any, time_limit: float | None) -> tuple[str, bool, str]:
        from pyomo.opt import SolutionStatus
        from pyomo.opt import TerminationCondition as TC

        options: dict[str, Any] = {}
        if time_limit:
            if self.solver == "cbc":
                options["sec"] = time_limit
            elif self.solver == "glpk":
                options["tmlim"] = max(1, math.ceil(time_limit))  # whole seconds only
        kwargs: dict[str, Any] = {"tee": bool(self.options.verbose), "load_solutions": False}
        if options:
            kwargs["options"] = options
        elif time_limit:
            kwargs["timelimit"] = time_limit  # pass-through engines: Pyomo's generic name
        results = self.engine.solve(model, **kwargs)
        tc = results.solver.termination_condition
        has_solution = len(results.solution) > 0 and results.solution(0).status in (
            SolutionStatus.optimal, SolutionStatus.feasible)
        if has_solution:
            model.solutions.load_from(results)
        if tc in (TC.optimal, TC.feasible, TC.globallyOptimal, TC.locallyOptimal):
            return "optimal", has_solution, str(tc)
        if tc in (TC.infeasible, TC.infeasibleOrUnbounded, TC.noSolution) and not has_solution:
            return "infeasible", False, str(tc)
        if tc in (TC.maxTimeLimit, TC.maxIterations, TC.maxEvaluations):
            return "timeout", has_solution, str(tc)
        return "other", has_solution, str(tc)


class PyomoSession(Session):
    backend = "pyomo"

    def __init__(self, form: Formulated, options: Settings, solver: str = "highs"):
        super().__init__(form, options)
        self.solver = solver
        if isinstance(form, LevelFormulation):
            import pyomo.environ as pyo

            from thermomilp.model.level_pyomo import build_level_pyomo

            self.model = build_level_pyomo(form.puzzle)
            self.variables = [self.model.z[pair] for pair in form.pairs]
            self.model.fixed_cells = pyo.ConstraintList()
            for cell, value in sorted(form.fixed.items()):
                self.model.fixed_cells.add(self.model.x[cell] == value)
        elif isinstance(form, Formulation):  # the cell formulation
            self.model = build_pyomo(form)
            self.variables = [self.model.x[cell] for cell in form.cells]
        else:  # compact
            self.model = build_pyomo_compact(form)
            self.variables = [self.model.y[k] for k in range(form.n_vars)]
        import pyomo.environ as pyo

        if next(self.model.component_data_objects(pyo.Constraint, active=True), None) is None:
            # A board with no rule at all (one cell, no clue): HiGHS via Pyomo ends a
            # model without rows in "unknown", so give it one every 0/1 vector meets.
            self.model.no_rule = pyo.Constraint(expr=sum(self.variables) >= 0)
        self.engine_name = f"{ENGINE_NAMES.get(solver, solver)} via Pyomo"
        if solver in ("highs", "scip"):
            self.engine: _Persistent | _Shell = _Persistent(solver, options)
        else:
            self.engine = _Shell(solver, options)

    def second_opinion(self, time_limit: float | None = None) -> Outcome:
        if self.solver != "highs":
            return Outcome("infeasible")
        extra = self.engine.engine.config.solver_options
        extra["presolve"] = "off"
        extra["random_seed"] = (self.options.seed or 0) + 1
        try:
            return self.solve(time_limit)
        finally:
            del extra["presolve"]
            if self.options.seed is None:
                del extra["random_seed"]
            else:
                extra["random_seed"] = int(self.options.seed)

    def solve(self, time_limit: float | None = None) -> Outcome:
        for var in self.variables:
            if not var.fixed:
                var.set_value(None)  # a stale value must never pass for a new solution
        start = time.perf_counter()
        try:
            with engine_log_to_stderr(self.options.verbose):
                word, has_solution, said = self.engine.solve(self.model, time_limit)
        except Exception as exc:  # noqa: BLE001 - an engine crash is an error status, not a traceback
            return Outcome("error",
                           message=f"{self.engine_name} failed: {type(exc).__name__}: {exc}")
        elapsed = time.perf_counter() - start
        ran_out = time_limit is not None and 0 < time_limit <= elapsed / 0.9
        if word == "infeasible" and ran_out and isinstance(self.engine, _Shell):
            # a shell engine (CBC, GLPK) cut short by its clock may say "infeasible"
            # on a feasible board: at the time limit that is a timeout, not a proof
            return Outcome("timeout", message=f"{self.engine_name} reached the time limit "
                                              f"(said {said})")
        if word == "infeasible":
            return Outcome("infeasible")
        if word == "optimal" or (word == "timeout" and has_solution):
            values = self.complete_values([v.value for v in self.variables])
            if values is None:
                return Outcome("error", message=f"{self.engine_name} ended with {said} "
                                                "but returned no values")
            return Outcome("feasible", self.ones_from_values(values))
        # CBC stopped by its clock says "intermediateNonInteger": a stop after
        # (nearly) the whole time allowed is a timeout whatever the engine calls it.
        if word == "timeout" or ran_out:
            return Outcome("timeout", message=f"{self.engine_name} reached the time limit ({said})")
        return Outcome("error", message=f"{self.engine_name} ended with {said}")

    def exclude(self, ones, over=None) -> None:
        cols, on = self.cut_vars(ones, over)
        position = {k: n for n, k in enumerate(cols)}
        self.model.nogood.add(nogood_vars_expr([self.variables[k] for k in cols],
                                               {position[k] for k in on}))
        self.cuts += 1
