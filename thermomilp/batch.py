"""Solve a corpus of puzzle files: in parallel, resumable, safe to interrupt.

The unit of work is :func:`solve_file` -- a plain top-level function of a
path and a frozen :class:`BatchJob`, so it pickles to a process pool or a
Dask worker unchanged and every executor produces the same records. A record
is the CLI's JSON contract (:meth:`SolveResult.to_json`), or the same keys
with status ``error`` when the file cannot be read.

Resuming: the output is JSON Lines, one record per file, appended one whole
line at a time and flushed. :class:`BatchOutput` opens it, locks it against a
second run, reads its records back (refusing a file that is not a batch
output) and cuts a torn last line (a crash mid-write). Each record carries the
SHA-256 of its input (``sha256``), and an input whose content already has a
record is skipped -- wherever the run starts and however the path is spelled.
Error records are retried unless the caller keeps them (``keep_errors``).

Isolation: any exception while reading or solving one file becomes that
file's ``error`` record (an unexpected one says ``internal error``); a worker
process that dies takes only its own file with it (:func:`run_pool`).

Interrupting: Ctrl-C stops scheduling, discards the files in flight (their
records were never written) and leaves every finished record on disk; the
caller exits with 130. The SIGINT handler never interrupts a line half
written -- it defers the interrupt until the line is flushed.
"""

from __future__ import annotations

import glob
import json
import os
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, TextIO

from thermomilp.core.settings import Settings

