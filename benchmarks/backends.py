"""Solve + uniqueness time per backend (all with HiGHS), as ratios to highspy direct.

    python benchmarks/backends.py [--repeat 3]

Every backend solves the same boards in the same run, interleaved board by
board so that machine noise hits all of them alike, with ``logic="none"``: the
default logic decides most boards before a backend builds anything. Prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _common import instance_corpus, machine, planted_corpus, summary, timed  # noqa: E402

BACKENDS = ["highs", "pulp", "pyomo"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from thermomilp.solving import solve

    corpora = {
        "instances + janko 6x6": instance_corpus(),
        "planted 10x10-20x20": planted_corpus([10, 15, 20], 4, seed=1),
    }
    for b in BACKENDS:  # warm-up: imports and first-instance costs are not the model's
        solve(corpora["instances + janko 6x6"][0][1], backend=b, logic="none")
    print(f"Machine: {machine()}\n")
    print("| corpus | boards | backend | total s | median ms | ratio to highs |")
    print("|---|---|---|---|---|---|")
    for name, boards in corpora.items():
        times = {b: [] for b in BACKENDS}
        for _, p in boards:
            statuses = set()
            for b in BACKENDS:
                run = partial(solve, p, backend=b, logic="none")
                times[b].append(min(timed(run)[0] for _ in range(args.repeat)))
                statuses.add(run().status)
            assert len(statuses) == 1, f"backends disagree: {statuses}"
        base = sum(times["highs"])
        for b in BACKENDS:
            total, median = summary(times[b])
            print(f"| {name} | {len(boards)} | {b} | {total:.3f} | {median * 1000:.1f} | "
                  f"{total / base:.2f} |")


if __name__ == "__main__":
    main()
