"""A budget of logic work that does not depend on the machine's load.

`Work` measures the logic searches of the solve layer in *ticks* (one per vessel a
probing sweep visits, one per `STOP_EVERY` line revisions: where every propagator asks
its ``stop`` callback), not seconds, so ``engine_called``, ``proof`` and
``confirmed_by`` in a record do not change with the load of the machine. Only the
caller's deadline (which raises [`TimeUp`][thermomilp.core.errors.TimeUp]) depends on
the clock (docs/architecture.md, "The compiled logic kernel").
"""

from __future__ import annotations

from typing import Callable

from thermomilp.core.errors import OutOfBudget


class Work:
    """A ``stop`` callback that counts its calls and raises
    [`OutOfBudget`][thermomilp.core.errors.OutOfBudget] after ``limit`` of them (None: no limit);
    ``deadline`` (optional) is asked first, and its True is passed on (the propagators raise
    TimeUp)."""

    def __init__(self, limit: int | None = None,
                 deadline: Callable[[], bool] | None = None):
        self.limit = limit
        self.deadline = deadline
        self.used = 0

    def __call__(self) -> bool:
        if self.deadline is not None and self.deadline():
            return True
        self.used += 1
        if self.limit is not None and self.used > self.limit:
            raise OutOfBudget(f"the logic search spent its budget of {self.limit} work ticks")
        return False
