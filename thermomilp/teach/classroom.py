"""Grade a class: many student files, one sealed CSV row each, resumable.

``thermomilp grade submissions/*.py --out grades.csv`` writes one row per
student (review -- "needs reading" for a flagged student --, score, boards, one
column per check, mistakes named, verdicts, flags, time, seal) as soon as that
student is graded. Run it again and the students already in the
file are skipped, so an interrupted run picks up where it stopped.

Only the grader writes grades (docs/course/grader.md, "What holds where"): every
row ends with a seal keyed by the grader's key file (`key_path`), checked on resume;
the file is rewritten whole after each student, once the grader has checked it still
holds what it wrote last; no cell is a spreadsheet formula (`cell`).

A file whose first line is not the header is not a grades file: it is left
alone with a clear error.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import hmac
import io
import os
import secrets
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from thermomilp.core.files import write_whole
from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Settings
from thermomilp.teach.corpus import GradeError
from thermomilp.teach.sandbox import Limits
from thermomilp.teach.student import StudentGrade, grade_student

# review: "needs reading" when the student is flagged (the score is then not a mark);
# binary .. probes_exact: the checks of StudentGrade.checks (docs/course/grader.md)
CHECK_COLUMNS = ["binary", "precedence", "clues", "ties", "probes_exact"]
HEADER = ["student", "review", "score", "boards", *CHECK_COLUMNS, "mistakes", "verdicts",
          "flags", "time_s", "seal"]
KEY_ENV = "THERMOMILP_GRADES_KEY"


def key_path() -> Path:
    """The grader's key file: ``$THERMOMILP_GRADES_KEY``, else
    ``$XDG_CONFIG_HOME/thermomilp/grades.key`` (``~/.config/...``)."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"),
                                                               ".config")
    return Path(config) / "thermomilp" / "grades.key"


def grades_key(create: bool = True) -> bytes:
    path = key_path()
    with contextlib.suppress(OSError, UnicodeDecodeError):
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 32:
            return text.encode()
    if not create:
        raise GradeError(f"{path}: the grader's key file is missing or unreadable; the rows of "
                         "an existing grades file cannot be checked without it")
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return grades_key(create=False)
    except OSError as exc:
        raise GradeError(f"{path}: cannot create the grader's key file ({exc.strerror}); set "
                         f"{KEY_ENV} to a writable path") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key.encode()


def seal(key: bytes, fields: Sequence[str]) -> str:
    return hmac.new(key, "\x1f".join(fields).encode("utf-8", "surrogateescape"),
                    hashlib.sha256).hexdigest()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


def cell(text: str) -> str:
    """A CSV cell no spreadsheet reads as a formula: one starting with ``= + - @``, a tab
    or a carriage return (the OWASP list) gets a leading single quote -- and so does one
    starting with a quote, so that `uncell` gives back exactly the text."""
    return "'" + text if text.startswith(FORMULA_START) else text


