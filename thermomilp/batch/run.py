"""The batch itself: [`run_batch`][thermomilp.batch.run_batch] skips what the output already covers,
runs the rest on an executor, appends each record as one whole line (Ctrl-C or SIGTERM never
cuts one), shows progress and sums up ([`BatchSummary`][thermomilp.batch.BatchSummary])."""

from __future__ import annotations

import json
import signal
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol, TextIO

from thermomilp.batch.executors import run_dask, run_pool, run_serial
from thermomilp.batch.job import BatchJob, content_hash
from thermomilp.batch.output import Resume
from thermomilp.core.settings import Backend


class LineSink(Protocol):
    """Where records go: a text stream (stdout) or the ``--out`` file's append log."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class _DeferredInterrupt:
    """SIGINT / SIGTERM handler that never fires while a record line is written: the
    signal becomes a ``KeyboardInterrupt`` after the line (``signum`` says which)."""

    def __init__(self) -> None:
        self.requested = False
        self.writing = False
        self.signum: int | None = None
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> "_DeferredInterrupt":
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self.previous[signum] = signal.signal(signum, self._handler)
            except ValueError:  # not the main thread: leave signals alone
                break
        return self

    def __exit__(self, *exc: object) -> None:
        for signum, previous in self.previous.items():
            signal.signal(signum, previous)

    def _handler(self, signum: int, frame: Any) -> None:
        self.requested = True
        self.signum = signum
        if not self.writing:
            raise KeyboardInterrupt

    def write_line(self, out: LineSink, line: str) -> None:
        self.writing = True
        try:
            out.write(line)
            out.flush()
        finally:
            self.writing = False
        if self.requested:
            raise KeyboardInterrupt


@dataclass
class BatchSummary:
    total: int
    skipped: int
    records: list[dict[str, Any]]
    wall_s: float
    interrupted: bool = False
    stopped_by: int | None = None
    """The signal that interrupted the run (SIGINT or SIGTERM), if one did."""
    covered: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each skipped input and the record of the output that covers it."""

    def final_records(self) -> list[dict[str, Any]]:
        """The record of every input: the one already in the output, or this run's --
        what an uninterrupted run would have written (the exit code is read here)."""
        return list(self.covered.values()) + self.records

    def counts(self) -> dict[str, int]:
        return dict(Counter(record["status"] for record in self.records))

    def table(self) -> str:
        """The summary printed after a batch: statuses, then solve times."""
        times = [float(r.get("time_s") or 0.0) for r in self.records]
        lines = [f"{'status':<12}{'files':>7}"]
        lines += [f"{s:<12}{n:>7}" for s, n in sorted(self.counts().items())]
        lines.append(f"{'done':<12}{len(self.records):>7}   of {self.total}"
                     + (f" ({self.skipped} already in the output)" if self.skipped else ""))
        if self.covered:
            every = Counter(record["status"] for record in self.final_records())
            lines.append("all inputs   " + ", ".join(f"{n} {s}" for s, n in sorted(every.items())))
        if times:
            lines.append(f"solve time   total {sum(times):.3f} s   median "
                         f"{statistics.median(times):.4f} s   max {max(times):.3f} s")
        lines.append(f"wall time    {self.wall_s:.2f} s"
                     + ("   (interrupted)" if self.interrupted else ""))
        return "\n".join(lines)


class Progress:
    """A one-line progress bar, drawn only on a terminal unless ``enabled`` says otherwise
    (logs stay clean): ``[#####.....] 5/10    6.0 s  eta    6.0 s  label``, the one bar of
    ``batch`` and ``generate``. `step` counts one input done (``label``: its status or
    name); `status` says what the current one is doing (``board 6: repair: 12 moves``),
    redrawn at most ten times a second."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None):
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.done = 0
        self._shown = 0.0  # when the bar was last drawn (0: never)

    def step(self, label: str) -> None:
        self.done += 1
        self._show(label)

    def status(self, label: str) -> None:
        if time.perf_counter() - self._shown >= 0.1:
            self._show(f"board {self.done + 1}: {label}")

    def _show(self, label: str) -> None:
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        self._shown = time.perf_counter()
        elapsed = self._shown - self.start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        line = (f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                f"  {elapsed:6.1f} s  eta {eta:6.1f} s  {label}")
        self.stream.write("\r" + line[:100].ljust(100))
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\n")
            self.stream.flush()


def run_batch(files: list[str], job: BatchJob, out: LineSink, *, jobs: int = 1,
              dask: Any = None, previous: Iterable[dict[str, Any]] = (),
              keep_errors: bool = False, progress: Progress | None = None) -> BatchSummary:
    """Solve ``files``, writing one JSON line per file to ``out``; the inputs that
    ``previous`` records already cover ([`Resume`][thermomilp.batch.Resume]) are skipped.

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
    elif (jobs > 1 and len(todo) > 1) or (todo and job.settings.backend is not Backend.HIGHS):
        # every layer but highspy may run its engine as a program (glpsol, cbc...): it goes
        # in a worker even with one job, whose process group is what ends it with the run
        stream = run_pool(todo, job, max(1, min(jobs, len(todo))))
    else:
        stream = run_serial(todo, job)
        if todo:
            from thermomilp.solving.pipeline import warm_up

            warm_up(job.settings)
    with _DeferredInterrupt() as guard:
        try:
            for record in stream:
                record["sha256"] = hashes.get(record["file"])
                guard.write_line(out, json.dumps(record) + "\n")
                summary.records.append(record)
                progress.step(record["status"])
        except KeyboardInterrupt:
            summary.interrupted = True
            summary.stopped_by = guard.signum or int(signal.SIGINT)
        finally:
            close = getattr(stream, "close", None)
            if close:
                close()  # runs the executor's cleanup (terminate the pool, cancel futures)
            progress.close()
    summary.wall_s = time.perf_counter() - start
    return summary
