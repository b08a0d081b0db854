"""One clock per board: every step of a solve asks it how much time is left.

A [`Deadline`][thermomilp.core.deadline.Deadline] starts when a board's work starts and is handed
down to the logic presolve, the engine, the logic confirmation and the conflict search
alike, so ``--time-limit`` bounds them all together and ``time_s`` is the
time the board really took. A one-time cost of the process that a board
happens to trigger (importing and warming up an engine,
`thermomilp.solving.engine.Engine.session`) runs with the clock
[`paused`][thermomilp.core.deadline.Deadline.paused]: it is neither the board's time nor its time
limit.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from thermomilp.core.errors import TimeUp

__all__ = ["Deadline", "TimeUp"]


class Deadline:
    """``seconds`` from now (``None``: no limit)."""

    def __init__(self, seconds: float | None = None):
        self.start = time.perf_counter()
        self.seconds = seconds
        self.end = None if seconds is None else self.start + seconds

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float | None:
        """Seconds left (at least a millisecond, so an engine gets a valid limit); None: no
        limit."""
        if self.end is None:
            return None
        return max(self.end - time.perf_counter(), 1e-3)

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def within(self, seconds: float | None) -> float | None:
        """The smaller of ``seconds`` and what is left."""
        left = self.remaining()
        if seconds is None:
            return left
        return seconds if left is None else min(seconds, left)

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Stop the clock while the block runs: its time counts neither in
        `elapsed` nor against the limit (both ends move by it)."""
        began = time.perf_counter()
        try:
            yield
        finally:
            gap = time.perf_counter() - began
            self.start += gap
            if self.end is not None:
                self.end += gap
