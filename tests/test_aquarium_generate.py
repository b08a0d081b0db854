"""The backward-authored generator, the shipped instances, and the hints."""

from __future__ import annotations

import json
import random

import pytest

from thermomilp import load
from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import aquarium
from thermomilp.core.verify import solution_problems
from thermomilp.generate.aquarium_gen import generate_aquarium, random_tanks
from thermomilp.logic.aquarium_dp import dp_count, dp_solutions
from thermomilp.logic.aquarium_hints import RULES, next_hint
from thermomilp.logic.brute import brute_force_count
from thermomilp.logic.deduction import Deduction
from thermomilp.solving import count_solutions, solve

from aquarium_boards import public_6x6, random_board
from helpers import ROOT


def test_same_seed_same_board():
    a, b = generate_aquarium(7, 6, seed=11), generate_aquarium(7, 6, seed=11)
    assert a == b and a.solution == b.solution
    assert generate_aquarium(7, 6, seed=12) != a
    assert a.shape == (7, 6)


def test_tanks_are_connected_and_cover_the_grid():
    rng = random.Random(3)
    for _ in range(30):
        h, w = rng.randint(1, 9), rng.randint(1, 9)
        aquarium([None] * h, [None] * w, random_tanks(h, w, rng))  # validates connectivity


@pytest.mark.parametrize("size, seed", [((6, 6), 0), ((6, 6), 1), ((7, 5), 2), ((8, 8), 3)])
def test_every_surviving_clue_is_load_bearing(size, seed):
    puzzle = generate_aquarium(*size, seed=seed)
    assert solution_problems(puzzle, puzzle.solution) == []
    assert count_solutions(puzzle, 2) == 1  # the MILP agrees with the DP proof
    assert brute_force_count(puzzle, 2) == 1
    rows, cols = list(puzzle.rows), list(puzzle.cols)
    survivors = [("r", i) for i, v in enumerate(rows) if v is not None]
    survivors += [("c", j) for j, v in enumerate(cols) if v is not None]
    assert len(survivors) < len(rows) + len(cols)  # something was deleted
    for axis, k in survivors:
        r, c = list(rows), list(cols)
        (r if axis == "r" else c)[k] = None
        weaker = puzzle.with_clues(r, c)
        assert brute_force_count(weaker, 2) == 2, (axis, k)


def test_full_clue_option():
    puzzle = generate_aquarium(6, 6, seed=4, minimal_clues=False)
    assert None not in puzzle.rows + puzzle.cols
    assert dp_count(puzzle, 2) == 1
    assert "full clues" in puzzle.name


def test_bad_size():
    with pytest.raises(GenerationError, match="at least 1x1"):
        generate_aquarium(0, 5, seed=1)


INSTANCES = sorted((ROOT / "instances" / "aquarium").glob("*.txt"))


def test_instances_cover_6_to_15():
    sizes = {load(p).shape for p in INSTANCES}
    assert (6, 6) in sizes and (15, 15) in sizes
    expected = json.loads((ROOT / "instances" / "expected.json").read_text())
    assert {f"aquarium/{p.name}" for p in INSTANCES} <= set(expected)


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.name)
def test_instances_are_unique_with_their_stored_solution(path):
    puzzle = load(path)
    expected = json.loads((ROOT / "instances" / "expected.json").read_text())
    assert expected[f"aquarium/{path.name}"]["status"] == "unique"
    assert solution_problems(puzzle, puzzle.solution) == []
    result = solve(puzzle, formulation="compact")
    assert result.status == "unique" and result.grid == puzzle.solution


# ---------------------------------------------------------------- hints


def replay_hints(puzzle):
    """Apply hints until none is left; every hint must agree with the unique solution."""
    solution = next(dp_solutions(puzzle, 1))
    marks: dict = {}
    rules = []
    while (hint := next_hint(puzzle, marks)) is not None:
        assert isinstance(hint, Deduction) and hint.rule in RULES
        assert hint.cells and not hint.wrong
        assert not (set(hint.values) & set(marks))
        for (r, c), v in hint.cells:
            assert v == (solution[r][c] == "#"), hint.text
        marks.update(hint.values)
        rules.append(hint.rule)
    return marks, rules


def test_hints_solve_the_public_board():
    puzzle = public_6x6()
    marks, rules = replay_hints(puzzle)
    assert len(marks) == 36 and "subset_sum" in rules


def test_hints_are_sound_on_generated_boards():
    for seed in range(6):
        replay_hints(generate_aquarium(6, 6, seed=seed))
    rng = random.Random(8)
    for _ in range(20):
        puzzle = random_board(rng, missing=0.3)
        if dp_count(puzzle, 2) == 1:
            replay_hints(puzzle)


def test_gravity_hint_fills_other_arms_and_below():
    puzzle = public_6x6()
    hint = next_hint(puzzle, {(4, 0): 1})  # tank 5: (4,0),(4,1) then row 5, arm up column 1
    assert hint.rule == "gravity"
    assert hint.values == {(4, 1): 1, (5, 0): 1, (5, 1): 1}
    # the cell and the row counted from 1, as every text a person reads counts them
    assert hint.text == ("gravity in tank 5: water at (5,1) fills every cell of the tank in "
                         "row 5 and below")
    hint = next_hint(puzzle, {(3, 1): 0})  # air in the arm: rows 3 and up of tank 5 are air
    assert hint.rule == "gravity"
    assert hint.values == {(1, 1): 0, (2, 1): 0}


def test_contradicting_marks_are_named():
    hint = next_hint(public_6x6(), {(4, 0): 1, (5, 1): 0})
    assert hint.rule == "gravity" and not hint.values and "wrong" in hint.text
    assert set(hint.wrong) == {(4, 0), (5, 1)}
    hint = next_hint(public_6x6(), {(0, c): 0 for c in range(6)})  # row 0 needs 4
    assert hint.rule == "subset_sum" and not hint.values
    assert hint.wrong == tuple((0, c) for c in range(6))


def test_subset_sum_hint_names_the_line():
    hint = next_hint(public_6x6(), {})
    assert hint.rule == "subset_sum" and hint.text.startswith("row ") and hint.line
