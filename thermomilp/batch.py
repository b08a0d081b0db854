"""Solve a corpus of puzzle files: in parallel, resumable, safe to interrupt.

The unit of work is :func:`solve_file` -- a plain top-level function of a
path and a frozen :class:`BatchJob`, so it pickles to a process pool or a
Dask worker unchanged and every executor produces the same records. A record
is the CLI's JSON contract (:meth:`SolveResult.to_json`), or the same keys
with status ``error`` when the file cannot be read.

Resuming: the output is JSON Lines, one record per file, appended one whole
line at a time and flushed; :func:`done_files` reads it back and the files it
names are skipped. A torn last line (a crash mid-write on another machine) is
cut off before appending, so the output stays valid JSON Lines.

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

from thermomilp.settings import Settings

PUZZLE_SUFFIXES = (".txt", ".json", ".thermo", ".aqua", ".janko", ".task")


@dataclass(frozen=True)
class BatchJob:
    """Everything a worker needs besides the path (picklable, no live objects):
    the one :class:`~thermomilp.settings.Settings` of the run (default: the CLI's
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
    from thermomilp.errors import ThermomilpError
    from thermomilp.formats import load
    from thermomilp.solve import solve

    try:
        puzzle = load(path)
        result = solve(puzzle, unique=job.unique, settings=job.settings)
    except ThermomilpError as exc:
        return error_record(path, str(exc), job)
    return result.to_json(path)


def error_record(path: str, message: str, job: BatchJob | None = None) -> dict[str, Any]:
    return {"file": path, "puzzle": None, "status": "error", "grid": None, "levels": None,
            "second": None, "backend": job.backend if job else None,
            "solver": job.solver if job else None, "time_s": 0.0, "error": message}


# --------------------------------------------------------------------------
# Inputs and the output file
# --------------------------------------------------------------------------


def expand_inputs(patterns: Iterable[str]) -> list[str]:
    """Files named by directories (searched recursively for puzzle suffixes), globs
    or plain paths; sorted, duplicates removed, in the order first seen per pattern."""
    from thermomilp.errors import ConfigError

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


def done_files(out_path: str) -> set[str]:
    """Files that already have a record in ``out_path``.

    The output is only ever appended to, and only when it is a batch output:
    every complete line must be a record (a JSON object with a ``file`` and a
    ``status``). Anything else -- somebody's notes, a corrupt line in the middle
    -- is a :class:`ConfigError` and the file is left exactly as it was. The one
    repair is a torn final line (no newline, not a record: a crash mid-write),
    which is cut off so the next record starts on a line of its own.
    """
    from thermomilp.errors import ConfigError

    if not os.path.exists(out_path):
        return set()
    done: set[str] = set()
    with open(out_path, "rb+") as handle:
        data = handle.read()
        lines = data.splitlines(keepends=True)
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
                raise ConfigError(f"{out_path}:{number}: not a thermomilp batch record; "
                                  "--out appends only to a batch output (choose another file)")
            done.add(os.path.normpath(record["file"]))
            good_end += len(line)
        if good_end < len(data):
            handle.truncate(good_end)
        elif data and not data.endswith(b"\n"):
            handle.write(b"\n")  # a whole last record without its newline
    return done


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
    from thermomilp.engine import warm_up as import_backend

    import_backend(job.settings)


def _solve_star(args: tuple[str, BatchJob]) -> dict[str, Any]:
    return solve_file(*args)


def run_serial(files: list[str], job: BatchJob) -> Iterator[dict[str, Any]]:
    for path in files:
        yield solve_file(path, job)


def run_pool(files: list[str], job: BatchJob, jobs: int) -> Iterator[dict[str, Any]]:
    """A multiprocessing pool; workers ignore SIGINT so only the parent handles Ctrl-C.

    Workers are spawned, not forked: HiGHS keeps a thread pool, and a fork of a
    process whose HiGHS threads are running deadlocks in the child.
    """
    import multiprocessing

    pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_worker_init, initargs=(job,))
    try:
        yield from pool.imap_unordered(_solve_star, [(p, job) for p in files], chunksize=1)
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # on interrupt: drop the files in flight


def run_dask(files: list[str], job: BatchJob, address: Any) -> Iterator[dict[str, Any]]:
    """A Dask distributed cluster: ``address`` is a scheduler address or a Client."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        from thermomilp.errors import ConfigError
        raise ConfigError("--dask needs the dask extra: pip install 'thermomilp[dask]'") from None

    client = address if isinstance(address, Client) else Client(address)
    futures = client.map(solve_file, files, job=job, pure=False)
    try:
        for future in as_completed(futures):
            yield future.result()
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
              dask: Any = None, skip: set[str] | None = None,
              progress: Progress | None = None,
              on_record: Callable[[dict[str, Any]], None] | None = None) -> BatchSummary:
    """Solve ``files`` (minus ``skip``), writing one JSON line per file to ``out``.

    Returns the summary; ``interrupted`` is set when Ctrl-C stopped the run
    (every record in the summary is on disk, nothing else is).
    """
    skip = skip or set()
    todo = [f for f in files if os.path.normpath(f) not in skip]
    summary = BatchSummary(total=len(files), skipped=len(files) - len(todo), records=[],
                           wall_s=0.0)
    progress = progress or Progress(len(todo), enabled=False)
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


__all__ = ["BatchJob", "BatchSummary", "Progress", "done_files", "error_record",
           "expand_inputs", "run_batch", "solve_file"]
