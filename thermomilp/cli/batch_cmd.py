"""``thermomilp batch DIR_OR_GLOB... [--jobs N] [--out FILE] [--dask ADDRESS]``.

Solves a corpus in parallel (a process pool, or a Dask cluster), writes one
JSON Lines record per file (the ``solve --format json`` contract), skips the
files already in ``--out`` (resume), and on Ctrl-C keeps what is done and
exits 130. A progress bar and a summary table go to stderr.
"""

from __future__ import annotations

import argparse
import os
import sys

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK, EXIT_USAGE, add_solver_flags

EXIT_INTERRUPTED = 130


def register(sub) -> None:
    p = sub.add_parser("batch", help="solve a corpus in parallel into a JSON Lines file",
                       description="Solve every puzzle file under DIR (recursively) or matching "
                                   "GLOB, in parallel. Records are the solve JSON contract; "
                                   "files already in --out are skipped; Ctrl-C keeps the "
                                   "finished records and exits 130.")
    p.add_argument("inputs", nargs="+", metavar="DIR_OR_GLOB")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="worker processes (default: the number of CPUs)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="append records to FILE and skip files already in it "
                        "(default: write to stdout, no resume)")
    p.add_argument("--dask", metavar="ADDRESS",
                   help="run on a Dask distributed scheduler, e.g. tcp://host:8786")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_solver_flags(p, formulation=True)
    p.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.batch import BatchJob, Progress, done_files, expand_inputs, run_batch
    from thermomilp.cli.main import settings_from
    from thermomilp.errors import ConfigError

    if args.jobs < 1:
        raise ConfigError("--jobs must be at least 1")
    settings = settings_from(args)
    job = BatchJob(settings, unique=not args.no_unique)
    files = expand_inputs(args.inputs)
    skip = done_files(args.out) if args.out else set()
    todo = sum(1 for f in files if os.path.normpath(f) not in skip)
    progress = Progress(todo, enabled=False if args.no_progress else None)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as out:
            summary = run_batch(files, job, out, jobs=args.jobs, dask=args.dask, skip=skip,
                                progress=progress)
    else:
        summary = run_batch(files, job, sys.stdout, jobs=args.jobs, dask=args.dask,
                            progress=progress)
    print(summary.table(), file=sys.stderr)
    if summary.interrupted:
        print("thermomilp: interrupted; rerun the same command to finish the rest"
              if args.out else "thermomilp: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    statuses = summary.counts()
    if any(r["status"] == "error" and r.get("puzzle") is None for r in summary.records):
        return EXIT_USAGE
    if any(s not in ("unique", "multiple", "solved") for s in statuses):
        return EXIT_NO_SOLUTION
    return EXIT_OK
