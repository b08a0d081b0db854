"""The teaching kit: an answer-free handout, a guide that quotes the shipped files, a wheel
that carries what the handout uses (issue 26, part 5)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from helpers import ROOT

DOCS = ROOT / "docs" / "course"


def test_the_instructor_guide_quotes_the_shipped_correct_model_exactly():
    text = (DOCS / "instructor.md").read_text(encoding="utf-8")
    block = re.search(r"The shipped `models/solutions/correct\.py`:\n\n```python\n(.*?)```\n",
                      text, re.S)
    assert block is not None
    assert block.group(1) == (ROOT / "models" / "solutions" / "correct.py").read_text()


def test_the_handout_holds_no_answer_and_links_none():
    text = (DOCS / "exercise.md").read_text(encoding="utf-8")
    for answer in ("formulation.md", "aquarium-model.md", "models/solutions", "correct.py",
                   "correct_pyomo", "correct_levels", "square grid", "optimal solution"):
        assert answer not in text, answer
    for name in re.findall(r"models/students/(\w+\.py)", text):
        assert (ROOT / "models" / "students" / name).is_file()
    assert not any(p.stem.startswith("correct") or "_correct" in p.stem
                   for p in (ROOT / "models" / "students").glob("*.py"))


def test_the_grader_docs_count_the_mistake_examples_right():
    shipped = sorted((ROOT / "models" / "students").glob("*.py"))
    text = (DOCS / "instructor.md").read_text(encoding="utf-8")
    for path in shipped:
        assert path.name in text, path.name


@pytest.mark.skipif(sys.platform == "win32", reason="venv layout")
def test_the_built_wheel_runs_the_handout_commands(tmp_path):
    pytest.importorskip("setuptools")
    project = tmp_path / "project"
    project.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy(ROOT / name, project / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("thermomilp", "instances", "models"):
        shutil.copytree(ROOT / name, project / name, ignore=ignore)
    wheels = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q",
                            "-w", str(wheels)], cwd=project, capture_output=True, text=True,
                           timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    wheel = next(wheels.glob("thermomilp-*.whl"))
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
                         capture_output=True, text=True, timeout=1200, check=False)
    if pip.returncode != 0:
        pytest.skip(f"the wheel's dependencies could not be installed: {pip.stderr[-300:]}")
    lab = tmp_path / "lab"
    lab.mkdir()
    thermomilp = str(venv / "bin" / "thermomilp")
    kit = subprocess.run([thermomilp, "grade", "--copy-kit", "."], cwd=lab,
                         capture_output=True, text=True, timeout=120, check=False)
    assert kit.returncode == 0, kit.stderr
    assert (lab / "models" / "thermometers.mod").is_file()
    assert not (lab / "models" / "solutions").exists()
    run = subprocess.run([thermomilp, "grade", "models/students/missing_precedence.py"],
                         cwd=lab, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 1 and "mistakes found: missing-precedence" in run.stdout, run.stderr
    (lab / "my_model.py").write_text((ROOT / "models" / "solutions" / "correct.py").read_text())
    run = subprocess.run([thermomilp, "grade", "my_model.py"], cwd=lab, capture_output=True,
                         text=True, timeout=600, check=False)
    assert run.returncode == 0 and "16/16 boards right" in run.stdout, run.stdout + run.stderr
    # the notebooks, from the lab folder, on what the wheel ships (IPython for their pictures)
    extra = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "ipython"],
                           capture_output=True, text=True, timeout=1200, check=False)
    if extra.returncode != 0:
        pytest.skip("IPython could not be installed for the notebooks")
    for notebook in sorted((DOCS / "notebooks").glob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        code = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        script = lab / f"{notebook.stem}.py"
        script.write_text(code, encoding="utf-8")
        run = subprocess.run([str(venv / "bin" / "python"), str(script)], cwd=lab,
                             capture_output=True, text=True, timeout=600, check=False)
        assert run.returncode == 0, f"{notebook.name}: {run.stderr[-2000:]}"


def test_copy_boards_writes_the_corpus_without_solutions(tmp_path):
    from thermomilp.cli.main import main
    from thermomilp.formats import load

    assert main(["grade", "--copy-boards", str(tmp_path / "boards")]) == 0
    boards = sorted((tmp_path / "boards").iterdir())
    assert len(boards) == 12  # 8, and the 4 larger than 10x10
    assert all(load(p).solution is None for p in boards)
    assert main(["grade", "--copy-kit", str(tmp_path)]) == 0
    assert sorted(p.name for p in (tmp_path / "models" / "students").glob("*.py")) == \
        sorted(p.name for p in (ROOT / "models" / "students").glob("*.py"))
