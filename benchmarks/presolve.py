"""Solve + uniqueness time with and without the logic presolve, per backend.

Corpus: the boards in ``instances/thermometers`` plus seeded planted boards
(``planted_board``, thermometers up to 8 long) of 6x6, 8x8, 10x10 and 12x12
-- unique or not, the work is the same: one solve and one no-good solve,
unless presolve decides the board alone. Optionally the janko corpus
(``--janko DIR``; read in place, never copied).

For every backend (highs, pulp, pyomo) and presolve mode (none, intervals,
probing) we time ``solve(puzzle, backend, presolve=mode)`` over the whole
corpus, ``--repeat`` times, keeping the fastest total; every run must give
the same answers as presolve ``none``. Ratios are against ``none`` on the
same backend, measured in the same run.

Usage:  PYTHONPATH=. python benchmarks/presolve.py [--per-size 8] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import thermomilp
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.presolve import presolve_cells
from thermomilp.solve import solve

ROOT = Path(__file__).resolve().parent.parent
MODES = ("none", "intervals", "probing")


def corpus(per_size: int, seed: int, janko: str | None):
    boards = [thermomilp.load(p) for p in sorted((ROOT / "instances" / "thermometers").glob("*.txt"))]
    rng = random.Random(seed)
    for size in (6, 8, 10, 12):
        boards += [planted_board(size, size, rng, max_length=8) for _ in range(per_size)]
    if janko:
        boards += [thermomilp.load(p) for p in sorted(Path(janko).glob("*.txt"))]
    return boards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--backends", nargs="+", default=["highs", "pulp", "pyomo"])
    ap.add_argument("--janko", metavar="DIR")
    args = ap.parse_args()
    boards = corpus(args.per_size, args.seed, args.janko)
    print(f"{len(boards)} boards, best of {args.repeat}\n")

    for mode in MODES[1:]:
        best = min(_time(lambda: [presolve_cells(p, mode) for p in boards])
                   for _ in range(args.repeat))
        decided = sum(presolve_cells(p, mode)[2] != "open" for p in boards)
        print(f"presolve {mode}: {1000 * best / len(boards):.2f} ms per board, "
              f"decides {decided}/{len(boards)} boards alone")
    print()
    print("| backend | none (s) | intervals (s) | probing (s) | intervals / none | probing / none |")
    print("|---|---|---|---|---|---|")
    for backend in args.backends:
        solve(boards[0], backend)  # warm up imports
        reference = [_answer(solve(p, backend)) for p in boards]
        totals = {}
        for mode in MODES:
            answers = [_answer(solve(p, backend, presolve=mode)) for p in boards]
            assert answers == reference, f"{backend}/{mode} changed an answer"
            totals[mode] = min(_time(lambda: [solve(p, backend, presolve=mode) for p in boards])
                               for _ in range(args.repeat))
        print(f"| {backend} | {totals['none']:.2f} | {totals['intervals']:.2f} | "
              f"{totals['probing']:.2f} | {totals['intervals'] / totals['none']:.2f} | "
              f"{totals['probing'] / totals['none']:.2f} |", flush=True)


def _answer(result):
    return (result.status, result.grid if result.status == "unique" else None)


def _time(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
