"""The grader's integrity: verdicts only from the model's numbers, nothing in reach, sealed grades.

The submissions in tests/students/attacks/ each try one way around the
grader that worked on the round-two grader (issue 26): a forged verdict
through the stack or the result pipe, the answers read from the boards or
the request, the grader's environment, a process that outlives the grader,
a forged row in the grades file, the package's own model returned.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from thermomilp.formats import load
from thermomilp.teach.landlock import available
from thermomilp.teach.sandbox import Limits
from thermomilp.teach.student import grade_student

from helpers import INSTANCES, ROOT

ATTACKS = Path(__file__).resolve().parent / "students" / "attacks"
CORRECT = ROOT / "models" / "solutions" / "correct.py"
BOARDS = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t02_5x5", "t03_6x6")]


@pytest.fixture()
def key(tmp_path, monkeypatch):
    monkeypatch.setenv("THERMOMILP_GRADES_KEY", str(tmp_path / "grades.key"))
    return tmp_path / "grades.key"


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT),
            "THERMOMILP_GRADES_KEY": str(tmp_path / "grades.key")}


@pytest.mark.parametrize("attack", ["forge_stack.py", "forge_pipe.py"])
def test_a_forged_verdict_gets_no_marks(attack):
    graded = grade_student(str(ATTACKS / attack), BOARDS, "thermometers")
    assert graded.score == 0 and not graded.ok
    assert all(b.verdict != "right" for b in graded.boards)


def test_the_answers_are_out_of_reach_of_build():
    # puzzle.solution is None, stdin is empty, no request file in the folder or on argv
    graded = grade_student(str(ATTACKS / "reads_answers.py"), BOARDS, "thermometers")
    assert graded.score == 0
    assert all("no answer in reach" in b.findings[0].message for b in graded.boards)


def test_the_child_has_only_its_own_home_and_tmpdir(monkeypatch):
    import ast

    monkeypatch.setenv("GRADER_SECRET_TOKEN", "hunter2")
    graded = grade_student(str(ATTACKS / "environment.py"), BOARDS[:1], "thermometers")
    message = graded.boards[0].findings[0].message
    assert "hunter2" not in message, message
    env = dict(ast.literal_eval(message.split("ENVIRONMENT ")[1].rsplit(" (", 1)[0]))
    assert sorted(env) == ["HOME", "PYTHONPATH", "TMPDIR"], message
    assert env["HOME"] == env["TMPDIR"], message
    # the stub package whose import says thermomilp is not available while grading
    assert env["PYTHONPATH"].endswith(os.path.join("run", "stub")), message
    assert os.path.basename(env["HOME"]) == "tmp"  # the box's own folder, emptied per board


def test_a_setsid_process_is_gone_when_its_board_ends(tmp_path):
    student = tmp_path / "x7setsid.py"
    shutil.copy(ATTACKS / "daemon.py", student)
    graded = grade_student(str(student), BOARDS[:2], "thermometers")
    assert graded.score == 0
    assert any("process(es)" in e for e in graded.evidence)  # they were there, and killed
    time.sleep(0.2)
    left = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _comm(p) == "dx7setsid"
            and _alive(int(p.name))]
    assert left == []


def _comm(proc: Path) -> str:
    try:
        return (proc / "comm").read_text().strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return not stat[stat.rfind(")") + 2:].startswith(("Z", "X"))


@pytest.mark.parametrize(("attack", "flags"), [
    ("copies_package.py", ["imports-thermomilp"]),
    ("copies_package_hidden.py", []),
])
def test_the_package_model_is_out_of_reach(attack, flags):
    """thermomilp cannot be imported in the child (tests/test_teach_isolation.py): the
    copy crashes on every board; the import that shows in the text is flagged."""
    graded = grade_student(str(ATTACKS / attack), BOARDS[:1], "thermometers")
    assert graded.flags == flags
    assert graded.score == 0 and not graded.ok
    assert all(b.verdict == "crashed" for b in graded.boards)


def test_the_package_model_itself_is_flagged():
    """A model equal to one thermomilp builds (written out by hand, say) is flagged."""
    from thermomilp.model import build_model
    from thermomilp.teach.extract import extract
    from thermomilp.teach.probes import probe_boards
    from thermomilp.teach.sandbox import Built
    from thermomilp.teach.student import flags_of, package_models

    probes = probe_boards("thermometers")
    builds = [Built(extract(build_model(p, backend="pulp"), p)) for p in probes]
    assert package_models(probes[0])
    assert flags_of(str(CORRECT), probes, builds) == ["package-model"]


def test_an_honest_model_is_not_flagged():
    graded = grade_student(str(CORRECT), BOARDS[:1], "thermometers")
    assert graded.flags == [] and graded.ok


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, _ in BOARDS[:1]:
        shutil.copy(INSTANCES / "thermometers" / name, corpus / name)
    return corpus


def test_a_forged_row_is_refused_on_resume(tmp_path):
    corpus, out = _corpus(tmp_path), tmp_path / "grades.csv"
    run = subprocess.run([sys.executable, "-m", "thermomilp", "grade", str(CORRECT),
                          "--corpus", str(corpus), "--out", str(out)], capture_output=True,
                         text=True, timeout=300, env=_env(tmp_path), cwd=tmp_path, check=False)
    assert run.returncode == 0, run.stderr
    with out.open("a", encoding="utf-8") as f:
        f.write("victim.py,,8,8,yes,ok,ok,n/a,4/4,,right:8,,0.1,0\n")
    (tmp_path / "victim.py").write_text("def build(puzzle):\n    return None\n")
    again = subprocess.run([sys.executable, "-m", "thermomilp", "grade", str(CORRECT),
                            "victim.py", "--corpus", str(corpus), "--out", str(out)],
                           capture_output=True, text=True, timeout=300, env=_env(tmp_path),
                           cwd=tmp_path, check=False)
    assert again.returncode == 2
    assert "REFUSED" in again.stderr and "line 3" in again.stderr, again.stderr
    assert "Traceback" not in again.stderr


def test_a_row_written_by_student_code_is_refused_or_caught(tmp_path):
    corpus, out = _corpus(tmp_path), tmp_path / "grades.csv"
    student = tmp_path / "tamper_grades.py"
    shutil.copy(ATTACKS / "tamper_grades.py", student)
    run = subprocess.run([sys.executable, "-m", "thermomilp", "grade", str(student),
                          str(CORRECT), "--corpus", str(corpus), "--out", "grades.csv"],
                         capture_output=True, text=True, timeout=300, env=_env(tmp_path),
                         cwd=tmp_path, check=False)
    assert run.returncode == 1
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["student"] for r in rows] == [str(student), str(CORRECT)]  # no victim.py
    if available():  # Landlock: the student's process could not write the file at all
        assert rows[0]["flags"] == "" and "WARNING" not in run.stderr
    else:  # no file-system sandbox: the grader caught the change after the student
        assert rows[0]["flags"] == "tampered-grades" and "WARNING" in run.stderr
    assert rows[1]["flags"] == ""
    # the file the grader left is its own: a resumed run accepts it and grades nothing
    again = subprocess.run([sys.executable, "-m", "thermomilp", "grade", str(CORRECT),
                            "--corpus", str(corpus), "--out", "grades.csv"],
                           capture_output=True, text=True, timeout=300, env=_env(tmp_path),
                           cwd=tmp_path, check=False)
    assert again.returncode == 0, again.stderr
    assert "0 graded, 1 already" in again.stdout


def test_a_change_made_while_a_student_ran_is_put_back_and_flagged(tmp_path, key, monkeypatch):
    """Where no sandbox stops the write, the grader's own check does (simulated here)."""
    import io

    from thermomilp.teach import classroom

    out = tmp_path / "grades.csv"
    real = classroom.grade_student

    def tampering(student, *args, **kwargs):
        grade = real(student, *args, **kwargs)
        with out.open("a", encoding="utf-8") as f:
            f.write("victim.py,,8,8,yes,ok,ok,n/a,4/4,,right:8,,0.1,0\n")
        return grade

    monkeypatch.setattr(classroom, "grade_student", tampering)
    err = io.StringIO()
    classroom.grade_class([str(CORRECT)], BOARDS[:1], "thermometers", str(out), progress=err)
    assert "WARNING" in err.getvalue()
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["student"] for r in rows] == [str(CORRECT)]
    assert rows[0]["flags"] == "tampered-grades"


@pytest.mark.skipif(not available(), reason="the kernel has no Landlock")
def test_the_package_files_and_the_corpus_are_out_of_reach():
    graded = grade_student(str(ATTACKS / "reads_package_files.py"), BOARDS, "thermometers",
                           hide=[str(INSTANCES)])
    assert graded.score == 0
    # it cannot even import thermomilp to find the files (tests/test_teach_isolation.py
    # reads them by their paths: denied)
    assert all("thermomilp is not available while grading" in b.findings[0].message
               for b in graded.boards)


def test_limits_still_hold_under_the_new_protocol(tmp_path):
    student = tmp_path / "loop.py"
    student.write_text("def build(puzzle):\n    while True:\n        pass\n")
    graded = grade_student(str(student), BOARDS[:2], "thermometers",
                           Limits(import_s=5, board_s=1))
    assert [b.verdict for b in graded.boards][:2] == ["timeout", "timeout"]
