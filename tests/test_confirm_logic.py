"""The logic confirmation of an engine's "infeasible" (solving/confirm.py) against the
brute force (logic/brute.py, no shared code), with no-good cuts and fixed cells, the
probing fixpoint computed by the confirmation itself or kept from before."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import ones_of
from thermomilp.core.verify import candidate_problems
from thermomilp.formats import load
from thermomilp.logic import search
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.presolve import BoardLogic
from thermomilp.solving.confirm import CONFIRMED, confirm_infeasible

from helpers import INSTANCES, varied_board


def _allowed(everything, fixed, cuts):
    """The solutions that keep every fixed cell and no cut removed."""
    removed = {ones for ones, _ in cuts}
    return [g for g in everything if ones_of(g) not in removed
            and all((g[r][c] == "#") == bool(v) for (r, c), v in fixed.items())]


@given(st.integers(0, 10**9), st.booleans())
@settings(max_examples=80, deadline=None)
def test_the_logic_confirmation_agrees_with_brute_force(seed, kept_root):
    puzzle = varied_board(seed)
    everything = list(brute_force_solutions(puzzle, 30))
    if len(everything) == 30:
        return  # too many to list
    rng = random.Random(seed)
    board = BoardLogic(puzzle)
    if kept_root:  # the presolve probed the board before: its fixpoint is kept
        board.probed_root()
    cuts = [(ones_of(g), None) for g in rng.sample(everything, rng.randint(0, len(everything)))]
    cells = [(r, c) for r in range(puzzle.height) for c in range(puzzle.width)]
    fixed = {cell: rng.randint(0, 1) for cell in rng.sample(cells, rng.randint(0, 3))}
    if everything and rng.random() < 0.5:  # cells of a solution: it stays allowed
        g = rng.choice(everything)
        fixed = {(r, c): int(g[r][c] == "#") for r, c in fixed}
    allowed = _allowed(everything, fixed, cuts)
    answer = confirm_infeasible(puzzle, fixed or None, cuts, None, cpsat=False, board=board)
    if allowed:
        assert answer in allowed
        assert not candidate_problems(puzzle, answer, fixed=fixed, cuts=cuts)
    else:
        assert answer == CONFIRMED


@pytest.mark.parametrize("name", ["thermometers/t06_10x10.txt", "aquarium/a06_15x15.txt"])
def test_a_board_probing_decides_is_confirmed_without_a_search(name, monkeypatch):
    puzzle = load(INSTANCES / name)
    root, _ = BoardLogic(puzzle).probed_root()
    assert root is not None and all(not m & (m - 1) for m in root)  # probing decides it
    [only] = list(search.search_solutions(puzzle, "intervals", 2))  # before the patch

    def no_search(*args, **kwargs):
        raise AssertionError("the search ran on a board probing decides")

    monkeypatch.setattr(search, "search_solutions", no_search)
    cut = [(ones_of(only), None)]
    assert confirm_infeasible(puzzle, None, cut, None, cpsat=False) == CONFIRMED
    assert confirm_infeasible(puzzle, None, [], None, cpsat=False) == only
    flipped = {(0, 0): int(only[0][0] != "#")}
    assert confirm_infeasible(puzzle, flipped, [], None, cpsat=False) == CONFIRMED
