"""Whole numbers in puzzle files, read safely.

Python's ``int`` turns any run of Unicode digits (``²`` is not one, ``٣``
is) into a number and refuses 4,300 digits and more with a ``ValueError``;
puzzle files need neither. `whole_number` takes ASCII digits only and
at most `MAX_DIGITS` of them, and says what was wrong.
"""

from __future__ import annotations

from thermomilp.core.errors import PuzzleError

MAX_DIGITS = 9


def single_line(text: str) -> str | None:
    """The one non-blank line of ``text``, stripped; None when it has another number of them."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if len(lines) == 1 else None


def is_whole_number(token: str) -> bool:
    return token.isascii() and token.isdigit() and len(token) <= MAX_DIGITS


def whole_number(token: str, what: str, line: int | None = None) -> int:
    """``int(token)`` for up to nine ASCII digits, else a
    [`PuzzleError`][thermomilp.core.errors.PuzzleError]."""
    if token.isascii() and token.isdigit():
        if len(token) > MAX_DIGITS:
            raise PuzzleError(f"{what} has {len(token)} digits; at most {MAX_DIGITS} are "
                              "allowed", line=line)
        return int(token)
    shown = token if len(token) <= 20 else token[:20] + "..."
    raise PuzzleError(f"{what} {shown!r} is not a whole number", line=line)
