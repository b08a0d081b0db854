"""PuLP: the model built once; each cut is one more named constraint.

`REACH` says how PuLP reaches each engine -- HiGHS in-process, CBC (``COIN_CMD``)
and GLPK (``GLPK_CMD``) as programs at the absolute path `matrix.program_path`
found solving, SCIP through pyscipopt (``SCIP_PY``) -- with the time limit, the log
switch and the native options in that class's own form. `read_status` folds what
PuLP 3.x and 4.x report after a solve into one word.
"""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Callable
from typing import Any

from thermomilp.backends.base import Options, Raw, Session, values_or_none
from thermomilp.backends.highs_backend import run_highs, set_highs_threads
from thermomilp.backends.matrix import require_program
from thermomilp.core.settings import Backend, Settings, Solver
from thermomilp.core.status import Status
from thermomilp.model.highs_model import hide_banner
from thermomilp.model.registry import BuiltModel


def _highs(settings: Settings, common: dict[str, Any], options: Options) -> Any:
    import pulp

    hide_banner(settings.verbose)  # PuLP's HiGHS would print the HiGHS banner on stdout
    set_highs_threads(settings.threads)
    return pulp.HiGHS(**common, **options)


def _cbc(settings: Settings, common: dict[str, Any], options: Options) -> Any:
    import pulp

    path = require_program(settings, "CBC is not reachable from PuLP")
    words = [f"{name} {('on' if value else 'off') if isinstance(value, bool) else value}"
             for name, value in options.items()]
    return pulp.COIN_CMD(path=path, **common, options=words)


def _glpk(settings: Settings, common: dict[str, Any], options: Options) -> Any:
    import pulp

    path = require_program(settings, "no glpsol in an absolute folder of PATH")
    words: list[str] = []
    for name, value in options.items():
        if value is True:
            words.append(f"--{name}")  # a switch
        elif value is not False:
            words += [f"--{name}", str(value)]
    return pulp.GLPK_CMD(path=path, **common, options=words)


def _scip(settings: Settings, common: dict[str, Any], options: Options) -> Any:
    import pulp

    pairs: list[Any] = [item for pair in options.items() for item in pair]
    return pulp.SCIP_PY(**common, options=pairs)


REACH: dict[Solver, Callable[[Settings, dict[str, Any], Options], Any]] = {
    Solver.HIGHS: _highs, Solver.CBC: _cbc, Solver.GLPK: _glpk, Solver.SCIP: _scip}
"""How PuLP reaches each engine, with the time limit, the log switch and native options."""


def pulp_solver(settings: Settings, time_limit: float | None, options: Options | None = None
                ) -> Any:
    """The PuLP solver object for the settings' engine."""
    common: dict[str, Any] = {"msg": bool(settings.verbose)}
    if time_limit:
        common["timeLimit"] = time_limit
    return REACH[settings.solver](settings, common, dict(options or {}))


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
    settled = {"Optimal": ("optimal", True), "Infeasible": ("infeasible", False)}
    return settled.get(word, (word, has_solution))


class PulpSession(Session):
    backend = Backend.PULP
    layer = "PuLP"

    _live: Any = None
    _cols: tuple[int, ...] = ()  # our variables' columns in _live

    def _build(self, built: BuiltModel) -> BuiltModel:
        self.prob, self.variables = built.model, built.variables
        pulp_solver(self.settings, None, self.options)  # fail now, not at the first solve
        return built

    def _has_rows(self) -> bool:
        return bool(self.prob.numConstraints())

    def _add_row(self, cols: list[int], coefs: list[float], lower: float, name: str) -> None:
        from thermomilp.model.pulp_model import GE, add_row

        add_row(self.prob, [(self.variables[k], c) for k, c in zip(cols, coefs, strict=True)],
                GE, lower, name)
        if self._live is not None:
            import numpy as np

            index = np.array([self._cols[k] for k in cols], dtype=np.int32)
            self._live.addRow(lower, np.inf, index.size, index, np.array(coefs, dtype=float))

    def _run(self, time_limit: float | None, extra: Options) -> Raw:
        if self._live is not None and not extra:
            return run_highs(self._live, time_limit, {}, self._cols, self.settings.threads)
        solver = pulp_solver(self.settings, time_limit, {**self.options, **extra})
        # A command-line engine's files (model, solution, glpsol's report, which PuLP
        # leaves behind) go to a folder of this run, removed with all it holds when the
        # run ends, interrupted or not.
        with (tempfile.TemporaryDirectory(prefix="thermomilp-run-") as folder,
              warnings.catch_warnings()):
            warnings.simplefilter("ignore")
            if hasattr(solver, "tmpDir"):
                solver.tmpDir = folder
            word, has_solution = read_status(self.prob.solve(solver), self.prob)
        if not extra:
            self._adopt()
        if word == "infeasible":
            return Raw(Status.INFEASIBLE, said=word)
        # Any stop with a solution in hand is a solution to check: the model has no
        # objective, so CBC's "GapLimit" (the cbcbox build on PuLP 4), a node or time
        # limit all carry a feasible grid -- which the solve layer verifies like any other.
        if word == "optimal" or has_solution:
            return Raw(Status.FEASIBLE, values_or_none([v.value() for v in self.variables]), word)
        if word == "timeout":
            return Raw(Status.TIMEOUT, said=word)
        # "Undefined": what PuLP 3 and PuLP 4 (LpSolveStatus.Undefined) call HiGHS's "Solve error"
        return Raw(Status.ERROR, said=word, engine_error=word == "Undefined")

    # -- the re-solve after a cut, on the HiGHS model PuLP already built -------------
    #
    # PuLP's HiGHS interface rebuilds the whole HiGHS model at every solve (it has no
    # resolve). After a solve the session keeps that model, and each no-good cut goes
    # both into the PuLP problem (the model a reader sees) and, as one row, into the
    # live HiGHS model, which then re-solves where it stopped.

    def _adopt(self) -> None:
        """Keep PuLP's HiGHS model and map our variables to its columns, by name
        (PuLP 3 builds columns from ``variables()``, PuLP 4 from ``exported_variables()``)."""
        import highspy

        model = getattr(self.prob, "solverModel", None)
        self._live = None
        if not isinstance(model, highspy.Highs):  # only an in-process HiGHS re-solves
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
            return
        self._live, self._cols = model, found


__all__ = ["PulpSession", "REACH", "pulp_solver", "read_status"]
