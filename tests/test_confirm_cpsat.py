"""CP-SAT as the independent confirmation of an engine's "infeasible" (solving/confirm.py).

``confirm_by_cpsat`` is checked against the brute force (logic/brute.py, no shared
code) on random small boards, with and without no-good cuts and fixed cells; the
solve layer uses it where the logic search is hopeless (a hard 30x30 board) and falls
back to the engine's second opinion without OR-Tools.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import ones_of
from thermomilp.core.verify import candidate_problems, solution_problems
from thermomilp.formats import load
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.solving import confirm, solve
from thermomilp.solving.confirm import (
    CONFIRMED_BY_CPSAT,
    UNDECIDED,
    confirm_by_cpsat,
    confirm_infeasible,
)

from helpers import use_pair, varied_board


@pytest.fixture(autouse=True, scope="module")
def _ortools():
    """Skip with the install step without OR-Tools (fail under THERMOMILP_REQUIRE_ALL_SOLVERS)."""
    use_pair("cpsat", "cpsat")

ROOT = Path(__file__).resolve().parent.parent
H30 = ROOT / "benchmarks" / "hard" / "h30x30_s1.txt"


@given(st.integers(0, 10**9))
@settings(max_examples=60, deadline=None)
def test_cpsat_confirmation_agrees_with_brute_force(seed):
    puzzle = varied_board(seed)
    everything = list(brute_force_solutions(puzzle, 50))
    if len(everything) == 50:  # too many to list: a board of few clues tells little
        assert not solution_problems(puzzle, confirm_by_cpsat(puzzle, None, []))
        return
    rng = random.Random(seed)
    answer = confirm_by_cpsat(puzzle, None, [])
    if not everything:
        assert answer == CONFIRMED_BY_CPSAT
        return
    assert answer in everything
    # every solution cut off: nothing is left
    cuts = [(ones_of(g), None) for g in everything]
    assert confirm_by_cpsat(puzzle, None, cuts) == CONFIRMED_BY_CPSAT
    # one solution cut off: another one exactly when there is another
    first = everything[0]
    cuts = [(ones_of(first), None)]
    rival = confirm_by_cpsat(puzzle, None, cuts)
    if len(everything) == 1:
        assert rival == CONFIRMED_BY_CPSAT
    else:
        assert rival in everything and rival != first
        assert not candidate_problems(puzzle, rival, cuts=cuts)
    # fixed cells: a solution's own cells chosen at random allow it, flipped ones may not
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    chosen = rng.sample(cells, min(3, len(cells)))
    fixed = {cell: int(first[cell[0]][cell[1]] == "#") for cell in chosen}
    allowed = [g for g in everything
               if all((g[r][c] == "#") == bool(v) for (r, c), v in fixed.items())]
    got = confirm_by_cpsat(puzzle, fixed, [])
    assert got in allowed
    flipped = {cell: 1 - v for cell, v in fixed.items()}
    allowed = [g for g in everything
               if all((g[r][c] == "#") == bool(v) for (r, c), v in flipped.items())]
    got = confirm_by_cpsat(puzzle, flipped, [])
    assert got in allowed if allowed else got == CONFIRMED_BY_CPSAT


def test_a_hard_board_past_the_search_size_is_confirmed_by_cpsat():
    puzzle = load(H30)
    result = solve(puzzle)
    assert result.status == "unique" and not solution_problems(puzzle, result.grid)
    assert result.engine_called and result.confirmed_by == "cpsat"


def test_without_ortools_the_engine_confirms_and_no_hopeless_search_runs(monkeypatch):
    puzzle = load(H30)
    monkeypatch.setattr(confirm, "cpsat_available", lambda: False)
    import thermomilp.logic.search as search

    def no_search(*args, **kwargs):
        raise AssertionError("the logic search ran on a board it cannot finish")

    monkeypatch.setattr(search, "search_solutions", no_search)
    result = solve(puzzle)
    assert result.status == "unique" and result.confirmed_by == "engine"


def test_a_cpsat_engine_is_not_confirmed_by_cpsat():
    puzzle = load(H30)
    grid = solve(puzzle).grid
    cuts = [(ones_of(grid), None)]
    assert confirm_infeasible(puzzle, None, cuts, None, cpsat=False) == UNDECIDED
    assert confirm_infeasible(puzzle, None, cuts, None) == CONFIRMED_BY_CPSAT


def test_a_small_open_board_is_still_confirmed_by_the_logic():
    """Probing leaves the board open: the logic search answers (milliseconds)."""
    from thermomilp.solving.confirm import CONFIRMED

    puzzle = load(ROOT / "instances" / "thermometers" / "t07_5x5_two_solutions.txt")
    both = list(brute_force_solutions(puzzle, 5))
    assert len(both) == 2
    cuts = [(ones_of(g), None) for g in both]
    assert confirm_infeasible(puzzle, None, cuts, None) == CONFIRMED
    assert confirm_infeasible(puzzle, None, cuts[:1], None) == both[1]


def test_cpsat_ends_undecided_past_its_deterministic_budget():
    puzzle = load(ROOT / "benchmarks" / "hard" / "h25x25_s1.txt")
    grid = solve(puzzle, logic="none").grid
    cuts = [(ones_of(grid), None)]
    assert confirm_by_cpsat(puzzle, None, cuts, work=1e-9) == UNDECIDED
    assert confirm_by_cpsat(puzzle, None, cuts) == CONFIRMED_BY_CPSAT
