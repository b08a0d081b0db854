"""``thermomilp solve FILE...``: solve, prove uniqueness, print text or JSON Lines."""

from __future__ import annotations

import argparse
import json
import sys

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK, EXIT_USAGE, add_solver_flags


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve puzzle files and prove uniqueness",
                       description="Solve each FILE; prove the solution unique unless "
                                   "--no-unique. Exit 0 if every file has a solution, 1 if "
                                   "some is infeasible, timed out or failed, 2 for bad input.")
    p.add_argument("files", nargs="+", metavar="FILE")
    add_solver_flags(p, formulation=True)
    p.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    p.add_argument("--no-explain", action="store_true",
                   help="do not look for the conflicting clues of an infeasible board")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text board (default) or JSON Lines, one object per file")
    p.add_argument("--svg", metavar="FILE",
                   help="also draw the solution as SVG (several inputs: FILE-<input>.svg)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_from
    from thermomilp.core.deadline import Deadline
    from thermomilp.core.errors import PuzzleError
    from thermomilp.formats import load
    from thermomilp.solve import solve

    settings = settings_from(args)  # solve() checks the pair before the logic runs
    worst = EXIT_OK
    for n, path in enumerate(args.files):
        try:
            puzzle = load(path)
        except PuzzleError as exc:
            worst = max(worst, EXIT_USAGE)
            _report_error(args, path, str(exc))
            continue
        clock = Deadline(settings.time_limit)  # one per board: solve and explanation share it
        result = solve(puzzle, unique=not args.no_unique, settings=settings, deadline=clock)
        if not result.ok:
            worst = max(worst, EXIT_NO_SOLUTION)
        if result.status == "infeasible" and not args.no_explain:
            result = _explained(result, puzzle, settings, clock)
        if args.svg:
            from thermomilp.pictures.svg import svg_path_for, write_svg

            write_svg(svg_path_for(args.svg, path, len(args.files) > 1), puzzle, result.grid)
        if args.format == "json":
            print(json.dumps(result.to_json(path)), flush=True)
        else:
            if n:
                print()
            print(f"== {path}")
            print(result)
    return worst


def _explained(result, puzzle, settings, clock):
    """The result with an irreducible set of conflicting rules (docs/infeasibility.md),
    found within what is left of the board's time; ``time_s`` then covers both."""
    import dataclasses

    from thermomilp.solve.conflict import find_conflict

    calls: list[int] = []
    conflict = find_conflict(puzzle, settings=settings, deadline=clock, engine_calls=calls)
    return dataclasses.replace(result, conflict=conflict, time_s=clock.elapsed(),
                               engine_called=result.engine_called or bool(calls))


def _report_error(args: argparse.Namespace, path: str, message: str) -> None:
    if args.format == "json":
        print(json.dumps({"file": path, "puzzle": None, "status": "error", "grid": None,
                          "levels": None, "second": None, "backend": None, "solver": None,
                          "time_s": 0.0, "error": message}), flush=True)
    print(f"thermomilp: error: {message}", file=sys.stderr)
