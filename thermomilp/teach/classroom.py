"""Grade a class: many student files, one CSV row each, resumable.

``thermomilp grade submissions/*.py --out grades.csv`` appends one row per
student (score, boards, mistakes named, verdicts, time) as soon as that
student is graded. Run it again and the students already in the file are
skipped, so an interrupted run picks up where it stopped. The file is only
ever appended to, and only if it is a grades file (its first line is our
header); anything else is left alone with a clear error.
"""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.corpus import GradeError
from thermomilp.teach.sandbox import Limits
from thermomilp.teach.student import StudentGrade, grade_student

HEADER = ["student", "score", "boards", "mistakes", "verdicts", "time_s"]


def already_graded(out: str) -> set[str]:
    """Students recorded in ``out`` (empty when it does not exist); refuses a foreign file."""
    if not os.path.exists(out):
        return set()
    with open(out, newline="", encoding="utf-8") as f:
        text = f.read()
    if not text:
        return set()
    lines = text.splitlines()
    if lines[0].split(",") != HEADER:
        raise GradeError(f"{out}: not a grades file written by thermomilp grade (its first line "
                         f"is not {','.join(HEADER)}); it is left untouched -- choose another "
                         "--out")
    complete = text if text.endswith("\n") else text[:text.rfind("\n") + 1]
    if complete != text:  # a torn last row from an interrupted run: cut only that row
        with open(out, "w", encoding="utf-8", newline="") as f:
            f.write(complete)
    rows = list(csv.DictReader(complete.splitlines()))
    return {r["student"] for r in rows if r.get("student")}


def row_of(grade: StudentGrade) -> list[str]:
    verdicts: dict[str, int] = {}
    for b in grade.boards:
        verdicts[b.verdict] = verdicts.get(b.verdict, 0) + 1
    return [grade.student, str(grade.score), str(len(grade.boards)), " ".join(grade.mistakes),
            " ".join(f"{v}:{n}" for v, n in sorted(verdicts.items())), f"{grade.time_s:.1f}"]


def grade_class(students: Sequence[str], boards: Sequence[tuple[str, Puzzle]], kind: str,
                out: str, limits: Limits | None = None, progress: TextIO | None = None,
                on_grade: Callable[[StudentGrade], None] | None = None) -> tuple[int, int]:
    """Grade every student not yet in ``out``; returns (graded now, skipped).

    Progress goes to ``progress`` (default: the current ``sys.stderr``).
    """
    progress = progress or sys.stderr
    done = already_graded(out)
    todo = [s for s in students if s not in done]
    new_file = not os.path.exists(out) or os.path.getsize(out) == 0
    graded = 0
    with open(out, "a", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        if new_file:
            writer.writerow(HEADER)
            f.flush()
        for n, student in enumerate(todo, 1):
            grade = grade_student(student, boards, kind, limits)
            writer.writerow(row_of(grade))
            f.flush()
            graded += 1
            if on_grade is not None:
                on_grade(grade)
            named = ", ".join(grade.mistakes) or "-"
            print(f"[{n}/{len(todo)}] {student}: {grade.score}/{len(grade.boards)} right, "
                  f"mistakes: {named} ({grade.time_s:.1f} s)", file=progress, flush=True)
    if done & set(students):
        print(f"skipped {len(done & set(students))} already in {out}", file=progress)
    return graded, len(students) - len(todo)
