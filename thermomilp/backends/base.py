"""What every (modelling layer, solver) pair offers the solve layer.

A :class:`Session` holds one built model of any formulation
(:class:`thermomilp.model.registry.Formulated`). ``solve`` finds any
solution or proves there is none; ``exclude`` adds the canonical no-good cut
of a found solution (over every cell, or over a subset of them) so the next
``solve`` must find a different one. Sessions are opened, verified and
second-guessed only by the solve layer's facade (:mod:`thermomilp.solve.engine`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterator, Literal

from thermomilp.core.puzzle import Cell
from thermomilp.core.settings import Settings
from thermomilp.model.registry import Formulated

OutcomeStatus = Literal["feasible", "infeasible", "timeout", "error"]

SolverOptions = Settings
"""The old name of the engine options: one :class:`~thermomilp.core.settings.Settings` now
(``SolverOptions(time_limit=5, threads=2)`` keeps working and is honoured)."""


@dataclass(frozen=True)
class Outcome:
    """One solve: a status, the filled cells when feasible, the engine's words."""

    status: OutcomeStatus
    ones: frozenset[Cell] | None = None
    message: str = ""


class Session(ABC):
    backend: str = ""
    solver: str = ""

    def __init__(self, form: Formulated, options: Settings):
        self.form = form
        self.options = options  # the Settings: threads, seed, verbose are read from here
        self.cuts = 0

    @abstractmethod
    def solve(self, time_limit: float | None = None) -> Outcome:
        """Find a solution of the model with every cut so far (or prove none)."""

    @abstractmethod
    def exclude(self, ones: frozenset[Cell], over: frozenset[Cell] | None = None) -> None:
        """Add sum_{x*=1} (1 - x) + sum_{x*=0} x >= 1 for the solution ``ones``;
        with ``over``, the sums run over the variables of those cells only (every
        solution that agrees with ``ones`` on ``over`` is cut off)."""

    def exclude_by_moves(self, rises: frozenset[Cell], falls: frozenset[Cell]) -> bool:
        """Cut off a solution by two rows instead of the no-good: some cell of
        ``rises`` is 1, some cell of ``falls`` is 0 (the caller,
        :meth:`thermomilp.solve.engine.Engine.exclude`, knows that among the solutions
        these remove exactly the one the no-good would: :func:`thermomilp.solve.swap.rival_moves`).
        False when the session does not offer them; the caller then writes the no-good."""
        return False

    def cut_vars(self, ones: frozenset[Cell],
                 over: frozenset[Cell] | None) -> tuple[list[int], set[int]]:
        """(the variables the cut runs over, those of them that ``ones`` switches on)."""
        on = self.form.vars_of(frozenset(ones))
        if over is None:
            return list(range(self.form.n_vars)), on
        if self.form.kind == "level":
            from thermomilp.core.errors import ConfigError

            raise ConfigError("a cut over a subset of cells needs the cell or compact formulation")
        layers = getattr(self.form, "layers", None)
        if layers is None:  # cell formulation: variable k is cell k
            cols = sorted(self.form.vars_of(frozenset(over)))
        else:
            cols = [k for k, layer in enumerate(layers) if any(c in over for c in layer)]
        return cols, on & set(cols)

    def second_opinion(self, time_limit: float | None = None) -> Outcome:
        """Solve again in a different configuration of the same engine.

        The solve layer asks for it whenever an engine says "infeasible" --
        the one verdict the checker cannot verify. HiGHS 1.16 has been caught
        calling a feasible board infeasible
        (benchmarks/highs_wrong_infeasible_15x15.txt), so its sessions re-solve
        with presolve off and another random seed; a feasible answer then
        goes through the checker like any other. Engines with no known fault
        of this kind keep their first verdict.
        """
        return Outcome("infeasible")

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
        free = unconstrained_vars(self.form)
        filled: list[float] = []
        for k, value in enumerate(values):
            if value is None:
                if k not in free:
                    return None
                value = float(fixed_value(self.form, k))
            filled.append(float(value))
        return filled

    def ones_from_values(self, values) -> frozenset[Cell]:
        """Filled cells from the variable values (cell or compact formulation)."""
        return self.form.ones_from_values(values)

    def close(self) -> None:  # noqa: B027 - a default no-op: only some sessions hold an engine
        """Release the engine (optional)."""


def unconstrained_cells(form: Any) -> frozenset[Cell]:
    """Cells that appear in no row, column, arc or tie constraint (before any cut)."""
    touched = {cell for pair in form.arcs + form.ties for cell in pair}
    touched.update(cell for cell in form.cells
                   if cell[0] in form.row_clues or cell[1] in form.col_clues)
    return frozenset(form.cells) - touched


def unconstrained_vars(form: Any) -> frozenset[int]:
    """Indices of the variables in no constraint, for any formulation."""
    if getattr(form, "kind", "cell") == "level":
        return frozenset()  # every z is in its vessel's (L1) row
    if getattr(form, "kind", "cell") == "compact":
        touched = {k for chain in form.chains for k in chain}
        for terms in (*form.row_terms.values(), *form.col_terms.values()):
            touched.update(k for k, _ in terms)
        return frozenset(range(form.n_vars)) - touched
    return frozenset(form.index(cell) for cell in unconstrained_cells(form))


def fixed_value(form: Any, k: int) -> int:
    """The presolve value of variable ``k`` (0 when it is not fixed)."""
    if getattr(form, "kind", "cell") == "compact":
        return form.fixed.get(k, 0)
    return form.fixed.get(divmod(k, form.width), 0)


@contextlib.contextmanager
def engine_log_to_stderr(active: bool) -> Iterator[None]:
    """While ``active``, file descriptor 1 points at stderr.

    Engines that log (``--verbose``) write to stdout -- command-line solvers
    through inherited descriptors, Python ones through ``sys.stdout`` -- which
    would mix their log into ``--format json`` output. Redirecting the
    descriptor catches both.
    """
    if not active:
        yield
        return
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
