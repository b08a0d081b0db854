"""``thermomilp grade STUDENT.py [--corpus DIR]``: the autograder (docs/course/exercise.md).

The student's file is imported and run in this process: it is trusted code.
"""

from __future__ import annotations

import argparse
import json
import os

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK

DEFAULT_CORPUS = os.path.join("instances", "thermometers")


def register(sub) -> None:
    p = sub.add_parser("grade", help="grade a student's model file against the reference",
                       description="Import STUDENT.py (trusted code: it runs in this process), "
                                   "call its build(puzzle) on every board of the corpus and "
                                   "report right / wrong / infeasible / accepts-forbidden / "
                                   "rejects-solution per board. Exit 0 when every board is "
                                   "right, 1 otherwise.")
    p.add_argument("student", metavar="STUDENT.py")
    p.add_argument("--corpus", metavar="DIR", default=DEFAULT_CORPUS,
                   help=f"folder of Thermometers puzzle files (default: {DEFAULT_CORPUS})")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text report (default) or JSON Lines, one object per board")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from thermomilp.grade import corpus_boards, grade, report

    grades = grade(args.student, corpus_boards(args.corpus))
    if args.format == "json":
        for g in grades:
            print(json.dumps(g.to_json()))
    else:
        print(report(grades))
    return EXIT_OK if all(g.ok for g in grades) else EXIT_NO_SOLUTION
