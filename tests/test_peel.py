"""The peel strategy: the filling a line order peels off is the clues' only solution.

The claim (``thermomilp/generate/peel.py``) is checked against counters that
share no code with the walk: the brute force on small boards of both puzzles,
the MILP count, the Aquarium DP counter, and the interval propagation, which
must decide every cell and land on the planted grid. No board or clue is
written down here; every board is drawn from a seed.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.errors import GenerationError
from thermomilp.core.puzzle import aquarium, grid_from_levels, thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.generate.aquarium_gen import (
    default_strategy as aquarium_default,
)
from thermomilp.generate.aquarium_gen import (
    generate_aquarium,
    peeled_aquarium,
    random_tanks,
)
from thermomilp.generate.paths import _straight
from thermomilp.generate.peel import line_order, peel_levels, plant_peeled
from thermomilp.generate.thermometers_gen import default_strategy, generate_thermometers
from thermomilp.logic.aquarium_dp import dp_count
from thermomilp.logic.brute import brute_force_count
from thermomilp.logic.presolve import presolve_cells
from thermomilp.logic.search import search_count
from thermomilp.solving import count_solutions

from helpers import one_clue_fewer


def _decided_by_intervals(puzzle) -> None:
    _, grid, status = presolve_cells(puzzle, "intervals")
    assert status == "solved" and grid == puzzle.solution


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(2, 6), st.booleans(),
       st.integers(0, 10**6))
def test_peeled_thermometers_are_unique_and_decided_by_intervals(height, width, max_length,
                                                                 straight, seed):
    if height * width < 2:
        return
    tiling, _ = plant_peeled(height, width, random.Random(seed), max_length=max_length,
                             straight=straight)
    rows, cols = tiling.clues()
    puzzle = thermometers(rows, cols, tiling.paths(), solution=tiling.grid())
    assert solution_problems(puzzle, puzzle.solution) == []
    assert brute_force_count(puzzle, 3) == 1
    _decided_by_intervals(puzzle)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6))
def test_peeled_aquariums_are_unique_and_decided_by_intervals(height, width, seed):
    puzzle = peeled_aquarium(height, width, random.Random(seed))
    assert solution_problems(puzzle, puzzle.solution) == []
    assert brute_force_count(puzzle, 3) == 1
    assert dp_count(puzzle, 3) == 1
    _decided_by_intervals(puzzle)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10**6))
def test_another_order_of_the_same_tanks_is_also_unique(height, width, seed):
    """The walk works for any order and any partition, not just the ones drawn together."""
    rng = random.Random(seed)
    board = aquarium([0] * height, [0] * width, random_tanks(height, width, rng))
    for _ in range(3):
        levels = peel_levels([v.layers for v in board.vessels], height, width,
                             line_order(height, width, rng))
        grid = grid_from_levels(board, levels)
        rows = [row.count("#") for row in grid]
        cols = [sum(row[j] == "#" for row in grid) for j in range(width)]
        assert brute_force_count(board.with_clues(rows, cols), 2) == 1


def test_the_walk_needs_vessels_covering_the_board():
    with pytest.raises(ValueError, match="cover"):
        peel_levels([[[(0, 0)]]], 1, 2, line_order(1, 2, random.Random(0)))


def test_default_strategies_by_size():
    assert default_strategy(29, 40) == "repair" and default_strategy(30, 30) == "peel"
    assert aquarium_default(19, 30) == "repair" and aquarium_default(20, 20) == "peel"
    assert aquarium_default(30, 30, "pool") == "repair"


def test_a_large_default_board_is_peeled_and_unique_by_the_milp_and_the_search():
    g = generate_thermometers(30, 30, "t", straight=True)
    assert g.strategy == "peel" and g.grade == "intervals"
    assert all(_straight(v.cells) for v in g.puzzle.vessels)
    assert count_solutions(g.puzzle, 2) == 1
    assert search_count(g.puzzle, limit=2) == 1


def test_peel_reaches_medium_by_deleting_clues():
    g = generate_thermometers(12, 12, 4, strategy="peel", difficulty="medium")
    assert g.grade == "probing" and g.difficulty == "medium"
    assert None in g.puzzle.rows + g.puzzle.cols
    assert count_solutions(g.puzzle, 2) == 1
    assert search_count(g.puzzle, limit=2) == 1


def test_a_large_hard_board_comes_from_the_peel_and_is_unique_by_two_models():
    """(Hard peeled boards are rare below 20x20, where the default is the repair.)"""
    g = generate_thermometers(30, 30, 0, difficulty="hard")
    assert g.strategy == "peel" and g.grade in ("pairs", "search")
    assert None in g.puzzle.rows + g.puzzle.cols
    assert count_solutions(g.puzzle, 2, formulation="level") == 1
    assert count_solutions(g.puzzle, 2, backend="pulp") == 1


@pytest.mark.parametrize("seed", [0, 1])
def test_peeled_minimal_clues_are_each_load_bearing(seed):
    p = generate_thermometers(6, 6, seed, strategy="peel", minimal_clues=True).puzzle
    assert brute_force_count(p, 2) == 1
    for line, k, q in one_clue_fewer(p):
        assert brute_force_count(q, 2) == 2, f"{line} {k} is not load-bearing"


def test_a_large_aquarium_with_minimal_clues_is_unique_by_the_dp():
    p = generate_aquarium(20, 20, 3)
    assert None in p.rows + p.cols
    assert dp_count(p, 2) == 1
    assert count_solutions(p, 2) == 1


def test_the_pool_rule_has_no_peel():
    with pytest.raises(GenerationError, match="tank rule"):
        generate_aquarium(6, 6, 0, rule="pool", strategy="peel")
    with pytest.raises(GenerationError, match="strategy"):
        generate_aquarium(6, 6, 0, strategy="magic")
