"""The child cannot reach the package (issue 35, part 1).

The child runs a standalone runner (thermomilp/teach/runner.py copied into its own
folder, ``python -I``), gets each board as plain data and sends back the model's
numbers; thermomilp is never loaded there, a stub makes ``import thermomilp`` and
``python -m thermomilp`` fail with a message that says why, and with Landlock the
package's folder and the checkout it runs from cannot be read. Each attack in
tests/students/attacks/ here got full marks from the grader before.
"""

from __future__ import annotations

import os
import shutil

import pytest

from thermomilp.formats import load
from thermomilp.teach import sandbox
from thermomilp.teach.landlock import available
from thermomilp.teach.student import grade_student, imports_thermomilp

from helpers import INSTANCES, ROOT

ATTACKS = ROOT / "tests" / "students" / "attacks"
CORRECT = ROOT / "models" / "solutions" / "correct.py"
BOARDS = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t02_5x5")]
UNAVAILABLE = "thermomilp is not available while grading"
REQUIRED = os.environ.get("THERMOMILP_REQUIRE_SANDBOX", "") not in ("", "0")


def _messages(graded) -> list[str]:
    return [f.message for b in graded.boards for f in b.findings]


@pytest.mark.parametrize(("attack", "says"), [
    ("board_class_solver.py", "NO PACKAGE IN REACH: the board is a __main__.Board"),
    ("subprocess_solve.py", UNAVAILABLE),
    ("package_model_plus_row.py", UNAVAILABLE),
    ("patch_serialiser.py", UNAVAILABLE),
    ("copies_package.py", UNAVAILABLE),
])
def test_a_cheat_through_the_package_gets_no_marks(attack, says):
    graded = grade_student(str(ATTACKS / attack), BOARDS, "thermometers")
    assert graded.score == 0 and not graded.ok
    messages = _messages(graded)
    assert all(says in m for m in messages), messages


def test_the_child_holds_no_module_of_the_package(tmp_path):
    student = tmp_path / "spy.py"
    student.write_text(
        "import sys\n"
        "def build(puzzle):\n"
        "    mods = sorted(m for m in sys.modules if m.split('.')[0] == 'thermomilp')\n"
        "    raise RuntimeError(f'MODULES {mods} CLASS {type(puzzle).__module__} '\n"
        "                       f'VESSEL {type(puzzle.vessels[0]).__module__} '\n"
        "                       f'SOLUTION {puzzle.solution} SHAPE {puzzle.shape}')\n")
    graded = grade_student(str(student), BOARDS[:1], "thermometers")
    message = _messages(graded)[0]
    assert "MODULES [] CLASS __main__ VESSEL __main__ SOLUTION None SHAPE (4, 4)" in message


@pytest.mark.skipif(not available() and not REQUIRED, reason="the kernel has no Landlock")
def test_the_package_and_its_checkout_are_unreadable(tmp_path):
    """Even with the stub taken off sys.path, the files of thermomilp cannot be read."""
    targets = [ROOT / "thermomilp" / "__init__.py", ROOT / "thermomilp" / "teach" / "runner.py",
               ROOT / "models" / "solutions" / "correct.py", ROOT / "pyproject.toml"]
    student = tmp_path / "reader.py"
    student.write_text(
        "import importlib.util, sys\n"
        f"TARGETS = {[str(t) for t in targets]!r}\n"
        "def build(puzzle):\n"
        "    sys.path[:] = [p for p in sys.path if not p.endswith('stub')]\n"
        "    sys.meta_path[:] = [f for f in sys.meta_path if 'NoThermomilp' not in repr(f)]\n"
        "    spec = importlib.util.find_spec('thermomilp')\n"
        "    if spec is not None and spec.origin:\n"
        "        TARGETS.append(spec.origin)\n"
        "    got = []\n"
        "    for path in TARGETS:\n"
        "        try:\n"
        "            with open(path) as f:\n"
        "                got.append(f'READ {path} {len(f.read())}')\n"
        "        except OSError as exc:\n"
        "            got.append(f'DENIED {type(exc).__name__}')\n"
        "    raise RuntimeError(' | '.join(got))\n")
    graded = grade_student(str(student), BOARDS[:1], "thermometers")
    message = _messages(graded)[0]
    assert "READ" not in message and message.count("DENIED") >= len(targets), message


@pytest.mark.parametrize("trick", [
    "sys.path[:] = [p for p in sys.path if not p.endswith('stub')]\n"
    "    import thermomilp",
    "importlib.import_module('thermo' + 'milp.solving')",
    "sys.path[:] = [p for p in sys.path if not p.endswith('stub')]\n"
    "    sys.meta_path[:] = [f for f in sys.meta_path if 'NoThermomilp' not in repr(f)]\n"
    "    spec = importlib.util.find_spec('thermomilp')\n"
    "    module = importlib.util.module_from_spec(spec)\n"
    "    spec.loader.exec_module(module)",
])
def test_importlib_tricks_say_the_package_is_not_available(tmp_path, trick):
    if "exec_module" in trick and not available() and not REQUIRED:
        pytest.skip("without Landlock the package's files can be read")
    student = tmp_path / "trick.py"
    student.write_text("import importlib, importlib.util, sys\n"
                       f"def build(puzzle):\n    {trick}\n    return None\n")
    graded = grade_student(str(student), BOARDS[:1], "thermometers")
    messages = _messages(graded)
    assert graded.score == 0
    assert all(b.verdict == "crashed" for b in graded.boards), messages
    assert all(UNAVAILABLE in m for m in messages), messages


