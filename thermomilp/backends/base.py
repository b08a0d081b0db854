"""The session skeleton: every engine quirk in one place, every layer a translation.

A [`Session`][thermomilp.backends.Session] holds one built model of any formulation
(`thermomilp.model.registry.Formulated`). ``solve`` finds any solution or
proves there is none; ``exclude`` adds the canonical no-good cut of a found
solution (over every cell, or over a subset of them) so the next ``solve``
must find a different one. Sessions are opened, verified and second-guessed
only by the solve layer's facade (`thermomilp.solving.engine`).

The base class owns everything that is not the modelling layer's business (the
time limit of each call from the board's [`Deadline`][thermomilp.core.deadline.Deadline],
native options, the presolve-off retry, the second opinion, "infeasible" at the
limit read as a timeout, the row of an empty model, reading values back:
docs/backends.md, "One session skeleton"). A layer's session only builds its model
(through the registry), adds rows, and runs its engine once: `Session._run`
returns a `Raw` outcome.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from thermomilp.backends.engines import native_options
from thermomilp.core.deadline import Deadline
from thermomilp.core.engines import ENGINES
from thermomilp.core.puzzle import Cell, Grid, grid_from_ones
from thermomilp.core.settings import Backend, EngineOptionValue, Settings
from thermomilp.core.status import Status
from thermomilp.model.registry import BuildOptions, BuiltModel, Formulated, build, kind_info

Options = dict[str, EngineOptionValue]
"""Native engine options by the engine's own names."""

NEAR_LIMIT = 0.9
"""A call that ran this share of its time limit met it (engines stop a little early): its
"infeasible" is a timeout, never a proof (docs/solvers.md)."""


@dataclass(frozen=True)
class Outcome:
    """One solve: a status (``Status.FEASIBLE``, ``INFEASIBLE``, ``TIMEOUT``,
    ``ERROR``), the grid when feasible (the one form of a candidate from here to the
    result), the engine's words."""

    status: Status
    grid: Grid | None = None
    message: str = ""


@dataclass(frozen=True)
class Raw:
    """What one engine run said, in the layer's terms translated once.

    ``status``: ``FEASIBLE`` when the engine has a point (any stop with one in
    hand: the model has no objective), ``INFEASIBLE``, ``TIMEOUT`` (the engine
    says its clock stopped it) or ``ERROR``; ``values`` the variables' values in
    the formulation's order (None where the layer has none); ``said`` the
    engine's own word; ``engine_error``: the engine ended in its own error state
    (not a crash), which a presolve-off run may cure."""

    status: Status
    values: Sequence[float | None] | None = None
    said: str = ""
    engine_error: bool = False


