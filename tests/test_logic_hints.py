"""Hints, explanations, marks syntax and the hint/explain commands.

Every explanation is replayed: the cells of each step must agree with the
board's solution (found by the brute force, not by the logic), and a solved
explanation must end on exactly that solution. The janko corpus (30
published 6x6 boards, found by ``helpers.corpus_dir``, skipped when absent)
must be finished by intervals or probing.
"""

from __future__ import annotations

import json
import random

import pytest

import thermomilp
from thermomilp.cli.main import main
from thermomilp.core.errors import PuzzleError
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.grade import GRADE_TO_DIFFICULTY, grade
from thermomilp.logic.hints import RULES, TERMINAL, explain, next_hint
from thermomilp.logic.marks import marks_grid, parse_marks

from helpers import instance_files, janko_files, needs_corpus

INSTANCES = instance_files("thermometers")
JANKO = janko_files()


def _check_explanation(puzzle, explanation):
    """Every cell a step sets is right in every solution; solved means the solution."""
    solutions = list(brute_force_solutions(puzzle, 50))
    for step in explanation.steps:
        assert step.rule in RULES
        for (r, c), value in step.cells:
            assert all((s[r][c] == "#") == bool(value) for s in solutions), step
    if explanation.status == "solved":
        assert len(solutions) == 1
        # the final board is in the marks notation: a solved board is its solution grid
        assert explanation.grid == tuple(solutions[0])
    elif explanation.status == "contradiction":
        assert solutions == []
    else:
        assert explanation.status == "stalled" and explanation.undecided > 0


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_explain_instances(path):
    puzzle = thermomilp.load(path)
    _check_explanation(puzzle, explain(puzzle))


def test_explain_random_boards_and_rules_used():
    rng = random.Random(11)
    used = set()
    for _ in range(40):
        puzzle = planted_board(5, 5, rng, missing=0.1)
        e = explain(puzzle)
        _check_explanation(puzzle, e)
        used |= {s.rule for s in e.steps}
        # the explanation finishes exactly when the logic does
        assert (e.status == "solved") == (grade(puzzle) != "search" and
                                          len(list(brute_force_solutions(puzzle, 2))) == 1)
    # pair_probe fires on larger boards (tests/test_logic_pairs.py)
    assert used == set(RULES) - {"pair_probe"}


def test_hint_follows_from_marks_and_replays_to_the_end():
    puzzle = thermomilp.load(INSTANCES[2])
    (solution,) = list(brute_force_solutions(puzzle))
    marks: dict = {}
    for _ in range(200):
        step = next_hint(puzzle, marks)
        if step.rule in TERMINAL:
            break
        assert step.cells and all(cell not in marks for cell, _ in step.cells)
        marks.update(dict(step.cells))
    assert step.rule == "solved"
    assert marks_grid(puzzle, marks) == tuple(solution)


def test_explain_names_a_wrong_mark_before_any_step():
    puzzle = thermomilp.load(INSTANCES[0])
    (solution,) = list(brute_force_solutions(puzzle))
    r, c = next((r, c) for r, row in enumerate(solution) for c, ch in enumerate(row) if ch == ".")
    # one empty cell marked filled: the explanation stops at once and names it
    e = explain(puzzle, {(r, c): 1})
    assert e.status == "mistake" and e.steps == ()
    # the JSON field is 0-based, the text counts from 1
    assert (r, c) in e.final.wrong and f"({r + 1},{c + 1})" in e.final.text


def test_marks_syntax():
    puzzle = thermomilp.load(INSTANCES[0])  # 4x4
    # ROW,COL counted from 1; # filled, . empty
    assert parse_marks("1,2=# 3,4=.;4,4=. 4,3=.", puzzle) == {(0, 1): 1, (2, 3): 0, (3, 3): 0,
                                                             (3, 2): 0}
    assert parse_marks("#.??/????/??#?/????", puzzle) == {(0, 0): 1, (0, 1): 0, (2, 2): 1}
    assert parse_marks(None, puzzle) == {}
    # "?" marks nothing in a list; 0 is no row or column; x beside . is the old grid; a
    # list item in the old spelling was written for the old count from 0
    for bad in ("1,2=?", "5,1=#", "1,2=# 1,2=.", "#.??/????", "#.??", "1;2=#", "0,1=#",
                "#x../????/????/????", "1,2=x", "1,2=-", "1,2=0", "1,2=1"):
        with pytest.raises(PuzzleError):
            parse_marks(bad, puzzle)


def test_marks_file(tmp_path):
    puzzle = thermomilp.load(INSTANCES[0])
    path = tmp_path / "marks.txt"
    path.write_text("#.??\n????\n\n??#?\n????\n")
    assert parse_marks(str(path), puzzle) == {(0, 0): 1, (0, 1): 0, (2, 2): 1}
    path.write_text("#.??\n..?z\n....\n....\n")
    with pytest.raises(PuzzleError, match="marks.txt:2"):
        parse_marks(str(path), puzzle)


def test_cli_hint_and_explain(capsys):
    path = str(INSTANCES[2])
    assert main(["hint", path, "--format", "json"]) == 0
    hint = json.loads(capsys.readouterr().out)
    assert hint["rule"] in RULES and hint["cells"]
    assert main(["hint", path]) == 0
    assert capsys.readouterr().out.startswith(f"[{hint['rule']}]")
    assert main(["explain", path, str(INSTANCES[-1]), "--format", "json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["status"] for d in lines] == ["solved", "contradiction"]
    assert main(["explain", path]) == 0
    assert "status: solved" in capsys.readouterr().out
    assert main(["hint", path, "--marks", "1,99=#"]) == 2
    assert "outside" in capsys.readouterr().err


def test_grade_contract():
    assert set(GRADE_TO_DIFFICULTY) == {"intervals", "probing", "pairs", "search"}
    for path in INSTANCES:
        assert grade(thermomilp.load(path)) in GRADE_TO_DIFFICULTY


@needs_corpus
def test_janko_boards_finish_by_intervals_or_probing():
    assert len(JANKO) >= 30
    for path in JANKO:
        puzzle = thermomilp.load(path)
        assert grade(puzzle) in ("intervals", "probing"), path.name
        e = explain(puzzle)
        assert e.status == "solved", path.name
        assert e.grid == tuple(puzzle.solution), path.name


@needs_corpus
def test_cli_on_janko(capsys):
    files = [str(p) for p in JANKO[:5]]
    assert main(["explain", *files, "--format", "json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 5
    assert main(["hint", files[0], "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rule"] in RULES
