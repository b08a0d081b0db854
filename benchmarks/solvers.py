"""Solve and uniqueness time for every installed (backend, solver) pair, on one corpus.

Corpus: every instance in ``instances/`` plus seeded random planted boards
(``thermomilp.generate.random_board.planted_board``) of growing size. For
each pair and board we time

* ``solve``:  ``solve(p, backend, solver, unique=False)`` -- build + one solve;
* ``unique``: ``solve(p, backend, solver)``               -- build + solve + no-good solve;

taking the best of ``--repeat`` runs per board, and sum over the corpus.
Ratios are to highspy direct (``highs/highs``) measured in the same run, so
the table compares pairs on one machine at one moment. Every result's status
is checked against highspy direct's (a disagreement aborts the benchmark).

    python benchmarks/solvers.py [--repeat 3] [--seeds 4] [--markdown]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from thermomilp.backends.matrix import KNOWN_PAIRS, pair_info  # noqa: E402
from thermomilp.formats import load  # noqa: E402
from thermomilp.generate.random_board import planted_board  # noqa: E402
from thermomilp.solve import solve  # noqa: E402

SIZES = ((8, 8), (10, 10), (12, 12), (15, 15))


def corpus(seeds: int) -> list[tuple[str, object]]:
    boards = [(p.stem, load(p)) for p in sorted((REPO / "instances").rglob("*.txt"))]
    for height, width in SIZES:
        for seed in range(seeds):
            rng = random.Random(1000 * height + seed)
            boards.append((f"random{height}x{width}-s{seed}",
                           planted_board(height, width, rng, missing=0.2)))
    return boards


def best_time(run, repeat: int):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3, help="random boards per size")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)

    boards = corpus(args.seeds)
    pairs = [pair for pair in KNOWN_PAIRS if pair_info(*pair).available]
    missing = [f"{b}/{s}" for b, s in KNOWN_PAIRS if (b, s) not in pairs]
    for backend, solver in pairs:  # warm-up: imports, first engine start
        solve(boards[0][1], backend, solver)

    totals: dict[tuple[str, str], tuple[float, float]] = {}
    reference: dict[str, str] = {}
    for backend, solver in pairs:
        t_solve = t_unique = 0.0
        for name, puzzle in boards:
            seconds, _ = best_time(lambda: solve(puzzle, backend, solver, unique=False),
                                   args.repeat)
            t_solve += seconds
            seconds, result = best_time(lambda: solve(puzzle, backend, solver), args.repeat)
            t_unique += seconds
            expected = reference.setdefault(name, result.status)
            if result.status != expected:
                raise SystemExit(f"{backend}/{solver} says {result.status} on {name}, "
                                 f"highs/highs said {expected}")
        totals[backend, solver] = (t_solve, t_unique)
        print(f"  measured {backend}/{solver}", file=sys.stderr)

    base_solve, base_unique = totals["highs", "highs"]
    statuses = sorted({s for s in reference.values()})
    print(f"corpus: {len(boards)} boards ({', '.join(f'{sum(v == s for v in reference.values())} {s}' for s in statuses)}); "
          f"best of {args.repeat}; Python {sys.version.split()[0]}")
    if missing:
        print(f"not installed: {', '.join(missing)}")
    if args.markdown:
        print("\n| backend | solver | engine | solve (s) | ratio | solve + uniqueness (s) | ratio |")
        print("|---|---|---|---:|---:|---:|---:|")
    for (backend, solver), (t_solve, t_unique) in totals.items():
        version = pair_info(backend, solver).version
        cells = [backend, solver, version, f"{t_solve:.3f}", f"{t_solve / base_solve:.1f}x",
                 f"{t_unique:.3f}", f"{t_unique / base_unique:.1f}x"]
        if args.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(f"{backend:<6} {solver:<6} {version:<26} solve {cells[3]:>8}s {cells[4]:>7}   "
                  f"unique {cells[5]:>8}s {cells[6]:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
