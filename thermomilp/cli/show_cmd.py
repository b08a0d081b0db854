"""``thermomilp show FILE``: draw a puzzle (and its stored solution with --solution)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("show", help="draw a puzzle in the terminal")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--solution", action="store_true",
                   help="draw the solution stored in the file, if any")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.formats import load
    from thermomilp.render import render_board

    for n, path in enumerate(args.files):
        puzzle = load(path)
        if n:
            print()
        title = f"== {path}: {puzzle.kind} {puzzle.height}x{puzzle.width}"
        print(title + (f" ({puzzle.name})" if puzzle.name else ""))
        print(render_board(puzzle, puzzle.solution if args.solution else None))
    return 0
