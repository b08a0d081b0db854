"""Solve and uniqueness time for every installed (backend, solver) pair, on one corpus.

    python benchmarks/solvers.py [--repeat 3] [--per-size 3]

Corpus: the project's instances (plus the janko 6x6 corpus when it is
present), and seeded planted boards 8x8-15x15
(``thermomilp.generate.random_board.planted_board``). For each pair and
board we time

* ``solve``:  ``solve(p, backend=b, solver=s, unique=False)`` -- build + one solve;
* ``unique``: ``solve(p, backend=b, solver=s)``               -- build + solve + no-good solve;

both with ``logic="none"`` (the default logic decides most boards before a pair
builds anything), best of ``--repeat`` runs, pairs interleaved board by board so
machine noise hits all of them alike. Ratios are to highspy direct
(``highs/highs``) in the same run. Every pair's status must equal highspy
direct's on every board, or the benchmark stops. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _common import instance_corpus, machine, planted_corpus, summary, timed  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-size", type=int, default=3, help="planted boards per size")
    args = parser.parse_args(argv)
    import pulp
    import pyomo.version

    from thermomilp.backends.matrix import KNOWN_PAIRS, pair_info
    from thermomilp.solving import solve

    instances = instance_corpus()
    corpora = {
        f"instances{' + janko 6x6' if len(instances) > 8 else ''}": instances,
        "planted 8x8-15x15": planted_corpus([8, 10, 12, 15], args.per_size, seed=3),
    }
    pairs = [pair for pair in KNOWN_PAIRS if pair_info(*pair).available]
    missing = [f"{b}/{s}" for b, s in KNOWN_PAIRS if (b, s) not in pairs]
    for backend, solver in pairs:  # warm-up: imports and first engine start are not the pair's
        solve(instances[0][1], backend=backend, solver=solver, logic="none")

    print(f"Machine: {machine()}; PuLP {pulp.__version__}, Pyomo {pyomo.version.version}")
    if missing:
        print(f"Not installed: {', '.join(missing)}")
    for corpus, boards in corpora.items():
        t_solve = {pair: [] for pair in pairs}
        t_unique = {pair: [] for pair in pairs}
        statuses: dict[str, int] = {}
        for _, puzzle in boards:
            reference = solve(puzzle, backend="highs", solver="highs", logic="none").status
            statuses[reference] = statuses.get(reference, 0) + 1
            for backend, solver in pairs:
                run = partial(solve, puzzle, backend=backend, solver=solver, logic="none")
                once = min(timed(partial(run, unique=False))[0] for _ in range(args.repeat))
                best, result = float("inf"), None
                for _ in range(args.repeat):
                    seconds, result = timed(run)
                    best = min(best, seconds)
                if result.status != reference:
                    raise SystemExit(f"{backend}/{solver} says {result.status}, "
                                     f"highs/highs says {reference}")
                t_solve[backend, solver].append(once)
                t_unique[backend, solver].append(best)
        counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        print(f"\n**{corpus}**: {len(boards)} boards ({counts}), best of {args.repeat}\n")
        print("| backend | solver | engine | solve total s | median ms | ratio "
              "| solve + uniqueness total s | median ms | ratio |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|")
        base_solve = sum(t_solve["highs", "highs"])
        base_unique = sum(t_unique["highs", "highs"])
        for backend, solver in pairs:
            s_total, s_median = summary(t_solve[backend, solver])
            u_total, u_median = summary(t_unique[backend, solver])
            print(f"| {backend} | {solver} | {pair_info(backend, solver).version} "
                  f"| {s_total:.3f} | {s_median * 1000:.1f} | {s_total / base_solve:.2f} "
                  f"| {u_total:.3f} | {u_median * 1000:.1f} | {u_total / base_unique:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
