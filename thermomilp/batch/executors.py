"""The executors of a batch, each yielding records as they finish: in this process, a
pool of spawned worker processes (a worker that dies takes only its own file with
it), or a Dask cluster."""

from __future__ import annotations

import signal
from typing import Any, Callable, Iterator

from thermomilp.batch.job import BatchJob, error_record, internal_error, solve_file


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
