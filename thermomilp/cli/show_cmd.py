"""``thermomilp show FILE``: draw a puzzle (and its stored solution with --solution)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser("show", help="draw a puzzle in the terminal")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--solution", action="store_true",
                   help="draw the solution stored in the file, if any")
    p.add_argument("--svg", metavar="FILE",
                   help="also draw the board as SVG (several inputs: one distinct "
                        "FILE-<input>.svg each)")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import Boards
    from thermomilp.core.untrusted import shown
    from thermomilp.pictures.svg import svg_paths_for, write_svg
    from thermomilp.pictures.text import render_board

    pictures = svg_paths_for(args.svg, args.files) if args.svg else []
    boards = Boards(args.files)
    for n, path, puzzle in boards:
        title = f"== {path}: {puzzle.kind} {puzzle.height}x{puzzle.width}"
        grid = puzzle.solution if args.solution else None
        boards.text(shown(title + (f" ({puzzle.name})" if puzzle.name else "")) + "\n"
                        + render_board(puzzle, grid))
        if pictures:
            write_svg(pictures[n], puzzle, grid)
    return boards.worst
