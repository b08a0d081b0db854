"""The bubblewrap recipe of docs/course/grader.md, run as the page shows it.

The recipe is read from the page (the code block after "With bubblewrap") and run
by ``bash`` in a folder with ``submissions/`` and a solution-free copy of the
boards, with the test interpreter's ``bin`` first on ``PATH`` (an instructor's
activated venv). Without ``bwrap``, or with a source-checkout (editable) install
of thermomilp -- the recipe hides the installed package's ``_instances`` and
``_models`` -- it skips with its reason, unless ``THERMOMILP_REQUIRE_SANDBOX=1``
(set by ``.ci/run``, which installs bubblewrap and the wheel), where that fails.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

STUDENTS = ROOT / "tests" / "students"
PAGE = ROOT / "docs" / "course" / "grader.md"


def _recipe() -> str:
    text = PAGE.read_text(encoding="utf-8")
    after = text[text.index("With bubblewrap"):]
    block = re.search(r"```text\n(.*?)```", after, re.S)
    assert block is not None, "docs/course/grader.md has no bubblewrap recipe"
    return block.group(1)


def _unavailable(env: dict[str, str], cwd: Path) -> str | None:
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (apt-get install bubblewrap)"
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return f"bwrap cannot make a sandbox here: {probe.stderr.strip()}"
    kit = subprocess.run([sys.executable, "-c",
                          "import thermomilp; print(thermomilp.__path__[0])"],
                         capture_output=True, text=True, env=env, cwd=cwd).stdout.strip()
    if not (Path(kit) / "_instances").is_dir():
        return (f"thermomilp is installed from a source checkout ({kit}): the recipe is "
                "for an installed package (pip install .)")
    return None


def test_the_bubblewrap_recipe_grades_and_hides_the_answers(tmp_path):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}"
                                 f"{os.environ.get('PATH', '')}"}
    why = _unavailable(env, tmp_path)
    if why is not None:
        if os.environ.get("THERMOMILP_REQUIRE_SANDBOX", "") not in ("", "0"):
            pytest.fail(f"THERMOMILP_REQUIRE_SANDBOX=1 but {why}")
        pytest.skip(why)
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for name in ("thermo_pulp_correct_dicts.py", "thermo_pulp_missing-precedence.py",
                 "attacks/reads_package_files.py", "attacks/reads_answers.py"):
        shutil.copy(STUDENTS / name, submissions / Path(name).name)
    copied = subprocess.run(["thermomilp", "grade", "--copy-boards", "boards",
                             "--puzzle", "thermometers"],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert copied.returncode == 0, copied.stderr
    ran = subprocess.run(["bash", "-c", _recipe()], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert ran.returncode in (0, 1), ran.stderr  # 1: some submission is not right
    rows = [json.loads(line) for line in
            (tmp_path / "grades.jsonl").read_text(encoding="utf-8").splitlines()]
    by_student: dict[str, list[dict]] = {}
    for row in rows:
        by_student.setdefault(Path(row["student"]).name, []).append(row)
    assert set(by_student) == {p.name for p in submissions.iterdir()}
    boards = {p.name for p in (tmp_path / "boards").iterdir()}
    for name, graded in by_student.items():
        assert {Path(r["file"]).name for r in graded} >= boards, name
    assert all(r["verdict"] == "right" for r in by_student["thermo_pulp_correct_dicts.py"])
    assert any(r["verdict"] != "right" for r in by_student["thermo_pulp_missing-precedence.py"])
    # the package's boards (with their solutions) are hidden: nothing to pin a model to
    for cheat in ("reads_package_files.py", "reads_answers.py"):
        assert not any(r["verdict"] == "right" for r in by_student[cheat]), cheat
    # it finds no package file to read: the package is not even importable in the child
    assert any("0 files seen" in f["message"] or "not available while grading" in f["message"]
               for r in by_student["reads_package_files.py"] for f in r["findings"])
