"""``thermomilp grade STUDENT.py... [--corpus DIR] [--out grades.csv]``: the autograder.

Each student's file runs in a child process with a time limit per board, a
memory cap and a cap on what it may print (thermomilp.teach.sandbox; the
trust model is in docs/course/grader.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from thermomilp.cli.main import EXIT_NO_SOLUTION, EXIT_OK, add_solver_flags
from thermomilp.core.untrusted import shown


def register(sub) -> None:
    p = sub.add_parser("grade", help="grade students' model files against the reference",
                       description="Run each STUDENT.py in a child process (time limit per "
                                   "board, memory cap, output cap), call its build(puzzle) on "
                                   "every board of the corpus, report right / wrong / "
                                   "infeasible / accepts-forbidden / rejects-solution / "
                                   "timeout / crashed / exited per board and name the "
                                   "mistakes found (docs/course/grader.md). This protects the "
                                   "grader from mistakes, not from malice: grade untrusted "
                                   "files in a container. Exit 0 when every board of every "
                                   "student is right, 1 otherwise.")
    p.add_argument("students", metavar="STUDENT.py", nargs="*")
    p.add_argument("--copy-kit", metavar="DIR", default=None,
                   help="copy the teaching kit (models/: the .mod files and the example "
                        "students with a classic mistake) to DIR/models and stop")
    p.add_argument("--copy-boards", metavar="DIR", default=None,
                   help="write the bundled boards of --puzzle without their solutions to DIR "
                        "(a corpus for a container where student code runs) and stop")
    p.add_argument("--with-solutions", action="store_true",
                   help="with --copy-kit: copy the correct models too (models/solutions; "
                        "for the instructor, not the students)")
    p.add_argument("--corpus", metavar="DIR", default=None,
                   help="folder of puzzle files (default: the boards shipped with thermomilp)")
    p.add_argument("--puzzle", choices=("thermometers", "aquarium"), default=None,
                   help="which puzzle the students model (default: what the files declare "
                        "with PUZZLE = \"aquarium\", else the corpus's kind, thermometers "
                        "for the bundled corpus)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="text report (default) or JSON Lines, one object per (student, board)")
    p.add_argument("--out", metavar="GRADES.csv", default=None,
                   help="grade a class: one CSV row per student, appended as each is graded; "
                        "students already in the file are skipped (resumable); progress on "
                        "stderr")
    p.add_argument("--hints", action="store_true",
                   help="after each mistake named, say how to fix it (by default a report "
                        "says which rule the model breaks, not the code that fixes it)")
    p.add_argument("--build-time-limit", type=float, default=10.0, metavar="S",
                   help="seconds for one build(puzzle) in the student's process (default 10; "
                        "importing the file gets 30)")
    p.add_argument("--memory-mb", type=int, default=2048, metavar="MB",
                   help="address-space cap of the student's process (default 2048)")
    add_solver_flags(p, note="Each board's own solutions are counted with the configured "
                             "engine and every setting; the student's model always runs on "
                             "HiGHS (a fixed use: `thermomilp solvers`), each run within "
                             "--time-limit (default: 30 s per run when no time limit is set).")


PUZZLES = ("thermometers", "aquarium")
MAX_STUDENT_BYTES = 1 << 20


def declared_puzzle(path: str) -> tuple[str | None, str | None]:
    """(the puzzle a student's file declares, the puzzle its module docstring names).

    Read as text, never run: a module-level ``PUZZLE = "aquarium"`` (or
    ``"thermometers"``) declares it; otherwise the docstring is looked at for the
    name of exactly one puzzle (``"Classic mistake (Aquarium): ..."``), which is only
    used to ask for ``--puzzle``. ``(None, None)`` when neither says (or the file
    does not parse: grading it will say why)."""
    import ast

    from thermomilp.core.files import read_regular

    try:
        tree = ast.parse(read_regular(path, MAX_STUDENT_BYTES).decode("utf-8", "replace"))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None, None
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "PUZZLE"
                and isinstance(node.value, ast.Constant)
                and str(node.value.value).lower() in PUZZLES):
            return str(node.value.value).lower(), None
    doc = (ast.get_docstring(tree) or "").lower()
    named = [kind for kind in PUZZLES if kind.rstrip("s") in doc]
    return None, named[0] if len(named) == 1 else None


def run(args: argparse.Namespace) -> int:
    from thermomilp.cli.main import settings_of
    from thermomilp.core.errors import ThermomilpError
    from thermomilp.teach.corpus import GradeError, copy_boards, copy_kit, corpus_boards
    from thermomilp.teach.sandbox import Limits

    if not args.build_time_limit > 0 or args.build_time_limit > 3600:
        raise ThermomilpError("--build-time-limit must be between 0 and 3600 seconds")
    if not 64 <= args.memory_mb <= 1 << 20:
        raise ThermomilpError("--memory-mb must be between 64 and 1048576")
    settings = settings_of(args)
    if args.copy_kit is not None:
        written = copy_kit(args.copy_kit, solutions=args.with_solutions)
        print(f"{len(written)} files copied to {os.path.join(args.copy_kit, 'models')}")
        return EXIT_OK
    if args.copy_boards is not None:
        written = copy_boards(args.copy_boards, args.puzzle or "thermometers")
        print(f"{len(written)} boards written to {args.copy_boards} (no solutions)")
        return EXIT_OK
    if not args.students:
        raise ThermomilpError("give one or more STUDENT.py files (or --copy-kit DIR)")
    limits = Limits(board_s=args.build_time_limit, memory_mb=args.memory_mb)
    for student in args.students:
        if not os.path.isfile(student):
            raise GradeError(f"{student}: no such file")
    declared = {student: declared_puzzle(student) for student in args.students}
    wanted = {kind for kind, _ in declared.values() if kind is not None}
    if len(wanted) > 1:
        raise GradeError("the files model different puzzles ("
                         + ", ".join(f"{shown(s)}: {k}" for s, (k, _) in declared.items() if k)
                         + "): grade each puzzle's files in a run of its own")
    puzzle = args.puzzle
    if puzzle is None and args.corpus is None and wanted:
        puzzle = next(iter(wanted))  # the bundled boards of the puzzle the files declare
    kind, boards = corpus_boards(args.corpus, puzzle)
    for student, (says, mentions) in declared.items():
        if says is not None and says != kind:
            raise GradeError(f"{shown(student)} declares PUZZLE = {says!r}, but the boards are "
                             f"{kind}: give --puzzle {says}" + (" (and a corpus of such "
                                                               "boards)" if args.corpus else ""))
        if says is None and args.puzzle is None and mentions not in (None, kind):
            raise GradeError(f"{shown(student)} speaks of {mentions} but does not say which "
                             f"puzzle it models: give --puzzle {mentions} (or --puzzle {kind} "
                             f"to grade it on {kind} boards), or write PUZZLE = {mentions!r} "
                             "in the file")
    from thermomilp.teach.landlock import available

    if not available():
        print("thermomilp grade: this system has no Landlock: the student's code can read the "
              "package's boards and write your files (run untrusted files in a container: "
              "docs/course/grader.md, what holds where)", file=sys.stderr)
    hide = [args.corpus] if args.corpus is not None else []  # its files may hold solutions
    hide += args.students  # each child reads its own copy, never a classmate's file
    from thermomilp.teach.classroom import all_right, grade_class, key_path

    hide.append(str(key_path()))  # with --out or not: the same box alone and in a class

    def show(grade) -> None:
        if args.format == "json":
            for record in grade.records():
                print(json.dumps(record))
        else:
            from thermomilp.teach.report import report

            print(report(grade, hints=args.hints))
        sys.stdout.flush()

    if args.out is not None:
        graded, skipped = grade_class(args.students, boards, kind, args.out, limits,
                                      on_grade=show if args.format == "json" else None,
                                      hide=hide, settings=settings)
        if args.format == "text":
            print(f"{graded} graded, {skipped} already in {args.out}")
        return EXIT_OK if all_right(args.out, args.students) else EXIT_NO_SOLUTION
    from thermomilp.teach.student import grade_student

    ok = True
    for student in args.students:
        grade = grade_student(student, boards, kind, limits, hide, settings)
        show(grade)
        ok = ok and grade.ok
    return EXIT_OK if ok else EXIT_NO_SOLUTION
