"""``thermomilp solve FILE...``: solve, prove uniqueness, print text or JSON Lines."""

from __future__ import annotations

import argparse
from functools import partial

from thermomilp.cli.main import EXIT_NO_SOLUTION, add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve puzzle files and prove uniqueness",
                       description="Solve each FILE; prove the solution unique unless "
                                   "--no-unique. Exit 0 if every file has a solution, 1 if "
                                   "some is infeasible, timed out or failed, 2 for bad input.")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_solver_flags(p)
    p.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    p.add_argument("--no-explain", action="store_true",
                   help="do not look for the conflicting clues of an infeasible board")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text board (default) or JSON Lines, one object per file")
    p.add_argument("--svg", metavar="FILE",
                   help="also draw the solution as SVG (several inputs: FILE-<input>.svg)")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import Output, settings_of
    from thermomilp.solving.pipeline import solve_input

    settings = settings_of(args)  # solve() checks the pair before the logic runs
    pictures: list[str] = []
    if args.svg:  # pictures.svg loaded only then: start-up
        from thermomilp.pictures.svg import svg_paths_for, write_svg

        pictures = svg_paths_for(args.svg, args.files)
    out = Output(args.format)  # each FILE is read by solve_input
    for n, path in enumerate(args.files):
        outcome = solve_input(path, settings, unique=not args.no_unique,
                              explain=not args.no_explain)
        result = outcome.result
        if result is None:
            out.failed(outcome.record(), f"error: {outcome.error}")
            continue
        if not result.ok:
            out.exit_at_least(EXIT_NO_SOLUTION)
        if pictures and result.puzzle is not None:
            write_svg(pictures[n], result.puzzle, result.grid)
        out.result(path, outcome.record(), partial(str, result))
    return out.worst
