"""Readers and writers: text <-> [`Puzzle`][thermomilp.core.puzzle.Puzzle].

Every reader raises [`PuzzleError`][thermomilp.core.errors.PuzzleError] (with the file
and, where it can, the line) for bad input -- never any other exception.
The format is detected from the content, with the file suffix as a hint.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from types import ModuleType
from typing import Callable

from thermomilp.core.errors import PuzzleError
from thermomilp.core.files import read_regular
from thermomilp.core.puzzle import GENEROUS, STRICT, Puzzle, SizeLimits
from thermomilp.formats import aquarium_task, janko, json_format, native, puzzlink, pzprv3, site

MAX_BYTES = 5_000_000
__all__ = ["FORMATS", "GENEROUS", "STRICT", "Format", "SizeLimits", "detect", "dumps", "load",
           "load_bytes", "loads"]


@dataclass(frozen=True)
class Format:
    name: str
    suffixes: tuple[str, ...]
    looks_like: Callable[[str], bool]
    read: Callable[[str, SizeLimits], Puzzle]
    write: Callable[[Puzzle], str] | None


def _format(name: str, module: ModuleType, suffixes: tuple[str, ...]) -> Format:
    return Format(name, suffixes, module.looks_like, module.read, getattr(module, "write", None))


FORMATS: dict[str, Format] = {
    f.name: f for f in (
        _format("json", json_format, (".json",)),
        _format("text", native, (".txt", ".thermo", ".aqua")),
        _format("janko", janko, (".janko",)),
        _format("site", site, (".task",)),
        _format("aquarium-task", aquarium_task, (".task", ".aqtask")),
        _format("puzzlink", puzzlink, (".url", ".puzzlink")),
        _format("pzprv3", pzprv3, (".pzpr", ".pzprv3", ".txt")),
    )
}
"""Every format by name, with its file suffixes, its content test, its reader and its
writer (None when it cannot be written); [`detect`][thermomilp.formats.detect] tries them
in this order."""


def detect(text: str, filename: str | None = None) -> Format:
    """The format of ``text``: by content first, the suffix breaks ties."""
    matches = [f for f in FORMATS.values() if f.looks_like(text)]
    if len(matches) > 1 and filename:
        by_suffix = [f for f in matches if filename.lower().endswith(f.suffixes)]
        matches = by_suffix or matches
    if not matches:
        if not text.strip():
            raise PuzzleError("the file is empty")
        raise PuzzleError("unrecognised puzzle format: expected interchange JSON, the native "
                          "text format, janko's sections, a task string, a puzz.link URL or "
                          "a pzprv3 file (see docs/formats.md)")
    return matches[0]


def loads(text: str, filename: str | None = None, fmt: str | None = None,
          limits: SizeLimits = GENEROUS) -> Puzzle:
    """Parse ``text``; errors name ``filename`` when given.

    ``limits`` bounds the board a reader will build; every reader checks the
    declared size against it before allocating anything ([`STRICT`][thermomilp.core.puzzle.STRICT]
    for a server reading untrusted input)."""
    try:
        if fmt is not None and fmt not in FORMATS:
            raise PuzzleError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")
        chosen = FORMATS[fmt] if fmt else detect(text, filename)
        return chosen.read(text, limits)
    except PuzzleError as exc:
        raise exc.located(file=filename) from None
    except RecursionError:
        raise PuzzleError("the input is nested too deeply", file=filename) from None
    except ValueError as exc:  # int() of 4,300+ digits, in any reader
        if "integer string conversion" not in str(exc):
            raise
        raise PuzzleError("a number has too many digits", file=filename) from None


def not_a_board(path: str | os.PathLike) -> str | None:
    """Why the file ``path`` is, by what it holds, not a board -- an answer or data file
    beside the boards of a corpus, such as ``instances/expected.json`` -- or None when it
    may be one. A JSON document (an object or an array) is a board only as an object with
    a ``"puzzle"`` key (the interchange JSON, docs/contract.md). A file that cannot be
    read, or is not valid JSON, gets None: reading it as a board says what is wrong."""
    try:
        raw = read_regular(os.fspath(path), MAX_BYTES + 1)
        text = raw.decode("utf-8-sig")
        if len(raw) > MAX_BYTES or not text.lstrip().startswith(("{", "[")):
            return None
        data = json.loads(text)
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    if isinstance(data, dict) and "puzzle" in data:
        return None
    return ('a JSON object without a "puzzle" key' if isinstance(data, dict)
            else "a JSON array, not a board")


def load(path: str | os.PathLike, fmt: str | None = None,
         limits: SizeLimits = GENEROUS) -> Puzzle:
    """Read a puzzle file in any supported format.

    Args:
        path: the file; a regular file only, of at most 5 MB of UTF-8 text (a byte-order
            mark allowed).
        fmt: one of [`FORMATS`][thermomilp.formats.FORMATS] (``json``, ``text``, ``janko``,
            ``site``, ``aquarium-task``, ``puzzlink``, ``pzprv3``). Default None: detected
            from the content, the file's suffix breaking ties (docs/formats.md).
        limits: the largest board the reader builds, checked before anything is
            allocated. Default [`GENEROUS`][thermomilp.core.puzzle.GENEROUS]
            (10,000 rows or columns, 4,000,000 cells); a server reading untrusted files
            passes [`STRICT`][thermomilp.core.puzzle.STRICT].

    Returns:
        The board, a [`Puzzle`][thermomilp.core.puzzle.Puzzle] (with its solution and grade
        when the file holds them).

    Raises:
        PuzzleError: the file cannot be read, is too large, is not UTF-8, is in no known
            format or is malformed; the error names the file and, where it can, the line.
        BoardTooLarge: the board is larger than ``limits`` (a ``PuzzleError`` too).
    """
    name = os.fspath(path)
    try:  # a regular file only, never a blocking open (a FIFO), and bounded
        raw = read_regular(name, MAX_BYTES + 1)
    except OSError as exc:
        raise PuzzleError(f"cannot read the file: {exc.strerror}", file=name) from None
    return load_bytes(raw, name, fmt, limits)


def load_bytes(raw: bytes, name: str, fmt: str | None = None,
               limits: SizeLimits = GENEROUS) -> Puzzle:
    """Read a puzzle from a file's bytes (a file read, or an upload named ``name``):
    at most ``MAX_BYTES``, UTF-8 (a byte-order mark allowed), any supported format."""
    if len(raw) > MAX_BYTES:
        raise PuzzleError(f"the file is larger than {MAX_BYTES // 1_000_000} MB", file=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"the file is not UTF-8 text (byte {exc.start})", file=name) from None
    return loads(text, name, fmt, limits)


def dumps(puzzle: Puzzle, fmt: str = "text") -> str:
    write = FORMATS[fmt].write if fmt in FORMATS else None
    if write is None:
        writable = [n for n, f in FORMATS.items() if f.write is not None]
        raise PuzzleError(f"cannot write format {fmt!r}; writable: {', '.join(writable)}")
    return write(puzzle)
