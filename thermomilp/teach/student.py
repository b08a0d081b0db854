"""Grade one student's file: build in the sandbox, check every board, diagnose."""

from __future__ import annotations

import ast
import contextlib
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from thermomilp.core.puzzle import Puzzle
from thermomilp.core.settings import Settings
from thermomilp.teach.checks import BoardGrade, grade_board, grade_probe, student_run_limit
from thermomilp.teach.corpus import GradeError
from thermomilp.teach.diagnose import Diagnosis, diagnose
from thermomilp.teach.linear import LinearModel
from thermomilp.teach.probes import grids_obeying, probe_boards
from thermomilp.teach.sandbox import Built, Limits, run_student


@dataclass
class StudentGrade:
    student: str
    kind: str
    boards: list[BoardGrade]
    mistakes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    printed_bytes: int = 0
    time_s: float = 0.0
    flags: list[str] = field(default_factory=list)  # for the instructor: see FLAGS
    # per check (docs/course/grader.md): "ok", a mistake id, "?" (not proven either way),
    # "-" (nothing built), "n/a"; probes_exact is "N/M" probe boards whose grids are exactly
    # the rules'
    checks: dict[str, str] = field(default_factory=dict)

    @property
    def score(self) -> int:
        return sum(b.ok for b in self.boards)

    @property
    def needs_reading(self) -> bool:
        """Any flag: the instructor reads the file before any mark is given."""
        return bool(self.flags)

    @property
    def ok(self) -> bool:
        return (bool(self.boards) and all(b.ok for b in self.boards) and not self.mistakes
                and not self.flags)

    def records(self) -> list[dict[str, Any]]:
        """One JSON Lines record per board, each naming the model's mistakes."""
        return [{"student": self.student, "puzzle": self.kind, **b.to_json(),
                 "mistakes": list(self.mistakes), "evidence": list(self.evidence),
                 "flags": list(self.flags), "needs_reading": self.needs_reading,
                 "checks": dict(self.checks)} for b in self.boards]


def grade_student(student: str, boards: Sequence[tuple[str, Puzzle]], kind: str,
                  limits: Limits | None = None, hide: Sequence[str] = (),
                  settings: Settings | None = None) -> StudentGrade:
    """``hide``: more paths the student's process may not read (sandbox.hidden_paths).
    ``settings`` (default: [`Settings`][thermomilp.core.settings.Settings]): the engine that counts
    each board's own solutions, and the time limit of every HiGHS run on the student's model
    (`thermomilp.teach.checks.grade_board`)."""
    settings = settings if settings is not None else Settings()
    if not os.path.isfile(student):
        raise GradeError(f"{student}: no such file")
    started = time.monotonic()
    probes = probe_boards(kind)
    # the small probe boards first: a model that is only slow on big boards is still diagnosed
    run = run_student(student, probes + [p for _, p in boards], limits, hide)
    probe_builds = run.boards[:len(probes)]
    corpus_builds = run.boards[len(probes):]
    grades = [grade_board(file, puzzle, built, settings)
              for (file, puzzle), built in zip(boards, corpus_builds, strict=True)]
    # the probe boards are graded too: every 0/1 grid, the model's against the rules'
    exact: dict[int, set[int]] = {}
    for b, (puzzle, built) in enumerate(zip(probes, probe_builds, strict=True)):
        graded, found = grade_probe(f"probe board {b + 1} ({puzzle.height}x{puzzle.width})",
                                    puzzle, built, grids_obeying(kind, b),
                                    student_run_limit(settings))
        grades.append(graded)
        if found is not None:
            exact[b] = found
    built_none = all(b.model is None for b in run.boards)
    d = Diagnosis() if built_none else diagnose(
        kind, probes, probe_builds, list(zip(corpus_builds, grades[:len(boards)], strict=True)),
        exact, student_run_limit(settings))
    flags = flags_of(student, probes, probe_builds)
    if run.killed:
        d.evidence.append(f"your code started {run.killed} process(es) that were still running "
                        "when its board ended; the grader killed them")
    probe_grades = grades[len(boards):]
    checks = {"binary": "-" if built_none else
              "no" if {"continuous-variables", "cells-not-binary"} & set(d.mistakes)
              or any(g.verdict == "fractional" for g in grades) else "yes",
              **{c: d.checks.get(c, "n/a" if c == "ties" and kind != "aquarium" else "-")
                 for c in ("precedence", "clues", "ties")},
              "probes_exact": f"{sum(g.ok for g in probe_grades)}/{len(probe_grades)}"}
    return StudentGrade(student, kind, grades, d.mistakes, d.evidence, run.printed_bytes,
                        time.monotonic() - started, flags, checks)


FLAGS = {
    "imports-thermomilp": "the file imports thermomilp (the package holds the reference "
                          "models and the boards' solutions)",
    "package-model": "build(puzzle) returns one of thermomilp's own models",
    "tampered-grades": "the grades file changed while this student's code ran",
}


def imports_thermomilp(source: str) -> bool:
    """Does code of the file that runs when it is imported name the package (an import, a
    string, a name)? What sits under ``if __name__ == "__main__":`` never runs in the
    grader, and a docstring is no code: neither counts."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "thermomilp" in source

    def main_guard(node: ast.AST) -> bool:
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
            return False
        test = node.test
        sides = [test.left, *test.comparators]
        return (len(sides) == 2 and isinstance(test.ops[0], ast.Eq)
                and any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)
                and any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides))

    def docstring(node: ast.AST) -> bool:
        return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)

    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if main_guard(node):
            assert isinstance(node, ast.If)
            todo.extend(node.orelse)  # the else branch does run on import
            continue
        if docstring(node):
            continue
        if (isinstance(node, ast.Import)
                and any(a.name.split(".")[0] == "thermomilp" for a in node.names)
                or isinstance(node, ast.ImportFrom)
                and (node.module or "").split(".")[0] == "thermomilp"
                or isinstance(node, ast.Constant) and isinstance(node.value, str)
                and "thermomilp" in node.value
                or isinstance(node, ast.Name) and "thermomilp" in node.id):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _signature(model: LinearModel) -> tuple:
    rows = sorted((r.text, tuple(sorted((model.names[k], a) for k, a in r.terms.items())),
                   r.lower, r.upper) for r in model.rows)
    return tuple(sorted(model.names)), tuple(rows)


def package_models(puzzle: Puzzle) -> list[tuple]:
    """The signature of every model thermomilp itself builds of ``puzzle`` (pulp, pyomo)."""
    from thermomilp.model import build_model
    from thermomilp.teach.extract import extract

    out = []
    for backend in ("pulp", "pyomo"):
        for formulation in ("cell", "compact", "level"):
            try:
                model = extract(build_model(puzzle, backend=backend, formulation=formulation),
                                puzzle)
            except Exception:  # noqa: BLE001 - a formulation the grader cannot read as cells
                continue
            out.append(_signature(model))
    return out


def flags_of(student: str, probes: Sequence[Puzzle], builds: Sequence[Built]) -> list[str]:
    """What the instructor should look at, found by the grader (not reported by the child)."""
    flags = []
    source = ""
    with contextlib.suppress(OSError):
        source = Path(student).read_text(encoding="utf-8", errors="replace")
    if imports_thermomilp(source):
        flags.append("imports-thermomilp")
    for puzzle, built in zip(probes, builds, strict=True):
        if built.model is not None:
            if _signature(built.model) in package_models(puzzle):
                flags.append("package-model")
            break
    return flags