PUZZLE_SUFFIXES = (".txt", ".json", ".thermo", ".aqua", ".janko", ".task")


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs besides the path (picklable, no live objects):
    the one :class:`~thermomilp.core.settings.Settings` of the run (default: the CLI's
    defaults) and whether to prove uniqueness."""

    settings: Settings = field(default_factory=Settings)
    unique: bool = True

    @property
    def backend(self) -> str:
        return str(self.settings.backend)

    @property
    def solver(self) -> str:
        return str(self.settings.solver)


def solve_file(path: str, job: BatchJob) -> dict[str, Any]:
    """The JSON record of one file; never raises for a bad file or a failed solve."""
    from thermomilp.core.errors import ThermomilpError
    from thermomilp.formats import load
    from thermomilp.solve import solve

    puzzle = None
    try:
        puzzle = load(path)
        result = solve(puzzle, unique=job.unique, settings=job.settings)
        return result.to_json(path)
    except ThermomilpError as exc:
        return error_record(path, str(exc), job)  # bad input or set-up: exit 2
    except Exception as exc:  # noqa: BLE001 - a bug of ours must not end the run
        return error_record(path, internal_error(exc), job, puzzle.kind if puzzle else None)


INTERNAL = "internal error: "
"""How the message of an error record caused by a bug (not by the file) begins."""


def internal_error(exc: BaseException | str) -> str:
    what = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}"
    return f"{INTERNAL}{what} (please report it)"


def is_internal(record: dict[str, Any]) -> bool:
    return record.get("status") == "error" and str(record.get("error") or "").startswith(INTERNAL)


def error_record(path: str, message: str, job: BatchJob | None = None,
                 puzzle: str | None = None) -> dict[str, Any]:
    return {"file": path, "puzzle": puzzle, "status": "error", "grid": None, "levels": None,
            "second": None, "backend": job.backend if job else None,
            "solver": job.solver if job else None, "time_s": 0.0, "error": message}


# --------------------------------------------------------------------------
# Inputs and the output file
# --------------------------------------------------------------------------


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


class BatchOutput:
    """The ``--out`` file, open for the whole run: locked, read back, appended to.

    ``with BatchOutput(path) as output:`` creates the file if needed, takes an
    exclusive lock on it (a second run on the same file is refused with a
    :class:`ConfigError` instead of duplicating every record), and reads its
    records (:attr:`records`). The file is only ever appended to, and only when
    it is a batch output: every complete line must be a record (a JSON object
    with a ``file`` and a ``status``). Anything else -- somebody's notes, a
    corrupt line in the middle -- is a :class:`ConfigError` and the file is left
    exactly as it was. The one repair is a torn final line (no newline, the
    start of a record: a crash mid-write), which is cut off so the next record
    starts on a line of its own. :attr:`stream` is the text stream to append to.

    The lock is ``flock`` (POSIX: Linux, macOS, BSD; it is released when the
    process ends, so a crash leaves no stale lock). Where ``fcntl`` does not
    exist (Windows) the file is not locked.
    """

    def __init__(self, path: str):
        self.path = path
        self.records: list[dict[str, Any]] = []
        self.stream: TextIO  # set by __enter__: the file is opened (and locked) there

    def __enter__(self) -> "BatchOutput":
        import io

        handle = open(self.path, "a+b")  # noqa: SIM115 - closed in __exit__
        try:
            _lock(handle, self.path)
            self.records = _read_records(handle, self.path)
        except BaseException:
            handle.close()
            raise
        self.stream = io.TextIOWrapper(handle, encoding="utf-8", newline="\n")
        return self

    def __exit__(self, *exc: object) -> None:
        self.stream.close()  # closing the file releases the lock


def _lock(handle: Any, path: str) -> None:
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks in the standard library
        return
    from thermomilp.core.errors import ConfigError

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ConfigError(f"{path}: another thermomilp batch is writing to this file; wait "
                          "for it to finish (or choose another --out)") from None
    except OSError:
        pass  # a file system without locks: run unlocked rather than not at all


def _read_records(handle: Any, path: str) -> list[dict[str, Any]]:
    from thermomilp.core.errors import ConfigError

    handle.seek(0)
    data = handle.read()
    lines = data.splitlines(keepends=True)
    records: list[dict[str, Any]] = []
    good_end = 0
    for number, line in enumerate(lines, start=1):
        torn = not line.endswith(b"\n")
        record = _record_of(line)
        if record is None:
            if torn and number == len(lines) and line.startswith(RECORD_START):
                break  # a record torn by a crash mid-write: the only thing ever cut
            if not line.strip():
                good_end += len(line)
                continue
            raise ConfigError(f"{path}:{number}: not a thermomilp batch record; "
                              "--out appends only to a batch output (choose another file)")
        records.append(record)
        good_end += len(line)
    if good_end < len(data):
        handle.truncate(good_end)
    elif data and not data.endswith(b"\n"):
        handle.write(b"\n")  # a whole last record without its newline
    handle.flush()
    return records


def read_output(out_path: str) -> list[dict[str, Any]]:
    """The records of an existing batch output (repairing a torn last line); [] if absent."""
    if not os.path.exists(out_path):
        return []
    with BatchOutput(out_path) as output:
        return output.records


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
            if record["status"] != "error":
                for k, old in enumerate(held):
                    if old["status"] == "error":
                        held[k] = record
                        break
                else:
                    held.append(record)
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


class _DeferredInterrupt:
    """SIGINT handler that never fires inside a ``with writing():`` block."""

    def __init__(self) -> None:
        self.requested = False
        self.writing = False
        self.previous: Any = None

    def __enter__(self) -> "_DeferredInterrupt":
        try:
            self.previous = signal.signal(signal.SIGINT, self._handler)
        except ValueError:  # not the main thread: leave signals alone
            self.previous = None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def _handler(self, signum: int, frame: Any) -> None:
        self.requested = True
        if not self.writing:
            raise KeyboardInterrupt

    def write_line(self, out: TextIO, line: str) -> None:
        self.writing = True
        try:
            out.write(line)
            out.flush()
        finally:
            self.writing = False
        if self.requested:
            raise KeyboardInterrupt


# --------------------------------------------------------------------------
# Executors: each yields records as they finish
# --------------------------------------------------------------------------


def _worker_init(job: BatchJob) -> None:
    """Pool worker start-up: ignore Ctrl-C (the parent handles it) and import the
    solver stack now, so the first file's ``time_s`` measures the solve alone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm_up(job)


