"""Grade one student's file: build in the sandbox, check every board, diagnose."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from thermomilp.core.puzzle import Puzzle
from thermomilp.teach.checks import BoardGrade, grade_board
from thermomilp.teach.corpus import GradeError
from thermomilp.teach.diagnose import diagnose
from thermomilp.teach.probes import probe_boards
from thermomilp.teach.sandbox import Limits, run_student


@dataclass
class StudentGrade:
    student: str
    kind: str
    boards: list[BoardGrade]
    mistakes: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    printed_bytes: int = 0
    time_s: float = 0.0

    @property
    def score(self) -> int:
        return sum(b.ok for b in self.boards)

    @property
    def ok(self) -> bool:
        return bool(self.boards) and all(b.ok for b in self.boards) and not self.mistakes

    def records(self) -> list[dict[str, Any]]:
        """One JSON Lines record per board, each naming the model's mistakes."""
        out = []
        for b in self.boards:
            record = {"student": self.student, "puzzle": self.kind, **b.to_json(),
                      "mistakes": list(self.mistakes), "evidence": list(self.evidence)}
            out.append(record)
        return out


def grade_student(student: str, boards: Sequence[tuple[str, Puzzle]], kind: str,
                  limits: Limits | None = None) -> StudentGrade:
    if not os.path.isfile(student):
        raise GradeError(f"{student}: no such file")
    started = time.monotonic()
    probes = probe_boards(kind)
    # the small probe boards first: a model that is only slow on big boards is still diagnosed
    run = run_student(student, probes + [p for _, p in boards], limits)
    probe_builds = run.boards[:len(probes)]
    corpus_builds = run.boards[len(probes):]
    grades = [grade_board(file, puzzle, built)
              for (file, puzzle), built in zip(boards, corpus_builds, strict=True)]
    if all(b.model is None for b in run.boards):
        found_mistakes: list[str] = []
        evidence: list[str] = []
    else:
        d = diagnose(kind, probes, probe_builds, list(zip(corpus_builds, grades, strict=True)))
        found_mistakes, evidence = d.mistakes, d.evidence
    return StudentGrade(student, kind, grades, found_mistakes, evidence, run.printed_bytes,
                        time.monotonic() - started)
