"""How long does a unique Aquarium with a minimal clue set take to generate?

For each size and seed the generator runs on the same random stream with two
rival searches: the default (the subset-sum DP within its node budget, then
the MILP) and the MILP alone (``RivalSearch(dp_give_ups=0)``, the path every
question of a board from about 20x20 on takes). Both are exact, so from one
planted board they delete the same clues -- the script checks that -- and
the ratio is fair. Only the deletions are timed; the board is planted with
the default search (the rival a search meets steers the merges, so two
searches could plant different boards). Also prints how many clues survive.

    PYTHONPATH=. python benchmarks/aquarium_generate.py [--sizes 6 8 10 12] [--seeds 5]
        [--no-baselines]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from thermomilp.generate import aquarium_gen
from thermomilp.generate.aquarium_rivals import RivalSearch

SEARCHES = {"DP+MILP": dict(), "MILP": dict(dp_give_ups=0)}


def timed_generate(n: int, seed: int, search_options: dict):
    rng = random.Random(f"aquarium:{n}x{n}:{seed}")
    planted = aquarium_gen.planted_aquarium(n, n, rng)
    start = time.perf_counter()
    puzzle = aquarium_gen.delete_clues(planted, rng, search=RivalSearch(**search_options))
    return puzzle, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10, 12])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--no-baselines", action="store_true",
                        help="time only the default DP counter")
    args = parser.parse_args()
    counters = {"DP+MILP": SEARCHES["DP+MILP"]}
    if not args.no_baselines:
        counters["MILP"] = SEARCHES["MILP"]
    print("size   clues kept (of 2n)        " + "".join(
        f"{name + ' med s':>16}{name + ' max s':>16}" for name in counters)
        + "".join(f"{name + '/default':>16}" for name in list(counters)[1:]))
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
        line += "".join(f"{med[name] / med['DP+MILP']:16.1f}" for name in list(counters)[1:])
        print(line, flush=True)


if __name__ == "__main__":
    main()
