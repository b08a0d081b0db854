"""PuLP: the model built once; each cut is one more named constraint.

Engines and how the common options reach them (PuLP's own argument names)::

    solver  PuLP class                 time limit     threads   seed                       log
    highs   HiGHS (in-process)         timeLimit      threads   random_seed                msg
    cbc     COIN_CMD (found binary)    timeLimit      threads   -randomCbcSeed N           msg
    glpk    GLPK_CMD                   timeLimit(*)   -         -                          msg
    scip    SCIP_PY (pyscipopt)        timeLimit      -         randomization/randomseedshift  msg

(*) glpsol takes whole seconds, so the limit is rounded up. GLPK and SCIP
solve on one thread and have no solver seed worth mapping; those options are
ignored for them. Any other name (``gurobi``, ``cplex``, ...) is passed to
the PuLP class of that name with the time limit and log switch only.

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

from thermomilp.backends.base import Outcome, Session, SolverOptions, engine_log_to_stderr
from thermomilp.backends.highs_backend import set_highs_threads
from thermomilp.errors import SolverUnavailable
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import new_highs
from thermomilp.model.pulp_model import add_nogood_vars, build_pulp, build_pulp_compact


def pulp_class_for(name: str) -> Any:
    """The PuLP solver class for a pass-through name, or None.

    ``gurobi`` -> GUROBI, ``cplex`` -> the first available of CPLEX_PY,
    CPLEX_CMD; an exact PuLP class name (``GUROBI_CMD``) works too.
    """
    import pulp

    wanted = name.upper()
    names = [n for n in pulp.listSolvers() if n.upper() == wanted]
    names += [n for n in pulp.listSolvers() if n.upper().startswith(wanted + "_")]
    for n in names:
        cls = getattr(pulp, n, None)
        if cls is None:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if cls(msg=False).available():
                    return cls
        except Exception:  # noqa: BLE001 - a broken interface is just "not this one"
            continue
    return None


def _cbc_solver(common: dict, options: SolverOptions) -> Any:
    """PuLP's COIN_CMD on the cbc binary the matrix probe found solving: Debian's,
    the cbcbox wheel's (``pulp[cbc]``) or the one PuLP 3 bundles -- the same
    binary the Pyomo backend runs, so both layers use one CBC."""
    import pulp

    from thermomilp.backends.matrix import cbc_executable

    path = cbc_executable()
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
        if time_limit:
            common["timeLimit"] = max(1, math.ceil(time_limit))  # glpsol --tmlim: whole seconds
        return pulp.GLPK_CMD(**common)
    if name == "scip":
        extra = [] if options.seed is None else ["randomization/randomseedshift", int(options.seed)]
        return pulp.SCIP_PY(**common, options=extra)
    cls = pulp_class_for(name)
    if cls is None:
        raise SolverUnavailable(f"PuLP has no available solver {name!r}")
    if time_limit and cls.__name__.startswith("GLPK"):
        common["timeLimit"] = max(1, math.ceil(time_limit))
    return cls(**common)


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

    def __init__(self, form: Formulation, options: SolverOptions, solver: str = "highs"):
        super().__init__(form, options)
        self.solver = solver
        if form.kind == "compact":
            self.prob, self.x = build_pulp_compact(form)
            self.variables = [self.x[k] for k in range(form.n_vars)]
        else:
            self.prob, self.x = build_pulp(form)
            self.variables = [self.x[cell] for cell in form.cells]
        if solver == "highs":
            new_highs(options.verbose)  # PuLP's HiGHS would print the HiGHS banner on stdout
        pulp_solver(solver, options, None)  # fail now, not at the first solve

    def second_opinion(self, time_limit: float | None = None) -> Outcome:
        if self.solver != "highs":
            return Outcome("infeasible")
        return self.solve(time_limit, {"presolve": "off",
                                       "random_seed": (self.options.seed or 0) + 1})

    def solve(self, time_limit: float | None = None, engine_options: dict | None = None) -> Outcome:
        engine = f"{self.solver} via PuLP"
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
        ran_out = bool(time_limit) and elapsed >= 0.9 * time_limit
        if word == "infeasible" and ran_out and self.solver != "highs":
            # CBC cut short by its clock (once seen under load, limit 0.05 s) can
            # end in "Infeasible" on a feasible board: a verdict that comes at
            # the time limit is a timeout, never a proof.
            return Outcome("timeout", message=f"{engine} reached the time limit (said {word})")
        if word == "infeasible":
            return Outcome("infeasible")
        if word == "optimal" or (has_solution and word == "timeout"):
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
            return read_status(self.prob.solve(solver), self.prob)

    def exclude(self, ones) -> None:
        add_nogood_vars(self.prob, self.variables, self.form.vars_of(frozenset(ones)),
                        f"nogood_{self.cuts}")
        self.cuts += 1
