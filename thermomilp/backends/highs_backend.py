"""highspy direct: the model from numpy arrays, one Highs object reused for every cut.

Works on the cell model and on the compact one (``model.compact``): the
variable vector, its map back to cells and the no-good cut all go through
the formulation's ``n_vars`` / ``ones_from_values`` / ``vars_of``.
"""

from __future__ import annotations

import numpy as np

from thermomilp.backends.base import Outcome, Session
from thermomilp.core.settings import Settings
from thermomilp.model.formulation import Formulation
from thermomilp.model.highs_model import build_highs, build_highs_compact, nogood_row
from thermomilp.model.registry import Formulated, LevelFormulation

_SCHEDULER_THREADS: int | None = None

PROOF_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False}
"""HiGHS options of every solve after a no-good cut. Such a solve is most often a
proof that no other point exists (a unique board), and HiGHS's sub-MIP
heuristics (RINS, RENS: small MIPs around the LP point) look for a point that
is not there: on the hardest shipped 15x15 board they were half the proof's
time (docs/performance.md, "Against a CP-SAT solution counter"). Options a
HiGHS version does not know are refused by it with a status, never raised."""


def set_highs_threads(threads: int | None) -> None:
    """Make HiGHS's process-wide thread scheduler fit ``threads`` before a solve.

    HiGHS starts one scheduler per process on its first solve and then refuses
    (status "not set") any Highs whose ``threads`` option differs from it. A
    CLI run uses one setting, but a library user may switch, so the
    scheduler is reset whenever the requested count changes.
    """
    global _SCHEDULER_THREADS
    if threads is None or threads == _SCHEDULER_THREADS:
        return
    import highspy

    highspy.Highs.resetThreadScheduler(True)  # True: wait for the old workers to stop
    _SCHEDULER_THREADS = threads


class HighsSession(Session):
    backend = "highs"
    solver = "highs"

    def __init__(self, form: Formulated, options: Settings, solver: str = "highs"):
        super().__init__(form, options)
        import highspy

        self._hs = highspy
        # Any feasible point answers a feasibility model: stopping at the first
        # one (kSolutionLimit) is as good as optimal.
        self._found = (highspy.HighsModelStatus.kOptimal, highspy.HighsModelStatus.kSolutionLimit)
        if isinstance(form, LevelFormulation):
            from thermomilp.model.level_highs import build_highs_level

            self.h = build_highs_level(form, verbose=options.verbose)
        elif isinstance(form, Formulation):  # the cell formulation
            self.h = build_highs(form, names=False, verbose=options.verbose)
        else:  # compact
            self.h = build_highs_compact(form, names=False, verbose=options.verbose)
        self.n = form.n_vars
        h = self.h
        if options.threads is not None:
            h.setOptionValue("threads", int(options.threads))
        if options.seed is not None:
            h.setOptionValue("random_seed", int(options.seed))

    def solve(self, time_limit: float | None = None) -> Outcome:
        hs, h = self._hs, self.h
        h.setOptionValue("time_limit", float(time_limit) if time_limit else float("inf"))
        try:
            set_highs_threads(self.options.threads)
            h.run()
        except Exception as exc:  # noqa: BLE001 - an engine crash is an error status, not a traceback
            return Outcome("error", message=f"HiGHS failed: {type(exc).__name__}: {exc}")
        status = h.getModelStatus()
        if status == hs.HighsModelStatus.kSolveError:
            status = self._rerun_without_presolve()
        if status in self._found:
            values = np.asarray(h.getSolution().col_value)
            return Outcome("feasible", self.form.ones_from_values(values))
        if status == hs.HighsModelStatus.kInfeasible:
            return Outcome("infeasible")
        if status == hs.HighsModelStatus.kTimeLimit:
            return Outcome("timeout", message="HiGHS reached the time limit")
        return Outcome("error", message=f"HiGHS ended with status {h.modelStatusToString(status)}")

    def second_opinion(self, time_limit: float | None = None) -> Outcome:
        h, seed = self.h, self.options.seed or 0
        h.setOptionValue("presolve", "off")
        h.setOptionValue("random_seed", seed + 1)
        try:
            return self.solve(time_limit)
        finally:
            h.setOptionValue("presolve", "choose")
            h.setOptionValue("random_seed", seed)

    def _rerun_without_presolve(self):
        """HiGHS 1.16's MIP presolve can reduce a feasible board to an empty model
        whose postsolved point violates a bound, ending in "Solve error"
        (benchmarks/highs_solve_error_8x8.json). The same model solves cleanly
        with presolve off, so we retry once that way; whatever comes back still
        passes the independent checker in the solve layer."""
        h = self.h
        h.setOptionValue("presolve", "off")
        try:
            h.run()
        finally:
            h.setOptionValue("presolve", "choose")
        return h.getModelStatus()

    def exclude(self, ones, over=None) -> None:
        cols_over, on = self.cut_vars(ones, over)
        lower, cols, values = nogood_row(self.n, on, None if over is None else cols_over)
        self.h.addRow(lower, np.inf, cols.size, cols, values)
        self._cut_added()

    def exclude_by_moves(self, rises, falls) -> bool:
        if self.form.kind != "cell":  # cell k is variable k only in the cell formulation
            return False
        up = np.array(sorted(self.form.vars_of(frozenset(rises))), dtype=np.int32)
        down = np.array(sorted(self.form.vars_of(frozenset(falls))), dtype=np.int32)
        self.h.addRow(1.0, np.inf, up.size, up, np.ones(up.size))  # some x = 1
        self.h.addRow(1.0 - down.size, np.inf, down.size, down, -np.ones(down.size))  # some x = 0
        self._cut_added()
        return True

    def _cut_added(self) -> None:
        if not self.cuts:
            for name, value in PROOF_OPTIONS.items():
                self.h.setOptionValue(name, value)
        self.cuts += 1
