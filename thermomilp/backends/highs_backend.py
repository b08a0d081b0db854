"""highspy direct: the model from numpy arrays, one Highs object reused for every cut."""

from __future__ import annotations

import numpy as np

from thermomilp.backends.base import Outcome, Session, SolverOptions
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import build_highs


class HighsSession(Session):
    backend = "highs"
    solver = "highs"

    def __init__(self, form: Formulation, options: SolverOptions):
        super().__init__(form, options)
        import highspy

        self._hs = highspy
        # Any feasible point answers a feasibility model: stopping at the first
        # one (kSolutionLimit) is as good as optimal.
        self._found = (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kSolutionLimit)
        self.h = build_highs(form, names=False, verbose=options.verbose)
        self.n = form.height * form.width
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
        if status in self._found:
            values = np.asarray(h.getSolution().col_value)
            return Outcome("feasible", self.ones_from_values(values))
        if status == hs.HighsModelStatus.kInfeasible:
            return Outcome("infeasible")
        if status == hs.HighsModelStatus.kTimeLimit:
            return Outcome("timeout", message="HiGHS reached the time limit")
        return Outcome("error", message=f"HiGHS ended with status {h.modelStatusToString(status)}")

    def exclude(self, ones) -> None:
        W = self.form.width
        values = np.ones(self.n)
        idx = np.fromiter((r * W + c for r, c in ones), dtype=np.int64, count=len(ones))
        values[idx] = -1.0
        self.h.addRow(1.0 - len(ones), np.inf, self.n, np.arange(self.n, dtype=np.int32), values)
        self.cuts += 1
