"""Can Pyomo reach a solver? Asked by the solver matrix and by the Pyomo session.

Kept apart from :mod:`thermomilp.backends.pyomo_backend` so that the matrix
(which the session asks for the CBC executable) and the session do not
import each other.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Iterator


@contextlib.contextmanager
def quiet_pyomo() -> Iterator[None]:
    """Silence Pyomo's warnings (with tracebacks) about solvers it cannot find.

    We ask SolverFactory about names that may not exist; the answer we need
    is ``available()``, and our own error message says the rest.
    """
    logger = logging.getLogger("pyomo")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def pyomo_solver_available(name: str) -> bool:
    """Whether Pyomo's classic SolverFactory reaches ``name`` (pass-through pairs)."""
    try:
        import pyomo.environ as pyo

        with quiet_pyomo():
            return bool(pyo.SolverFactory(name).available(exception_flag=False))
    except Exception:  # noqa: BLE001 - any failure means "not reachable"
        return False