def warm_up(job: BatchJob) -> None:
    """Import the solve layer and the job's backend module (and its library)."""
    import thermomilp.solve  # noqa: F401
    from thermomilp.solve.engine import warm_up as import_backend

    import_backend(job.settings)


def run_serial(files: list[str], job: BatchJob) -> Iterator[dict[str, Any]]:
    """In this process: an exception becomes a record, but a crash of the process
    (a segfault in an engine) ends the run -- use ``jobs > 1`` to isolate those."""
    for path in files:
        yield solve_file(path, job)


def run_pool(files: list[str], job: BatchJob, jobs: int,
             work: Callable[[str, BatchJob], dict[str, Any]] = solve_file
             ) -> Iterator[dict[str, Any]]:
    """A pool of ``jobs`` worker processes; workers ignore SIGINT so only the parent
    handles Ctrl-C.

    At most ``jobs`` files are in flight, so when a worker dies (a segfault, the
    OOM killer) the suspects are few: each is run again alone in a fresh worker,
    the one that kills its worker again gets an ``error`` record, and the rest of
    the corpus goes on in a new pool. Workers are spawned, not forked: HiGHS
    keeps a thread pool, and a fork of a process whose HiGHS threads are running
    deadlocks in the child. ``work`` (a picklable top-level function) is
    :func:`solve_file` but for tests.
    """
    pending = list(reversed(files))  # pop() from the end keeps the input order
    while pending:
        suspects: list[str] = []
        yield from _pool_round(pending, job, jobs, work, suspects)
        for path in suspects:  # alone, so a second death names the culprit
            yield from _pool_round([path], job, 1, work, [], crashed=path)


def _pool_round(pending: list[str], job: BatchJob, jobs: int, work: Callable[..., Any],
                suspects: list[str], crashed: str | None = None) -> Iterator[dict[str, Any]]:
    """Run ``pending`` (consumed) until done or a worker dies; the files in flight
    at a death go to ``suspects`` (or, when ``crashed`` is the file run alone,
    become its error record)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init, initargs=(job,))
    flight: dict[Any, str] = {}
    broken = False
    try:
        while pending or flight:
            while pending and len(flight) < jobs and not broken:
                path = pending.pop()
                flight[executor.submit(work, path, job)] = path
            if not flight:
                break
            finished, _ = wait(list(flight), return_when=FIRST_COMPLETED)
            for future in finished:
                path = flight.pop(future)
                try:
                    yield future.result()
                except BrokenProcessPool:
                    broken = True
                    if crashed is not None:
                        yield error_record(path, internal_error(
                            "the worker process died while solving this file "
                            "(a crash in an engine, or out of memory)"), job)
                    else:
                        suspects.append(path)
                except Exception as exc:  # noqa: BLE001 - e.g. a record that would not pickle
                    yield error_record(path, internal_error(exc), job)
            if broken and not flight:
                break
    finally:
        _stop(executor)


def _stop(executor: Any) -> None:
    """Shut a pool down now: on interrupt the files in flight are dropped."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


