"""``thermomilp explain FILE``: the whole logical solution, step by step (the rule names:
docs/logic.md). The run ends solved, stalled (pure logic stops: the undecided cells are
shown), in a contradiction, or at once with ``mistake`` when a mark is wrong. Exit 0 when
solved, 1 otherwise, 2 for bad input.
"""

from __future__ import annotations

import argparse
from functools import partial

from thermomilp.cli.main import EXIT_NO_SOLUTION


def register(sub) -> None:
    from thermomilp.cli.hint_cmd import MARKS_HELP

    p = sub.add_parser("explain", help="solve by logic alone, step by step",
                       description="Print every deduction of a logical solution of each FILE, "
                                   "or where pure logic stalls.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--marks", metavar="SPEC", help=MARKS_HELP + " (one FILE only)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or JSON Lines, one object per file")


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import Boards
    from thermomilp.core.errors import ConfigError
    from thermomilp.logic.hints import explain, render_explanation
    from thermomilp.logic.marks import parse_marks

    if args.marks and len(args.files) > 1:
        raise ConfigError("--marks applies to one FILE; give a single file")
    boards = Boards(args.files, args.format)
    for _, path, puzzle in boards:
        result = explain(puzzle, parse_marks(args.marks, puzzle))
        if result.status != "solved":
            boards.exit_at_least(EXIT_NO_SOLUTION)
        boards.result(path, {"file": path, **result.to_json()},
                     partial(render_explanation, result))
    return boards.worst