class Session(ABC):
    """One model on one engine. Subclasses set `backend` and implement
    `_run` and `_add_row`."""

    backend: ClassVar[Backend]
    layer: ClassVar[str] = ""  # the layer's own name in messages: "PuLP", "Pyomo", "highspy"

    def __init__(self, form: Formulated, settings: Settings, deadline: Deadline | None = None):
        self.form = form
        self.settings = settings  # engine, threads, seed, log, native options, program path
        self.deadline = deadline if deadline is not None else Deadline(settings.time_limit)
        self.solver = settings.solver
        self.traits = ENGINES[settings.solver]
        self.engine_name = f"{self.traits.label} via {self.layer or self.backend}"
        self.kind = kind_info(form)
        self.cuts = 0
        self.options = native_options(settings)  # every run's; a run may add its own on top
        self.built = self._build(build(form, self.backend, BuildOptions(
            names=False, verbose=settings.verbose)))
        if not self._has_rows():
            # A board with no rule at all (one cell, no clue): GLPK refuses a model without
            # rows, HiGHS via Pyomo ends it in "unknown"; one row every 0/1 vector meets.
            n = form.n_vars
            self._add_row(list(range(n)), [1.0] * n, 0.0, "no_rule")

    # -- what a layer implements -------------------------------------------------

    def _build(self, built: BuiltModel) -> BuiltModel:
        """Take the model the registry built (a layer may wrap or adopt it)."""
        return built

    @abstractmethod
    def _has_rows(self) -> bool:
        """Whether the built model has at least one constraint."""

    @abstractmethod
    def _add_row(self, cols: list[int], coefs: list[float], lower: float, name: str) -> None:
        """Add ``sum coefs[i] * var[cols[i]] >= lower`` (variables in formulation order)."""

    @abstractmethod
    def _run(self, time_limit: float | None, extra: Options) -> Raw:
        """Run the engine once with ``time_limit`` seconds (None: no limit), the native
        options `options` and, for this run only, ``extra`` on top of them; an
        exception is an engine crash."""

    # -- the skeleton ----------------------------------------------------------------

    def time_limit(self) -> float | None:
        """What is left of the deadline, in whole seconds for an engine that takes only those."""
        left = self.deadline.remaining()
        if left is None:
            return None
        left = max(left, 0.01)
        return max(1, math.ceil(left)) if self.traits.whole_seconds else left

    def _call(self, extra: Options) -> tuple[Raw, float | None, float]:
        limit = self.time_limit()
        start = time.perf_counter()
        try:  # an engine's log (--verbose) never reaches stdout, where --format json goes
            with engine_log_to_stderr(self.settings.verbose):
                raw = self._run(limit, extra)
        except Exception as exc:  # noqa: BLE001 - an engine crash is an error status, not a traceback
            return Raw(Status.ERROR, said=f"failed: {type(exc).__name__}: {exc}"), limit, 0.0
        return raw, limit, time.perf_counter() - start

    def solve(self) -> Outcome:
        """Find a solution of the model with every cut so far (or prove none)."""
        raw, limit, elapsed = self._call({})
        if raw.engine_error and self.traits.presolve_off:
            raw, limit, more = self._call(dict(self.traits.presolve_off))
            elapsed += more
        return self._judge(raw, limit, elapsed)

    def second_opinion(self) -> Outcome:
        """Solve again in a different configuration of the same engine (presolve off,
        another random seed) when the engine is known to say "infeasible" wrongly;
        otherwise its first verdict stands. The solve layer asks for it whenever an
        engine says "infeasible" and the logic cannot confirm it; a feasible answer
        then goes through the checker like any other."""
        if not self.traits.second_opinion:
            return Outcome(Status.INFEASIBLE)
        extra = dict(self.traits.presolve_off)
        if self.traits.seed_option:
            extra[self.traits.seed_option] = (self.settings.seed or 0) + 1
        raw, limit, elapsed = self._call(extra)
        return self._judge(raw, limit, elapsed)

    def _judge(self, raw: Raw, limit: float | None, elapsed: float) -> Outcome:
        who = self.engine_name
        ran_out = limit is not None and 0 < limit <= elapsed / NEAR_LIMIT
        if raw.status is Status.FEASIBLE:
            values = self.complete_values(list(raw.values or ()))
            if values is None or len(values) != self.form.n_vars:
                return Outcome(Status.ERROR, message=f"{who} ended with {raw.said or 'a point'} "
                                                     "but returned no values")
            return Outcome(Status.FEASIBLE, grid_from_ones(self.form.height, self.form.width,
                                                           self.form.ones_from_values(values)))
        if raw.status is Status.INFEASIBLE:
            if ran_out:  # a verdict that comes at the time limit is a timeout, never a proof
                return Outcome(Status.TIMEOUT,
                               message=f"{who} reached the time limit (said {raw.said})")
            return Outcome(Status.INFEASIBLE)
        if raw.status is Status.TIMEOUT or ran_out:
            # PuLP 3 reports a time limit as "Not Solved", CBC via Pyomo as
            # "intermediateNonInteger": a stop after (nearly) the whole time is a timeout
            return Outcome(Status.TIMEOUT,
                           message=f"{who} reached the time limit ({raw.said or 'time limit'})")
        return Outcome(Status.ERROR, message=f"{who} {raw.said}" if raw.said.startswith("failed")
                       else f"{who} ended with status {raw.said}")

    # -- cuts --------------------------------------------------------------------------

    def exclude(self, ones: frozenset[Cell], over: frozenset[Cell] | None = None) -> None:
        """Add sum_{x*=1} (1 - x) + sum_{x*=0} x >= 1 for the solution ``ones``;
        with ``over``, the sums run over the variables of those cells only (every
        solution that agrees with ``ones`` on ``over`` is cut off)."""
        cols = (list(range(self.form.n_vars)) if over is None
                else self.kind.cut_columns(self.form, frozenset(over)))
        on = self.form.vars_of(frozenset(ones)) & set(cols)
        coefs = [-1.0 if k in on else 1.0 for k in cols]
        self._add_row(cols, coefs, 1.0 - len(on), f"nogood_{self.cuts}")
        self._cut_added()

    def _cut_added(self) -> None:
        self.cuts += 1

    # -- values ----------------------------------------------------------------------

    def complete_values(self, values: list[float | None]) -> list[float] | None:
        """The values of the model's variables (in ``form`` order) with the gaps of
        unconstrained variables filled; None if any other value is missing.

        A variable in no constraint (a one-cell thermometer in two unclued
        lines) may never reach the engine, so a layer may read back no value
        for it; any value in its bounds is right, and its lower bound is one.
        A gap anywhere else is an engine failure.
        """
        if None not in values:
            return values  # type: ignore[return-value]  # no gap: every value is a number
        free = self.kind.free(self.form)
        filled: list[float] = []
        for k, value in enumerate(values):
            if value is None:
                if k not in free:
                    return None
                value = float(self.kind.fixed_value(self.form, k))
            filled.append(float(value))
        return filled

    def close(self) -> None:  # noqa: B027 - a default no-op: only some sessions hold an engine
        """Release the engine (optional)."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def values_or_none(values: Sequence[Any]) -> list[float | None]:
    """Plain floats, None where a layer gave none."""
    return [None if v is None else float(v) for v in values]


class _LogToStderr:
    """The process's one redirect of stdout to stderr, held while any engine run that
    logs is under way: the first run to enter points file descriptor 1 and
    ``sys.stdout`` at stderr, the last to leave puts both back. Counted under a lock,
    because runs on two threads overlap (the server's workers): two redirects each
    saving and restoring on its own would leave stdout pointing at stderr for good."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.holders = 0
        self.saved_fd = -1
        self.saved_stdout: Any = None

    def enter(self) -> None:
        with self.lock:
            if self.holders == 0:
                sys.stdout.flush()
                self.saved_fd = os.dup(1)
                os.dup2(2, 1)
                self.saved_stdout, sys.stdout = sys.stdout, sys.stderr
            self.holders += 1

    def leave(self) -> None:
        with self.lock:
            self.holders -= 1
            if self.holders == 0:
                sys.stdout.flush()
                sys.stdout = self.saved_stdout
                os.dup2(self.saved_fd, 1)
                os.close(self.saved_fd)


_LOG_TO_STDERR = _LogToStderr()


@contextlib.contextmanager
def engine_log_to_stderr(active: bool) -> Iterator[None]:
    """While ``active``, file descriptor 1 and ``sys.stdout`` point at stderr.

    Engines that log (``--verbose``) write to stdout -- command-line solvers
    through inherited descriptors, Python ones through ``sys.stdout`` -- which
    would mix their log into ``--format json`` output. Redirecting the
    descriptor catches both. The skeleton (`Session`) holds it around every
    engine run, so no layer has to remember it; runs on several threads share one
    redirect (`_LogToStderr`).
    """
    if not active:
        yield
        return
    _LOG_TO_STDERR.enter()
    try:
        yield
    finally:
        _LOG_TO_STDERR.leave()


__all__ = ["NEAR_LIMIT", "Options", "Outcome", "Raw", "Session", "engine_log_to_stderr",
           "values_or_none"]
