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

    def ones_from_values(self, values) -> frozenset[Cell]:
        """Cells whose variable is (close to) 1; values are row-major."""
        W = self.form.width
        return frozenset(divmod(k, W) for k, v in enumerate(values) if v > 0.5)

    def close(self) -> None:
        """Release the engine (optional)."""


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
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
