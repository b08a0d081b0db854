"""Exceptions of thermomilp: every message is one a person can act on.

The CLI turns a :class:`ThermomilpError` into a one-line message and exit
code 2; anything else escaping to the CLI is a bug.
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
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}"
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.message

    def located(self, file: str | None = None, line: int | None = None) -> "PuzzleError":
        """A copy that names ``file`` and ``line`` where this one did not."""
        return type(self)(
            self.message,
            file=self.file if self.file is not None else file,
            line=self.line if self.line is not None else line,
        )


class BoardTooLarge(PuzzleError):
    """A board larger than the reader's :class:`~thermomilp.puzzle.SizeLimits` allow."""


class ConfigError(ThermomilpError):
    """A configuration value (flag, environment, config file) that cannot be used."""


class SolverUnavailable(ConfigError):
    """The requested (backend, solver) pair is not installed on this machine."""


class NotMonotoneError(ThermomilpError):
    """A cell grid in which some vessel is not filled from its bottom rank up."""


class RuleNotSupported(ThermomilpError):
    """A tool that reasons about vessel levels met a pool-rule tank, which has none."""


class ThermomilpWarning(UserWarning):
    """Base class of the warnings thermomilp issues (the CLI prints them to stderr)."""


class WaterlineRuleWarning(ThermomilpWarning):
    """An imported Aquarium was published under a weaker water rule than the one we apply."""
