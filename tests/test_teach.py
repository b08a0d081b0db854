"""The autograder (thermomilp.teach): mistakes named from evidence, student code sandboxed.

The student models in tests/students/ were written apart from
models/students/: correct ones in several styles, and one classic mistake
per file, named ``<puzzle>_<layer>_<mistake-id>.py``.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.teach.catalogue import MISTAKES
from thermomilp.teach.corpus import corpus_boards
from thermomilp.teach.sandbox import Limits
from thermomilp.teach.student import grade_student

from helpers import INSTANCES, ROOT

HERE = Path(__file__).resolve().parent
STUDENTS = (sorted((HERE / "students").glob("*.py"))
            + sorted((ROOT / "models" / "students").glob("*.py"))
            + sorted((ROOT / "models" / "solutions").glob("*.py")))
THERMO = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t04_6x6_missing", "t07_5x5_two_solutions", "t08_4x4_no_solution")]
AQUA = [(f"{n}.txt", load(INSTANCES / "aquarium" / f"{n}.txt")) for n in ("a01_6x6", "a02_6x6")]


def expected(path: Path) -> tuple[str, str | None]:
    """(puzzle, mistake id or None for a correct model) from the file name."""
    if path.parent.parent.name == "models":  # models/students/[aquarium_]<mistake_id>.py
        kind = "aquarium" if path.stem.startswith("aquarium_") else "thermometers"
        stem = path.stem.removeprefix("aquarium_")
        return kind, None if stem.startswith("correct") else stem.replace("_", "-")
    kind = "aquarium" if path.stem.startswith("aqua") else "thermometers"
    mistake = path.stem.split("_", 2)[2]
    return kind, None if mistake.startswith("correct") else mistake


def _pulp_has_dicts() -> bool:
    import pulp

    return hasattr(pulp.LpVariable, "dicts")


@pytest.mark.parametrize("student", STUDENTS, ids=lambda p: p.stem)
def test_each_model_gets_exactly_its_mistake(student):
    kind, mistake = expected(student)
    graded = grade_student(str(student), THERMO if kind == "thermometers" else AQUA, kind)
    assert graded.mistakes == ([mistake] if mistake else []), graded.evidence
    if mistake is None:  # a correct model is right on every board, and says nothing else
        assert [b.verdict for b in graded.boards] == ["right"] * len(graded.boards)
        assert graded.evidence == []
    else:
        assert graded.evidence and graded.evidence[0].startswith(mistake)


def test_every_catalogued_mistake_has_a_student_model():
    named = {expected(p)[1] for p in STUDENTS}
    assert set(MISTAKES) <= named


def test_unknown_mistake_is_described_not_guessed(tmp_path):
    # every bulb forced full (an empty thermometer is legal): no catalogued mistake
    student = tmp_path / "odd.py"
    student.write_text(
        "import pulp\n\ndef build(p):\n    prob = pulp.LpProblem('t', pulp.LpMinimize)\n"
        "    x = {(i, j): prob.add_variable(f'x_{i}_{j}', cat=pulp.LpBinary)\n"
        "         for i in range(p.height) for j in range(p.width)}\n"
        "    for i, k in enumerate(p.rows):\n        if k is not None:\n"
        "            prob += pulp.lpSum(x[i, j] for j in range(p.width)) == k\n"
        "    for j, k in enumerate(p.cols):\n        if k is not None:\n"
        "            prob += pulp.lpSum(x[i, j] for i in range(p.height)) == k\n"
        "    for v in p.vessels:\n        for a, b in zip(v.cells, v.cells[1:]):\n"
        "            prob += x[b] <= x[a]\n        prob += x[v.cells[0]] == 1\n"
        "    return prob\n")
    graded = grade_student(str(student), THERMO, "thermometers")
    assert graded.mistakes == []
    said = [f.message for b in graded.boards for f in b.findings] + graded.evidence
    assert any("your model forbids" in m and "constraints of yours forbid it" in m
               for m in said), said


# ---------------------------------------------------------------------------
# The sandbox: the verdict cannot be forged or hung by the student's file
# ---------------------------------------------------------------------------

CASES = {
    "loop_in_build": ("def build(puzzle):\n    while True:\n        pass\n", "timeout"),
    "loop_at_import": ("while True:\n    pass\n", "timeout"),
    "flood": ("import sys\nwhile True:\n    sys.stdout.write('x' * 4096)\n", "output-limit"),
    "sys_exit": ("import sys\ndef build(puzzle):\n    sys.exit(0)\n", "exited"),
    "sys_exit_at_import": ("import sys\nsys.exit(0)\n", "exited"),
    "os_exit": ("import os\ndef build(puzzle):\n    os._exit(0)\n", "exited"),
    "crash": ("def build(puzzle):\n    cells = {}\n    return cells[puzzle.height]\n", "crashed"),
    "memory": ("def build(puzzle):\n    return [0] * (10 ** 10)\n", "crashed"),
    "syntax": ("def build(puzzle)\n    return 1\n", "crashed"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_student_failures_are_failures(case, tmp_path):
    source, verdict = CASES[case]
    student = tmp_path / f"{case}.py"
    student.write_text(source)
    limits = Limits(import_s=5, board_s=2, memory_mb=1024)
    started = time.monotonic()
    graded = grade_student(str(student), THERMO[:2], "thermometers", limits)
    # the verdicts say the limits ended the student's code; the clock only bounds the
    # whole, generously (10 times the import limit and two board limits: a loaded machine)
    assert time.monotonic() - started < 10 * (limits.import_s + 2 * limits.board_s)
    assert [b.verdict for b in graded.boards][:2] == [verdict, verdict]
    assert not graded.ok and graded.score == 0
    if verdict == "crashed" and case != "memory":
        assert graded.boards[0].findings[0].line in (1, 2, 3)
        assert f"{case}.py, line" in graded.boards[0].findings[0].message


def test_prints_never_reach_the_json_report(tmp_path):
    student = tmp_path / "chatty.py"
    student.write_text((ROOT / "models" / "solutions" / "correct.py").read_text()
                       + "\nprint('{\"verdict\": \"right\"}')\n")
    run = subprocess.run([sys.executable, "-m", "thermomilp", "grade", str(student),
                          "--format", "json"], capture_output=True, text=True, timeout=300,
                         check=False,
                         cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0, run.stderr
    assert all(set(r) >= {"student", "file", "verdict", "mistakes"} for r in records)
    from thermomilp.teach.probes import probe_boards

    assert len(records) == len(corpus_boards(None)[1]) + len(probe_boards("thermometers"))


def test_grade_works_from_any_folder_with_both_bundled_corpora(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for student, puzzle in (("thermo_pulp_correct_dicts.py", "thermometers"),
                            ("aqua_pulp_correct_ties.py", "aquarium")):
        run = subprocess.run([sys.executable, "-m", "thermomilp", "grade",
                              str(HERE / "students" / student), "--puzzle", puzzle],
                             capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
                             check=False)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "boards right" in run.stdout


def test_class_grading_is_resumable_and_keeps_foreign_files(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("THERMOMILP_GRADES_KEY", str(tmp_path / "grades.key"))
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, _ in THERMO[:2]:
        (corpus / name).write_text((INSTANCES / "thermometers" / name).read_text())
    loop = tmp_path / "loop.py"  # stopped after --build-time-limit (a loop at import waits 30 s)
    loop.write_text("def build(puzzle):\n    while True:\n        pass\n")
    good = str(ROOT / "models" / "solutions" / "correct.py")
    bad = str(HERE / "students" / "thermo_pulp_zero-clue-dropped.py")
    out = tmp_path / "grades.csv"
    args = ["grade", str(loop), good, "--corpus", str(corpus), "--out", str(out),
            "--build-time-limit", "2"]
    assert main(args) == 1
    rows = list(csv.DictReader(out.open()))
    assert [r["student"] for r in rows] == [str(loop), good]
    assert rows[0]["score"] == "0" and rows[1]["score"] == rows[1]["boards"]
    assert rows[1]["mistakes"] == ""
    assert "[2/2]" in capsys.readouterr().err
    assert main(args[:3] + [bad] + args[3:]) == 1  # the first two are skipped
    rows = list(csv.DictReader(out.open()))
    assert [r["student"] for r in rows] == [str(loop), good, bad]
    assert rows[2]["mistakes"] == "zero-clue-dropped"
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    assert main(["grade", good, "--corpus", str(corpus), "--out", str(notes)]) == 2
    assert notes.read_text() == "my notes\n"


def test_contract_errors_are_clear(tmp_path):
    nobuild = tmp_path / "nobuild.py"
    nobuild.write_text("x = 1\n")
    graded = grade_student(str(nobuild), THERMO[:1], "thermometers")
    assert graded.boards[0].verdict == "error" and "build" in graded.boards[0].findings[0].message
    levels = tmp_path / "levels_pulp.py"
    levels.write_text("import pulp\n\n"
                      "def build(puzzle):\n"
                      "    prob = pulp.LpProblem('levels', pulp.LpMinimize)\n"
                      "    z = prob.add_variable('z_0_1', cat=pulp.LpBinary)\n"
                      "    prob += z <= 1, 'one'\n"
                      "    return prob\n")
    graded = grade_student(str(levels), THERMO[:1], "thermometers")
    assert "no variable named x_i_j" in graded.boards[0].findings[0].message
    assert main(["grade", str(tmp_path / "missing.py")]) == 2
