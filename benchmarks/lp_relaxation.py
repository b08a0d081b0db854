"""How often is the LP relaxation of the cell model already integral on real boards?

For each board: solve the LP relaxation of the cell formulation (0)-(4)
(0 <= x <= 1) with HiGHS and record

* whether the vertex HiGHS returns is integral (then it IS the solution:
  an integral point of the relaxation satisfies every rule);
* the share of cells the LP alone decides (min x_c = max x_c over the
  polytope; 2 LPs per cell) -- independent of which vertex a solver picks;

and the same vertex-integrality for the level formulation (L0)-(L4) (PuLP +
HiGHS). Corpora: the janko 6x6 corpus when present (../shared/corpus or
$THERMOMILP_CORPUS; used for measuring only, never copied), the unique
boards of instances/, unique 6x6 boards of our planted generator, and
planted 8x8 / 10x10 boards (the planted generator alone rarely makes those
unique, so they are measured as they come: a board with several solutions
has an LP face, not a point, and is a harder case for the relaxation).

    PYTHONPATH=. python benchmarks/lp_relaxation.py [--boards N] [--seed S]

Prints a Markdown table; docs/lp-relaxation.md records a run.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT)]

from _common import janko_corpus  # noqa: E402

from thermomilp.formats import load  # noqa: E402
from thermomilp.generate.random_board import planted_board  # noqa: E402
from thermomilp.solving import count_solutions  # noqa: E402
from thermomilp.teach.analyze import lp_relaxation  # noqa: E402


def level_vertex_integral(puzzle) -> bool:
    import pulp

    from thermomilp.model.highs_model import new_highs
    from thermomilp.model.level_pulp import build_level_pulp

    new_highs()
    prob, z, _ = build_level_pulp(puzzle)
    for var in prob.variables():
        var.cat = pulp.LpContinuous
    prob.solve(pulp.HiGHS(msg=False))
    return all(min(abs(v.value()), abs(1 - v.value())) < 1e-6 for v in z.values())


def generated_boards(size: int, count: int, rng: random.Random, unique: bool) -> list:
    """Planted boards from our generator; ``unique``: keep only those with one solution."""
    boards = []
    while len(boards) < count:
        puzzle = planted_board(size, size, rng, max_length=min(size, 6))
        if not unique or count_solutions(puzzle, 2) == 1:
            boards.append(puzzle)
    return boards


def instance_boards() -> list:
    """instances/ boards with exactly one solution."""
    out = []
    for path in sorted((ROOT / "instances" / "thermometers").glob("*.txt")):
        puzzle = load(path)
        if count_solutions(puzzle, 2) == 1:
            out.append(puzzle)
    return out


def measure(boards: list) -> dict:
    cell_integral = level_integral = all_decided = 0
    decided = cells = 0
    for puzzle in boards:
        lp = lp_relaxation(puzzle)
        cell_integral += lp.integral_share == 1.0
        decided += lp.decided_cells or 0
        cells += lp.cells
        all_decided += lp.decided_cells == lp.cells
        level_integral += level_vertex_integral(puzzle)
    n = len(boards)
    return {"boards": n, "cell_vertex_integral": cell_integral,
            "level_vertex_integral": level_integral, "lp_decides_all": all_decided,
            "decided_share": decided / cells if cells else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=30, help="generated boards per size")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    janko = [puzzle for _, puzzle in janko_corpus()]
    if janko:
        rows.append(("janko 6x6 (published, unique)", measure(janko)))
    rows.append(("instances/ (ours, unique)", measure(instance_boards())))
    rows.append(("generated 6x6, unique", measure(generated_boards(6, args.boards, rng, True))))
    for size in (8, 10):
        rows.append((f"generated {size}x{size}, planted (mostly not unique)",
                     measure(generated_boards(size, args.boards, rng, False))))
    print("| corpus | boards | cell LP vertex integral | level LP vertex integral "
          "| LP decides every cell | cells decided by the LP |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, m in rows:
        n = m["boards"]
        print(f"| {name} | {n} | {m['cell_vertex_integral']}/{n} "
              f"| {m['level_vertex_integral']}/{n} | {m['lp_decides_all']}/{n} "
              f"| {100 * m['decided_share']:.0f}% |")


if __name__ == "__main__":
    main()
