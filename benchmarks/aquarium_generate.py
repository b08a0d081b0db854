"""How long does a unique Aquarium with a minimal clue set take to generate?

For each size and seed the backward generator runs twice on the same random
stream: once with the subset-sum DP counter (what ``generate_aquarium``
uses) and once with the MILP counter (HiGHS, cell model, no-good cuts) as
the baseline. Both counters are exact, so both runs delete the same clues
and return the same board -- the script checks that -- and the ratio is a
fair one. Also prints how many clues survive per size.

    PYTHONPATH=. python benchmarks/aquarium_generate.py [--sizes 6 8 10 12] [--seeds 5]
        [--no-milp]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from unittest import mock

from thermomilp.generate import aquarium_gen
from thermomilp.solve import count_solutions


def milp_count(puzzle, limit=None, known=None):
    return count_solutions(puzzle, limit, "highs")


def timed_generate(n: int, seed: int, counter=None):
    rng = random.Random(f"aquarium:{n}x{n}:{seed}")
    start = time.perf_counter()
    if counter is None:
        planted = aquarium_gen.planted_aquarium(n, n, rng)
        puzzle = aquarium_gen.delete_clues(planted, rng)
    else:
        with mock.patch.object(aquarium_gen, "dp_count", counter):
            planted = aquarium_gen.planted_aquarium(n, n, rng)
            puzzle = aquarium_gen.delete_clues(planted, rng)
    return puzzle, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10, 12])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--no-milp", action="store_true", help="skip the MILP baseline")
    args = parser.parse_args()
    print(f"{'size':>6} {'clues kept (of 2n)':>20} {'DP s (median)':>14} {'DP s (max)':>11}"
          f" {'MILP s (median)':>16} {'MILP/DP':>8}")
    for n in args.sizes:
        kept, dp_times, milp_times = [], [], []
        for seed in range(args.seeds):
            puzzle, t_dp = timed_generate(n, seed)
            kept.append(sum(v is not None for v in puzzle.rows + puzzle.cols))
            dp_times.append(t_dp)
            if not args.no_milp:
                again, t_milp = timed_generate(n, seed, milp_count)
                assert again == puzzle, "the two exact counters must delete the same clues"
                milp_times.append(t_milp)
        milp = (f"{statistics.median(milp_times):16.3f} "
                f"{statistics.median(milp_times) / statistics.median(dp_times):8.1f}"
                if milp_times else f"{'-':>16} {'-':>8}")
        print(f"{n:>3}x{n:<2} {statistics.mean(kept):>8.1f} of {2 * n:<2} "
              f"(min {min(kept)}, max {max(kept)}) {statistics.median(dp_times):7.3f}"
              f"       {max(dp_times):8.3f}  {milp}", flush=True)


if __name__ == "__main__":
    main()
