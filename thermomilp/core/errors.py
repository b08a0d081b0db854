"""Exceptions of thermomilp: every message is one a person can act on.

Every error thermomilp raises on purpose is defined here and derives from
[`ThermomilpError`][thermomilp.core.errors.ThermomilpError], so ``except ThermomilpError`` catches
them all. The CLI turns one into a one-line message and exit code 2; anything else
escaping to the CLI is a bug (exit 3). The hierarchy is drawn in docs/api.md, "Errors".
"""

from __future__ import annotations


class ThermomilpError(Exception):
    """Base class of every error thermomilp raises on purpose."""


class PuzzleError(ThermomilpError):
    """A puzzle that is malformed or breaks the rules of its kind.

    ``file`` and ``line`` (1-based) locate the problem when the puzzle came
    from text; both are optional.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        if file is not None:
            where = f"{file}: " if line is None else f"{file}:{line}: "
        else:
            where = "" if line is None else f"line {line}: "
        super().__init__(where + message)

    def located(self, file: str | None = None, line: int | None = None) -> "PuzzleError":
        """A copy that names ``file`` and ``line`` where this one did not."""
        return type(self)(
            self.message,
            file=self.file if self.file is not None else file,
            line=self.line if self.line is not None else line,
        )


class BoardTooLarge(PuzzleError):
    """A board larger than the reader's [`SizeLimits`][thermomilp.core.puzzle.SizeLimits] allow."""


class ConfigError(ThermomilpError):
    """A configuration value (flag, environment, config file) that cannot be used."""


class SolverUnavailable(ConfigError):
    """The requested (backend, solver) pair is not installed on this machine."""


class NotMonotoneError(ThermomilpError):
    """A cell grid in which some vessel is not filled from its bottom rank up."""


class RuleNotSupported(ThermomilpError):
    """A tool that reasons about vessel levels met a pool-rule tank, which has none."""


class SolveError(ThermomilpError):
    """A solve that ended in a timeout or an engine error where an answer was needed
    (a count, a uniqueness verdict); ``status`` is ``timeout`` or ``error``."""

    def __init__(self, message: str, status: str = "error"):
        super().__init__(message)
        self.status = status


class TimeUp(ThermomilpError):
    """A search loop passed its deadline
    ([`thermomilp.core.deadline.Deadline`][thermomilp.core.deadline.Deadline]); the caller that set
    the deadline catches it and reports a timeout."""


class OutOfBudget(ThermomilpError):
    """The exact logic search reached its node budget or another limit of its caller's
    before it finished (internal control flow: the caller hands the question on)."""


class GenerationError(ThermomilpError):
    """No board met the request within the attempts or the time allowed, or the
    request itself (size, difficulty, ...) cannot be met."""


class GenerationTimeUp(GenerationError):
    """The generator stopped at its time limit (a [`Deadline`][thermomilp.core.deadline.Deadline]
    checked where its loops iterate and handed to every engine call): not bad input, so
    ``thermomilp generate`` exits 1, keeping the boards it finished. ``where``: the step
    that was running when it stopped (``repair loop``, ``rival search``, ...)."""

    def __init__(self, message: str, where: str = ""):
        super().__init__(message)
        self.where = where


class WriteError(ThermomilpError):
    """A file could not be written whole; the target is left exactly as it was
    (`thermomilp.core.files.write_whole`). The message names the user's target."""


class ExportError(ThermomilpError):
    """An export that cannot be made (unknown target, board too large, ...)."""


class GradeError(ThermomilpError):
    """The grading cannot start: no corpus, no student file, boards of the wrong kind."""


class ContractError(GradeError):
    """What a student's ``build`` returned breaks the grading contract."""


class ApiError(ThermomilpError):
    """A request the web API refuses: ``status`` is the HTTP code, ``message`` says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class ThermomilpWarning(UserWarning):
    """Base class of the warnings thermomilp issues (the CLI prints them to stderr)."""


class WaterlineRuleWarning(ThermomilpWarning):
    """An imported Aquarium was published under a weaker water rule than the one we apply."""


class NotRegularFile(ThermomilpError, OSError):
    """A path that is not a regular file (a FIFO, a device, a socket, a folder):
    `thermomilp.core.files.read_regular` refuses it before reading a byte. It is
    an ``OSError`` as well, so a reader's ``except OSError`` takes it; ``strerror``
    says what it is, e.g. ``it is a FIFO (named pipe), not a regular file``."""


class BindError(ThermomilpError):
    """``thermomilp serve`` cannot listen where it was asked to (a port in use, a port
    it may not open, a host that is not this machine's): a sentence for the user."""


class ModelDataError(GradeError):
    """The data a student's process sent back is not a model the grader can read
    (the grader gives that submission no marks; it is never raised to the instructor)."""
