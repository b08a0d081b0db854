"""Solve + uniqueness time with and without the logic presolve, per backend.

Two corpora, timed separately:

* ``unique``: the boards in ``instances/thermometers`` plus seeded boards of
  6x6, 8x8 and 10x10 made by the write-up's recipe (random partition,
  random levels, reroll until unique -- ``stats.py``): what a player or the
  generator meets. Optionally the janko corpus (``--janko DIR``; read in
  place, never copied).
* ``planted``: seeded planted boards of the same sizes *without* the reroll,
  so mostly boards with several solutions -- the MILP must find two.

For every backend (highs, pulp, pyomo) and presolve mode (none, intervals,
probing) we time ``solve(puzzle, backend, logic=mode)`` over the whole
corpus, ``--repeat`` times, keeping the fastest total; every run must give
the same answers as presolve ``none``. Ratios are against ``none`` on the
same backend, measured in the same run.

Usage:  PYTHONPATH=. python benchmarks/presolve.py [--per-size 8] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial
from pathlib import Path

import thermomilp
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.presolve import presolve_cells
from thermomilp.solving import solve

ROOT = Path(__file__).resolve().parent.parent
MODES = ("none", "intervals", "probing")


SIZES = (6, 8, 10)  # 12x12 unique boards take minutes each to roll


def unique_corpus(per_size: int, seed: int, janko: str | None):
    from stats import roll_until_unique

    files = sorted((ROOT / "instances" / "thermometers").glob("*.txt"))
    boards = [thermomilp.load(p) for p in files]
    rng = random.Random(seed)
    for size in SIZES:
        boards += [roll_until_unique(size, rng, max_length=8) for _ in range(per_size)]
    if janko:
        boards += [thermomilp.load(p) for p in sorted(Path(janko).glob("*.txt"))]
    return boards


def planted_corpus(per_size: int, seed: int):
    rng = random.Random(seed)
    return [planted_board(size, size, rng, max_length=8) for size in SIZES
            for _ in range(per_size)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-size", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--backends", nargs="+", default=["highs", "pulp", "pyomo"])
    ap.add_argument("--janko", metavar="DIR")
    args = ap.parse_args()
    corpora = {"unique": unique_corpus(args.per_size, args.seed, args.janko),
               "planted": planted_corpus(args.per_size, args.seed)}
    print(f"best of {args.repeat}; " + ", ".join(f"{k}: {len(v)} boards"
                                                 for k, v in corpora.items()) + "\n")
    for name, boards in corpora.items():
        print(f"### {name}\n")
        table(boards, args)


def table(boards, args) -> None:

    for mode in MODES[1:]:
        best = min(_time(partial(_presolve_all, boards, mode))
                   for _ in range(args.repeat))
        decided = sum(presolve_cells(p, mode)[2] != "open" for p in boards)
        print(f"presolve {mode}: {1000 * best / len(boards):.2f} ms per board, "
              f"decides {decided}/{len(boards)} boards alone")
    print()
    print("| backend | none (s) | intervals (s) | probing (s) | intervals / none "
          "| probing / none |")
    print("|---|---|---|---|---|---|")
    for backend in args.backends:
        solve(boards[0], backend=backend)  # warm up imports
        reference = [_answer(solve(p, backend=backend)) for p in boards]
        totals = {}
        for mode in MODES:
            answers = [_answer(solve(p, backend=backend, logic=mode)) for p in boards]
            assert answers == reference, f"{backend}/{mode} changed an answer"
            totals[mode] = min(_time(partial(_solve_all, boards, backend, mode))
                               for _ in range(args.repeat))
        print(f"| {backend} | {totals['none']:.2f} | {totals['intervals']:.2f} | "
              f"{totals['probing']:.2f} | {totals['intervals'] / totals['none']:.2f} | "
              f"{totals['probing'] / totals['none']:.2f} |", flush=True)
    print()


def _presolve_all(boards, mode: str) -> list:
    return [presolve_cells(p, mode) for p in boards]


def _solve_all(boards, backend: str, mode: str) -> list:
    return [solve(p, backend=backend, logic=mode) for p in boards]


def _answer(result):
    return (result.status, result.grid if result.status == "unique" else None)


def _time(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
