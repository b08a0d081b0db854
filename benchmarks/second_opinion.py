"""What confirming "infeasible" costs: solve + uniqueness with the solve layer's
confirmation (`Engine._confirm`: the logic search, then CP-SAT where installed and not
the engine, then the engine's second opinion) and with the engine's "infeasible" taken
as it comes, same boards, same run, interleaved (logic none, so every uniqueness proof
is a MILP "infeasible" verdict that gets confirmed).

    python benchmarks/second_opinion.py [--repeat 3] [--backends highs pulp pyomo]
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import instance_corpus, machine, summary, timed  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", nargs="+", default=["highs", "pulp", "pyomo"])
    args = parser.parse_args()
    from thermomilp.core.status import Status
    from thermomilp.solving import solve
    from thermomilp.solving.engine import Engine, Found

    boards = [(n, p) for n, p in instance_corpus()]
    generated = sorted((Path(__file__).resolve().parent.parent / "instances" / "thermometers"
                        / "generated").glob("*.txt"))
    from thermomilp.formats import load

    boards += [(p.name, load(p)) for p in generated]
    print(f"Machine: {machine()}\n")
    print("| backend | boards | confirmed s | taken as it comes s | ratio |")
    print("|---|---|---|---|---|")
    for backend in args.backends:
        solve(boards[0][1], backend=backend, logic="none")  # warm-up
        with_t, without_t = [], []
        for _, p in boards:
            run = partial(solve, p, backend=backend, logic="none")
            with_t.append(min(timed(run)[0] for _ in range(args.repeat)))
            original = Engine._confirm  # the facade's: one for every layer and engine
            Engine._confirm = lambda self: Found(Status.INFEASIBLE)  # type: ignore
            try:
                without_t.append(min(timed(run)[0] for _ in range(args.repeat)))
            finally:
                Engine._confirm = original  # type: ignore
        a, b = summary(with_t)[0], summary(without_t)[0]
        print(f"| {backend} | {len(boards)} | {a:.3f} | {b:.3f} | {a / b:.2f} |")


if __name__ == "__main__":
    main()
