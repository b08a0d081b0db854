"""Reports without answers, marks an instructor can use, exact probes and large boards,
the same verdicts alone and in a class (issue 35, parts 2 to 5)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from thermomilp.formats import load
from thermomilp.solving import enumerate_solutions
from thermomilp.teach.catalogue import HINTS, MISTAKES
from thermomilp.teach.checks import grid_text
from thermomilp.teach.classroom import CHECK_COLUMNS, HEADER, grade_class
from thermomilp.teach.corpus import corpus_boards
from thermomilp.teach.report import report
from thermomilp.teach.student import grade_student

from helpers import INSTANCES, ROOT

HERE = ROOT / "tests" / "students"
CORRECT = ROOT / "models" / "solutions" / "correct.py"
THERMO = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t04_6x6_missing", "t07_5x5_two_solutions")]


@pytest.fixture()
def key(tmp_path, monkeypatch):
    monkeypatch.setenv("THERMOMILP_GRADES_KEY", str(tmp_path / "grades.key"))
    return tmp_path / "grades.key"


def _everything_said(graded) -> str:
    return report(graded, hints=True) + "\n" + "\n".join(json.dumps(r)
                                                         for r in graded.records())


# --- part 2: no answer in a report ---------------------------------------------------


def _infeasible(tmp_path):
    student = tmp_path / "infeasible.py"
    student.write_text(CORRECT.read_text().replace(
        "    return prob\n", "    prob += pulp.lpSum(x.values()) <= 1, 'too_few'\n"
                            "    return prob\n"))
    return student


@pytest.mark.parametrize("student", [
    "infeasible",  # "your model has no solution, but the board has one: [...]"
    "thermo_pyomo_missing-clue-as-zero.py",  # "forbids the real solution [...]"
    "thermo_pulp_clue-as-upper-bound.py",  # "after excluding [the real solution] ..."
])
def test_no_report_prints_a_corpus_boards_solution(tmp_path, student):
    path = _infeasible(tmp_path) if student == "infeasible" else HERE / student
    graded = grade_student(str(path), THERMO, "thermometers")
    said = _everything_said(graded)
    assert graded.score < len(graded.boards)
    for _, puzzle in THERMO:
        for solution in enumerate_solutions(puzzle, limit=10):
            assert grid_text(solution) not in said, (grid_text(solution), said)
            assert " / ".join(solution) not in said
            assert "\n".join(solution) not in said
    # what is wrong is still said
    assert any(b.findings for b in graded.boards[:len(THERMO)])


def test_the_catalogue_names_the_rule_and_hints_only_when_asked():
    code = re.compile(r"pulp|pyo|==|<=|x_|x\[|`")
    assert [m for m, text in MISTAKES.items() if code.search(text)] == []
    assert set(HINTS) == set(MISTAKES)
    graded = grade_student(str(HERE / "thermo_pulp_missing-precedence.py"), THERMO[:1],
                           "thermometers")
    plain, hinted = report(graded), report(graded, hints=True)
    assert "missing-precedence" in plain and "hint:" not in plain
    assert "x_succ <= x_pred" not in plain
    assert "hint: " + HINTS["missing-precedence"] in hinted


def test_the_hints_flag_of_the_command_line(capsys):
    from thermomilp.cli.main import main

    student = str(HERE / "thermo_pulp_missing-precedence.py")
    corpus = str(INSTANCES / "thermometers")
    assert main(["grade", student, "--corpus", corpus]) == 1
    assert "hint:" not in capsys.readouterr().out
    assert main(["grade", student, "--corpus", corpus, "--hints"]) == 1
    assert "hint: add x_succ <= x_pred" in capsys.readouterr().out


# --- part 3: marks an instructor can use ------------------------------------------------


def test_a_flag_makes_the_student_need_reading(tmp_path, key):
    flagged = tmp_path / "flagged.py"  # a right model that imports the package
    flagged.write_text("import thermomilp  # noqa\n" + CORRECT.read_text())
    graded = grade_student(str(flagged), THERMO[:1], "thermometers")
    text = report(graded)
    assert graded.flags == ["imports-thermomilp"] and graded.needs_reading
    assert "boards right" not in text
    assert text.splitlines()[-1] == "flagged (imports-thermomilp): needs reading"
    out = tmp_path / "grades.csv"
    err = io.StringIO()
    grade_class([str(flagged), str(CORRECT)], THERMO[:1], "thermometers", str(out),
                progress=err)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert rows[0]["review"] == "needs reading" and rows[1]["review"] == ""
    assert "needs reading" in err.getvalue().splitlines()[0]


def test_the_grades_file_has_a_column_per_check(tmp_path, key):
    out = tmp_path / "grades.csv"
    students = [CORRECT, HERE / "thermo_pulp_missing-precedence.py",
                HERE / "thermo_pulp_continuous-variables.py",
                HERE / "thermo_pulp_zero-clue-dropped.py"]
    grade_class([str(s) for s in students], THERMO[:1], "thermometers", str(out),
                progress=io.StringIO())
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(rows[0]) == HEADER and set(CHECK_COLUMNS) <= set(HEADER)
    got = [[r[c] for c in CHECK_COLUMNS] for r in rows]
    assert got[0] == ["yes", "ok", "ok", "n/a", "4/4"]
    assert got[1][:4] == ["yes", "missing-precedence", "ok", "n/a"]
    assert got[1][4] != "4/4"
    assert got[2][0] == "no"
    assert got[3][:4] == ["yes", "ok", "zero-clue-dropped", "n/a"]


def test_an_aquarium_tie_shows_in_its_column(tmp_path, key):
    out = tmp_path / "grades.csv"
    boards = [("a01_6x6.txt", load(INSTANCES / "aquarium" / "a01_6x6.txt"))]
    grade_class([str(HERE / "aqua_pyomo_missing-tie.py"), str(HERE / "aqua_pulp_correct_ties.py")],
                boards, "aquarium", str(out), progress=io.StringIO())
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["ties"] for r in rows] == ["missing-tie", "ok"]


# --- part 4: exact probes, large boards -------------------------------------------------


def test_the_default_corpus_has_boards_beyond_10_both_ways():
    for kind in ("thermometers", "aquarium"):
        shapes = {p.shape for _, p in corpus_boards(None, kind)[1]}
        assert {(12, 12), (15, 15), (10, 15), (15, 10)} <= shapes, (kind, shapes)
        for _, puzzle in corpus_boards(None, kind)[1]:
            assert "janko" not in (puzzle.source or "").lower()


def test_cells_keyed_by_10i_plus_j_fail_on_the_default_corpus(tmp_path):
    student = tmp_path / "keyed.py"
    text = CORRECT.read_text()
    student.write_text(
        "import pulp\n\n\n"
        "def build(puzzle):\n"
        "    prob = pulp.LpProblem('t', pulp.LpMinimize)\n"
        "    H, W = puzzle.height, puzzle.width\n"
        "    x = {10 * i + j: prob.add_variable(f'x_{i}_{j}', cat=pulp.LpBinary)\n"
        "         for i in range(H) for j in range(W)}\n"
        "    prob += pulp.lpSum([])\n"
        "    for i, clue in enumerate(puzzle.rows):\n"
        "        if clue is not None:\n"
        "            prob += pulp.lpSum(x[10 * i + j] for j in range(W)) == clue\n"
        "    for j, clue in enumerate(puzzle.cols):\n"
        "        if clue is not None:\n"
        "            prob += pulp.lpSum(x[10 * i + j] for i in range(H)) == clue\n"
        "    for therm in puzzle.vessels:\n"
        "        for (a, b), (c, d) in zip(therm.cells, therm.cells[1:]):\n"
        "            prob += x[10 * c + d] <= x[10 * a + b]\n"
        "    return prob\n")
    assert "def build" in text
    _, boards = corpus_boards(None, "thermometers")
    small = [(n, p) for n, p in boards if max(p.shape) <= 10]
    large = [(n, p) for n, p in boards if max(p.shape) > 10]
    assert grade_student(str(student), small[:2], "thermometers").ok  # right below 10x10
    graded = grade_student(str(student), large, "thermometers")
    assert not graded.ok
    # wider than 10: two cells share a key; 15x10 is keyed right (j < 10)
    assert [b.ok for b in graded.boards[:len(large)]] == [p.width <= 10 for _, p in large]


def test_a_mistake_that_fits_only_some_probe_boards_gets_no_id(tmp_path):
    """missing-precedence on every probe grid but one constraint that bites on the 3x4
    probe board only: no combination fits every probe board, so no id -- and the
    evidence quotes the student's row."""
    student = tmp_path / "almost.py"
    student.write_text(
        (HERE / "thermo_pulp_missing-precedence.py").read_text().replace(
            "    return prob\n",
            "    if puzzle.width == 4:\n"
            "        prob += x[0, 0] + x[0, 1] <= 1, 'sneaky'\n"
            "    return prob\n"))
    graded = grade_student(str(student), THERMO[:1], "thermometers")
    assert graded.mistakes == [], graded.evidence
    said = "\n".join(graded.evidence)
    assert "no mistake of the catalogue explains your model" in said, said
    assert "sneaky" in said, said
    assert graded.checks["precedence"] == "?"


