"""PuLP: the model built once; each cut is one more named constraint.

Engines and how the common options reach them (PuLP's own argument names)::

    solver  PuLP class                 time limit     threads   seed                       log
    highs   HiGHS (in-process)         timeLimit      threads   random_seed                msg
    cbc     COIN_CMD (found binary)    timeLimit      threads   -randomCbcSeed N           msg
    glpk    GLPK_CMD                   timeLimit(*)   -         -                          msg
    scip    SCIP_PY (pyscipopt)        timeLimit      -         randomization/randomseedshift  msg

(*) glpsol takes whole seconds, so the limit is rounded up. GLPK and SCIP
solve on one thread and have no solver seed worth mapping; those options are
ignored for them. No other engine name reaches PuLP (the list is closed).

PuLP 3.x and 4.x differ in how a solve reports back: 3.x returns an int and
keeps ``prob.status``; 4.x returns an ``LpSolveStats`` whose ``status`` is an
``LpSolveStatus`` enum and drops ``prob.status``. ``read_status`` folds both
into one word. CBC is always ``COIN_CMD`` pointed at the binary
``matrix.cbc_executable`` found solving (PuLP 3's bundled one, the
``pulp[cbc]`` / cbcbox wheel, or a ``cbc`` on PATH).
"""

from __future__ import annotations

import math
import time
import warnings
from typing import Any

from thermomilp.backends.base import Outcome, Session, engine_log_to_stderr
from thermomilp.backends.highs_backend import set_highs_threads
from thermomilp.core.errors import SolverUnavailable
from thermomilp.core.settings import Settings
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import hide_banner
from thermomilp.model.pulp_model import add_nogood_vars, build_pulp, build_pulp_compact
from thermomilp.model.registry import Formulated, LevelFormulation

SolverOptions = Settings  # the old name, still imported by callers


def _cbc_solver(common: dict, options: SolverOptions) -> Any:
    """PuLP's COIN_CMD on the cbc binary the matrix probe found solving: Debian's,
    the cbcbox wheel's (``pulp[cbc]``) or the one PuLP 3 bundles -- the same
    binary the Pyomo backend runs, so both layers use one CBC."""
    import pulp

    from thermomilp.backends.matrix import cbc_executable

    path = cbc_executable(options)
    if path is None:
        raise SolverUnavailable("CBC is not reachable from PuLP")
    extra = []
    if options.seed is not None:
        extra.append(f"randomCbcSeed {int(options.seed)}")
    return pulp.COIN_CMD(path=path, **common, threads=options.threads, options=extra)


def pulp_solver(name: str, options: SolverOptions, time_limit: float | None) -> Any:
    """The PuLP solver object for ``name`` with the common options mapped."""
    import pulp

    common: dict[str, Any] = {"msg": bool(options.verbose)}
    if time_limit:
        common["timeLimit"] = time_limit
    if name == "highs":
        params = {} if options.seed is None else {"random_seed": int(options.seed)}
        return pulp.HiGHS(**common, threads=options.threads, **params)
    if name == "cbc":
        return _cbc_solver(common, options)
    if name == "glpk":
        from thermomilp.backends.matrix import glpk_executable

        if time_limit:
            common["timeLimit"] = max(1, math.ceil(time_limit))  # glpsol --tmlim: whole seconds
        path = glpk_executable(options)
        if path is None:
            raise SolverUnavailable("no glpsol in an absolute folder of PATH")
        return pulp.GLPK_CMD(path=path, **common)
    if name == "scip":
        extra = [] if options.seed is None else ["randomization/randomseedshift", int(options.seed)]
        return pulp.SCIP_PY(**common, options=extra)
    raise SolverUnavailable(f"PuLP is not wired to the solver {name!r}")


# What PuLP 3 ("Undefined") and PuLP 4 (LpSolveStatus.Undefined) call HiGHS's "Solve error"
SOLVE_ERROR = ("Undefined",)


