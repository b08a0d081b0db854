"""Growth of generation time with board size, interleaved with a fixed baseline.

    PYTHONPATH=. python benchmarks/generate_scale.py [--puzzle thermometers|aquarium]
        [--sizes 10,20,30,40,50] [--boards 3] [--seed scale] [--budget 600]

The machine is shared, so absolute seconds drift with the load. Each round
therefore makes one board of every size *and* one baseline board, in turn
(round-robin), and the table reports each size's median beside the median of
the baseline measured in the same rounds, and their ratio:

* Thermometers: the baseline is the published reroll strategy at 10x10
  (random boards until the MILP finds one unique);
* Aquarium: the baseline is a minimal-clue 10x10 Aquarium.

Wall seconds and CPU seconds (this process; HiGHS runs single-threaded here)
are both reported, with the load average before and after the run.
Thermometers boards up to ``--verify-up-to`` (15) are recounted outside the
timing by the logic search counter; every board is proven unique inside the
generator (MILP for Thermometers, the subset-sum DP for Aquarium).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def one_board(puzzle: str, n: int, seed: str, index: int, strategy: str = "repair",
              budget: float | None = None):
    if puzzle == "thermometers":
        from thermomilp.generate.thermometers_gen import generate_thermometers

        return generate_thermometers(n, n, seed, index=index, strategy=strategy,
                                     time_limit=budget).puzzle
    from thermomilp.generate.aquarium_bridge import aquarium_board

    return aquarium_board(n, n, seed, index, time_limit=budget)


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, value


def main() -> None:
    from thermomilp.core.errors import ThermomilpError
    from thermomilp.logic.search import search_count

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", choices=("thermometers", "aquarium"), default="thermometers")
    ap.add_argument("--sizes", default="10,20,30,40,50")
    ap.add_argument("--boards", type=int, default=3)
    ap.add_argument("--seed", default="scale")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per board")
    ap.add_argument("--verify-up-to", type=int, default=15, dest="verify_up_to")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    base_name = ("reroll 10x10" if args.puzzle == "thermometers" else "minimal 10x10")
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    failed: dict[str, int] = {}
    load_before = os.getloadavg()
    for i in range(args.boards):
        jobs = [(base_name, 10, "reroll" if args.puzzle == "thermometers" else "repair")]
        jobs += [(f"{n}x{n}", n, "repair") for n in sizes]
        for name, n, strategy in jobs:
            try:
                w, c, board = timed(lambda n=n, name=name, i=i, strategy=strategy: one_board(
                    args.puzzle, n, f"{args.seed}-{name}", i, strategy, args.budget))
            except ThermomilpError as exc:
                failed[name] = failed.get(name, 0) + 1
                print(f"{name} board {i}: gave up ({exc})", file=sys.stderr, flush=True)
                continue
            if args.puzzle == "thermometers" and n <= args.verify_up_to:
                assert search_count(board, "intervals", 2) == 1, (name, i)
            wall.setdefault(name, []).append(w)
            cpu.setdefault(name, []).append(c)
            print(f"{name} board {i}: {w:.2f} s wall, {c:.2f} s cpu, grade {board.grade}, "
                  f"load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    base = statistics.median(wall[base_name]) if wall.get(base_name) else float("nan")
    base_cpu = statistics.median(cpu[base_name]) if cpu.get(base_name) else float("nan")
    print(f"load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after; "
          f"{os.cpu_count()} cores")
    print(f"| board | boards | gave up | median wall s | max wall s | median cpu s "
          f"| wall ÷ {base_name} | cpu ÷ {base_name} |")
    print("|---|---|---|---|---|---|---|---|")
    for name in [base_name] + [f"{n}x{n}" for n in sizes]:
        w, c = wall.get(name, []), cpu.get(name, [])
        if not w:
            print(f"| {name} | 0 | {failed.get(name, 0)} | - | - | - | - | - |")
            continue
        mw, mc = statistics.median(w), statistics.median(c)
        print(f"| {name} | {len(w)} | {failed.get(name, 0)} | {mw:.2f} | {max(w):.2f} "
              f"| {mc:.2f} | {mw / base:.2f} | {mc / base_cpu:.2f} |")


if __name__ == "__main__":
    main()
