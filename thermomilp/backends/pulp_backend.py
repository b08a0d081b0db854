"""PuLP: the model built once; each cut is one more named constraint."""

from __future__ import annotations

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.errors import SolverUnavailable
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import new_highs
from thermomilp.model.pulp_model import add_nogood_vars, build_pulp, build_pulp_compact


def pulp_solver(name: str, options: SolverOptions, time_limit: float | None):
    """The PuLP solver object for ``name`` with the common options mapped."""
    import pulp

    msg = bool(options.verbose)
    common = {"msg": msg}
    if time_limit:
        common["timeLimit"] = time_limit
    if name == "highs":
        solver = pulp.HiGHS(**common, threads=options.threads)
        if options.seed is not None:
            solver.optionsDict["random_seed"] = int(options.seed)
        return solver
    raise SolverUnavailable(f"solver {name!r} is not wired to the pulp backend")


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
            new_highs()  # PuLP's HiGHS would print the HiGHS banner on stdout

    def solve(self, time_limit: float | None = None) -> Outcome:
        import pulp

        solver = pulp_solver(self.solver, self.options, time_limit)
        try:
            self.prob.solve(solver)
        except pulp.PulpSolverError as exc:
            return Outcome("error", message=f"{self.solver} via PuLP failed: {exc}")
        status = pulp.LpStatus.get(self.prob.status, str(self.prob.status))
        if status == "Optimal":
            values = [v.value() for v in self.variables]
            if any(v is None for v in values):
                return Outcome("error", message="the solver returned no values")
            return Outcome("feasible", self.form.ones_from_values(values))
        if status == "Infeasible":
            return Outcome("infeasible")
        if status == "Not Solved" and time_limit:
            return Outcome("timeout", message=f"{self.solver} reached the time limit")
        return Outcome("error", message=f"{self.solver} via PuLP ended with status {status}")

    def exclude(self, ones) -> None:
        add_nogood_vars(self.prob, self.variables, self.form.vars_of(frozenset(ones)),
                        f"nogood_{self.cuts}")
        self.cuts += 1
