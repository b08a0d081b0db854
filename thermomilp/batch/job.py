"""The unit of work of a batch: a frozen [`BatchJob`][thermomilp.batch.BatchJob] and
[`solve_file`][thermomilp.batch.solve_file], one path to one JSON record (never raising for a bad
file or a failed solve) through the one per-file pipeline that ``solve`` uses too
(`thermomilp.solving.pipeline.solve_input`: the same record, the conflict of an infeasible board
included); the error records; the inputs named by folders and globs (every suffix of the formats
table; one walker, `walk_inputs`, that never enters a symbolic link to a folder), and the content
hash that identifies an input when a run resumes."""

from __future__ import annotations

import fnmatch
import glob
import os
import stat
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Sequence

from thermomilp.core.settings import Settings
from thermomilp.solving.pipeline import PUZZLE_SUFFIXES, solve_input, unreadable_record


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs besides the path (picklable, no live objects):
    the one [`Settings`][thermomilp.core.settings.Settings] of the run (default: the CLI's
    defaults) and whether to prove uniqueness."""

    settings: Settings = field(default_factory=Settings)
    unique: bool = True
    explain: bool = True
    """Attach the conflicting rules of an infeasible board, as ``solve`` does."""

    @property
    def backend(self) -> str:
        return str(self.settings.backend)

    @property
    def solver(self) -> str:
        return str(self.settings.solver)


def solve_file(path: str, job: BatchJob) -> dict[str, Any]:
    """The JSON record of one file; never raises for a bad file or a failed solve."""
    from thermomilp.core.errors import ThermomilpError

    try:
        outcome = solve_input(path, job.settings, unique=job.unique, explain=job.explain)
    except ThermomilpError as exc:
        return error_record(path, str(exc), job)  # set-up (engine missing...): exit 2
    except Exception as exc:  # noqa: BLE001 - a bug of ours must not end the run
        return error_record(path, internal_error(exc), job)
    return outcome.record()  # an unreadable file's record names no engine, as solve's


INTERNAL = "internal error: "
"""How the message of an error record caused by a bug (not by the file) begins."""


def internal_error(exc: BaseException | str) -> str:
    what = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return f"{INTERNAL}{what} (please report it)"


def is_internal(record: dict[str, Any]) -> bool:
    return record.get("status") == "error" and str(record.get("error") or "").startswith(INTERNAL)


def error_record(path: str, message: str, job: BatchJob | None = None,
                 puzzle: str | None = None) -> dict[str, Any]:
    return unreadable_record(path, message, job.backend if job else None,
                             job.solver if job else None, puzzle)


def expand_inputs(patterns: Iterable[str],
                  skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """Files named by directories (searched recursively for puzzle suffixes), globs
    (``**`` spans folders) or plain paths; sorted, duplicates removed, in the order
    first seen per pattern. Folders and globs are listed by `walk_inputs`.

    A file a folder or a glob lists that is not a board by what it holds (an answer
    file such as ``instances/expected.json``: `thermomilp.formats.not_a_board`)
    is left out, and ``(path, why)`` appended to ``skipped`` when given; a file named
    on its own is always read (a bad one gets an error record)."""
    from thermomilp.core.errors import ConfigError
    from thermomilp.formats import not_a_board

    files: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            found = sorted(walk_inputs(pattern))
        elif glob.has_magic(pattern):
            top, parts = split_glob(pattern)
            found = sorted(walk_inputs(top, parts))
        else:
            found = [pattern]  # a missing plain file becomes an error record, not a crash
        if found != [pattern]:
            listed, found = found, []
            for path in listed:
                why = not_a_board(path)
                if why is None:
                    found.append(path)
                elif skipped is not None:
                    skipped.append((os.path.normpath(path), why))
        if not found:
            raise ConfigError(f"{pattern!r} matches no puzzle files")
        files.extend(os.path.normpath(p) for p in found)
    return list(dict.fromkeys(files))


def split_glob(pattern: str) -> tuple[str, list[str]]:
    """The folder a glob starts from (its leading components without a wildcard, as
    given: a link there is the user's choice) and the components left to match:
    ``corpus/**/*.txt`` -> (``corpus``, [``**``, ``*.txt``])."""
    if os.altsep:
        pattern = pattern.replace(os.altsep, os.sep)
    parts = pattern.split(os.sep)
    fixed = 0
    while fixed < len(parts) - 1 and not glob.has_magic(parts[fixed]):
        fixed += 1
    top = os.sep.join(parts[:fixed])
    if not top:
        top = os.sep if fixed else "."
    return top, [part for part in parts[fixed:] if part]


def walk_inputs(top: str, pattern: Sequence[str] | None = None) -> Iterator[str]:
    """The files under the folder ``top``, never through a symbolic link to a folder.

    With no ``pattern``: every file whose name ends with a puzzle suffix, at any
    depth (hidden ones too), as a folder given to ``batch``. With ``pattern`` (the
    components of a glob below ``top``, `split_glob`): the files whose path
    below ``top`` matches it, as `glob.glob` with ``recursive=True`` matches
    (``**`` is any number of folders, a wildcard does not match a leading dot).

    A symbolic link to a folder is neither entered nor listed (``x -> .`` would
    never end, ``root -> /`` would walk the file system), and a folder met twice
    (a bind mount) is walked once; a link to a file is listed. What is listed is
    every entry that is not a folder -- a FIFO or a device too: reading it is
    refused with a record that names it (`thermomilp.core.files.read_regular`).
    A folder that cannot be read is skipped, as `os.walk` skips it.
    """
    size = len(pattern) if pattern is not None else 0
    seen: set[tuple[int, int]] = set()
    stack = [(top, _closure(pattern, {0}) if pattern is not None else frozenset())]
    first = True
    while stack:
        folder, states = stack.pop()
        try:  # the top as given (links followed); below it, only real folders
            info = os.stat(folder, follow_symlinks=first)
            first = False
            if not stat.S_ISDIR(info.st_mode) or (info.st_dev, info.st_ino) in seen:
                continue
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        for entry in entries:
            after = _step(pattern, states, entry.name) if pattern is not None else states
            if pattern is not None and not after:
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    if pattern is None or any(i < size for i in after):
                        stack.append((entry.path, after))
                    continue
                if entry.is_symlink() and entry.is_dir():
                    continue  # a link to a folder: never entered, not a file either
            except OSError:
                continue
            if (entry.name.lower().endswith(PUZZLE_SUFFIXES) if pattern is None
                    else size in after):
                yield entry.path


def _closure(pattern: Sequence[str], states: set[int]) -> frozenset[int]:
    """``states`` plus the positions after every ``**`` they stand on (it may match
    no folder at all)."""
    out = set(states)
    todo = list(states)
    while todo:
        i = todo.pop()
        if i < len(pattern) and pattern[i] == "**" and i + 1 not in out:
            out.add(i + 1)
            todo.append(i + 1)
    return frozenset(out)


def _step(pattern: Sequence[str], states: frozenset[int], name: str) -> frozenset[int]:
    """The positions in ``pattern`` after one more path component ``name``."""
    hidden = name.startswith(".")
    after: set[int] = set()
    for i in states:
        if i >= len(pattern):
            continue
        part = pattern[i]
        if part == "**":
            if not hidden:
                after.add(i)
        elif (not hidden or part.startswith(".")) and fnmatch.fnmatch(name, part):
            after.add(i + 1)
    return _closure(pattern, after)


def content_hash(path: str) -> str | None:
    """The SHA-256 of a file's bytes: the identity resume matches inputs by. None when
    the file cannot be read or is larger than any reader accepts (it gets an error
    record, matched by its path)."""
    import hashlib

    from thermomilp.core.files import read_regular
    from thermomilp.formats import MAX_BYTES

    try:  # as the reader reads it: a regular file only, never a blocking open
        data = read_regular(path, MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BYTES:
        return None
    return hashlib.sha256(data).hexdigest()
