"""The unit of work of a batch: a frozen :class:`BatchJob` and :func:`solve_file`, one
path to one JSON record (never raising for a bad file or a failed solve) through the
one per-file pipeline that ``solve`` uses too (:func:`thermomilp.solving.pipeline.solve_input`:
the same record, the conflict of an infeasible board included); the error records;
the inputs named by folders and globs (every suffix of the formats table), and the
content hash that identifies an input when a run resumes."""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from typing import Any, Iterable

from thermomilp.core.settings import Settings
from thermomilp.solving.pipeline import PUZZLE_SUFFIXES, solve_input, unreadable_record


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs besides the path (picklable, no live objects):
    the one :class:`~thermomilp.core.settings.Settings` of the run (default: the CLI's
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


def expand_inputs(patterns: Iterable[str]) -> list[str]:
    """Files named by directories (searched recursively for puzzle suffixes), globs
    or plain paths; sorted, duplicates removed, in the order first seen per pattern."""
    from thermomilp.core.errors import ConfigError

    files: list[str] = []
    for pattern in patterns:
        if os.path.isdir(pattern):
            found = sorted(
                os.path.join(root, name)
                for root, _dirs, names in os.walk(pattern) for name in names
                if name.lower().endswith(PUZZLE_SUFFIXES))
        elif glob.has_magic(pattern):
            found = sorted(p for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
        else:
            found = [pattern]  # a missing plain file becomes an error record, not a crash
        if not found:
            raise ConfigError(f"{pattern!r} matches no puzzle files")
        files.extend(os.path.normpath(p) for p in found)
    return list(dict.fromkeys(files))


def content_hash(path: str) -> str | None:
    """The SHA-256 of a file's bytes: the identity resume matches inputs by. None when
    the file cannot be read or is larger than any reader accepts (it gets an error
    record, matched by its path)."""
    import hashlib

    from thermomilp.formats import MAX_BYTES

    digest = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                size += len(chunk)
                if size > MAX_BYTES:
                    return None
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()
