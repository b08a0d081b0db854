"""The board files named by folders, globs and paths: the one walker of every command
that takes a folder of boards (``batch``'s inputs, ``grade --corpus``).
"""

from __future__ import annotations

import fnmatch
import glob
import os
import stat
from typing import Iterable, Iterator, Sequence

from thermomilp.core.errors import ConfigError
from thermomilp.formats import FORMATS, not_a_board

PUZZLE_SUFFIXES = tuple(sorted({s for fmt in FORMATS.values() for s in fmt.suffixes}))
"""Every suffix of the formats table (``.txt``, ``.json``, ``.url``, ``.pzpr``, ...)."""


def expand_inputs(patterns: Iterable[str],
                  skipped: list[tuple[str, str]] | None = None) -> list[str]:
    """Files named by directories (searched recursively for every suffix of the formats
    table, `PUZZLE_SUFFIXES`), globs (``**`` spans folders) or plain paths; sorted,
    duplicates removed, in the order first seen per pattern. Folders and globs are
    listed by `walk_inputs`.

    A file a folder or a glob lists that is not a board by what it holds (an answer
    file such as ``instances/expected.json``: `thermomilp.formats.not_a_board`)
    is left out, and ``(path, why)`` appended to ``skipped`` when given; a file named
    on its own is always read (a bad one gets an error record)."""
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


__all__ = ["PUZZLE_SUFFIXES", "expand_inputs", "split_glob", "walk_inputs"]
