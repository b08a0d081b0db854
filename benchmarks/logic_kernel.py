"""The logic alone on hard boards: the compiled kernel against the Python kernel.

    python benchmarks/logic_kernel.py [--repeats 5]

What the default path's presolve does on each board of ``benchmarks/hard/`` (and
g14_15x15_hard): the probing fixpoint from the full domains, then the presolve's
search (``presolve(puzzle, "probing")``), each run with a `BoardLogic` of its own
(line tables and fixpoint built again). Both kernels get the compiled kernel's search
budget here, so that they do the same work: the Python kernel's own, smaller budget
(``presolve.SEARCH_TIMES_PROBING``) would let it give up where the compiled one
decides. The two kernels (``thermomilp.logic.propagation``) run interleaved, board by
board, in one process; per board the median of the repeats, wall and CPU time; their
answers and work ticks must be the same (a difference is printed).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT)]


def boards():
    from thermomilp.formats import load

    paths = [ROOT / "instances" / "thermometers" / "generated" / "g14_15x15_hard.txt"]
    paths += sorted((HERE / "hard").glob("*.txt"))
    return [(p.stem, load(p)) for p in paths]


def logic_once(puzzle, which: str):
    """The presolve of the default path under kernel ``which``, with the compiled kernel's
    search budget whichever kernel runs (the same work, so the same answer):
    (status, work ticks, whether the search gave up)."""
    from thermomilp.logic import presolve, propagation

    saved, propagation.KERNEL = propagation.KERNEL, which
    budgets = dict(presolve.SEARCH_TIMES_PROBING)
    presolve.SEARCH_TIMES_PROBING["python"] = budgets["compiled"]
    try:
        board = presolve.presolve(puzzle, "probing")  # a new BoardLogic: nothing kept
        return board.status, board.root_work, board.search_gave_up
    finally:
        propagation.KERNEL = saved
        presolve.SEARCH_TIMES_PROBING.update(budgets)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest run, for the test suite's smoke run: the first "
                             "2 boards")
    args = parser.parse_args()
    from thermomilp.logic import propagation

    if not propagation.available():
        sys.exit(f"the compiled kernel is not built ({propagation.REASON})")
    kinds = ("compiled", "python")
    print(f"The logic of the default path (probing + the presolve's search), median of "
          f"{args.repeats}, kernels interleaved:\n")
    print("| board | outcome | probing ticks | compiled s | python s | speed-up (wall) "
          "| compiled CPU s | python CPU s | speed-up (CPU) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    totals = {(k, c): 0.0 for k in kinds for c in ("wall", "cpu")}
    for label, puzzle in boards()[:2 if args.smoke else None]:
        times = {(k, c): [] for k in kinds for c in ("wall", "cpu")}
        answers = {}
        for _ in range(args.repeats):
            for which in kinds:
                start, cpu = time.perf_counter(), time.process_time()
                answers[which] = logic_once(puzzle, which)
                times[which, "cpu"].append(time.process_time() - cpu)
                times[which, "wall"].append(time.perf_counter() - start)
        med = {key: statistics.median(t) for key, t in times.items()}
        for key in med:
            totals[key] += med[key]
        status, ticks, gave_up = answers["compiled"]
        outcome = status + (" (search gave up)" if gave_up else "")
        if answers["compiled"] != answers["python"]:
            outcome = f"DISAGREE {answers}"
        print(f"| {label} ({puzzle.height}x{puzzle.width}) | {outcome} | {ticks} "
              f"| {med['compiled', 'wall']:.4f} | {med['python', 'wall']:.3f} "
              f"| {med['python', 'wall'] / med['compiled', 'wall']:.0f}x "
              f"| {med['compiled', 'cpu']:.4f} | {med['python', 'cpu']:.3f} "
              f"| {med['python', 'cpu'] / med['compiled', 'cpu']:.0f}x |")
    print(f"| **total** | | | {totals['compiled', 'wall']:.3f} | {totals['python', 'wall']:.3f} "
          f"| **{totals['python', 'wall'] / totals['compiled', 'wall']:.0f}x** "
          f"| {totals['compiled', 'cpu']:.3f} | {totals['python', 'cpu']:.3f} "
          f"| **{totals['python', 'cpu'] / totals['compiled', 'cpu']:.0f}x** |")


if __name__ == "__main__":
    main()
