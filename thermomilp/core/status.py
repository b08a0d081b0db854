"""The one status vocabulary, from an engine's outcome to the public result.

An engine run ends ``feasible`` (a point in hand, still to be verified),
``infeasible``, ``timeout`` or ``error``; a solve of a board
ends ``unique``, ``multiple``, ``infeasible``, ``solved``, ``timeout`` or
``error`` (`PUBLIC`: the JSON strings of the CLI record). A
`Status` is a ``str``: it compares equal to its JSON string and is
written as it.
"""

from __future__ import annotations

import enum


class Status(enum.StrEnum):
    UNIQUE = "unique"
    MULTIPLE = "multiple"
    INFEASIBLE = "infeasible"
    SOLVED = "solved"
    TIMEOUT = "timeout"
    ERROR = "error"
    FEASIBLE = "feasible"  # an engine's point, before the checker and the uniqueness question


PUBLIC: tuple[Status, ...] = tuple(status for status in Status if status is not Status.FEASIBLE)
"""What a board's solve reports (``SolveResult.status``, the record's): all but ``feasible``."""

__all__ = ["PUBLIC", "Status"]