def read_status(returned: Any, prob: Any) -> tuple[str, bool]:
    """(word, has_solution) from what ``prob.solve`` returned, on PuLP 3.x or 4.x.

    word is ``optimal``, ``infeasible``, ``timeout`` or the engine's own status name.
    """
    import pulp

    if hasattr(returned, "status") and hasattr(returned, "has_solution"):  # PuLP 4 LpSolveStats
        status = returned.status
        word = getattr(status, "name", str(status))
        has_solution = bool(returned.has_solution)
        mapping = {"Optimal": "optimal", "Infeasible": "infeasible", "TimeLimit": "timeout"}
        return mapping.get(word, word), has_solution
    code = getattr(prob, "status", returned)
    word = pulp.LpStatus.get(code, str(code))
    sol_status = getattr(prob, "sol_status", None)
    has_solution = sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible)
    if word == "Optimal":
        return "optimal", True
    if word == "Infeasible":
        return "infeasible", False
    return word, has_solution


class PulpSession(Session):
    backend = "pulp"

    def __init__(self, form: Formulated, options: Settings, solver: str = "highs"):
        super().__init__(form, options)
        self.solver = solver
        if isinstance(form, LevelFormulation):
            from thermomilp.model.level_pulp import build_level_pulp

            self.prob, z, x = build_level_pulp(form.puzzle)
            self.variables = [z[pair] for pair in form.pairs]
            for cell, value in sorted(form.fixed.items()):
                self.prob += x[cell] == value, f"fixed_{cell[0]}_{cell[1]}"
        elif isinstance(form, Formulation):  # the cell formulation
            self.prob, self.x = build_pulp(form)
            self.variables = [self.x[cell] for cell in form.cells]
        else:  # compact
            self.prob, self.x = build_pulp_compact(form)
            self.variables = [self.x[k] for k in range(form.n_vars)]
        if not self.prob.numConstraints():
            # A board with no rule at all (one cell, no clue): GLPK and others refuse a
            # model without rows, so give it one that holds for every 0/1 vector.
            import pulp

            self.prob += pulp.lpSum(self.variables) >= 0, "no_rule"
        if solver == "highs":
            hide_banner(options.verbose)  # PuLP's HiGHS would print the HiGHS banner on stdout
        pulp_solver(solver, options, None)  # fail now, not at the first solve

    def second_opinion(self, time_limit: float | None = None) -> Outcome:
        if self.solver != "highs":
            return Outcome("infeasible")
        return self.solve(time_limit, {"presolve": "off",
                                       "random_seed": (self.options.seed or 0) + 1})

    def solve(self, time_limit: float | None = None, engine_options: dict | None = None) -> Outcome:
        engine = f"{self.solver} via PuLP"
        if self._live is not None and not engine_options:
            return self._resolve(time_limit)
        try:
            solver = pulp_solver(self.solver, self.options, time_limit)
            if engine_options:
                solver.optionsDict.update(engine_options)
            if self.solver == "highs":
                set_highs_threads(self.options.threads)
            start = time.perf_counter()
            word, has_solution = self._run(solver)
            if self.solver == "highs" and word in SOLVE_ERROR and not engine_options:
                # HiGHS's MIP presolve can end a feasible board in "Solve error"
                # (PuLP 4 reports it; see HighsSession._rerun_without_presolve):
                # retry once without presolve, like the other sessions.
                solver.optionsDict["presolve"] = "off"
                word, has_solution = self._run(solver)
            elapsed = time.perf_counter() - start
        except Exception as exc:  # noqa: BLE001 - an engine crash is an error status, not a traceback
            return Outcome("error", message=f"{engine} failed: {type(exc).__name__}: {exc}")
        ran_out = time_limit is not None and 0 < time_limit <= elapsed / 0.9
        if word == "infeasible" and ran_out and self.solver != "highs":
            # CBC cut short by its clock (once seen under load, limit 0.05 s) can
            # end in "Infeasible" on a feasible board: a verdict that comes at
            # the time limit is a timeout, never a proof.
            return Outcome("timeout", message=f"{engine} reached the time limit (said {word})")
        if word == "infeasible":
            return Outcome("infeasible")
        # Any stop with a solution in hand is a solution to check: the model has no
        # objective, so CBC's "GapLimit" (the cbcbox build on PuLP 4), a node or time
        # limit all carry a feasible grid -- which the solve layer verifies like any other.
        if word == "optimal" or (has_solution and word != "infeasible"):
            values = self.complete_values([v.value() for v in self.variables])
            if values is None:
                return Outcome("error", message=f"{engine} returned no values")
            return Outcome("feasible", self.ones_from_values(values))
        # PuLP 3 reports a time limit as plain "Not Solved" (GLPK: "Undefined"):
        # count it as one only when the engine really ran that long, else it is
        # some other failure.
        if word == "timeout" or ran_out:
            return Outcome("timeout", message=f"{engine} reached the time limit ({word})")
        return Outcome("error", message=f"{engine} ended with status {word}")

    def _run(self, solver: Any) -> tuple[str, bool]:
        with engine_log_to_stderr(self.options.verbose), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            word, has_solution = read_status(self.prob.solve(solver), self.prob)
        if self.solver == "highs" and not self.cuts:
            self._adopt()
        return word, has_solution

    # -- the re-solve after a cut, on the HiGHS model PuLP already built -------------
    #
    # PuLP's HiGHS interface rebuilds the whole HiGHS model at every solve (it has no
    # resolve). After the first solve the session keeps that model, and each no-good
    # cut goes both into the PuLP problem (the model a reader sees) and, as one row,
    # into the live HiGHS model, which then re-solves where it stopped.

    _live: Any = None
    _cols: tuple[int, ...] = ()  # our variables' columns in _live

    def _adopt(self) -> None:
        """Keep PuLP's HiGHS model and map our variables to its columns, by name
        (PuLP 3 builds columns from ``variables()``, PuLP 4 from ``exported_variables()``)."""
        model = getattr(self.prob, "solverModel", None)
        if model is None:
            self._live = None
            return
        exported = getattr(self.prob, "exported_variables", None)
        if exported is None:  # PuLP 3 numbers each column in ``var.index`` as it builds
            cols = [getattr(v, "index", None) for v in self.variables]
            n_cols = len(getattr(self.prob, "_variables", ()))
        else:
            order = exported()
            column = {v.name: j for j, v in enumerate(order)}
            cols = [column.get(v.name) for v in self.variables]
            n_cols = len(order)
        found = tuple(j for j in cols if j is not None)
        if (len(found) != len(cols) or model.getNumCol() != n_cols
                or len(set(found)) != len(found) or not all(0 <= j < n_cols for j in found)):
            self._live = None
            return
        self._live, self._cols = model, found

    def _resolve(self, time_limit: float | None) -> Outcome:
        import highspy

        h = self._live
        try:
            h.setOptionValue("time_limit", float(time_limit) if time_limit else float("inf"))
            set_highs_threads(self.options.threads)
            with engine_log_to_stderr(self.options.verbose):
                h.run()
            status = h.getModelStatus()
        except Exception as exc:  # noqa: BLE001 - an engine crash is an error status
            return Outcome("error", message=f"HiGHS via PuLP failed: {type(exc).__name__}: {exc}")
        S = highspy.HighsModelStatus
        if status in (S.kOptimal, S.kSolutionLimit):
            values = h.getSolution().col_value
            return Outcome("feasible", self.ones_from_values([values[j] for j in self._cols]))
        if status == S.kInfeasible:
            return Outcome("infeasible")
        if status == S.kTimeLimit:
            return Outcome("timeout", message="highs via PuLP reached the time limit")
        return Outcome("error",
                       message=f"highs via PuLP ended with {h.modelStatusToString(status)}")

    def _cut_live(self, cols: list[int], on: set[int]) -> None:
        if self._live is None:
            return
        import numpy as np

        index = np.array([self._cols[k] for k in cols], dtype=np.int32)
        values = np.array([-1.0 if k in on else 1.0 for k in cols])
        self._live.addRow(1.0 - len(on), np.inf, index.size, index, values)

    def exclude(self, ones, over=None) -> None:
        cols, on = self.cut_vars(ones, over)
        position = {k: n for n, k in enumerate(cols)}
        add_nogood_vars(self.prob, [self.variables[k] for k in cols],
                        {position[k] for k in on}, f"nogood_{self.cuts}")
        self._cut_live(cols, on)
        self.cuts += 1