def run_dask(files: list[str], job: BatchJob, address: Any) -> Iterator[dict[str, Any]]:
    """A Dask distributed cluster: ``address`` is a scheduler address or a Client."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        from thermomilp.core.errors import ConfigError
        raise ConfigError("--dask needs the dask extra: pip install 'thermomilp[dask]'") from None

    client = address if isinstance(address, Client) else Client(address)
    futures = client.map(solve_file, files, job=job, pure=False)
    paths = dict(zip(futures, files, strict=True))
    try:
        for future in as_completed(futures):
            try:
                yield future.result()
            except Exception as exc:  # noqa: BLE001 - e.g. KilledWorker: that file's record
                yield error_record(paths[future], internal_error(exc), job)
    finally:
        client.cancel(futures)
        if client is not address:
            client.close()


# --------------------------------------------------------------------------
# The batch itself
# --------------------------------------------------------------------------


@dataclass
class BatchSummary:
    total: int
    skipped: int
    records: list[dict[str, Any]]
    wall_s: float
    interrupted: bool = False
    covered: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each skipped input and the record of the output that covers it."""

    def final_records(self) -> list[dict[str, Any]]:
        """The record of every input: the one already in the output, or this run's --
        what an uninterrupted run would have written (the exit code is read here)."""
        return list(self.covered.values()) + self.records

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for record in self.records:
            out[record["status"]] = out.get(record["status"], 0) + 1
        return out

    def table(self) -> str:
        """The summary printed after a batch: statuses, then solve times."""
        times = [float(r.get("time_s") or 0.0) for r in self.records]
        lines = [f"{'status':<12}{'files':>7}"]
        lines += [f"{s:<12}{n:>7}" for s, n in sorted(self.counts().items())]
        lines.append(f"{'done':<12}{len(self.records):>7}   of {self.total}"
                     + (f" ({self.skipped} already in the output)" if self.skipped else ""))
        if self.covered:
            every: dict[str, int] = {}
            for record in self.final_records():
                every[record["status"]] = every.get(record["status"], 0) + 1
            lines.append("all inputs   " + ", ".join(f"{n} {s}" for s, n in sorted(every.items())))
        if times:
            lines.append(f"solve time   total {sum(times):.3f} s   median "
                         f"{statistics.median(times):.4f} s   max {max(times):.3f} s")
        lines.append(f"wall time    {self.wall_s:.2f} s"
                     + ("   (interrupted)" if self.interrupted else ""))
        return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal; silent elsewhere (logs stay clean)."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None):
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.done = 0

    def step(self, status: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        elapsed = time.perf_counter() - self.start
        eta = elapsed / self.done * (self.total - self.done)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                          f"  {elapsed:6.1f} s  eta {eta:6.1f} s  last: {status:<10}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.done:
            self.stream.write("\n")
            self.stream.flush()


def run_batch(files: list[str], job: BatchJob, out: TextIO, *, jobs: int = 1,
              dask: Any = None, previous: Iterable[dict[str, Any]] = (),
              keep_errors: bool = False, progress: Progress | None = None,
              on_record: Callable[[dict[str, Any]], None] | None = None) -> BatchSummary:
    """Solve ``files``, writing one JSON line per file to ``out``; the inputs that
    ``previous`` records already cover (:class:`Resume`) are skipped.

    Every record written carries ``sha256``, the input's content hash. Returns
    the summary; ``interrupted`` is set when Ctrl-C stopped the run (every record
    in the summary is on disk, nothing else is).
    """
    hashes = {path: content_hash(path) for path in files}
    todo, covered = Resume(previous, keep_errors).split(files, hashes)
    summary = BatchSummary(total=len(files), skipped=len(covered), records=[], wall_s=0.0,
                           covered=covered)
    progress = progress or Progress(len(todo), enabled=False)
    progress.total = len(todo)
    start = time.perf_counter()
    if dask is not None:
        stream = run_dask(todo, job, dask)
    elif jobs > 1 and len(todo) > 1:
        stream = run_pool(todo, job, min(jobs, len(todo)))
    else:
        stream = run_serial(todo, job)
        if todo:
            warm_up(job)
    with _DeferredInterrupt() as guard:
        try:
            for record in stream:
                record["sha256"] = hashes.get(record["file"])
                guard.write_line(out, json.dumps(record) + "\n")
                summary.records.append(record)
                progress.step(record["status"])
                if on_record:
                    on_record(record)
        except KeyboardInterrupt:
            summary.interrupted = True
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()  # runs the executor's cleanup (terminate the pool, cancel futures)
            progress.close()
    summary.wall_s = time.perf_counter() - start
    return summary


__all__ = ["BatchJob", "BatchOutput", "BatchSummary", "Progress", "Resume", "content_hash",
           "error_record", "expand_inputs", "is_internal", "read_output", "run_batch",
           "solve_file"]
