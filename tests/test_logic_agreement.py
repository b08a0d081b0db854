"""Five counters that must agree, and hand-drawn fixtures.

Counters: the brute force (``logic/brute.py``, no shared code), backtracking
search under intervals, under GAC and under probing (``logic/search.py``),
and the MILP (``thermomilp.solving.count_solutions``, HiGHS). Boards: seeded
``planted_board`` at every size 3x3..7x7, with all clues and with about a
third missing (then counts are capped: a board with few clues can have
thousands of solutions).
"""

from __future__ import annotations

import random

import pytest

from thermomilp.core.puzzle import thermometers
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_count, brute_force_solutions
from thermomilp.logic.domains import full_domains, is_decided, line_tables
from thermomilp.logic.grade import grade
from thermomilp.logic.propagation import probe_fixpoint, propagate
from thermomilp.logic.search import search_solutions
from thermomilp.solving import count_solutions

CAP = 12
SEEDS_PER_CASE = 6
CASES = [(size, missing) for size in range(3, 8) for missing in (False, True)]


def _counts(puzzle, cap=CAP):
    return {
        "brute": brute_force_count(puzzle, cap),
        "intervals": sum(1 for _ in search_solutions(puzzle, "intervals", cap)),
        "gac": sum(1 for _ in search_solutions(puzzle, "gac", cap)),
        "probing": sum(1 for _ in search_solutions(puzzle, "probing", cap)),
        "milp": count_solutions(puzzle, cap),
    }


@pytest.mark.parametrize("size,missing", CASES)
def test_five_counters_agree_on_random_boards(size, missing):
    seen = set()
    for seed in range(SEEDS_PER_CASE):
        rng = random.Random(1000 * size + 100 * missing + seed)
        puzzle = planted_board(size, size, rng, missing=0.35 if missing else 0.0)
        counts = _counts(puzzle)
        assert len(set(counts.values())) == 1, (seed, counts)
        assert counts["brute"] >= 1  # the planted solution is always there
        seen.add(min(counts["brute"], 2))
    if not missing:
        assert 1 in seen  # at least one unique board per size


def test_every_search_solution_is_a_verified_distinct_solution():
    rng = random.Random(5)
    for _ in range(10):
        puzzle = planted_board(5, 5, rng, missing=0.3)
        expected = set(brute_force_solutions(puzzle, 40))
        for rule in ("intervals", "gac", "probing"):
            got = list(search_solutions(puzzle, rule, 40))
            assert len(got) == len(set(got))
            assert all(solution_problems(puzzle, g) == [] for g in got)
            if len(expected) < 40:
                assert set(got) == expected


# ---------------------------------------------------------------- fixtures
# Each board drawn as: clues, then thermometers as cell lists bulb first.

def unique_board():
    """  cols 2 2 1        A: (0,0)->(0,1)->(0,2)   bulb left
    row 2  A A A           B: (2,0)->(1,0)          bulb bottom, going up
    row 2  B C C           C: (1,1)->(1,2)          bulb left
    row 1  B D D           D: (2,2)->(2,1)          bulb right
    Solution ##. / .## / #.. : A=2, B=1, C=2, D=0."""
    return thermometers([2, 2, 1], [2, 2, 1], [[(0, 0), (0, 1), (0, 2)], [(2, 0), (1, 0)],
                                               [(1, 1), (1, 2)], [(2, 2), (2, 1)]])


def zero_board():
    """The same thermometers, clues rows 1 1 1, cols 0 3 0: column 1 full needs (0,1)
    filled, hence A's bulb (0,0) too -- but column 0 is empty."""
    return thermometers([1, 1, 1], [0, 3, 0], [[(0, 0), (0, 1), (0, 2)], [(2, 0), (1, 0)],
                                               [(1, 1), (1, 2)], [(2, 2), (2, 1)]])


def two_solution_board():
    """2x2 of one-cell thermometers, every clue 1: the two diagonals."""
    return thermometers([1, 1], [1, 1], [[(0, 0)], [(0, 1)], [(1, 0)], [(1, 1)]])


def probing_board():
    """  cols 2 2 1 2     thermometers, bulb first:
    row 2  C E E A     A (1,3)->(0,3)              up from row 1
    row 1  C C C A     B (2,1)->(2,0)->(3,0)->(3,1) a hook
    row 2  B B C D     C (0,0)->(1,0)->(1,1)->(1,2)->(2,2)
    row 2  B B D D     D (2,3)->(3,3)->(3,2)
                       E (0,1)->(0,2)
    Solution ##.. / #... / .#.# / ..## -- intervals stall, probing finishes."""
    return thermometers([2, 1, 2, 2], [2, 2, 1, 2], [
        [(1, 3), (0, 3)], [(2, 1), (2, 0), (3, 0), (3, 1)],
        [(0, 0), (1, 0), (1, 1), (1, 2), (2, 2)], [(2, 3), (3, 3), (3, 2)], [(0, 1), (0, 2)]])


@pytest.mark.parametrize("board,expected", [(unique_board, 1), (zero_board, 0),
                                            (two_solution_board, 2), (probing_board, 1)])
def test_fixture_counts(board, expected):
    counts = _counts(board(), cap=10)
    assert counts == {k: expected for k in counts}


def test_unique_fixture_solution():
    (grid,) = list(search_solutions(unique_board(), "intervals"))
    assert grid == ("##.", ".##", "#..")


def test_probing_fixture_needs_probing():
    puzzle = probing_board()
    tables = line_tables(puzzle)
    dom = full_domains(tables)
    assert propagate(tables, dom) and not is_decided(dom)
    assert probe_fixpoint(tables, dom) and is_decided(dom)
    assert grade(puzzle) == "probing"
    assert list(search_solutions(puzzle, "probing")) == [("##..", "#...", ".#.#", "..##")]


def test_grades_of_fixtures():
    assert grade(unique_board()) == "intervals"
    assert grade(zero_board()) == "intervals"  # intervals prove infeasibility
    assert grade(two_solution_board()) == "search"


# ---------------------------------------------------------------- Aquarium
def _random_aquarium(size: int, rng: random.Random, missing: float):
    from thermomilp.core.puzzle import aquarium, grid_from_levels
    from thermomilp.generate.random_board import clues_of, random_partition

    labels = [[""] * size for _ in range(size)]
    for k, region in enumerate(random_partition(size, size, rng, max_length=6)):
        for r, c in region:
            labels[r][c] = f"t{k}"
    skeleton = aquarium([0] * size, [0] * size, labels)
    levels = [rng.randint(0, v.depth) for v in skeleton.vessels]
    rows, cols = clues_of(grid_from_levels(skeleton, levels))
    drop = lambda v: None if rng.random() < missing else v  # noqa: E731
    return aquarium([drop(v) for v in rows], [drop(v) for v in cols], labels)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_counters_agree_on_aquarium_boards(size):
    """The engine works on generic vessels: tanks (several cells per layer) too."""
    rng = random.Random(4242 + size)
    for i in range(5):
        puzzle = _random_aquarium(size, rng, 0.3 if i % 2 else 0.0)
        counts = _counts(puzzle)
        assert len(set(counts.values())) == 1, (size, i, counts)
        assert counts["brute"] >= 1
