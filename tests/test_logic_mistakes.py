"""Wrong marks are named before anything is deduced (thermomilp.logic.mistakes).

The check is against the rules first, then against the solution found by the
logic's search; the tests judge it by the brute force. Property: marks taken
from the unique solution are never called wrong; flip one of them and the
flipped cell is always among the marks named.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import thermomilp
from thermomilp.cli.main import main
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.hints import explain, next_hint
from thermomilp.logic.mistakes import find_mistake

ROOT = Path(__file__).resolve().parent.parent
T03 = ROOT / "instances" / "thermometers" / "t03_6x6.txt"
UNIQUE = [ROOT / "instances" / "thermometers" / name
          for name in ("t01_4x4.txt", "t02_5x5.txt", "t03_6x6.txt")]
AQUARIUM = ROOT / "instances" / "aquarium" / "a01_6x6.txt"


def _solution(puzzle):
    (grid,) = list(brute_force_solutions(puzzle, 2))
    return grid


def test_filled_cell_in_a_zero_row_is_named_with_the_rule():
    puzzle = thermomilp.load(T03)
    assert puzzle.rows[3] == 0
    step = next_hint(puzzle, {(3, 0): 1})
    assert step.rule == "mistake" and step.cells == ()
    assert step.wrong == ((3, 0),)
    assert step.text == "(4,1) is filled but row 4's clue is 0"  # the texts count from 1


def test_a_mark_that_breaks_no_rule_is_named_against_the_solution():
    puzzle = thermomilp.load(T03)
    solution = _solution(puzzle)
    # a cell the solution fills, marked empty: no line or vessel breaks yet
    r, c = next((r, c) for r in range(6) for c in range(6) if solution[r][c] == "#"
                and find_mistake(puzzle, {(r, c): 0}, complete=lambda m: None) is None)
    step = next_hint(puzzle, {(r, c): 0})
    assert step.rule == "mistake" and step.wrong == ((r, c),)
    assert step.text == f"({r + 1},{c + 1}) is marked empty but the solution fills it"


def test_a_vessel_out_of_order_is_named():
    puzzle = thermomilp.load(T03)
    therm = next(v for v in puzzle.vessels if v.depth >= 2)
    bulb, above = therm.layers[0][0], therm.layers[1][0]
    m = find_mistake(puzzle, {bulb: 0, above: 1})
    assert m is not None and m.source == "rules" and set(m.cells) == {bulb, above}
    assert f"thermometer {therm.label}" in m.text


def test_aquarium_partly_wet_row_is_named():
    puzzle = thermomilp.load(AQUARIUM)
    tank = next(v for v in puzzle.vessels if any(len(layer) > 1 for layer in v.layers))
    a, b = next(layer for layer in tank.layers if len(layer) > 1)[:2]
    m = find_mistake(puzzle, {a: 1, b: 0})
    assert m is not None and "level" in m.text and set(m.cells) == {a, b}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(UNIQUE), st.integers(0, 10**6), st.floats(0.05, 0.9))
def test_right_marks_pass_and_a_flipped_one_is_named(path, seed, share):
    puzzle = thermomilp.load(path)
    solution = _solution(puzzle)
    rng = random.Random(seed)
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    marks = {cell: int(solution[cell[0]][cell[1]] == "#") for cell in cells
             if rng.random() < share}
    if not marks:
        return
    assert find_mistake(puzzle, marks) is None
    assert next_hint(puzzle, marks).rule != "mistake"
    flipped = rng.choice(sorted(marks))
    marks[flipped] = 1 - marks[flipped]
    step = next_hint(puzzle, marks)
    assert step.rule == "mistake" and flipped in step.wrong
    assert explain(puzzle, marks).status == "mistake"


def test_no_mark_is_blamed_on_a_board_without_solution():
    puzzle = thermomilp.load(ROOT / "instances" / "thermometers" / "t08_4x4_no_solution.txt")
    # no solution to compare with: only a broken rule may be named, never "the solution"
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            for value in (0, 1):
                m = find_mistake(puzzle, {(r, c): value})
                assert m is None or m.source == "rules"


def test_cli_hint_exits_1_and_names_the_mark(capsys):
    # the marks and the text count from 1, the JSON indices from 0
    assert main(["hint", str(T03), "--marks", "4,1=#"]) == 1
    assert capsys.readouterr().out.strip() == "[mistake] (4,1) is filled but row 4's clue is 0"
    assert main(["hint", str(T03), "--marks", "4,1=#", "--format", "json"]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["rule"] == "mistake" and record["wrong"] == [[3, 0]] and record["cells"] == []
