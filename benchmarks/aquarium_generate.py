"""How long does a unique Aquarium with a minimal clue set take to generate?

For each size and seed the backward generator runs on the same random
stream with four counters: the subset-sum DP with ``probing="auto"`` (what
``generate_aquarium`` uses), with root probing always, without probing, and
the MILP counter
(HiGHS, cell model, no-good cuts) as the baseline. All are exact, so all
runs delete the same clues and return the same board -- the script checks
that -- and the ratios are fair. Also prints how many clues survive.

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
from thermomilp.logic.aquarium_dp import dp_count
from thermomilp.solve import count_solutions


def milp_count(puzzle, limit=None, known=None):
    return count_solutions(puzzle, limit, "highs")


def dp_count_no_probing(puzzle, limit=None, known=None):
    return dp_count(puzzle, limit, known, probing="none")


def dp_count_root_probing(puzzle, limit=None, known=None):
    return dp_count(puzzle, limit, known, probing="root")


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
    parser.add_argument("--no-baselines", action="store_true",
                        help="time only the default DP counter")
    args = parser.parse_args()
    counters = {"DP auto": None}
    if not args.no_baselines:
        counters.update({"DP probe": dp_count_root_probing, "DP plain": dp_count_no_probing,
                         "MILP": milp_count})
    print("size   clues kept (of 2n)        " + "".join(
        f"{name + ' med s':>16}{name + ' max s':>16}" for name in counters)
        + "".join(f"{name + '/auto':>16}" for name in list(counters)[1:]))
    for n in args.sizes:
        kept: list[int] = []
        times: dict[str, list[float]] = {name: [] for name in counters}
        for seed in range(args.seeds):
            first = None
            for name, counter in counters.items():
                puzzle, seconds = timed_generate(n, seed, counter)
                times[name].append(seconds)
                if first is None:
                    first = puzzle
                    kept.append(sum(v is not None for v in puzzle.rows + puzzle.cols))
                assert puzzle == first, "exact counters must delete the same clues"
        med = {name: statistics.median(t) for name, t in times.items()}
        line = f"{n:>2}x{n:<2}  {statistics.mean(kept):5.1f} of {2 * n:<2} (min {min(kept)}, " \
               f"max {max(kept)})  "
        line += "".join(f"{med[name]:16.3f}{max(times[name]):16.3f}" for name in counters)
        line += "".join(f"{med[name] / med['DP auto']:16.1f}" for name in list(counters)[1:])
        print(line, flush=True)


if __name__ == "__main__":
    main()
