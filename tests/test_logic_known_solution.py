"""The probing presolve told a verified solution (``presolve_cells(..., solution=...)``)
skips probing its levels: same answer, same work ticks, same records."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic import presolve
from thermomilp.logic.board import BoardLogic
from thermomilp.logic.brute import brute_force_solutions

ROOT = Path(__file__).resolve().parent.parent
H20 = ROOT / "benchmarks" / "hard" / "h20x20_s1b.txt"


def _run(puzzle, solution):
    board = BoardLogic(puzzle)
    out = presolve.presolve_cells(puzzle, "probing", search_nodes=10**6, solution=solution,
                                  board=board)
    return out, board.root_work, board.search_gave_up, board.solutions


@given(st.integers(0, 10**9))
@settings(max_examples=60, deadline=None)
def test_a_known_solution_changes_nothing_but_the_time(seed):
    rng = random.Random(seed)
    puzzle = planted_board(rng.randint(3, 6), rng.randint(3, 6), rng,
                           missing=rng.choice((0.0, 0.0, 0.3)))
    solutions = list(brute_force_solutions(puzzle, 3))
    plain = _run(puzzle, None)
    for grid in solutions:
        assert _run(puzzle, grid) == plain
    status = plain[0][2]
    assert status == {0: "infeasible", 1: "solved"}.get(len(solutions), "multiple")
    if status == "multiple":  # two distinct solutions (the brute force listed at most 3)
        first, second = plain[3]
        assert plain[0][1] == first != second
        assert solution_problems(puzzle, first) == [] == solution_problems(puzzle, second)


def test_a_grid_that_is_not_a_solution_is_ignored():
    puzzle = load(H20)
    blank = tuple("." * puzzle.width for _ in range(puzzle.height))
    saved = presolve.SEARCH_TIMES_PROBING
    try:
        presolve.SEARCH_TIMES_PROBING = 0  # the root alone: fast
        assert _run(puzzle, blank) == _run(puzzle, None)
    finally:
        presolve.SEARCH_TIMES_PROBING = saved


def test_a_hard_board_is_decided_the_same_with_its_solution():
    puzzle = load(H20)
    plain = _run(puzzle, None)
    assert plain[0][2] == "solved"
    assert _run(puzzle, plain[0][1]) == plain
