"""Exact comparison on the probe boards: every 0/1 grid, the model's against the rules'.

The files in tests/students/wrong/ are wrong models the round-two grader passed with
full marks (issue 26): rows ``<=`` while columns ``==``, the first row's clue dropped,
rows summed over ``range(height)`` (right on square boards only), and clues written
``>=`` with a minimising objective (which it named ``zero-clue-dropped``, wrongly).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from thermomilp.formats import load
from thermomilp.teach.checks import reference_model
from thermomilp.teach.linear import feasible_grids
from thermomilp.teach.probes import grids_obeying, probe_boards
from thermomilp.teach.student import grade_student

from helpers import INSTANCES

WRONG = sorted((Path(__file__).resolve().parent / "students" / "wrong").glob("*.py"))
BOARDS = [(f"{n}.txt", load(INSTANCES / "thermometers" / f"{n}.txt"))
          for n in ("t01_4x4", "t04_6x6_missing")]


@pytest.mark.parametrize("student", WRONG, ids=lambda p: p.stem)
def test_a_wrong_model_never_passes_and_gets_no_wrong_id(student):
    graded = grade_student(str(student), BOARDS, "thermometers")
    assert not graded.ok
    assert graded.mistakes == [], graded.evidence
    probes = [b for b in graded.boards if b.file.startswith("probe board")]
    assert any(b.verdict == "accepts-forbidden" for b in probes)
    said = "\n".join(f.message for b in probes for f in b.findings)
    assert "┌" in said  # the evidence is drawn as a board


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_probe_boards_include_both_rectangular_orientations_and_missing_clues(kind):
    boards = probe_boards(kind)
    assert any(p.height < p.width for p in boards) and any(p.height > p.width for p in boards)
    assert all(any(c is None for c in p.rows + p.cols) for p in boards if p.height != p.width)


@pytest.mark.parametrize("kind", ["thermometers", "aquarium"])
def test_the_reference_model_accepts_exactly_the_rules_grids(kind):
    for b, puzzle in enumerate(probe_boards(kind)):
        found, complete = feasible_grids(reference_model(puzzle), puzzle.height, puzzle.width)
        assert complete and found == set(grids_obeying(kind, b)), b
        assert found  # every probe board has a solution
