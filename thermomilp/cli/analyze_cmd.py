"""``thermomilp analyze FILE...``: model size, LP relaxation, solution count, logic."""

from __future__ import annotations

import argparse
from functools import partial

from thermomilp.cli.main import EXIT_NO_SOLUTION, add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("analyze", help="model statistics, LP relaxation and solution count",
                       description="For each FILE: the size of the cell and level formulations, "
                                   "the LP relaxation (integral share, cells it decides), the "
                                   "number of solutions (capped) and the cells each logic rule "
                                   "set fixes. Exit 0 when every board is analysed, 1 when the "
                                   "time limit or the engine ends one first, 2 for bad input.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--max-solutions", type=int, default=10, metavar="N",
                   help="stop counting solutions at N (default 10)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_solver_flags(p, note="The solution count runs the configured engine with every "
                             "setting; the LP relaxation always runs HiGHS (a fixed use: "
                             "`thermomilp solvers`) and honours --time-limit, one clock per "
                             "board for both.")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import Boards, settings_of
    from thermomilp.core.errors import ConfigError, SolveError
    from thermomilp.teach.analyze import analyze, report

    if args.max_solutions < 1:
        raise ConfigError("--max-solutions must be at least 1")
    settings = settings_of(args)
    boards = Boards(args.files, args.format)
    for _, path, puzzle in boards:
        try:
            result = analyze(puzzle, args.max_solutions, settings)
        except SolveError as exc:  # out of time, or the engine failed: not bad input
            boards.failed({"file": path, "status": exc.status, "error": str(exc)},
                          f"{exc.status}: {path}: {exc}", EXIT_NO_SOLUTION)
            continue
        boards.result(path, {"file": path, **result.to_json()},
                     partial(report, result))
    return boards.worst
