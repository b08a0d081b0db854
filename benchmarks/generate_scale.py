"""Growth of generation time with board size, interleaved with a fixed baseline.

    PYTHONPATH=. python benchmarks/generate_scale.py [--puzzle thermometers|aquarium]
        [--sizes 10,20,30,40,50] [--boards 3] [--seed scale] [--budget 600]
        [--minimal-clues] [--baseline-sizes 10] [--strategy peel|repair]
        [--difficulty easy|medium|hard]

The machine is shared, so absolute seconds drift with the load. Each round
therefore makes one board of every size *and* one baseline board, in turn
(round-robin), and the table reports each size's median beside the median of
the baseline measured in the same rounds, and their ratio:

* Thermometers: the baseline is the published reroll strategy at 10x10
  (random boards until the MILP finds one unique);
* Aquarium: the baseline is the redraw generator this project had before
  the merge repair (:func:`redraw_aquarium`: new waterlines, then a new
  partition, until the subset-sum DP counts one solution), at
  ``--baseline-sizes`` (10 by default; a larger one shows where it gives up).
  ``--minimal-clues`` deletes clues (both generators) down to a minimal set.

Wall seconds and CPU seconds (this process; HiGHS runs single-threaded here)
are both reported, with the load average before and after the run, and the
command that reruns the measurement.
Each size uses the generator's default strategy for it (``peel`` from 30x30
for Thermometers, from 20x20 for Aquarium) unless ``--strategy`` names one.
Thermometers boards up to ``--verify-up-to`` (15), and every board graded
``intervals`` or ``probing``, are recounted outside the timing by the logic
search counter (no MILP); every board is proven unique inside the generator
(MILP for Thermometers, the subset-sum DP or the logic for Aquarium).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import sys
import time


def one_board(puzzle: str, n: int, seed: str, index: int, strategy: str | None = None,
              budget: float | None = None, minimal: bool = False,
              difficulty: str | None = None):
    if puzzle == "thermometers":
        from thermomilp.generate.thermometers_gen import generate_thermometers

        return generate_thermometers(n, n, seed, index=index, strategy=strategy,
                                     time_limit=budget, minimal_clues=minimal,
                                     difficulty=difficulty).puzzle
    if strategy == "redraw":
        return redraw_aquarium(n, f"{seed}:{index}", budget, minimal)
    from thermomilp.generate.aquarium_bridge import aquarium_board

    return aquarium_board(n, n, seed, index, time_limit=budget, minimal_clues=minimal,
                          strategy=strategy)


def redraw_aquarium(n: int, seed: str, budget: float | None, minimal: bool):
    """The Aquarium generator before the merge repair (the reroll-style baseline):
    redraw waterlines (8 times) and then the partition until the DP counts one
    solution; deletions asked to the DP with every clue's full question."""
    import random

    from thermomilp.core.errors import GenerationError
    from thermomilp.core.puzzle import aquarium, grid_from_levels
    from thermomilp.generate.aquarium_gen import random_tanks
    from thermomilp.logic.aquarium_dp import dp_count

    rng = random.Random(f"redraw:{n}:{seed}")
    end = None if budget is None else time.perf_counter() + budget

    def unique(p) -> bool:
        if end is not None and time.perf_counter() > end:
            raise GenerationError("gave up: no board within the time limit")
        return dp_count(p, 2) == 1

    # dp_count cannot be interrupted: a budget is checked between its calls only
    while True:
        regions = random_tanks(n, n, rng)
        board = aquarium([0] * n, [0] * n, regions)
        for _ in range(8):
            grid = grid_from_levels(board, [rng.randint(0, v.depth) for v in board.vessels])
            rows = [row.count("#") for row in grid]
            cols = [sum(row[j] == "#" for row in grid) for j in range(n)]
            puzzle = aquarium(rows, cols, regions, solution=grid)
            if unique(puzzle):
                break
        else:
            continue
        break
    if minimal:
        rows, cols = list(puzzle.rows), list(puzzle.cols)
        places = [(rows, i) for i in range(n)] + [(cols, j) for j in range(n)]
        rng.shuffle(places)
        for line, k in places:
            saved, line[k] = line[k], None
            if not unique(puzzle.with_clues(rows, cols)):
                line[k] = saved
        puzzle = puzzle.with_clues(rows, cols)
    return puzzle  # ungraded: the table shows "-"


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
    ap.add_argument("--minimal-clues", action="store_true", dest="minimal")
    ap.add_argument("--strategy", choices=("peel", "repair"),
                    help="the strategy of every size (default: the generator's, by size)")
    ap.add_argument("--difficulty", choices=("easy", "medium", "hard"),
                    help="Thermometers: the difficulty asked of every size")
    ap.add_argument("--out", help="write every board here (to recount them independently)")
    ap.add_argument("--baseline-sizes", default="10", dest="baseline_sizes",
                    help="Aquarium: sizes of the redraw baseline (the first is the ratio's base)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    base_sizes = [int(s) for s in args.baseline_sizes.split(",")]
    base_name = ("reroll 10x10" if args.puzzle == "thermometers"
                 else f"redraw {base_sizes[0]}x{base_sizes[0]}")
    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    failed: dict[str, int] = {}
    grades: dict[str, list[str]] = {}
    load_before = os.getloadavg()
    for i in range(args.boards):
        if args.puzzle == "thermometers":
            jobs = [(base_name, 10, "reroll")]
        else:
            jobs = [(f"redraw {b}x{b}", b, "redraw") for b in base_sizes]
        jobs += [(f"{n}x{n}", n, args.strategy) for n in sizes]
        for name, n, strategy in jobs:
            baseline = strategy in ("reroll", "redraw")
            try:
                w, c, board = timed(lambda n=n, name=name, i=i, strategy=strategy,
                                    baseline=baseline: one_board(
                    args.puzzle, n, f"{args.seed}-{name}", i, strategy, args.budget,
                    args.minimal and (args.puzzle == "aquarium" or not baseline),
                    None if baseline else args.difficulty))
            except ThermomilpError as exc:
                failed[name] = failed.get(name, 0) + 1
                print(f"{name} board {i}: gave up ({exc})", file=sys.stderr, flush=True)
                continue
            if args.puzzle == "thermometers" and (n <= args.verify_up_to
                                                  or board.grade in ("intervals", "probing")):
                assert search_count(board, "probing", 2) == 1, (name, i)
            if args.out:
                from thermomilp.formats import dumps

                os.makedirs(args.out, exist_ok=True)
                path = os.path.join(args.out, f"{name.replace(' ', '_')}_{i}.txt")
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(dumps(board, "text"))
            clues = sum(v is not None for v in board.rows + board.cols)
            grades.setdefault(name, []).append(board.grade or "-")
            wall.setdefault(name, []).append(w)
            cpu.setdefault(name, []).append(c)
            print(f"{name} board {i}: {w:.2f} s wall, {c:.2f} s cpu, grade {board.grade}, "
                  f"{clues}/{2 * n} clues, {len(board.vessels)} tanks/vessels, "
                  f"load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    base = statistics.median(wall[base_name]) if wall.get(base_name) else float("nan")
    base_cpu = statistics.median(cpu[base_name]) if cpu.get(base_name) else float("nan")
    print(f"load average (1 min) {load_before[0]:.1f} before, {load_after[0]:.1f} after; "
          f"{os.cpu_count()} cores")
    print(f"| board | boards | gave up | median wall s | max wall s | median cpu s "
          f"| wall ÷ {base_name} | cpu ÷ {base_name} | grades |")
    print("|---|---|---|---|---|---|---|---|---|")
    names = ([base_name] if args.puzzle == "thermometers"
             else [f"redraw {b}x{b}" for b in base_sizes])
    for name in names + [f"{n}x{n}" for n in sizes]:
        w, c = wall.get(name, []), cpu.get(name, [])
        if not w:
            print(f"| {name} | 0 | {failed.get(name, 0)} | - | - | - | - | - | - |")
            continue
        mw, mc = statistics.median(w), statistics.median(c)
        mix = ", ".join(f"{g} {grades[name].count(g)}" for g in sorted(set(grades[name])))
        print(f"| {name} | {len(w)} | {failed.get(name, 0)} | {mw:.2f} | {max(w):.2f} "
              f"| {mc:.2f} | {mw / base:.2f} | {mc / base_cpu:.2f} | {mix} |")
    print("rerun: PYTHONPATH=. python benchmarks/generate_scale.py "
          + " ".join(shlex.quote(a) for a in sys.argv[1:]))


if __name__ == "__main__":
    main()
