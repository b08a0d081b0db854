"""Messages a student can act on (issue 26, part 4): names, values, constraints, PuLP 4."""

from __future__ import annotations

from pathlib import Path

from thermomilp.formats import load
from thermomilp.teach.runner import pulp4_hint
from thermomilp.teach.student import grade_student

from helpers import INSTANCES

HERE = Path(__file__).resolve().parent / "students" / "messages"
BOARDS = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t03_6x6")]


def _said(graded) -> str:
    return "\n".join([f.message for b in graded.boards for f in b.findings] + graded.evidence)


def test_one_based_names_are_named_as_such():
    said = _said(grade_student(str(HERE / "one_based.py"), BOARDS, "thermometers"))
    assert "your names start at 1" in said and "x_0_0 is the top-left cell" in said


def test_one_based_pyomo_indices_are_named_as_such():
    said = _said(grade_student(str(HERE / "one_based_pyomo.py"), BOARDS, "thermometers"))
    assert "numbered from 1" in said and "x[0, 0] is the top-left cell" in said


def test_a_cell_outside_0_1_is_named_with_its_value():
    graded = grade_student(str(HERE / "integer_cells.py"), BOARDS, "thermometers")
    said = _said(graded)
    assert "cells-not-binary" in graded.mistakes
    assert "outside 0..1" in said or "not 0 or 1" in said
    # the cell counted from 1, as every text a person reads counts it
    assert any(f"(cell {i},{j}) = " in said for i in range(1, 7) for j in range(1, 7))


def test_a_wrong_big_m_is_quoted():
    said = _said(grade_student(str(HERE / "wrong_big_m.py"), BOARDS, "thermometers"))
    assert "bigM_" in said and "constraints of yours forbid it" in said


def test_pulp4_idioms_get_the_pulp4_spelling():
    hint = pulp4_hint(AttributeError("type object 'LpVariable' has no attribute 'dicts'"))
    assert "add_variable_dicts" in hint
    assert "unsolved" in pulp4_hint(AttributeError("module 'pulp' has no attribute 'LpStatus'"))
    assert "prob.add_variable" in pulp4_hint(
        TypeError("LpVariable.__init__() got an unexpected keyword argument 'cat'"))
    assert pulp4_hint(AttributeError("something else")) == ""
