"""One puzzle file to one record: the per-file pipeline of ``solve``, ``batch`` and the page.

`solve_input` is the only place that turns a file -- a path, or bytes with the name
they came under (an upload) -- into a result: read it (a file that cannot be read is an
outcome with ``error`` set, never an exception), solve it on a clock started for this
board only, and explain it when infeasible. ``thermomilp solve`` prints
`FileOutcome.record` or the result as text; ``thermomilp batch`` writes the same record
plus the input's ``sha256``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import thermomilp.formats as formats
from thermomilp.core.deadline import Deadline
from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import GENEROUS, Puzzle, SizeLimits
from thermomilp.core.settings import Settings
from thermomilp.core.status import Status
from thermomilp.solving.api import SolveResult, solve


@dataclass(frozen=True)
class FileOutcome:
    """What became of one input: a [`SolveResult`][thermomilp.solving.SolveResult], or why it could
    not be read."""

    file: str
    """The name the input is reported under (the path as given, or the upload's name)."""
    result: SolveResult | None = None
    error: str | None = None
    """Set when the file could not be read (``result`` is then None)."""

    def record(self) -> dict[str, Any]:
        """The JSON Lines record of the solve contract (docs/cli.md)."""
        if self.result is not None:
            return self.result.to_json(self.file)
        return unreadable_record(self.file, self.error or "cannot read the file")


def unreadable_record(file: str, message: str,
                      settings: Settings | None = None) -> dict[str, Any]:
    """The record of an input that produced no result -- a file that cannot be read
    (``solve``, ``check``, ``batch``), or a batch worker's set-up error, which names the
    run's ``settings``: [`SolveResult.to_json`][thermomilp.solving.SolveResult.to_json] of an
    ``error`` result with no grid, no time and no engine called, so its keys are every solve
    record's."""
    return SolveResult(Status.ERROR, None, None, None,
                       None if settings is None else str(settings.backend),
                       None if settings is None else str(settings.solver),
                       0.0, message, engine_called=False).to_json(file)


def read_input(source: str | os.PathLike[str] | bytes, name: str | None = None,
               limits: SizeLimits = GENEROUS) -> Puzzle:
    """The puzzle of a path, or of ``bytes`` uploaded under ``name``.

    Raises:
        PuzzleError: the input is not a puzzle (the message names the file).
    """
    if not isinstance(source, bytes):
        return formats.load(source, limits=limits)
    return formats.load_bytes(source, name or "upload", limits=limits)


def warm_up(settings: Settings) -> None:
    """Do what every board would otherwise do first on its own clock: look up the
    (backend, solver) pair and import the logic presolve and its exact search. The
    engine is imported by the first board that needs one, with its clock paused
    (`thermomilp.solving.engine.Engine.session`)."""
    import thermomilp.logic.presolve  # noqa: F401
    import thermomilp.logic.search  # noqa: F401
    from thermomilp.core.errors import ThermomilpError
    from thermomilp.solving.engine import require_available

    try:
        require_available(settings)
    except ThermomilpError:
        return  # the solve reports it, on the board's record


def solve_input(source: str | os.PathLike[str] | bytes, settings: Settings, *,
                name: str | None = None, unique: bool = True, explain: bool = True,
                limits: SizeLimits = GENEROUS) -> FileOutcome:
    """Read, solve and (when infeasible) explain one input.

    Args:
        source: a path, or the bytes of an upload (then ``name`` is its file name).
        settings: the resolved settings of the run (one clock per board of
            ``settings.time_limit`` covers the solve and the explanation).
        unique: prove uniqueness (one more solve).
        explain: find the conflicting rules of an infeasible board.
        limits: the largest board the reader builds (the server's are strict).

    Raises:
        ThermomilpError: a set-up error that is not the file's (solver missing, a bad
            setting), as [`solve`][thermomilp.solving.solve] raises it.
    """
    file = name if name is not None else os.fspath(source) if not isinstance(source, bytes) \
        else "upload"
    try:
        puzzle = read_input(source, name, limits)
    except PuzzleError as exc:
        return FileOutcome(file, error=str(exc))
    warm_up(settings)
    clock = Deadline(settings.time_limit)  # started here: the board's own time
    result = solve(puzzle, unique=unique, explain=explain, settings=settings, deadline=clock)
    return FileOutcome(file, result)


__all__ = ["FileOutcome", "read_input", "solve_input", "unreadable_record",
           "warm_up"]
