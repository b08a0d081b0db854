"""The pure MILP path against a naive single-file model of the same formulation.

    python benchmarks/milp_path.py [--repeats 3]

For every board (the shipped instances, Thermometers and Aquarium, plus the
30 janko 6x6 boards in ../shared/corpus when that folder exists), in one
process, interleaved board by board and repeat by repeat:

* ``thermomilp.solve(p, backend="highs", logic="none")`` against the cell
  model written with highspy's own modelling API (``decide_plain_highs``);
* ``thermomilp.solve(p, backend="pulp", logic="none")`` against the plain
  PuLP cell model handed to HiGHS (``decide_pulp_highs``).

Both sides build the model, solve, add the no-good cut and solve again. The
package does everything it always does besides: it verifies every grid with
the independent checker, and confirms every
"infeasible" verdict by a second method (docs/architecture.md). It does not name
the conflict of an infeasible board (``explain=False``): the naive model does not
either, and the explanation is a feature, not a guard of the verdict. The logic's
per-board caches (probing fixpoint, line tables) are emptied before each of its
runs, as for a board solved once. Per board the
fastest of the repeats counts; the ratio is the sum over boards. Verdicts are
compared and a disagreement is reported.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import peer_models  # noqa: E402
from _common import janko_corpus, machine  # noqa: E402

from thermomilp import solve  # noqa: E402


def boards():
    from thermomilp.formats import load

    out = [(p.name, load(p)) for kind in ("thermometers", "aquarium")
           for p in sorted((HERE.parent / "instances" / kind).glob("*.txt"))]
    return out + janko_corpus()


def ours(backend: str):
    def run(puzzle):
        # explain=False: the naive model names no conflict of an infeasible board either
        # (the explanation is a feature of its own, not a guard of the verdict)
        result = solve(puzzle, backend=backend, logic="none", explain=False)
        return result.status, result.confirmed_by
    return run


def naive(fn):
    return lambda puzzle: (fn(puzzle), None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    corpus = boards()
    pairs = {"highs": (ours("highs"), naive(peer_models.decide_plain_highs)),
             "pulp": (ours("pulp"), naive(peer_models.decide_pulp_highs))}
    for mine, theirs in pairs.values():  # imports and first-call costs out of the timing
        mine(corpus[0][1]), theirs(corpus[0][1])
    totals = {name: [0.0, 0.0] for name in pairs}
    janko = {name: [0.0, 0.0] for name in pairs}
    confirmed: dict[str, Counter] = {name: Counter() for name in pairs}
    disagreements = []
    for label, puzzle in corpus:
        for name, (mine, theirs) in pairs.items():
            best = [float("inf"), float("inf")]
            verdicts = [None, None]
            for _ in range(args.repeats):
                for side, method in enumerate((mine, theirs)):
                    start = time.perf_counter()
                    status, how = method(puzzle)
                    best[side] = min(best[side], time.perf_counter() - start)
                    if verdicts[side] is None:
                        verdicts[side] = status
                        if side == 0 and how:
                            confirmed[name][how] += 1
            if verdicts[0] != verdicts[1]:
                disagreements.append((label, name, verdicts))
            totals[name][0] += best[0]
            totals[name][1] += best[1]
            if label.startswith("janko"):
                janko[name][0] += best[0]
                janko[name][1] += best[1]
    print(f"Machine: {machine()}; {len(corpus)} boards, best of {args.repeats}, interleaved\n")
    print("| backend | naive peer | thermomilp s | naive s | ratio | infeasible verdicts "
          "confirmed by |")
    print("|---|---|---|---|---|---|")
    peer = {"highs": "highspy modelling API", "pulp": "PuLP + HiGHS"}
    for name, (mine_s, theirs_s) in totals.items():
        how = ", ".join(f"{k} {v}" for k, v in sorted(confirmed[name].items())) or "-"
        print(f"| {name} | {peer[name]} | {mine_s:.3f} | {theirs_s:.3f} | "
              f"{mine_s / theirs_s:.2f} | {how} |")
    if any(t[1] for t in janko.values()):
        print("\nThe janko 6x6 boards alone:\n")
        print("| backend | thermomilp s | naive s | ratio |")
        print("|---|---|---|---|")
        for name, (mine_s, theirs_s) in janko.items():
            print(f"| {name} | {mine_s:.3f} | {theirs_s:.3f} | {mine_s / theirs_s:.2f} |")
    for label, name, verdicts in disagreements:
        print(f"DISAGREEMENT {label} ({name}): thermomilp {verdicts[0]}, naive {verdicts[1]}")


if __name__ == "__main__":
    main()
