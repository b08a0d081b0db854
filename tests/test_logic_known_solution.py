"""The levels of a known solution (``known``: the confirmation's excluded solution,
:mod:`thermomilp.solving.confirm`) are not probed, at the root or in the search: the same
fixpoint, the same solutions, the same work ticks."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import levels_from_grid
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.budget import Work
from thermomilp.logic.presolve import BoardLogic
from thermomilp.logic.search import search_solutions

ROOT = Path(__file__).resolve().parent.parent
H20 = ROOT / "benchmarks" / "hard" / "h20x20_s1b.txt"


def _run(puzzle, solution, limit=3):
    """The root fixpoint, its work, the search's solutions and its work, told ``solution``."""
    known = (None if solution is None
             else [1 << level for level in levels_from_grid(puzzle, solution)])
    board = BoardLogic(puzzle)
    root, witnesses = board.probed_root(None, known)
    work = Work(None)
    found = [] if root is None else list(search_solutions(
        puzzle, "probing", limit, start=root, stop=work, witnesses=witnesses, known=known,
        tables=board.tables()))
    return root, board.root_work, found, work.used


@given(st.integers(0, 10**9))
@settings(max_examples=60, deadline=None)
def test_a_known_solution_changes_nothing_but_the_time(seed):
    rng = random.Random(seed)
    puzzle = planted_board(rng.randint(3, 6), rng.randint(3, 6), rng,
                           missing=rng.choice((0.0, 0.0, 0.3)))
    solutions = list(brute_force_solutions(puzzle, 3))
    plain = _run(puzzle, None)
    every = set(brute_force_solutions(puzzle))
    assert len(plain[2]) == len(solutions) and set(plain[2]) <= every  # the search is exact
    for grid in solutions:
        assert _run(puzzle, grid) == plain


def test_a_hard_board_is_decided_the_same_with_its_solution():
    puzzle = load(H20)
    plain = _run(puzzle, None, 2)
    assert len(plain[2]) == 1
    assert _run(puzzle, plain[2][0], 2) == plain
