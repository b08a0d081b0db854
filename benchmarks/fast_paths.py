"""A special path on against off, on the work a user does (issue 37).

    python benchmarks/fast_paths.py PATH [--rounds 5]

PATH is one of the special paths kept for speed (docs/architecture.md, "Fast
paths kept"), switched off in this process by a monkeypatch (the package is not
changed):

* ``search_max``: no presolve search past 200 vessels
  (``logic.presolve.SEARCH_MAX_VESSELS``);
* ``adopt``: the pulp backend's re-solve on the HiGHS model PuLP built
  (``PulpSession._adopt``);
* ``add_row``: the PuLP rows built in one step (``model.pulp_model.add_row``)
  against PuLP's own operators.

    python benchmarks/fast_paths.py cli PATH on|off -- COMMAND ...

runs the command line (``thermomilp COMMAND ...``: ``solve FILE``, ``grade``) in
this process with PATH on or off; time the whole process from outside, on and
off alternated (``/usr/bin/time -v``).

The workloads: ``solve`` of every shipped board (``instances/``), the hard boards
(``benchmarks/hard/``) and, when present, the janko corpus next to the checkout,
with the default settings (``adopt`` and ``add_row``: ``backend="pulp"``); and the
grader's reference answer for a class (``enumerate_solutions(board, 2)`` on the
bundled thermometers and aquarium boards, what ``grade`` asks of the engine per
board). The generators use none of these paths (their rival search is
``find_other``, their logic intervals only). Each round runs every workload with
the path on, then off (the order alternates); CPU seconds of this process
(``time.process_time``: HiGHS and CP-SAT run in it on one thread). Printed: each
workload's median CPU seconds on and off over the rounds and the median of the
per-round ratios on / off (below 1: the path saves time).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, janko_folder  # noqa: E402

BIG = 10**9


def boards(folders):
    from thermomilp.formats import load

    found = []
    for folder in folders:
        if folder is not None and folder.is_dir():
            found += [(p, load(p)) for p in sorted(folder.rglob("*"))
                      if p.suffix == ".txt"]
    return found


def solve_boards(only: str | None = None):
    found = boards([ROOT / "instances", ROOT / "benchmarks" / "hard", janko_folder()])
    return [(p, board) for p, board in found if only is None or only in p.name]


def class_boards():
    return boards([ROOT / "instances" / "thermometers", ROOT / "instances" / "aquarium"])


@contextlib.contextmanager
def off(path: str):
    """The path switched off for the duration."""
    saved = []

    def patch(owner, name, value):
        saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    if path == "search_max":
        import thermomilp.logic.presolve as presolve

        patch(presolve, "SEARCH_MAX_VESSELS", BIG)
    elif path == "adopt":
        from thermomilp.backends.pulp_backend import PulpSession

        patch(PulpSession, "_adopt", lambda self: None)
    elif path == "add_row":
        import pulp

        import thermomilp.model.pulp_model as pm

        def plain_row(prob, terms, sense, rhs, name):
            expr = pulp.lpSum(c * v for v, c in terms)
            prob += {"==": expr == rhs, "<=": expr <= rhs, ">=": expr >= rhs}[sense], name

        patch(pm, "add_row", plain_row)
    else:
        raise SystemExit(f"unknown path {path}")
    try:
        yield
    finally:
        for owner, name, value in reversed(saved):
            setattr(owner, name, value)


def workloads(path: str, only: str | None = None, logic: str | None = None):
    from thermomilp.solving import enumerate_solutions, solve

    keywords = {"backend": "pulp"} if path in ("adopt", "add_row") else {}
    if logic is not None:
        keywords["logic"] = logic
    solving, grading = solve_boards(only), class_boards()

    def solve_all():
        return [solve(p, **keywords).status for _, p in solving]

    def grade_all():
        return [len(list(enumerate_solutions(p, 2, **keywords))) for _, p in grading]

    return {"solve": solve_all} if only else {"solve": solve_all, "grade": grade_all}


def cli(path: str, side: str, argv: list[str]) -> int:
    from thermomilp.cli.main import main as thermomilp_main

    if side == "off":
        with off(path):
            return thermomilp_main(argv)
    return thermomilp_main(argv)


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["cli"]:
        raise SystemExit(cli(argv[1], argv[2], argv[4:] if argv[3:4] == ["--"] else argv[3:]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", help="solve only the boards whose file name holds this")
    parser.add_argument("--logic", help="the solve's logic setting (default: probing)")
    args = parser.parse_args(argv)
    work = workloads(args.path, args.only, args.logic)
    for run in work.values():  # imports and first calls, on and off
        run()
        with off(args.path):
            run()
    times = {(name, side): [] for name in work for side in ("on", "off")}
    for k in range(args.rounds):
        for name, run in work.items():
            answers = {}
            for side in (("on", "off") if k % 2 == 0 else ("off", "on")):
                with off(args.path) if side == "off" else contextlib.nullcontext():
                    start = time.process_time()
                    answers[side] = run()
                    times[name, side].append(time.process_time() - start)
            assert answers["on"] == answers["off"], f"{name}: the answers differ"
    print(f"{args.path}: CPU seconds, median of {args.rounds} interleaved rounds")
    for name in work:
        on, off_ = times[name, "on"], times[name, "off"]
        ratio = statistics.median(a / b for a, b in zip(on, off_, strict=True))
        print(f"  {name:6s} on {statistics.median(on):8.3f}  off {statistics.median(off_):8.3f}"
              f"  on/off {ratio:.3f}")


if __name__ == "__main__":
    main()
