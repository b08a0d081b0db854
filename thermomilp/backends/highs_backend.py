"""highspy direct: the model from numpy arrays, one Highs object reused for every cut.

Works on every formulation: the registry builds the Highs object, the variable
vector is column k = variable k of the formulation, and the skeleton
([`Session`][thermomilp.backends.Session]) does the rest.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from thermomilp.backends.base import Raw, Session
from thermomilp.core.settings import Backend, EngineOptionValue
from thermomilp.core.status import Status
from thermomilp.model.registry import BuiltModel

_SCHEDULER_THREADS: int | None = None
_SCHEDULER_LOCK = threading.Lock()

PROOF_OPTIONS = {"mip_heuristic_run_rins": False, "mip_heuristic_run_rens": False}
"""HiGHS options of every solve after a no-good cut. Such a solve is most often a
proof that no other point exists (a unique board), and HiGHS's sub-MIP
heuristics (RINS, RENS: small MIPs around the LP point) look for a point that
is not there (docs/performance.md, item 5). Options a HiGHS version does not
know are refused by it with a status, never raised."""


def set_highs_threads(threads: int | None) -> None:
    """Make HiGHS's process-wide thread scheduler fit ``threads`` before a solve.

    HiGHS starts one scheduler per process on its first solve and then refuses
    (status "not set") any Highs whose ``threads`` option differs from it. A
    CLI run uses one setting, but a library user may switch, so the
    scheduler is reset whenever the requested count changes.
    """
    global _SCHEDULER_THREADS
    with _SCHEDULER_LOCK:
        if threads is None or threads == _SCHEDULER_THREADS:
            return
        import highspy

        highspy.Highs.resetThreadScheduler(True)  # True: wait for the old workers to stop
        _SCHEDULER_THREADS = threads


def read_highs(h: Any, columns: Any) -> Raw:
    """A HiGHS model status as a `Raw` outcome; values of ``columns`` when found."""
    import highspy

    S = highspy.HighsModelStatus
    status = h.getModelStatus()
    said = h.modelStatusToString(status)
    # Any feasible point answers a feasibility model: stopping at the first one
    # (kSolutionLimit) is as good as optimal.
    if status in (S.kOptimal, S.kSolutionLimit):
        values = h.getSolution().col_value
        return Raw(Status.FEASIBLE, [float(values[j]) for j in columns], said)
    if status == S.kInfeasible:
        return Raw(Status.INFEASIBLE, said=said)
    if status == S.kTimeLimit:
        return Raw(Status.TIMEOUT, said=said)
    return Raw(Status.ERROR, said=said, engine_error=status == S.kSolveError)


def run_highs(h: Any, time_limit: float | None, extra: dict[str, EngineOptionValue],
              columns: Any, threads: int | None) -> Raw:
    """Run ``h`` once with the native options ``extra`` set for this run only."""
    saved = {name: h.getOptionValue(name)[1] for name in extra}
    for name, value in extra.items():
        h.setOptionValue(name, value)
    h.setOptionValue("time_limit", float(time_limit) if time_limit else float("inf"))
    try:
        set_highs_threads(threads)
        h.run()
        return read_highs(h, columns)
    finally:
        for name, value in saved.items():
            h.setOptionValue(name, value)


class HighsSession(Session):
    backend = Backend.HIGHS
    layer = "highspy"

    def _build(self, built: BuiltModel) -> BuiltModel:
        for name, value in self.options.items():
            built.model.setOptionValue(name, value)
        return built

    def _has_rows(self) -> bool:
        return bool(self.built.model.getNumRow())

    def _add_row(self, cols: list[int], coefs: list[float], lower: float, name: str) -> None:
        index = np.array(cols, dtype=np.int32)
        self.built.model.addRow(lower, np.inf, index.size, index, np.array(coefs, dtype=float))

    def _run(self, time_limit: float | None, extra: dict[str, EngineOptionValue]) -> Raw:
        return run_highs(self.built.model, time_limit, extra, range(self.form.n_vars),
                         self.settings.threads)

    def _cut_added(self) -> None:
        if not self.cuts:
            for name, value in PROOF_OPTIONS.items():
                self.built.model.setOptionValue(name, value)
        super()._cut_added()
