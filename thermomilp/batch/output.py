"""The ``--out`` file of a batch ([`BatchOutput`][thermomilp.batch.BatchOutput]) and the
inputs its records already cover ([`Resume`][thermomilp.batch.Resume]).

It is the one file the package writes that is not replaced whole
(`thermomilp.core.files.write_whole`): a batch appends to it one whole record at a time
(`AppendLog`), so that an interrupted run keeps every finished record.
"""

from __future__ import annotations

import json
import os
import stat
from typing import Any, Iterable

from thermomilp.core.errors import ConfigError, WriteError
from thermomilp.core.files import append_whole


class BatchOutput:
    """The ``--out`` file, open for the whole run: locked, read back, appended to.

    ``with BatchOutput(path) as output:`` refuses a target that is not a regular file
    (``/dev/zero``, a FIFO, a folder) before reading anything, creates the file if
    needed, takes an exclusive lock on it (a second run on the same file is refused with a
    [`ConfigError`][thermomilp.core.errors.ConfigError] instead of duplicating every record), and
    reads its records (`records`). The file is only ever appended to, and only when
    it is a batch output: every complete line must be a record (a JSON object
    with a ``file`` and a ``status``, at most `MAX_RECORD_BYTES` long). Anything else --
    somebody's notes, a corrupt line in the middle -- is a
    [`ConfigError`][thermomilp.core.errors.ConfigError] and the file is left exactly as it
    was. The one repair is a torn final line (no newline, the start of a record: a crash
    mid-write), which is cut off so the next record starts on a line of its own. `stream`
    is the text stream to append to.

    The lock is ``flock`` (released when the process ends, so a crash leaves no stale
    lock); where ``fcntl`` does not exist (Windows) the file is not locked.
    """

    def __init__(self, path: str):
        self.path = path
        self.records: list[dict[str, Any]] = []
        self.stream: AppendLog  # set by __enter__: the file is opened (and locked) there

    def __enter__(self) -> "BatchOutput":
        _require_regular(self.path)
        try:
            handle = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        except OSError as exc:
            raise WriteError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        try:
            _require_regular(self.path, os.fstat(handle.fileno()))  # the file we opened
            _lock(handle, self.path)
            self.records = _read_records(handle, self.path)
        except BaseException:
            handle.close()
            raise
        self.stream = AppendLog(handle, self.path)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()  # closing the file releases the lock


class AppendLog:
    """The write side of ``--out``: ``write(line)`` appends one whole record line or
    nothing (a failed write is cut back to the size before it and raises
    [`WriteError`][thermomilp.core.errors.WriteError] naming the file). Quacks like the
    text stream [`thermomilp.batch.run.run_batch`][thermomilp.batch.run_batch] writes to."""

    def __init__(self, handle: Any, path: str):
        self.handle, self.path = handle, path

    def write(self, text: str) -> int:
        append_whole(self.handle.fileno(), text, self.path)
        return len(text)

    def flush(self) -> None:
        """Every write is already in the file (``os.write``, no buffer)."""

    def close(self) -> None:
        self.handle.close()


def _require_regular(path: str, info: os.stat_result | None = None) -> None:
    """Refuse a target that exists and is not a regular file, before reading it."""
    if info is None:
        try:
            info = os.stat(path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise WriteError(f"cannot write {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise WriteError(f"cannot write {path}: it is {kind}; --out is a batch output file")


def _lock(handle: Any, path: str) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks in the standard library
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ConfigError(f"{path}: another thermomilp batch is writing to this file; wait "
                          "for it to finish (or choose another --out)") from None
    except OSError:
        pass  # a file system without locks: run unlocked rather than not at all


MAX_RECORD_BYTES = 64 << 20
"""The longest line a batch output may hold."""


def _read_records(handle: Any, path: str) -> list[dict[str, Any]]:
    """Read the records back line by line (never more than one record's bound at once)."""
    handle.seek(0)
    records: list[dict[str, Any]] = []
    good_end = 0
    number = 0
    last = b""
    while True:
        line = handle.readline(MAX_RECORD_BYTES + 1)
        if not line:
            break
        number += 1
        last = line
        torn = not line.endswith(b"\n")
        if torn and len(line) > MAX_RECORD_BYTES:
            raise ConfigError(f"{path}:{number}: a line longer than {MAX_RECORD_BYTES >> 20} "
                              "MB is not a thermomilp batch record; --out appends only to a "
                              "batch output (choose another file)")
        record = _record_of(line)
        if record is None:
            if torn and line.startswith(RECORD_START):
                break  # the last line, a record torn by a crash mid-write: the only cut
            if not line.strip():
                good_end += len(line)
                continue
            raise ConfigError(f"{path}:{number}: not a thermomilp batch record; "
                              "--out appends only to a batch output (choose another file)")
        records.append(record)
        good_end += len(line)
    size = handle.seek(0, os.SEEK_END)
    if good_end < size:
        handle.truncate(good_end)
    elif size and not last.endswith(b"\n"):
        handle.write(b"\n")  # a whole last record without its newline
    handle.flush()
    return records


def read_output(out_path: str) -> list[dict[str, Any]]:
    """The records of an existing batch output (repairing a torn last line); [] if absent."""
    if not os.path.exists(out_path):
        return []
    with BatchOutput(out_path) as output:
        return output.records


def _path_key(path: str) -> tuple[str, str]:
    return ("path", os.path.normpath(path))


class Resume:
    """Which inputs an output's records already cover.

    A record covers an input with the same content (``sha256``); a record
    without one (an unreadable file, or an output written before records carried
    it) covers the input at the same normalised path. Two inputs with equal
    content need two records. An ``error`` record covers nothing unless
    ``keep_errors`` -- by default a rerun retries it -- and a later record for
    the same content replaces an earlier error.
    """

    def __init__(self, records: Iterable[dict[str, Any]], keep_errors: bool = False):
        self.keep_errors = keep_errors
        self._by_key: dict[Any, list[dict[str, Any]]] = {}
        for record in records:
            key = record.get("sha256") or _path_key(record["file"])
            held = self._by_key.setdefault(key, [])
            error = next((k for k, old in enumerate(held) if old["status"] == "error"), None)
            if record["status"] != "error" and error is not None:
                held[error] = record
            else:
                held.append(record)

    def split(self, files: list[str], hashes: dict[str, str | None]
              ) -> tuple[list[str], dict[str, dict[str, Any]]]:
        """(files still to solve, {skipped file: the record that covers it})."""
        left = {key: list(held) for key, held in self._by_key.items()}
        todo: list[str] = []
        covered: dict[str, dict[str, Any]] = {}
        for path in files:
            record = self._take(left, hashes.get(path)) or self._take(left, _path_key(path))
            if record is None:
                todo.append(path)
            else:
                covered[path] = record
        return todo, covered

    def _take(self, left: dict[Any, list[dict[str, Any]]], key: Any) -> dict[str, Any] | None:
        held = left.get(key, []) if key is not None else []
        for k, record in enumerate(held):
            if self.keep_errors or record["status"] != "error":
                return held.pop(k)
        return None


RECORD_START = b'{"file": '
"""How every record line begins (``json.dumps`` of a dict whose first key is ``file``)."""


def _record_of(line: bytes) -> dict[str, Any] | None:
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if (isinstance(record, dict) and isinstance(record.get("file"), str)
            and isinstance(record.get("status"), str)):
        return record
    return None