def uncell(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def _csv(rows: Sequence[Sequence[str]]) -> str:
    """The one place the grades file's text is made: every cell through `cell`."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows([cell(c) for c in row] for row in rows)
    return buf.getvalue()


def read_grades(out: str, key: bytes | None = None) -> tuple[str, dict[str, dict[str, str]]]:
    """(the file's text, rows by student) of a grades file; every row's seal is checked.

    An empty or missing file is ("", {}). Raises [`GradeError`][thermomilp.core.errors.GradeError]
    on a file that is not a grades file or that holds a row the grader did not write."""
    if not os.path.exists(out):
        return "", {}
    with open(out, newline="", encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    if not text:
        return "", {}
    lines = text.splitlines()
    if lines[0].split(",") != HEADER:
        raise GradeError(f"{out}: not a grades file written by this thermomilp grade (its first "
                         f"line is not {','.join(HEADER)}); it is left untouched -- choose "
                         "another --out")
    reader = csv.reader(io.StringIO(text, newline=""))
    next(reader)
    rows: dict[str, dict[str, str]] = {}
    for written in reader:
        fields = [uncell(c) for c in written]
        where = f"{out}, line {reader.line_num}"
        key = key if key is not None else grades_key(create=False)
        if len(fields) != len(HEADER) or not hmac.compare_digest(
                seal(key, fields[:-1]), fields[-1]):
            raise GradeError(f"{where}: REFUSED -- a record thermomilp grade did not write (its "
                             "seal does not match the grader's key): the file was edited, or a "
                             "student's code wrote to it. Nothing was graded; check the file "
                             "and remove that row (its student is then graded again)")
        rows[fields[0]] = dict(zip(HEADER, fields, strict=True))
    if not text.endswith("\n"):
        raise GradeError(f"{out}: REFUSED -- its last line is cut short, and the grader writes "
                         "whole files only: something else wrote to it")
    return text, rows


def row_of(grade: StudentGrade) -> list[str]:
    verdicts = Counter(b.verdict for b in grade.boards)
    return [grade.student, "needs reading" if grade.needs_reading else "",
            str(grade.score), str(len(grade.boards)),
            *(grade.checks.get(c, "-") for c in CHECK_COLUMNS), " ".join(grade.mistakes),
            " ".join(f"{v}:{n}" for v, n in sorted(verdicts.items())), " ".join(grade.flags),
            f"{grade.time_s:.1f}"]


def grade_class(students: Sequence[str], boards: Sequence[tuple[str, Puzzle]], kind: str,
                out: str, limits: Limits | None = None, progress: TextIO | None = None,
                on_grade: Callable[[StudentGrade], None] | None = None,
                hide: Sequence[str] = (), settings: Settings | None = None) -> tuple[int, int]:
    """Grade every student not yet in ``out``; returns (graded now, skipped).
    ``settings``: as for `grade_student`.

    Progress goes to ``progress`` (default: the current ``sys.stderr``).
    """
    progress = progress or sys.stderr
    text, done = read_grades(out)
    key = grades_key()
    todo = [s for s in students if s not in done]
    written = text or _csv([HEADER])
    if not text:
        write_whole(out, written.encode("utf-8", "surrogateescape"))
    for n, student in enumerate(todo, 1):
        # hidden from the child: the grades, the key and every submission of the class
        grade = grade_student(student, boards, kind, limits,
                              [*hide, out, str(key_path()), *students], settings)
        now: bytes | None = None
        with contextlib.suppress(OSError):
            now = Path(out).read_bytes()
        if now != written.encode("utf-8", "surrogateescape"):
            grade.flags.append("tampered-grades")
            print(f"WARNING: {out} changed while {student}'s code ran; the grader's own rows "
                  f"are written back and {student} is flagged tampered-grades", file=progress,
                  flush=True)
        fields = row_of(grade)
        written += _csv([fields + [seal(key, fields)]])
        write_whole(out, written.encode("utf-8", "surrogateescape"))
        if on_grade is not None:
            on_grade(grade)
        named = ", ".join(grade.mistakes) or "-"
        marks = (f"flagged ({', '.join(grade.flags)}): needs reading" if grade.needs_reading
                 else f"{grade.score}/{len(grade.boards)} right")
        print(f"[{n}/{len(todo)}] {student}: {marks}, mistakes: {named} "
              f"({grade.time_s:.1f} s)", file=progress, flush=True)
    if done.keys() & set(students):
        print(f"skipped {len(done.keys() & set(students))} already in {out}", file=progress)
    return len(todo), len(students) - len(todo)


def all_right(out: str, students: Sequence[str]) -> bool:
    """Every student of this run has a full score, no mistake and no flag in ``out``."""
    rows = read_grades(out)[1]
    return all(s in rows and rows[s]["score"] == rows[s]["boards"] and not rows[s]["mistakes"]
               and not rows[s]["flags"] and not rows[s]["review"] for s in students)