def test_an_import_under_the_main_guard_is_no_flag_and_costs_nothing(tmp_path):
    student = tmp_path / "guarded.py"
    student.write_text(CORRECT.read_text() + "\n\nif __name__ == \"__main__\":\n"
                       "    import thermomilp\n\n"
                       "    print(thermomilp.solve(thermomilp.load('t01_4x4.txt')))\n")
    graded = grade_student(str(student), BOARDS, "thermometers")
    assert graded.flags == [] and graded.ok, graded.flags


@pytest.mark.parametrize(("source", "flagged"), [
    ("import thermomilp\n", True),
    ("def build(p):\n    from thermomilp import solve\n", True),
    ("import importlib\nm = importlib.import_module('thermomilp')\n", True),
    ("if __name__ == '__main__':\n    import thermomilp\n", False),
    ("if '__main__' == __name__:\n    from thermomilp import load\n", False),
    ('"""My model for the thermomilp lab."""\nimport pulp\n', False),
    ("if __name__ == '__main__':\n    pass\nelse:\n    import thermomilp\n", True),
])
def test_only_imports_that_run_are_flagged(source, flagged):
    assert imports_thermomilp(source) is flagged


def test_the_child_runs_a_copy_of_the_runner_not_the_package(tmp_path, monkeypatch):
    """The runner the child runs is the copy in its folder: a change there shows."""
    files = sandbox.child_files()
    files["runner.py"] = files["runner.py"].replace(
        'send({"event": "imported"})',
        'send({"event": "import-failed", "failed": {"kind": "error", "line": None, '
        '"message": "FROM THE COPY"}}); os._exit(0)')
    monkeypatch.setattr(sandbox, "child_files", lambda: files)
    graded = grade_student(str(CORRECT), BOARDS[:1], "thermometers")
    assert all("FROM THE COPY" in m for m in _messages(graded))


@pytest.mark.parametrize("solve", [
    "prob.solve()",
    # PuLP 4 has no PULP_CBC_CMD: its COIN_CMD runs the cbc on the default PATH
    "prob.solve(getattr(pulp, 'PULP_CBC_CMD', pulp.COIN_CMD)(msg=False))",
    "prob.solve(pulp.HiGHS(msg=False))"])
def test_a_student_that_solves_once_as_a_self_check_passes(tmp_path, solve):
    """build() may call prob.solve() once: the solver's files go to the private TMPDIR."""
    student = tmp_path / "selfcheck.py"
    text = CORRECT.read_text()
    assert "    return prob\n" in text
    student.write_text(text.replace(
        "    return prob\n",
        f"    status = {solve}\n"
        # PuLP 3 returns the status code, PuLP 4 an LpSolveStats whose status is an enum
        "    assert int(getattr(status, 'status', status)) == 1, status  # optimal\n"
        "    return prob\n"))
    graded = grade_student(str(student), BOARDS, "thermometers")
    assert graded.ok and graded.flags == [], [m for m in _messages(graded)]
    assert graded.score == len(graded.boards)


def test_the_attack_files_are_where_the_tests_say(tmp_path):
    for name in ("board_class_solver.py", "subprocess_solve.py", "package_model_plus_row.py",
                 "patch_serialiser.py"):
        shutil.copy(ATTACKS / name, tmp_path / name)  # the files exist and are readable


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_the_plain_board_answers_as_the_puzzle_does(kind):
    """The student-facing API is the same: every attribute the handout names (and a few
    more a model may use) gives what thermomilp.Puzzle gives."""
    from thermomilp.teach.corpus import corpus_boards
    from thermomilp.teach.runner import board_of

    for _, puzzle in corpus_boards(None, kind)[1]:
        board = board_of(sandbox.plain(puzzle))
        for name in ("kind", "height", "width", "shape", "rows", "cols", "rank_of",
                     "all_chains", "rule", "name"):
            assert getattr(board, name) == getattr(puzzle, name), name
        assert board.solution is None and board.region_grid() == puzzle.region_grid()
        assert len(board.vessels) == len(puzzle.vessels)
        for mine, theirs in zip(board.vessels, puzzle.vessels, strict=True):
            for name in ("label", "layers", "cells", "depth", "is_chain", "region_id"):
                assert getattr(mine, name) == getattr(theirs, name), name
            assert [mine.parent_of(k) for k in range(mine.depth)] == \
                [theirs.parent_of(k) for k in range(theirs.depth)]
            assert mine.filled_cells(1) == theirs.filled_cells(1)
