"""``thermomilp batch DIR_OR_GLOB... [--jobs N] [--out FILE] [--dask ADDRESS]`` (docs/batch.md).

The exit code is read from the record of every input -- this run's or the one already
in the output -- so a resumed run exits like an uninterrupted one.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import nullcontext

from thermomilp.cli.main import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_USAGE,
    add_solver_flags,
)
from thermomilp.core.untrusted import shown


def register(sub) -> None:
    p = sub.add_parser("batch", help="solve a corpus in parallel into a JSON Lines file",
                       description="Solve every puzzle file under DIR (recursively) or matching "
                                   "GLOB, in parallel. Records are the solve JSON contract; "
                                   "inputs whose content already has a record in --out are "
                                   "skipped; Ctrl-C keeps the finished records and exits 130.")
    p.add_argument("inputs", nargs="+", metavar="DIR_OR_GLOB")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes (default: the number of CPUs)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="append records to FILE and skip files already in it "
                        "(default: write to stdout, no resume)")
    p.add_argument("--keep-errors", action="store_true",
                   help="count the error records already in --out as done (default: "
                        "solve those files again)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask distributed scheduler, e.g. tcp://host:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_solver_flags(p)
    p.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    p.add_argument("--no-explain", action="store_true",
                   help="do not look for the conflicting clues of an infeasible board")


def run(args: argparse.Namespace) -> int:
    from thermomilp.batch import BatchJob, BatchOutput, Progress, expand_inputs, run_batch
    from thermomilp.cli.main import settings_of
    from thermomilp.core.errors import ConfigError

    if args.jobs < 1:
        raise ConfigError("--jobs must be at least 1")
    settings = settings_of(args)
    job = BatchJob(settings, unique=not args.no_unique, explain=not args.no_explain)
    skipped: list[tuple[str, str]] = []
    files = expand_inputs(args.inputs, skipped)
    for path, why in skipped:  # an answer file beside the boards: not a board, not an error
        print(f"batch: skipped {shown(path)}: not a board ({why})", file=sys.stderr)
    if args.out:  # a directory input may hold the output itself: never a puzzle
        out = os.path.realpath(args.out)
        files = [f for f in files if os.path.realpath(f) != out]
    progress = Progress(len(files), enabled=False if args.no_progress else None)
    with BatchOutput(args.out) if args.out else nullcontext() as output:  # None: stdout
        summary = run_batch(files, job, output.stream if output else sys.stdout,
                            jobs=args.jobs, dask=args.dask, keep_errors=args.keep_errors,
                            previous=output.records if output else (), progress=progress)
    print(summary.table(), file=sys.stderr)
    if summary.interrupted:
        print("thermomilp: interrupted; rerun the same command to finish the rest"
              if args.out else "thermomilp: interrupted", file=sys.stderr)
        return 128 + summary.stopped_by if summary.stopped_by else EXIT_INTERRUPTED
    return exit_code(summary.final_records())


def exit_code(records: list[dict]) -> int:
    """3 if a record is an internal error (a bug), 2 if a file could not be read,
    1 if some board has no solution, timed out or failed, else 0."""
    from thermomilp.batch import is_internal

    if any(is_internal(r) for r in records):
        return EXIT_INTERNAL
    if any(r["status"] == "error" and r.get("puzzle") is None for r in records):
        return EXIT_USAGE
    if any(r["status"] not in ("unique", "multiple", "solved") for r in records):
        return EXIT_NO_SOLUTION
    return EXIT_OK
