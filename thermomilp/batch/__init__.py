"""Solve a corpus of puzzle files: in parallel, resumable, safe to interrupt.

The unit of work is [`solve_file`][thermomilp.batch.solve_file] -- a plain top-level function of a
path and a frozen [`BatchJob`][thermomilp.batch.BatchJob], so it pickles to a process pool or a
Dask worker unchanged and every executor produces the same records. A record
is the CLI's JSON contract ([`SolveResult.to_json`][thermomilp.solving.SolveResult.to_json]), or the
same keys with status ``error`` when the file cannot be read.

Resuming: the output is JSON Lines, one record per file, appended one whole
line at a time and flushed. [`BatchOutput`][thermomilp.batch.BatchOutput] opens it, locks it against
a second run, reads its records back (refusing a file that is not a batch
output) and cuts a torn last line (a crash mid-write). Each record carries the
SHA-256 of its input (``sha256``), and an input whose content already has a
record is skipped -- wherever the run starts and however the path is spelled.
Error records are retried unless the caller keeps them (``keep_errors``).

Isolation: any exception while reading or solving one file becomes that
file's ``error`` record (an unexpected one says ``internal error``); a worker
process that dies takes only its own file with it ([`run_pool`][thermomilp.batch.run_pool]).

Interrupting: Ctrl-C stops scheduling, discards the files in flight (their
records were never written) and leaves every finished record on disk; the
caller exits with 130. The SIGINT handler never interrupts a line half
written -- it defers the interrupt until the line is flushed.

One module per job, every public name re-exported here:
`job` (the job, one file to one record), the inputs (listed by
the one walker of board files, `thermomilp.formats.inputs`),
`output` (the output file, its lock, resume),
`executors` (serial, process pool, Dask) and
`run` ([`run_batch`][thermomilp.batch.run_batch], progress, the summary).
"""

from __future__ import annotations

from thermomilp.batch.executors import run_dask, run_pool, run_serial, warm_up
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
           "read_output", "run_batch", "run_dask", "run_pool", "run_serial", "solve_file",
           "warm_up"]
