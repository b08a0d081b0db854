"""What every (modelling layer, solver) pair offers the solve layer.

A :class:`Session` holds one built model. ``solve`` finds any solution or
proves there is none; ``exclude`` adds the canonical no-good cut of a found
solution so the next ``solve`` must find a different one. The counting and
uniqueness loops in :mod:`thermomilp.solve` need nothing more.
"""

from __future__ import annotations

import contextlib
import os
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Iterator, Literal

from thermomilp.model.formulation import Formulation
from thermomilp.puzzle import Cell

OutcomeStatus = Literal["feasible", "infeasible", "timeout", "error"]


@dataclass(frozen=True)
class SolverOptions:
    """Common options, mapped to each engine's own names by its session."""

    time_limit: float | None = None
    threads: int | None = None
    seed: int | None = None
    verbose: bool = False


@dataclass(frozen=True)
class Outcome:
    """One solve: a status, the filled cells when feasible, the engine's words."""

    status: OutcomeStatus
    ones: frozenset[Cell] | None = None
    message: str = ""


class Session(ABC):
    backend: str = ""
    solver: str = ""

    def __init__(self, form: Formulation, options: SolverOptions):
        self.form = form
        self.options = options
        self.cuts = 0

    @abstractmethod
    def solve(self, time_limit: float | None = None) -> Outcome:
        """Find a solution of the model with every cut so far (or prove none)."""

    @abstractmethod
    def exclude(self, ones: frozenset[Cell]) -> None:
        """Add sum_{x*=1} (1 - x) + sum_{x*=0} x >= 1 for the solution ``ones``."""

    def complete_values(self, values: list[float | None]) -> list[float] | None:
        """Row-major values with the gaps of unconstrained cells filled; None if others miss.

        A cell in no clued line and no chain (a one-cell thermometer in two
        unclued lines) is in no constraint, so a layer may not pass it to the
        engine at all and read back no value; any value in its bounds is
        right, and its lower bound is one. A gap anywhere else is an engine
        failure.
        """
        free = unconstrained_cells(self.form)
        filled: list[float] = []
        for cell, value in zip(self.form.cells, values):
            if value is None:
                if cell not in free:
                    return None
                value = float(self.form.fixed.get(cell, 0))
            filled.append(float(value))
        return filled

    def ones_from_values(self, values) -> frozenset[Cell]:
        """Cells whose variable is (close to) 1; values are row-major."""
        W = self.form.width
        return frozenset(divmod(k, W) for k, v in enumerate(values) if v > 0.5)

    def close(self) -> None:
        """Release the engine (optional)."""


def unconstrained_cells(form: Formulation) -> frozenset[Cell]:
    """Cells that appear in no row, column, arc or tie constraint (before any cut)."""
    touched = {cell for pair in form.arcs + form.ties for cell in pair}
    touched.update(cell for cell in form.cells
                   if cell[0] in form.row_clues or cell[1] in form.col_clues)
    return frozenset(form.cells) - touched


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
