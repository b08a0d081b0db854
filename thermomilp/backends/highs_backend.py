"""highspy direct: the model from numpy arrays, one Highs object reused for every cut.

Works on the cell model and on the compact one (``model.compact``): the
variable vector, its map back to cells and the no-good cut all go through
the formulation's ``n_vars`` / ``ones_from_values`` / ``vars_of``.
"""

from __future__ import annotations

import numpy as np

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import build_highs, build_highs_compact


class HighsSession(Session):
    backend = "highs"
    solver = "highs"

    def __init__(self, form: Formulation, options: SolverOptions):
        super().__init__(form, options)
        import highspy

        self._hs = highspy
        build = build_highs_compact if form.kind == "compact" else build_highs
        self.h = build(form, names=False, verbose=options.verbose)
        self.n = form.n_vars
        h = self.h
        if options.threads is not None:
            h.setOptionValue("threads", int(options.threads))
        if options.seed is not None:
            h.setOptionValue("random_seed", int(options.seed))

    def solve(self, time_limit: float | None = None) -> Outcome:
        hs, h = self._hs, self.h
        h.setOptionValue("time_limit", float(time_limit) if time_limit else float("inf"))
        h.run()
        status = h.getModelStatus()
        if status == hs.HighsModelStatus.kOptimal:
            values = np.asarray(h.getSolution().col_value)
            return Outcome("feasible", self.form.ones_from_values(values))
        if status == hs.HighsModelStatus.kInfeasible:
            return Outcome("infeasible")
        if status == hs.HighsModelStatus.kTimeLimit:
            return Outcome("timeout", message="HiGHS reached the time limit")
        return Outcome("error", message=f"HiGHS ended with status {h.modelStatusToString(status)}")

    def exclude(self, ones) -> None:
        on = self.form.vars_of(frozenset(ones))
        values = np.ones(self.n)
        idx = np.fromiter(on, dtype=np.int64, count=len(on))
        values[idx] = -1.0
        self.h.addRow(1.0 - len(on), np.inf, self.n, np.arange(self.n, dtype=np.int32), values)
        self.cuts += 1
