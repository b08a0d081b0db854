"""``thermomilp hint FILE [--marks SPEC]``: the next logical deduction and its rule.

The marks are checked first: a wrong mark (it breaks a rule, or fits no solution) is
named with the terminal rule ``mistake`` and nothing is deduced (the rule names:
docs/logic.md). Exit 0 when a deduction is given or the board is solved, 1 when logic is
stalled, the clues contradict each other or a mark is wrong, 2 for bad input.
"""

from __future__ import annotations

import argparse
import json

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK
from thermomilp.core.untrusted import shown_lines

MARKS_HELP = ("cells already decided, in the notation of the solution grids: # filled, "
              ". empty, ? undecided. A list '1,2=# 3,4=.' (ROW,COL counted from 1, as the "
              "hints print them), an inline grid '#.??/????/...' (rows split by /), or a "
              "file holding such a grid (a grid may still write x for empty)")


def register(sub) -> None:
    p = sub.add_parser("hint", help="the next logical deduction and the rule that fired",
                       description="Check the cells marked so far (a wrong mark is named, "
                                   "exit 1), then print the next deduction on FILE, the rule "
                                   "that fired and the cells it sets.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--marks", metavar="SPEC", help=MARKS_HELP)
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text (default) or one JSON object")


def run(args: argparse.Namespace) -> int:
    from thermomilp.formats import load
    from thermomilp.logic.hints import TERMINAL, next_hint, render_step
    from thermomilp.logic.marks import parse_marks

    puzzle = load(args.file)
    marks = parse_marks(args.marks, puzzle)
    step = next_hint(puzzle, marks)
    if args.format == "json":
        print(json.dumps({"file": args.file, **step.to_json()}))
    else:
        print(shown_lines(render_step(None, step)))
    return EXIT_NO_SOLUTION if step.rule in TERMINAL and step.rule != "solved" else EXIT_OK
