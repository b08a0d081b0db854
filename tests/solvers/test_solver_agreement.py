"""Every (backend, solver) pair counts the same solutions as the brute force.

Counts are capped at 3 (enough to tell none / unique / multiple / many), on
the project's instances and on seeded random boards with a planted solution
(so each has at least one). The brute force shares no code with the MILP,
so agreement between all pairs *and* it means something.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thermomilp.backends.matrix import KNOWN_PAIRS
from thermomilp.formats import load
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.solving import enumerate_solutions, solve

from helpers import INSTANCES, use_pair
from solver_pairs import solver_pair  # noqa: F401 - the fixture

CAP = 3
INSTANCE_FILES = sorted((INSTANCES / "thermometers").glob("*.txt"))
# (height, width, seed, missing-clue rate): small enough for the brute force
BOARDS = [(5, 5, 1, 0.0), (5, 6, 2, 0.2), (6, 6, 3, 0.0), (6, 6, 4, 0.3), (4, 7, 5, 0.5)]


def random_board(height, width, seed, missing):
    return planted_board(height, width, random.Random(seed), missing=missing)


@functools.lru_cache(maxsize=None)
def brute_solutions(path) -> frozenset:
    """Every solution of an instance, by brute force (once per file, not once per pair)."""
    return frozenset(brute_force_solutions(load(path), None))


@pytest.mark.parametrize("path", INSTANCE_FILES, ids=lambda p: p.stem)
def test_pair_counts_instances_like_brute_force(solver_pair, path):
    backend, solver = solver_pair
    puzzle = load(path)
    found = set(enumerate_solutions(puzzle, CAP, backend=backend, solver=solver))
    brute = brute_solutions(path)
    assert len(found) == min(len(brute), CAP)
    assert found <= brute  # every grid the pair found is a real solution


AQUARIUM_FILES = sorted((INSTANCES / "aquarium").glob("*.txt"))


def _aquarium_case(pair: tuple[str, str], path):
    """glpsol's branch and bound takes 7-13 s on the 15x15 board (the other engines take
    milliseconds): that corner of the sweep is ``slow``, run by .ci/run."""
    slow = pair[1] == "glpk" and path.stem == "a06_15x15"
    return pytest.param(pair, path, id=f"{pair[0]}-{pair[1]}-{path.stem}",
                        marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("pair, path", [_aquarium_case(pair, path) for pair in KNOWN_PAIRS
                                        for path in AQUARIUM_FILES])
def test_pair_solves_every_shipped_aquarium_board(pair, path):
    """The ties (4) are where PuLP 4 once broke (``x_a == x_b`` is a bool there):
    every shipped tank board, no logic presolve, must be unique with its own solution.
    (The compact model has no ties; tests/test_aquarium_agreement.py covers it.)"""
    backend, solver = use_pair(*pair)
    puzzle = load(path)
    result = solve(puzzle, backend=backend, solver=solver, logic="none")
    assert (result.status, result.grid, result.error) == ("unique", puzzle.solution, None)


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: "x".join(map(str, b[:2])) + f"-s{b[2]}")
def test_pair_counts_random_boards_like_brute_force(solver_pair, board):
    backend, solver = solver_pair
    puzzle = random_board(*board)
    found = list(enumerate_solutions(puzzle, CAP, backend=backend, solver=solver))
    assert len(set(found)) == len(found)
    assert len(found) == brute_force_count(puzzle, CAP) >= 1


@functools.lru_cache(maxsize=None)
def highspy_direct(board):
    """The reference solve of a random board (once per board, not once per pair)."""
    return solve(random_board(*board), backend="highs", solver="highs")


@pytest.mark.parametrize("board", BOARDS[:3], ids=lambda b: f"s{b[2]}")
def test_pair_status_matches_highspy_direct(solver_pair, board):
    """Same status for every pair; a unique board has the same grid everywhere."""
    backend, solver = solver_pair
    puzzle = random_board(*board)
    reference = highspy_direct(board)
    result = solve(puzzle, backend=backend, solver=solver)
    assert (result.status, result.backend, result.solver) == (reference.status, backend, solver)
    if reference.status == "unique":
        assert result.grid == reference.grid == puzzle.solution


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(height=st.integers(2, 5), width=st.integers(2, 5), seed=st.integers(0, 10**6),
       missing=st.sampled_from([0.0, 0.3, 0.7]))
def test_in_process_highs_pairs_agree_with_brute_force_on_any_board(height, width, seed,
                                                                    missing):
    """Property: on any random board, the three HiGHS routes count what the brute force does."""
    puzzle = random_board(height, width, seed, missing)
    expected = brute_force_count(puzzle, CAP)
    for backend in ("highs", "pulp", "pyomo"):
        found = list(enumerate_solutions(puzzle, CAP, backend=backend, solver="highs"))
        assert len(found) == len(set(found)) == expected, backend