# --- part 5: no races -------------------------------------------------------------------


def test_a_file_gets_the_same_verdicts_alone_and_in_a_class(tmp_path, key):
    """The grades row and the whole report (evidence included) of each file are the same
    graded alone, in a class, and in the class again."""
    students = [str(CORRECT), str(HERE / "thermo_pulp_missing-precedence.py"),
                str(HERE / "thermo_pyomo_missing-clue-as-zero.py"),
                str(HERE / "attacks" / "copies_package.py")]
    volatile = {"time_s", "seal"}

    def run(names, out):
        reports = {}
        grade_class(names, THERMO[:2], "thermometers", str(out), progress=io.StringIO(),
                    on_grade=lambda g: reports.__setitem__(g.student, report(g)))
        rows = {r["student"]: {k: v for k, v in r.items() if k not in volatile}
                for r in csv.DictReader(out.open(encoding="utf-8"))}
        return rows, reports

    together = run(students, tmp_path / "class.csv")
    for n, student in enumerate(students):
        rows, reports = run([student], tmp_path / f"alone{n}.csv")
        assert rows[student] == together[0][student], student
        assert reports[student] == together[1][student], student
    assert run(students, tmp_path / "again.csv") == together


def test_the_box_ending_late_is_not_the_students_process(monkeypatch):
    """The runner still ending when the grader sweeps the box after the last board (slow
    here on purpose; on a busy machine by chance) is not a process of the submission's:
    the same file's report must not depend on that timing."""
    from thermomilp.teach import sandbox

    files = sandbox.child_files()
    last = "    os._exit(0)  # no student atexit handler runs after the report"
    assert last in files["runner.py"]
    files["runner.py"] = files["runner.py"].replace(
        last, "    import time\n    time.sleep(3)\n" + last)
    monkeypatch.setattr(sandbox, "child_files", lambda: files)
    run = sandbox.run_student(str(CORRECT), [THERMO[0][1]])
    assert run.boards[0].model is not None
    assert run.killed == 0


