"""Model build time, solve time and peak memory per board size (highs backend).

    python benchmarks/scale.py                 # sizes 25-200; rewrites benchmarks/results/scale.md
    python benchmarks/scale.py --sizes 50 200  # chosen sizes, print only

Each size runs in a fresh subprocess so its peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its own; ``tracemalloc``
measures the peak of Python-level allocations while the model is built.
The board is a planted random Thermometers board (benchmarks/corpora.py);
the solve decides uniqueness with the CLI's default settings.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

LIMIT_MIB = 2048


def measure_one(size: int) -> dict:
    """Runs inside the subprocess."""
    import random
    import resource
    import time
    import tracemalloc

    from thermomilp.core.config import DEFAULTS
    from thermomilp.generate.random_board import planted_board
    from thermomilp.model.formulation import formulate
    from thermomilp.model.highs_model import build_highs, new_highs
    from thermomilp.solving import solve

    new_highs()  # the one-off banner and library load stay out of the timings
    puzzle = planted_board(size, size, random.Random(size))
    start = time.perf_counter()
    form = formulate(puzzle)
    formulated = time.perf_counter()
    highs = build_highs(form, names=False)
    built = time.perf_counter()
    del highs
    tracemalloc.start()  # a second, traced build: tracemalloc slows allocation down
    highs = build_highs(formulate(puzzle), names=False)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del highs
    start_solve = time.perf_counter()
    result = solve(puzzle, backend="highs", solver="highs", logic=DEFAULTS["logic"])
    solved = time.perf_counter()
    none = solve(puzzle, backend="highs", solver="highs", logic="none")
    solved_none = time.perf_counter()
    return {"size": size, "cells": size * size, "formulate_ms": (formulated - start) * 1e3,
            "build_ms": (built - formulated) * 1e3, "traced_peak_mib": traced_peak / 2**20,
            "solve_s": solved - start_solve, "status": result.status,
            "solve_none_s": solved_none - solved, "status_none": none.status,
            "maxrss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def table(rows: list[dict]) -> str:
    from thermomilp.core.config import DEFAULTS

    lines = ["| size | cells | formulate ms | build highs ms | Python peak MiB (build) | "
             f"solve+unique s (logic={DEFAULTS['logic']}) | solve+unique s (logic=none) "
             "| peak RSS MiB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['size']}x{r['size']} | {r['cells']} | {r['formulate_ms']:.1f} | "
                     f"{r['build_ms']:.1f} | {r['traced_peak_mib']:.1f} | "
                     f"{r['solve_s']:.2f} ({r['status']}) | {r['solve_none_s']:.2f} "
                     f"({r['status_none']}) | {r['maxrss_mib']:.0f} |")
    worst = max(r["maxrss_mib"] for r in rows)
    lines += ["", f"Largest peak RSS {worst:.0f} MiB: "
              + ("within" if worst <= LIMIT_MIB else "**over**") + f" the {LIMIT_MIB} MiB budget."]
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--page", default=str(HERE / "results" / "scale.md"))
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure_one(args.child)))
        return 0
    sizes = args.sizes or [25, 50, 100, 150, 200]
    rows = []
    for size in sizes:
        out = subprocess.run([sys.executable, __file__, "--child", str(size)],
                             capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"{size}: {rows[-1]}", file=sys.stderr, flush=True)
    import machine
    from report import replace_block

    body = (f"Machine: {machine.describe()}.\n\nCommand: `python benchmarks/scale.py`.\n\n"
            + table(rows))
    print(body)
    if not args.sizes:
        replace_block(Path(args.page), "scale", body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
