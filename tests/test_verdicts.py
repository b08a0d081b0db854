"""The engine's verdicts and counts, by no-good cuts, against counting and brute force."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.puzzle import aquarium, grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import clues_of, planted_board, random_partition
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.solving import count_solutions, solve


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6))
def test_solve_verdict_matches_counting(seed):
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


def _hidden_clues(puzzle, rng):
    """Some clues hidden (more solutions; sometimes a row and a column both unclued)."""
    return puzzle.with_clues([c if rng.random() < 0.7 else None for c in puzzle.rows],
                             [c if rng.random() < 0.7 else None for c in puzzle.cols])


def test_engine_counts_like_brute_force():
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
