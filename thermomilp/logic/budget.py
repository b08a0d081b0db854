"""A budget of logic work that does not depend on the machine's load.

The logic searches of the solve layer (the presolve's search, the confirmation of
an engine's "infeasible") give a question back to the engine when they would cost
too much. Measured in seconds, that choice -- and with it ``engine_called``,
``proof`` and ``confirmed_by`` in a record -- would change with the load of the
machine. `Work` measures it in *ticks* instead: one per vessel a probing
sweep visits and one per `STOP_EVERY` line
revisions of a propagation, the points where every propagator already asks its
``stop`` callback. The same board and budget always end the same way; only the
caller's deadline (the user's time limit, which raises
[`TimeUp`][thermomilp.core.errors.TimeUp]) depends on the clock.
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
