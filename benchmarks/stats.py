"""Reproduce the Thermometers write-up's statistics with its generator recipe.

Recipe (the write-up's): tile the grid with thermometers (a random
partition), give every thermometer a random level, set the clues from that
grid, and *reroll* the levels until the board is unique. Per size we draw
``--boards`` partitions (seeded) and report:

* unique on first roll  -- share of first rolls that are already unique;
* rerolls per accepted  -- mean number of extra level draws before a unique
  board (a partition is abandoned after ``--max-rerolls``; those draws are
  counted too, and the next partition continues the count);
* intervals / probing finish -- share of accepted boards decided by interval
  propagation alone / by intervals plus probing;
* needing a probe       -- share of accepted boards whose step-by-step
  explanation uses the ``probe`` rule at least once;
* stall depth           -- when intervals stall, the mean number of cells
  they have decided by then.

Uniqueness is decided without the logic engine: a board is non-unique when
the fast counter (search under intervals) returns two distinct grids that
pass the independent checker ``verify.solution_problems``; a board it
reports unique is confirmed by the MILP (``solve.is_unique``, HiGHS), or by
the brute force with ``--uniqueness brute``.

Usage:  PYTHONPATH=. python benchmarks/stats.py [--boards 200] [--sizes 4 6 8]
        [--max-length 7] [--seed 2026]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from thermomilp.core.puzzle import grid_from_levels, thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import clues_of, random_partition
from thermomilp.logic.brute import brute_force_count
from thermomilp.logic.domains import UNKNOWN, cell_states, full_domains, is_decided, line_tables
from thermomilp.logic.hints import explain
from thermomilp.logic.propagation import probe_fixpoint, propagate
from thermomilp.logic.search import search_solutions

THEIRS = {  # size: (first-roll unique %, rerolls, intervals %, probing %, probe %, stall cells)
    4: (94, None, 100, 100, 0, None),
    6: (57, None, 98, 100, 5, None),
    8: (8, 19, 86, 100, 19, 26.3),
}


def unique(puzzle, how: str) -> bool:
    grids = list(search_solutions(puzzle, "intervals", 2))
    if len(grids) == 2 and all(solution_problems(puzzle, g) == [] for g in grids):
        return False  # two verified distinct solutions: a certificate
    if how == "brute":
        return brute_force_count(puzzle, 2) == 1
    from thermomilp.solving import SolveError, is_unique

    try:
        return is_unique(puzzle)
    except SolveError:  # an engine failure (seen: HiGHS "Solve error"): ask the brute force
        FALLBACKS[0] += 1
        return brute_force_count(puzzle, 2) == 1


FALLBACKS = [0]


def roll(therms, rng):
    skeleton = thermometers([0] * SIZE[0], [0] * SIZE[1], therms)
    levels = [rng.randint(0, len(t)) for t in therms]
    grid = grid_from_levels(skeleton, levels)
    rows, cols = clues_of(grid)
    return thermometers(rows, cols, therms, solution=grid)


SIZE = [0, 0]


def roll_until_unique(size: int, rng: random.Random, *, max_length: int = 7,
                      max_rerolls: int = 300, how: str = "milp"):
    """One board by the recipe: partition, then levels rerolled until unique."""
    SIZE[:] = [size, size]
    while True:
        therms = random_partition(size, size, rng, max_length=max_length)
        for _ in range(max_rerolls + 1):
            puzzle = roll(therms, rng)
            if unique(puzzle, how):
                return puzzle


def measure(size: int, boards: int, seed: int, max_length: int, max_rerolls: int,
            how: str) -> dict:
    SIZE[:] = [size, size]
    rng = random.Random(seed * 100 + size)
    first_unique = 0
    rerolls: list[int] = []
    pending = 0
    accepted = []
    for _ in range(boards):
        therms = random_partition(size, size, rng, max_length=max_length)
        puzzle = roll(therms, rng)
        ok = unique(puzzle, how)
        first_unique += ok
        tries = 0
        while not ok and tries < max_rerolls:
            tries += 1
            puzzle = roll(therms, rng)
            ok = unique(puzzle, how)
        pending += tries
        if ok:
            rerolls.append(pending)
            pending = 0
            accepted.append(puzzle)
    by_intervals = by_probing = needs_probe = 0
    stall_cells = []
    lengths = [len(v.cells) for p in accepted for v in p.vessels]
    for puzzle in accepted:
        tables = line_tables(puzzle)
        dom = full_domains(tables)
        propagate(tables, dom)
        if is_decided(dom):
            by_intervals += 1
        else:
            stall_cells.append(sum(s != UNKNOWN for s in cell_states(tables, dom).values()))
        if probe_fixpoint(tables, dom) and is_decided(dom):
            by_probing += 1
        needs_probe += any(s.rule == "probe" for s in explain(puzzle).steps)
    n = max(len(accepted), 1)
    return {
        "first": 100 * first_unique / boards,
        "rerolls": statistics.mean(rerolls) if rerolls else float("nan"),
        "accepted": len(accepted),
        "intervals": 100 * by_intervals / n,
        "probing": 100 * by_probing / n,
        "probe": 100 * needs_probe / n,
        "stall": statistics.mean(stall_cells) if stall_cells else None,
        "mean_len": statistics.mean(lengths) if lengths else float("nan"),
        "ones": 100 * sum(x == 1 for x in lengths) / max(len(lengths), 1),
    }


def fmt(value, digits=0, unit=""):
    if value is None:
        return "–"
    return f"{value:.{digits}f}{unit}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 6, 8])
    ap.add_argument("--max-length", type=int, default=7)
    ap.add_argument("--max-rerolls", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--uniqueness", choices=("milp", "brute"), default="milp")
    args = ap.parse_args()
    print(f"boards per size {args.boards}, partition max length {args.max_length}, seed "
          f"{args.seed}, uniqueness by {args.uniqueness}\n")
    print("| size | unique 1st roll | rerolls/accepted | intervals finish | probing finish "
          "| needing a probe | stall: cells decided | mean therm length | length-1 therms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        start = time.perf_counter()
        m = measure(size, args.boards, args.seed, args.max_length, args.max_rerolls,
                    args.uniqueness)
        t = THEIRS.get(size, (None,) * 6)
        print(f"| {size}×{size} ours | {fmt(m['first'], 1, '%')} | {fmt(m['rerolls'], 1)} "
              f"| {fmt(m['intervals'], 1, '%')} | {fmt(m['probing'], 1, '%')} "
              f"| {fmt(m['probe'], 1, '%')} | {fmt(m['stall'], 1)} of {size * size} "
              f"| {fmt(m['mean_len'], 2)} | {fmt(m['ones'], 1, '%')} |"
              f"  <!-- {m['accepted']} accepted, {time.perf_counter() - start:.0f} s -->")
        print(f"| {size}×{size} write-up | {fmt(t[0], 0, '%')} | {fmt(t[1])} "
              f"| {fmt(t[2], 0, '%')} | {fmt(t[3], 0, '%')} | {fmt(t[4], 0, '%')} "
              f"| {fmt(t[5], 1)} | – | – |", flush=True)
    if FALLBACKS[0]:
        print(f"\n{FALLBACKS[0]} MILP uniqueness checks failed in the engine and were "
              "decided by the brute force instead")


if __name__ == "__main__":
    main()
