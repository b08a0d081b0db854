"""The unit of work of a batch: a frozen [`BatchJob`][thermomilp.batch.BatchJob] and
[`solve_file`][thermomilp.batch.solve_file], one path to one JSON record through the per-file
pipeline ``solve`` uses too (`thermomilp.solving.pipeline.solve_input`); the error records,
and the content hash that identifies an input when a run resumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from thermomilp.core.settings import Settings
from thermomilp.solving.pipeline import solve_input, unreadable_record


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs besides the path (picklable, no live objects):
    the one [`Settings`][thermomilp.core.settings.Settings] of the run (default: the CLI's
    defaults) and whether to prove uniqueness."""

    settings: Settings = field(default_factory=Settings)
    unique: bool = True
    explain: bool = True
    """Attach the conflicting rules of an infeasible board, as ``solve`` does."""


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


def error_record(path: str, message: str, job: BatchJob | None = None) -> dict[str, Any]:
    """The record of a file the job could not solve for a reason not the file's (the
    engine is missing, a bug): the unreadable file's record, naming the job's engine."""
    return unreadable_record(path, message, job.settings if job else None)


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
