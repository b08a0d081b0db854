"""Pyomo's logging kept quiet while a session asks its SolverFactory about an engine."""

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
