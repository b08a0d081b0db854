"""HiGHS's own time on the MILP path's two solves, per option set and seed, against CP-SAT.

    python benchmarks/highs_options.py [--repeats 3] [--seeds 0 1 2] [--wide]

What the MILP path asks HiGHS on a unique board is two questions: a first
point, then "another point?" after the no-good cut. This script times only
those two ``HighsSession.solve`` calls -- the package's own session, model
built from numpy arrays, ``PROOF_OPTIONS`` after the cut as on the default
path -- with no verification and no confirmation, so it shows the engine's
floor: what no change in the guards around it can remove.

Each option set changes the first solve, the proof, or both; each is run
with several HiGHS random seeds (``random_seed``), because on these boards
HiGHS's time on one board moves several-fold with the seed. Per board and
seed, the variants and CP-SAT (one worker, enumerating to the second
solution, needs ``ortools``) are run interleaved and the median of
``--repeats`` is kept. Verdicts are compared across all variants.

Boards: the 15x15 boards of ``benchmarks/cpsat_compare.py`` (shipped and
generated, Thermometers and Aquarium); ``--wide`` adds the shipped
instances, 12x12-15x15 Aquarium and 10x10-15x15 unique Thermometers boards
of ``benchmarks/corpora.py`` and planted 20x20-60x60 boards (no CP-SAT
column there).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(HERE), str(ROOT)]

import corpora  # noqa: E402
import cpsat_compare  # noqa: E402
import peer_models  # noqa: E402
from _common import machine  # noqa: E402

LIGHT = {"presolve_mode": 1}  # HiGHS 1.16: 0 default, 1 initial sweep, 2 light, 3 full
VARIANTS: dict[str, tuple[dict, dict]] = {
    "default": ({}, {}),
    "light presolve, first solve": (LIGHT, {}),
    "light presolve, both solves": (LIGHT, LIGHT),
    "no strong branching": ({"mip_pscost_minreliable": 0}, {"mip_pscost_minreliable": 0}),
    "cut pool 100": ({"mip_pool_soft_limit": 100}, {"mip_pool_soft_limit": 100}),
    "no symmetry detection": ({"mip_detect_symmetry": False}, {"mip_detect_symmetry": False}),
    "heuristic effort 0": ({"mip_heuristic_effort": 0.0}, {"mip_heuristic_effort": 0.0}),
    "presolve off": ({"presolve": "off"}, {"presolve": "off"}),
}


def two_solves(puzzle, seed: int, first: dict, proof: dict) -> tuple[float, float, str]:
    """Seconds of the first solve (model build included) and of the proof, and the verdict."""
    from thermomilp.backends.highs_backend import HighsSession
    from thermomilp.core.puzzle import ones_of
    from thermomilp.core.settings import Settings
    from thermomilp.model.formulation import formulate

    start = time.perf_counter()
    session = HighsSession(formulate(puzzle), Settings(seed=seed))
    h = session.built.model
    before = {name: h.getOptionValue(name)[1] for name in first}  # (status, value)
    for name, value in first.items():
        session.built.model.setOptionValue(name, value)
    found = session.solve()
    first_s = time.perf_counter() - start
    if found.grid is None:
        return first_s, 0.0, "first: " + found.status
    for name, value in {**before, **proof}.items():
        session.built.model.setOptionValue(name, value)
    start = time.perf_counter()
    session.exclude(ones_of(found.grid))
    other = session.solve()
    proof_s = time.perf_counter() - start
    if other.status == "infeasible":
        return first_s, proof_s, "unique"
    return first_s, proof_s, "multiple" if other.ones else other.status


def boards(wide: bool, smoke: bool = False):
    from thermomilp.formats import load

    chosen = [(label, p, True) for _, label, p in cpsat_compare.milp_boards(smoke)
              if p.height == 15]
    if wide:
        chosen += [(f"shipped {f.name}", load(f), False)
                   for f in sorted((ROOT / "instances").rglob("*.txt"))]
        more = (corpora.aquariums(per_size=6, sizes=(12, 15), seed=11)
                + corpora.published(per_size=3, sizes=(10, 12, 15), seed=5)
                + [b for n in (20, 40, 60) for b in corpora.planted(n, 1)])
        chosen += [(b.name, b.puzzle, False) for b in more]
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--wide", action="store_true")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest run, for the test suite's smoke run: one 15x15 "
                             "board of each source (cpsat_compare.milp_boards)")
    args = parser.parse_args()
    chosen = boards(args.wide, args.smoke)
    two_solves(chosen[0][1], 0, {}, {})  # imports out of the timing
    peer_models.decide_cpsat(chosen[0][1], 30, workers=1)
    names = list(VARIANTS)
    print(f"{machine()}; {len(chosen)} boards, seeds {args.seeds}, median of {args.repeats}\n")
    print("| board | seed | CP-SAT 1 worker ms | "
          + " | ".join(f"{n}: first + proof ms" for n in names) + " |")
    print("|---|---:|---:|" + "---|" * len(names))
    totals = {(n, s): 0.0 for n in names for s in args.seeds}
    cpsat_totals = {s: 0.0 for s in args.seeds}
    variant_on_cpsat = {(n, s): 0.0 for n in names for s in args.seeds}
    for label, puzzle, with_cpsat in chosen:
        for seed in args.seeds:
            runs: dict[str, list[tuple[float, float, str]]] = {n: [] for n in names}
            peer: list[float] = []
            verdicts = set()
            for _ in range(args.repeats):
                for n in names:
                    runs[n].append(two_solves(puzzle, seed, *VARIANTS[n]))
                    verdicts.add(runs[n][-1][2])
                if with_cpsat:
                    start = time.perf_counter()
                    verdicts.add(peer_models.decide_cpsat(puzzle, 30, workers=1))
                    peer.append(time.perf_counter() - start)
            cells = []
            for n in names:
                first = statistics.median(r[0] for r in runs[n])
                proof = statistics.median(r[1] for r in runs[n])
                totals[n, seed] += first + proof
                if with_cpsat:
                    variant_on_cpsat[n, seed] += first + proof
                cells.append(f"{first * 1e3:.1f} + {proof * 1e3:.1f}")
            c = statistics.median(peer) if peer else None
            if c is not None:
                cpsat_totals[seed] += c
            note = "" if len(verdicts) == 1 else f" DISAGREE {sorted(verdicts)}"
            print(f"| {label}{note} | {seed} | " + (f"{c * 1e3:.1f}" if c is not None else "-")
                  + " | " + " | ".join(cells) + " |", flush=True)
    print("\nTotals (first + proof), ratio to `default` with the same seed, and to CP-SAT "
          "on the boards that have a CP-SAT column:\n")
    print("| variant | "
          + " | ".join(f"seed {s}: s (x default, x CP-SAT)" for s in args.seeds) + " |")
    print("|---|" + "---|" * len(args.seeds))
    for n in names:
        cells = []
        for s in args.seeds:
            to_cpsat = variant_on_cpsat[n, s] / cpsat_totals[s] if cpsat_totals[s] else float("nan")
            to_default = totals[n, s] / totals["default", s]
            cells.append(f"{totals[n, s]:.3f} ({to_default:.2f}x, {to_cpsat:.1f}x)")
        print(f"| {n} | " + " | ".join(cells) + " |")
    print("| CP-SAT 1 worker | " + " | ".join(f"{cpsat_totals[s]:.3f}" for s in args.seeds) + " |")


if __name__ == "__main__":
    main()
