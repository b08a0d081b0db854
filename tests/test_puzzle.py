"""Puzzle construction, validation messages and the level adapter."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.errors import NotMonotoneError, PuzzleError
from thermomilp.core.puzzle import aquarium, grid_from_levels, levels_from_grid, thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import planted_board

ROWS2 = [[(0, 0), (0, 1)], [(1, 0), (1, 1)]]


@pytest.mark.parametrize("rows, cols, therms, message", [
    ([1], [1, 1], ROWS2, "outside the 1x2 grid"),  # too few row clues for the drawn grid
    ([1, 1], [1, 1, 0], ROWS2, "covered by no thermometer"),
    ([3, 1], [1, 1], ROWS2, "row 1 clue is 3 but the row has 2 cells"),
    ([-1, 1], [1, 1], ROWS2, "below 0"),
    ([1, 1], [1, 5], ROWS2, "column 2 clue is 5"),
    ([1, 1], [1, 1], [[(0, 0), (1, 1)], [(0, 1), (1, 0)]], "not orthogonally adjacent"),
    ([1, 1], [1, 1], [[(0, 0), (0, 1)], [(0, 1), (1, 0), (1, 1)]], "already used"),
    ([1, 1], [1, 1], [[(0, 0), (0, 1)], [(1, 0), (1, 2)]], "outside the 2x2 grid"),
    ([1, 1], [1, 1], [[(0, 0), (0, 1)], [(1, 0), (1, 1)], []], "thermometer 3 is empty"),
    ([1, 1], [1, 1], [[(0, 0), (0, 1)]], "covered by no thermometer"),
    ([1, 1], [1, "x"], ROWS2, "not a whole number"),
    ([], [1], [], "no rows"),
])
def test_thermometer_validation(rows, cols, therms, message):
    with pytest.raises(PuzzleError, match=message):
        thermometers(rows, cols, therms)


def test_wrong_clue_count_is_caught():
    # rows given for 3 rows but thermometers only cover 2: the grid is 3x2 and a row is uncovered
    with pytest.raises(PuzzleError, match="covered by no thermometer"):
        thermometers([1, 1, 1], [1, 1], ROWS2)


@pytest.mark.parametrize("regions, message", [
    ([["a", "b"], ["b", "a"]], "not orthogonally connected"),
    ([["a", "a"], ["a"]], "must be rectangular"),
    ([["a", "a"]], "2 row clues"),
    ([["a", None], ["a", "a"]], "in no tank"),
])
def test_aquarium_validation(regions, message):
    with pytest.raises(PuzzleError, match=message):
        aquarium([1, 1], [1, 1], regions)


def test_tank_layers_are_rows_lowest_first():
    p = aquarium([None] * 3, [None] * 2, [["a", "b"], ["a", "a"], ["c", "a"]])
    tank = p.vessels[0]
    # the lowest row of tank a is row 2 (cell (2,1)), then row 1, then row 0
    assert tank.layers == (((2, 1),), ((1, 0), (1, 1)), ((0, 0),))


def test_levels_adapter_rejects_a_gap():
    p = thermometers([None, None], [None, None], ROWS2)
    with pytest.raises(NotMonotoneError):
        levels_from_grid(p, (".#", ".."))


def test_levels_adapter_rejects_half_filled_tank_row():
    p = aquarium([None, None], [None, None], [["a", "a"], ["a", "a"]])
    with pytest.raises(NotMonotoneError):
        levels_from_grid(p, ("..", "#."))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), h=st.integers(1, 7), w=st.integers(1, 7))
def test_levels_round_trip(seed, h, w):
    rng = random.Random(seed)
    p = planted_board(h, w, rng)
    levels = [rng.randint(0, v.depth) for v in p.vessels]
    grid = grid_from_levels(p, levels)
    assert levels_from_grid(p, grid) == tuple(levels)
    # the planted solution satisfies the independent checker, the adapter agrees with it
    assert solution_problems(p, p.solution) == []
    assert grid_from_levels(p, levels_from_grid(p, p.solution)) == p.solution


def test_checker_finds_each_broken_rule():
    p = thermometers([1, 1], [2, 0], ROWS2)
    assert solution_problems(p, ("#.", "#.")) == []
    # the sentences count rows and columns from 1
    assert "column 1 has 1 filled cells, clue 2" in solution_problems(p, ("##", ".."))
    assert any("above a gap" in s for s in solution_problems(p, (".#", "#.")))
    assert "row 2 has 0 filled cells, clue 1" in solution_problems(p, ("#.", ".."))
    assert solution_problems(p, ("#",)) == ["the grid is not 2x2"]