AQUA_BASE = '''import pulp


def build(puzzle):
    prob = pulp.LpProblem("aquarium", pulp.LpMinimize)
    x = {(i, j): prob.add_variable(f"x_{i}_{j}", cat=pulp.LpBinary)
         for i in range(puzzle.height) for j in range(puzzle.width)}
    prob += pulp.lpSum([])
    for i, k in enumerate(puzzle.rows):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for j in range(puzzle.width)) == k
    for j, k in enumerate(puzzle.cols):
        if k is not None:
            prob += pulp.lpSum(x[i, j] for i in range(puzzle.height)) == k
    for tank in puzzle.vessels:
        for lower, upper in zip(tank.layers, tank.layers[1:]):
GRAVITY
    return prob
'''
UNTIED = {  # ways of leaving every tank row untied, gravity kept in some form
    "each cell on the first cell below": "            for c in upper:\n"
                                         "                prob += x[c] <= x[lower[0]]\n",
    "each cell on the last cell below": "            for c in upper:\n"
                                        "                prob += x[c] <= x[lower[-1]]\n",
    "representatives only": "            prob += x[upper[0]] <= x[lower[0]]\n",
    "every cell on every cell below": "            for a in upper:\n"
                                      "                for b in lower:\n"
                                      "                    prob += x[a] <= x[b]\n",
    "each cell on some cell below": "            for c in upper:\n"
                                    "                prob += x[c] <= pulp.lpSum(x[b] for b in "
                                    "lower)\n",
}


@pytest.mark.parametrize("way", sorted(UNTIED))
def test_missing_tie_is_named_for_every_way_of_leaving_rows_untied(tmp_path, way):
    student = tmp_path / "untied.py"
    student.write_text(AQUA_BASE.replace("GRAVITY\n", UNTIED[way]))
    boards = [("a01_6x6.txt", load(INSTANCES / "aquarium" / "a01_6x6.txt"))]
    graded = grade_student(str(student), boards, "aquarium")
    assert graded.mistakes == ["missing-tie"], graded.evidence
    assert graded.checks["ties"] == "missing-tie"
    assert graded.checks["precedence"] == "ok" and graded.checks["clues"] == "ok"


def test_an_extra_grid_on_one_probe_board_gets_no_id_and_the_rows_on_its_cells(tmp_path):
    """missing-precedence on the small probe grids, but column 0's clue left out on the 3x4
    probe board: the model accepts grids no combination allows there -- no id, and the
    evidence quotes the student's rows on the cells of such a grid."""
    student = tmp_path / "extra.py"
    source = (HERE / "thermo_pulp_missing-precedence.py").read_text()
    old = "        if k is not None:\n            prob += pulp.lpSum(x[i, j] for i in"
    assert old in source
    student.write_text(source.replace(
        old, "        if k is not None and not (puzzle.width == 4 and j == 0):\n"
             "            prob += pulp.lpSum(x[i, j] for i in"))
    graded = grade_student(str(student), THERMO[:1], "thermometers")
    assert graded.mistakes == [], graded.evidence
    said = "\n".join(graded.evidence)
    assert "no mistake of the catalogue explains your model" in said, said
    assert "no constraint of yours forbids it" in said and "x_0_" in said, said
