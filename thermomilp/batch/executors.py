"""The executors of a batch, each yielding records as they finish: in this process, a
pool of spawned worker processes (a worker that dies takes only its own file with
it), or a Dask cluster.

Nothing a pool starts outlives the run. Each worker leads a process group of its own
(a terminal's Ctrl-C reaches only the parent; the worker and every engine program it
starts end as one group; a worker does not ignore SIGINT, since an ignored signal is
inherited across ``exec``). The group ends when:

* the run ends, is interrupted (SIGINT, SIGTERM) or fails: the parent kills every
  worker's group (`_stop`);
* the parent dies without cleaning up: on Linux the kernel sends the worker SIGTERM
  (``PR_SET_PDEATHSIG``), elsewhere a watchdog thread notices within `WATCH_INTERVAL`
  seconds; the worker then kills its own group (`_end_group`).

A group killed with SIGKILL runs no cleanup, so the workers write their engines'
temporary files under one scratch folder of the run, which the parent removes once the
workers are gone (`_pool_round`), and which a worker whose parent died removes first.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from typing import Any, Callable, Iterator

from thermomilp.batch.job import BatchJob, error_record, internal_error, solve_file

WATCH_INTERVAL = 0.5
"""Seconds between a worker's checks that its parent is alive."""


_scratch: str | None = None
"""In a pool worker: the run's scratch folder, its temporary folder (module doc)."""


def _worker_init(job: BatchJob, parent: int, scratch: str | None = None) -> None:
    """Pool worker start-up: a process group of its own, ended with the parent,
    temporary files under the run's ``scratch`` folder, and the solver stack
    imported now, so the first file's ``time_s`` measures the solve alone."""
    global _scratch
    if scratch is not None:
        _scratch = scratch
        os.environ["TMPDIR"] = scratch  # the engine programs' too
        tempfile.tempdir = scratch
    if hasattr(os, "setpgid"):  # POSIX; on Windows the pool's own terminate() is all
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
    signal.signal(signal.SIGTERM, _end_group)
    _die_with(parent)
    from thermomilp.solving.pipeline import warm_up

    warm_up(job.settings)  # what a board needs, before its clock starts


def _end_group(signum: int = signal.SIGTERM, frame: Any = None) -> None:
    """Kill this worker's process group: the worker and the engine programs it runs,
    after removing the run's scratch folder (the parent that would have is gone)."""
    if _scratch is not None:
        shutil.rmtree(_scratch, ignore_errors=True)
    _kill_group_of(os.getpid())
    os._exit(128 + signum)


def _kill_group_of(pid: int) -> bool:
    """SIGKILL the process group ``pid`` leads; False when it leads none (or on Windows)."""
    try:
        if hasattr(os, "killpg") and os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
            return True
    except OSError:
        pass
    return False


def _die_with(parent: int) -> None:
    """End this worker (and its group) when ``parent`` dies."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1  # noqa: N806 - <sys/prctl.h>
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                _end_group()
            threading.Event().wait(WATCH_INTERVAL)

    if os.getppid() != parent:  # it died before the death signal was armed
        _end_group()
    threading.Thread(target=watch, name="thermomilp-parent-watch", daemon=True).start()


def run_serial(files: list[str], job: BatchJob) -> Iterator[dict[str, Any]]:
    """In this process: an exception becomes a record, but a crash of the process
    (a segfault in an engine) ends the run -- use ``jobs > 1`` to isolate those."""
    for path in files:
        yield solve_file(path, job)


def run_pool(files: list[str], job: BatchJob, jobs: int,
             work: Callable[[str, BatchJob], dict[str, Any]] = solve_file
             ) -> Iterator[dict[str, Any]]:
    """A pool of ``jobs`` worker processes, each in a process group of its own, so
    only the parent handles Ctrl-C and every worker ends with the run (module doc).

    At most ``jobs`` files are in flight, so when a worker dies (a segfault, the
    OOM killer) the suspects are few: each is run again alone in a fresh worker,
    the one that kills its worker again gets an ``error`` record, and the rest of
    the corpus goes on in a new pool. Workers are spawned, not forked: HiGHS
    keeps a thread pool, and a fork of a process whose HiGHS threads are running
    deadlocks in the child. ``work`` (a picklable top-level function) is
    [`solve_file`][thermomilp.batch.solve_file] but for tests.
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

    scratch = tempfile.mkdtemp(prefix="thermomilp-batch-")
    executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_init,
                                   initargs=(job, os.getpid(), scratch))
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
        shutil.rmtree(scratch, ignore_errors=True)  # the workers are gone: nothing writes


def _stop(executor: Any) -> None:
    """Shut a pool down now: on interrupt the files in flight are dropped. Each
    worker's whole process group is killed, so no engine program it started
    (``glpsol``, ``cbc``) keeps running."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        if process.pid is not None and not _kill_group_of(process.pid) and process.is_alive():
            process.kill()
    executor.shutdown(wait=True, cancel_futures=True)


def run_dask(files: list[str], job: BatchJob, address: Any) -> Iterator[dict[str, Any]]:
    """A Dask distributed cluster: ``address`` is a scheduler address or a Client."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        from thermomilp.core.errors import ConfigError
        from thermomilp.core.install import pip_install
        raise ConfigError(f"--dask needs the dask extra: {pip_install('dask')}") from None

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
