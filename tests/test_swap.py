"""The four-vessel swap: a witness of non-uniqueness that never changes a verdict."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import aquarium, grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import clues_of, planted_board, random_partition
from thermomilp.logic.brute import brute_force_count
from thermomilp.solve import count_solutions, solve
from thermomilp.solve.swap import swap_rival


def test_textbook_rectangle():
    # four one-cell thermometers on a 2x2 board: the diagonal swaps to the anti-diagonal
    from thermomilp.core.puzzle import thermometers

    p = thermometers([1, 1], [1, 1], [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])
    assert swap_rival(p, ("#.", ".#")) == (".#", "#.")
    # one thermometer through a whole row: its tip and next belong to one vessel -> no swap
    q = thermometers([1, 1], [1, 1], [[(0, 0), (0, 1)], [(1, 1), (1, 0)]])
    assert swap_rival(q, ("#.", ".#")) is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 6), st.integers(3, 6))
def test_rival_is_a_different_solution_and_unique_boards_have_none(seed, h, w):
    puzzle = planted_board(h, w, random.Random(seed))
    rival = swap_rival(puzzle, puzzle.solution)
    count = brute_force_count(puzzle, 2)
    if rival is not None:
        assert rival != puzzle.solution
        assert solution_problems(puzzle, rival) == []
        assert count == 2
    if count == 1:
        assert rival is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_solve_verdict_matches_counting_without_the_swap(seed):
    rng = random.Random(seed)
    n = rng.randint(4, 7)
    if rng.random() < 0.5:
        puzzle = planted_board(n, n, rng)
    else:
        regions = [[0] * n for _ in range(n)]
        for k, cells in enumerate(random_partition(n, n, rng, max_length=5)):
            for r, c in cells:
                regions[r][c] = k
        skeleton = aquarium([0] * n, [0] * n, regions)
        grid = grid_from_levels(skeleton, [rng.randint(0, v.depth) for v in skeleton.vessels])
        rows, cols = clues_of(grid)
        puzzle = aquarium(rows, cols, regions)
    result = solve(puzzle, presolve="none")
    count = count_solutions(puzzle, 2)
    assert result.status == {1: "unique", 2: "multiple"}[count]
    if result.status == "multiple":
        assert result.second != result.grid
        assert solution_problems(puzzle, result.second) == []


def test_large_planted_board_is_decided_by_the_swap():
    puzzle = planted_board(40, 40, random.Random(3))
    rival = swap_rival(puzzle, puzzle.solution)
    assert rival is not None and solution_problems(puzzle, rival) == []


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_deferred_probing_gives_the_same_verdicts(seed):
    """Boards at or above LARGE_BOARD probe only after the swap fails; force that
    path on small boards (brute-forceable) and compare with counting."""
    import importlib

    solve_module = importlib.import_module("thermomilp.solve.api")  # the module, not the function

    rng = random.Random(seed)
    n = rng.randint(3, 6)
    puzzle = planted_board(n, n, rng, max_length=rng.choice((3, 6, 9)))
    if rng.random() < 0.2:  # an impossible clue set now and then
        rows = list(puzzle.rows)
        rows[0] = min(n, (rows[0] or 0) + 1)
        puzzle = puzzle.with_clues(rows, puzzle.cols)
    saved = solve_module.LARGE_BOARD
    solve_module.LARGE_BOARD = 1
    try:
        result = solve(puzzle, presolve="probing")
    finally:
        solve_module.LARGE_BOARD = saved
    count = brute_force_count(puzzle, 2)
    assert result.status == {0: "infeasible", 1: "unique", 2: "multiple"}[count]
    if result.grid is not None:
        assert solution_problems(puzzle, result.grid) == []
