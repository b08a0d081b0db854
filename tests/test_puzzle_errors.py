"""Puzzle's constructors on bad input: only PuzzleError escapes, with a clear message
(issue 25: ``with_clues`` raised raw IndexError/KeyError/TypeError)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.core.errors import PuzzleError
from thermomilp.core.puzzle import Puzzle, aquarium, thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.pictures.text import render_board

BOARD = thermometers([2, 1], [1, 2], [[(0, 0), (0, 1)], [(1, 1), (1, 0)]])
TANKS = aquarium([2, 0], [1, 1], [["A", "A"], ["B", "C"]])


@pytest.mark.parametrize("rows, cols, message", [
    ([2], [1, 2], "1 row clues given but the grid has 2 rows"),        # vessel cells outside
    ([2, 1, 0], [1, 2], "3 row clues given but the grid has 2 rows"),  # a row in no vessel
    ([2, 1], [1, 2, 0], "3 column clues given but the grid has 2 columns"),
    ([2, "1"], [1, 2], "row 2 clue '1' is not a whole number"),
    ([2, 1], [1, 5], "column 2 clue is 5 but the column has 2 cells"),
    ([2, 1.0], [1, 2], "not a whole number"),
    (5, [1, 2], "the row clues must be a list, not int"),
    ([2, 1], "12", "the column clues must be a list, not str"),
    ([2, True], [1, 2], "not a whole number"),
])
def test_with_clues_refuses_bad_clues_with_a_puzzle_error(rows, cols, message):
    with pytest.raises(PuzzleError, match=message):
        BOARD.with_clues(rows, cols)


def test_with_clues_keeps_a_good_board_usable():
    board = BOARD.with_clues([None, 1], (1, None))
    assert board.rows == (None, 1) and board.cols == (1, None)
    assert solution_problems(board, ("##", ".#")) == []
    render_board(board)  # every cell is in a vessel: the picture draws


@pytest.mark.parametrize("solution, message", [
    (("##",), "must have 2 rows"),
    (("##", "#"), "solution row 2 must be 2 characters"),
    (("##", "#o"), "solution row 2 must be 2 characters"),
    ("##.#", "must have 2 rows"),
    (7, "must have 2 rows"),
    ((1, 2), "solution row 1"),
])
def test_with_solution_refuses_grids_of_another_shape(solution, message):
    with pytest.raises(PuzzleError, match=message):
        BOARD.with_solution(solution)


def test_with_grade_refuses_an_unknown_grade():
    with pytest.raises(PuzzleError, match="grade 'easy' is not one of intervals"):
        BOARD.with_grade("easy")
    assert BOARD.with_grade("pairs").grade == "pairs"


@pytest.mark.parametrize("call, message", [
    (lambda: thermometers([1, 1], [1, 1], 7), "must be a list of thermometers"),
    (lambda: aquarium([1, 1], [1, 1], 7), "region grid must be a list"),
    (lambda: aquarium([1, 1], [1, 1], [["A", "A"], ["A", None]]),
     r"cell \(2,2\) \(index \[1, 1\]\) is in no tank"),
    (lambda: thermometers(None, [1], [[(0, 0)]]), "the row clues must be a list"),
])
def test_builders_refuse_bad_shapes(call, message):
    with pytest.raises(PuzzleError, match=message):
        call()


# -- property: whatever is passed, PuzzleError or a usable board ------------------------

anything = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.floats(allow_nan=True)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner),
    max_leaves=12)
clue_lists = st.lists(st.none() | st.integers(-2, 4), max_size=4) | anything


def _usable(puzzle: Puzzle) -> None:
    """A board a constructor returned must hold together: every cell in one vessel."""
    grid = puzzle.region_grid()
    assert all(label for row in grid for label in row)
    assert len(puzzle.rank_of) == puzzle.height * puzzle.width


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([BOARD, TANKS]), rows=clue_lists, cols=clue_lists)
def test_with_clues_raises_only_puzzle_error(base, rows, cols):
    try:
        board = base.with_clues(rows, cols)
    except PuzzleError as exc:
        assert str(exc)
        return
    _usable(board)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([BOARD, TANKS]), solution=anything)
def test_with_solution_raises_only_puzzle_error(base, solution):
    try:
        board = base.with_solution(solution)
    except PuzzleError:
        return
    assert board.solution is None or solution_problems(board, board.solution) is not None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=clue_lists, cols=clue_lists, therms=anything)
def test_thermometers_raises_only_puzzle_error(rows, cols, therms):
    try:
        board = thermometers(rows, cols, therms)
    except PuzzleError:
        return
    _usable(board)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=clue_lists, cols=clue_lists, regions=anything,
       rule=st.sampled_from(["tank", "pool", "lake"]))
def test_aquarium_raises_only_puzzle_error(rows, cols, regions, rule):
    try:
        board = aquarium(rows, cols, regions, rule=rule)
    except PuzzleError:
        return
    _usable(board)
