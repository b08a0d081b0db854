"""Time per unique Thermometers board, per strategy and size (run on demand, not in CI).

    PYTHONPATH=. python benchmarks/generate.py [--boards N] [--budget S] [--sizes 6,10,15,20,30]

For each size and strategy it generates boards with seeds ``bench:0``,
``bench:1``, ... and reports the median and 90th-percentile seconds per
board, the grades, and -- for ``reroll``, capped by ``--budget`` seconds per
board -- how many boards it gave up on. Each board is proven unique by the
MILP inside the generator; boards up to 8x8 are also counted by the
independent brute force. Prints a Markdown table for ``docs/generate.md``.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import time


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def main() -> None:
    from thermomilp.generate.thermometers_gen import GenerationError, generate_thermometers
    from thermomilp.logic.brute import brute_force_count

    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=10)
    ap.add_argument("--big-boards", type=int, default=5, help="boards at 20x20 and above")
    ap.add_argument("--budget", type=float, default=60.0, help="reroll seconds per board")
    ap.add_argument("--sizes", default="6,10,15,20,30")
    ap.add_argument("--strategies", default="repair,reroll")
    ap.add_argument("--straight", action="store_true")
    args = ap.parse_args()
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        for strategy in args.strategies.split(","):
            times, grades, gave_up = [], collections.Counter(), 0
            boards = args.boards if n < 20 else args.big_boards
            for i in range(boards):
                start = time.perf_counter()
                try:
                    g = generate_thermometers(n, n, "bench", index=i, strategy=strategy,
                                              straight=args.straight,
                                              time_limit=args.budget if strategy == "reroll"
                                              else None)
                except GenerationError:
                    gave_up += 1
                    print(f"{n}x{n} {strategy} board {i}: gave up after {args.budget:.0f} s",
                          file=sys.stderr, flush=True)
                    if gave_up >= 2:
                        break  # the pattern is clear; do not burn the machine
                    continue
                times.append(time.perf_counter() - start)
                grades[g.grade] += 1
                if n <= 8:
                    assert brute_force_count(g.puzzle.with_clues(g.puzzle.rows, g.puzzle.cols),
                                             2) == 1
                print(f"{n}x{n} {strategy} board {i}: {times[-1]:.2f} s {g.grade} {g.stats}",
                      file=sys.stderr, flush=True)
            med = f"{statistics.median(times):.2f}" if times else "-"
            p90 = f"{percentile(times, 0.9):.2f}" if times else "-"
            rows.append((f"{n}x{n}", strategy, len(times), gave_up, med, p90,
                         ", ".join(f"{k} {v}" for k, v in sorted(grades.items()))))
    print("| size | strategy | boards | gave up | median s | p90 s | grades |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main()
