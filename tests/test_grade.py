"""The autograder passes the correct student models and catches each classic mistake."""

from __future__ import annotations

import json

import pytest

from helpers import INSTANCES, ROOT
from thermomilp.cli.main import main
from thermomilp.formats import load
from thermomilp.grade import GradeError, grade, load_student, non_solutions
from thermomilp.verify import solution_problems

STUDENTS = ROOT / "models" / "students"
NAMES = ["t01_4x4", "t02_5x5", "t04_6x6_missing", "t07_5x5_two_solutions",
         "t08_4x4_no_solution"]
BOARDS = [(n, load(INSTANCES / "thermometers" / f"{n}.txt")) for n in NAMES]


def verdicts(student: str) -> dict:
    return {g.file: g for g in grade(str(STUDENTS / student), BOARDS)}


@pytest.mark.parametrize("student", ["correct.py", "correct_pyomo.py"])
def test_correct_models_pass_every_board(student):
    grades = verdicts(student)
    assert {name: g.verdict for name, g in grades.items()} == {n: "right" for n in NAMES}
    # the correct model is the reference formulation: same size, same LP relaxation
    for g in grades.values():
        assert g.size == g.reference_size
        assert g.lp_integral == pytest.approx(g.reference_lp_integral) or g.lp_integral is None


def test_missing_precedence_is_caught_as_accepting_forbidden_grids():
    grades = verdicts("missing_precedence.py")
    bad = [g for g in grades.values() if not g.ok]
    assert bad, "a model without precedence must fail somewhere"
    for g in bad:
        assert g.verdict in ("wrong", "accepts-forbidden")
        assert any("above a gap" in f.message and "x_succ <= x_pred" in f.message
                   for f in g.findings)
    # it has fewer constraints than the reference: the report shows it
    assert all(g.size.constraints < g.reference_size.constraints for g in bad)


def test_reversed_precedence_is_caught_with_the_right_hint():
    grades = verdicts("reversed_precedence.py")
    bad = [g for g in grades.values() if not g.ok]
    assert bad
    for g in bad:
        assert g.verdict in ("infeasible", "rejects-solution", "wrong", "accepts-forbidden")
        assert any("wrong way round" in f.message for f in g.findings)


def test_rows_and_columns_swapped_is_caught_with_the_right_hint():
    grades = verdicts("rows_cols_swapped.py")
    bad = [g for g in grades.values() if not g.ok]
    assert len(bad) >= 3
    assert all(any("rows and columns are swapped" in f.message for f in g.findings) for g in bad)


def test_non_solutions_really_break_the_rules():
    for _, puzzle in BOARDS:
        for grid, how in non_solutions(puzzle):
            assert solution_problems(puzzle, grid), how


def test_contract_errors_are_clear(tmp_path):
    nobuild = tmp_path / "nobuild.py"
    nobuild.write_text("x = 1\n")
    with pytest.raises(GradeError, match="build"):
        load_student(str(nobuild))
    crash = tmp_path / "crash.py"
    crash.write_text("import nonexistent_module_xyz\n")
    with pytest.raises(GradeError, match="importing it failed"):
        load_student(str(crash))
    wrong_type = tmp_path / "wrong_type.py"
    wrong_type.write_text("def build(puzzle):\n    return 42\n")
    (g,) = grade(str(wrong_type), BOARDS[:1])
    assert g.verdict == "error" and "pulp.LpProblem or a Pyomo model" in g.findings[0].message


def test_cli_grade_exit_codes_and_json(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in NAMES[:2]:
        (corpus / f"{name}.txt").write_text((INSTANCES / "thermometers" / f"{name}.txt").read_text())
    assert main(["grade", str(STUDENTS / "correct.py"), "--corpus", str(corpus)]) == 0
    assert "2/2 boards right" in capsys.readouterr().out
    assert main(["grade", str(STUDENTS / "reversed_precedence.py"), "--corpus", str(corpus),
                 "--format", "json"]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["verdict"] for r in records][0] == "right" and records[1]["verdict"] != "right"
    assert main(["grade", str(tmp_path / "missing.py"), "--corpus", str(corpus)]) == 2
