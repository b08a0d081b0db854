"""Logic grades of published and generated boards, before and after pair probing.

For each board: does interval propagation finish it, single probing, pair
probing (``thermomilp.logic.pairs``), or does it need search? Boards:

* the shipped instances (``instances/``) and, when present, the janko 6x6
  validation corpus (``../shared/corpus/janko-6x6``, read only, never copied);
* ``--boards`` unique Thermometers boards per size made by the write-up's
  recipe (``benchmarks/stats.py``: random partition, levels rerolled until
  unique; uniqueness by two verified grids from the counter, else the MILP);
* ``--generated`` boards per size from ``thermomilp generate`` (any grade;
  ``generate_thermometers``, seed 2026, boards 0..N-1, repair strategy,
  uniqueness proved by the MILP): larger boards, where single probing stalls
  more often;
* ``--hard`` boards per size from ``thermomilp generate --difficulty hard``:
  unique boards single probing cannot finish -- the hardest we can make.

"before" is the grade without pair probing (search = not finished by
probing), "after" the grade with it. Times are per board for the pair rule
on the boards that reach it.

Usage:  PYTHONPATH=. python benchmarks/grades.py [--boards 100] [--sizes 10 12 15]
        [--generated 100] [--generated-sizes 15 20] [--hard 30] [--hard-sizes 10 12 15]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import janko_corpus  # noqa: E402
from stats import roll_until_unique  # noqa: E402

from thermomilp.formats import load  # noqa: E402
from thermomilp.logic.domains import full_domains, is_decided, line_tables  # noqa: E402
from thermomilp.logic.pairs import pair_fixpoint  # noqa: E402
from thermomilp.logic.propagation import (
    probe_fixpoint,  # noqa: E402
    propagate,  # noqa: E402
)

ROOT = Path(__file__).resolve().parent.parent


def grades(puzzle) -> tuple[str, str, float]:
    """(grade before, grade after, seconds spent in the pair rule)."""
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    if not propagate(tables, dom) or is_decided(dom):
        return "intervals", "intervals", 0.0
    if not probe_fixpoint(tables, dom) or is_decided(dom):
        return "probing", "probing", 0.0
    start = time.perf_counter()
    done = not pair_fixpoint(tables, dom) or is_decided(dom)
    return "search", "pairs" if done else "search", time.perf_counter() - start


def table(name: str, boards: list) -> None:
    before, after, times = Counter(), Counter(), []
    for puzzle in boards:
        b, a, t = grades(puzzle)
        before[b] += 1
        after[a] += 1
        if b == "search":
            times.append(t)
    cols = ("intervals", "probing", "pairs", "search")
    print(f"| {name} ({len(boards)}) before | " + " | ".join(str(before[c]) for c in cols)
          + " | |")
    mean = f"{1000 * sum(times) / len(times):.0f} ms" if times else "–"
    print(f"| {name} ({len(boards)}) after | " + " | ".join(str(after[c]) for c in cols)
          + f" | {mean} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--sizes", type=int, nargs="*", default=[10, 12])
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-length", type=int, default=7)
    ap.add_argument("--generated", type=int, default=0)
    ap.add_argument("--generated-sizes", type=int, nargs="*", default=[15, 20])
    ap.add_argument("--hard", type=int, default=0)
    ap.add_argument("--hard-sizes", type=int, nargs="*", default=[10, 12, 15])
    args = ap.parse_args()
    print("| boards | intervals | probing | pairs | search | pair rule, mean per board |")
    print("|---|---|---|---|---|---|")
    shipped = [load(p) for p in sorted((ROOT / "instances").rglob("*.txt"))
               if "two_solutions" not in p.name and "no_solution" not in p.name]
    table("shipped instances", shipped)
    janko = janko_corpus()
    if janko:
        table("janko 6×6", [puzzle for _, puzzle in janko])
    for size in args.sizes:
        rng = random.Random(args.seed * 1000 + size)
        boards = [roll_until_unique(size, rng, max_length=args.max_length)
                  for _ in range(args.boards)]
        table(f"generated {size}×{size}", boards)
    from thermomilp.generate.thermometers_gen import generate_thermometers

    for size in args.generated_sizes if args.generated else ():
        boards = [generate_thermometers(size, size, args.seed, index=i).puzzle
                  for i in range(args.generated)]
        table(f"generate {size}×{size}", boards)
    from thermomilp.generate.thermometers_gen import GenerationError

    for size in args.hard_sizes if args.hard else ():
        boards = []
        for i in range(args.hard):
            try:
                boards.append(generate_thermometers(size, size, args.seed, index=i,
                                                    difficulty="hard").puzzle)
            except GenerationError as exc:  # no hard board within the attempts
                print(f"{size}x{size} hard board {i}: {exc}", file=sys.stderr, flush=True)
                continue
            print(f"{size}x{size} hard board {i}: {grades(boards[-1])}",
                  file=sys.stderr, flush=True)
        table(f"generate --difficulty hard {size}×{size}", boards)


if __name__ == "__main__":
    main()
