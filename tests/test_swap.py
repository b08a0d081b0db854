"""The four-vessel swap: a witness of non-uniqueness that never changes a verdict."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import aquarium, grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import clues_of, planted_board, random_partition
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.solving import count_solutions, solve
from thermomilp.solving.swap import rival_moves, swap_rival


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
    result = solve(puzzle, logic="none")
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
def test_the_swap_path_gives_the_same_verdicts(seed):
    """Boards of SWAP_MIN_CELLS cells or more try the swap after the engine's first
    solution; force that path on small boards (brute-forceable; no logic, so the engine
    runs) and compare with counting."""
    import thermomilp.solving.api as solve_module

    rng = random.Random(seed)
    n = rng.randint(3, 6)
    puzzle = planted_board(n, n, rng, max_length=rng.choice((3, 6, 9)))
    if rng.random() < 0.2:  # an impossible clue set now and then
        rows = list(puzzle.rows)
        rows[0] = min(n, (rows[0] or 0) + 1)
        puzzle = puzzle.with_clues(rows, puzzle.cols)
    saved = solve_module.SWAP_MIN_CELLS
    solve_module.SWAP_MIN_CELLS = 1
    try:
        result = solve(puzzle, logic="none")
    finally:
        solve_module.SWAP_MIN_CELLS = saved
    count = brute_force_count(puzzle, 2)
    assert result.status == {0: "infeasible", 1: "unique", 2: "multiple"}[count]
    assert result.engine_called
    if result.grid is not None:
        assert solution_problems(puzzle, result.grid) == []
    if result.status == "multiple":
        assert result.second != result.grid
        assert solution_problems(puzzle, result.second) == []


def _hidden_clues(puzzle, rng):
    """Some clues hidden (more solutions; sometimes a row and a column both unclued)."""
    return puzzle.with_clues([c if rng.random() < 0.7 else None for c in puzzle.rows],
                             [c if rng.random() < 0.7 else None for c in puzzle.cols])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(2, 5), st.booleans())
def test_rival_moves_cut_off_exactly_the_given_solution(seed, h, w, hide):
    rng = random.Random(seed)
    puzzle = planted_board(h, w, rng)
    if hide:
        puzzle = _hidden_clues(puzzle, rng)
    solutions = list(brute_force_solutions(puzzle))
    moves = rival_moves(puzzle, puzzle.solution)
    if moves is None:
        assert None in puzzle.rows and None in puzzle.cols or len(set(
            sum(line.count("#") for line in g) for g in solutions)) == 1
        return
    rises, falls = moves

    def kept(grid):
        return (any(grid[r][c] == "#" for r, c in rises)
                and any(grid[r][c] == "." for r, c in falls))

    assert [g for g in solutions if kept(g)] == [g for g in solutions if g != puzzle.solution]


def test_rival_moves_need_a_fixed_count_of_filled_cells():
    from thermomilp.core.puzzle import thermometers

    # row 0 and column 0 unclued: emptying (0, 0) alone is another solution, so the
    # rows "some vessel rises" and "some vessel falls" would wrongly cut it off
    p = thermometers([None, 1], [None, 1], [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])
    assert rival_moves(p, ("#.", ".#")) is None


def test_engine_counts_like_brute_force_with_the_move_rows():
    from thermomilp.core.settings import Settings
    from thermomilp.solving.engine import Engine

    for seed in range(30):
        rng = random.Random(seed)
        puzzle = planted_board(rng.randint(3, 5), rng.randint(3, 5), rng)
        if seed % 2:
            puzzle = _hidden_clues(puzzle, rng)
        engine = Engine(puzzle, Settings(backend="highs", logic="none"))
        found = set(engine.solutions(40))
        every = set(brute_force_solutions(puzzle, 40))
        assert len(found) == len(every)
        if len(every) < 40:
            assert found == every
        assert all(solution_problems(puzzle, g) == [] for g in found)
