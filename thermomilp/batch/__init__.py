"""Solve a corpus of puzzle files: in parallel, resumable, safe to interrupt (docs/batch.md).

The unit of work is [`solve_file`][thermomilp.batch.solve_file] -- a plain top-level function
of a path and a frozen [`BatchJob`][thermomilp.batch.BatchJob], so it pickles to a process
pool or a Dask worker and every executor produces the same records. A record is the CLI's
JSON contract ([`SolveResult.to_json`][thermomilp.solving.SolveResult.to_json]), or the same
keys with status ``error`` when the file cannot be read.

* Resuming: the output is JSON Lines, appended one whole line at a time
  ([`BatchOutput`][thermomilp.batch.BatchOutput]: locked, read back, a torn last line cut).
  Each record carries the SHA-256 of its input (``sha256``); an input whose content already
  has a record is skipped, error records are retried unless ``keep_errors``.
* Isolation: any exception while reading or solving one file becomes that file's ``error``
  record; a worker process that dies takes only its own file with it
  ([`run_pool`][thermomilp.batch.run_pool]).
* Interrupting: Ctrl-C stops scheduling, discards the files in flight and leaves every
  finished record on disk (never a line half written); the caller exits with 130.
"""

from __future__ import annotations

from thermomilp.batch.executors import run_dask, run_pool, run_serial
from thermomilp.batch.job import (
    BatchJob,
    content_hash,
    error_record,
    internal_error,
    is_internal,
    solve_file,
)
from thermomilp.batch.output import BatchOutput, Resume, read_output
from thermomilp.batch.run import BatchSummary, Progress, run_batch
from thermomilp.formats.inputs import PUZZLE_SUFFIXES, expand_inputs

__all__ = ["PUZZLE_SUFFIXES", "BatchJob", "BatchOutput", "BatchSummary", "Progress", "Resume",
           "content_hash", "error_record", "expand_inputs", "internal_error", "is_internal",
           "read_output", "run_batch", "run_dask", "run_pool", "run_serial", "solve_file"]
