"""The generator: unique boards by two independent counters, reproducible, minimal clues.

Uniqueness is checked by the MILP count (``count_solutions``) and by the
independent brute force (``brute_force_count``), which share no code with the
generator's rival search.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.core.verify import solution_problems
from thermomilp.formats import dumps, loads
from thermomilp.generate.paths import PathTiling, _straight
from thermomilp.generate.random_board import random_partition
from thermomilp.generate.repair import LineOrder
from thermomilp.generate.rivals import Window, find_rival
from thermomilp.generate.thermometers_gen import GenerationError, generate_thermometers, tiling_of
from thermomilp.logic.brute import brute_force_count
from thermomilp.logic.grade import GRADES
from thermomilp.solving import count_solutions

from helpers import one_clue_fewer

SMALL = [(4, 4, "repair", False), (5, 5, "repair", True), (6, 6, "repair", False),
         (5, 7, "repair", False), (6, 6, "reroll", False), (4, 6, "reroll", True),
         (6, 6, "peel", False), (5, 7, "peel", True)]


def _unique_twice(puzzle) -> None:
    assert count_solutions(puzzle, 3) == 1
    assert brute_force_count(puzzle, 3) == 1
    assert solution_problems(puzzle, puzzle.solution) == []


@pytest.mark.parametrize("height,width,strategy,straight", SMALL)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_boards_are_unique_by_two_counters(height, width, strategy, straight, seed):
    g = generate_thermometers(height, width, seed, strategy=strategy, straight=straight)
    p = g.puzzle
    assert p.shape == (height, width)
    _unique_twice(p)
    assert p.grade == g.grade and g.grade in GRADES
    assert all(v.depth <= 6 for v in p.vessels)
    if straight:
        assert all(_straight(v.cells) for v in p.vessels)


def test_same_seed_same_board_and_indices_differ():
    a = generate_thermometers(7, 7, 42, index=3)
    b = generate_thermometers(7, 7, 42, index=3)
    c = generate_thermometers(7, 7, 42, index=4)
    assert dumps(a.puzzle, "text") == dumps(b.puzzle, "text")
    assert dumps(a.puzzle, "text") != dumps(c.puzzle, "text")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_minimal_clues_are_each_load_bearing(seed):
    p = generate_thermometers(5, 5, seed, minimal_clues=True).puzzle
    _unique_twice(p)
    for line, k, q in one_clue_fewer(p):
        assert brute_force_count(q, 2) == 2, f"{line} {k} is not load-bearing"
        assert count_solutions(q, 2) == 2


def test_missing_clues_count_and_uniqueness():
    p = generate_thermometers(6, 6, 5, missing_clues=3).puzzle
    assert (p.rows + p.cols).count(None) == 3
    _unique_twice(p)


def test_difficulty_is_the_recorded_grade():
    g = generate_thermometers(6, 6, 1, difficulty="easy")
    assert g.difficulty == "easy" and g.grade == "intervals"


def test_bad_requests_raise_our_error():
    with pytest.raises(GenerationError):
        generate_thermometers(5, 5, 0, strategy="magic")
    with pytest.raises(GenerationError):
        generate_thermometers(1, 5, 0)
    with pytest.raises(GenerationError):
        generate_thermometers(5, 5, 0, max_length=1)


def test_reroll_gives_up_within_its_time_limit():
    with pytest.raises(GenerationError, match="gave up"):
        generate_thermometers(30, 30, 0, strategy="reroll", time_limit=0.5)


# -------------------------------------------------------------- building blocks


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(2, 7), st.booleans(),
       st.integers(0, 10**6))
def test_random_partition_tiles_the_grid(height, width, max_length, straight, seed):
    paths = random_partition(height, width, random.Random(seed), max_length=max_length,
                             straight=straight)
    cells = sorted(c for p in paths for c in p)
    assert cells == [(r, c) for r in range(height) for c in range(width)]
    assert all(len(p) <= max_length for p in paths)
    for p in paths:
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(p))
        if straight:
            assert _straight(p)


def test_random_partition_has_few_single_cells():
    lengths = [len(p) for s in range(30)
               for p in random_partition(10, 10, random.Random(s))]
    assert lengths.count(1) / len(lengths) < 0.05
    assert sum(2 <= n <= 6 for n in lengths) / len(lengths) > 0.9


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 7), st.booleans(), st.integers(0, 10**6), st.integers(1, 15))
def test_link_moves_keep_the_tiling_valid(size, straight, seed, moves):
    rng = random.Random(seed)
    paths = random_partition(size, size, rng, max_length=5, straight=straight)
    tiling = PathTiling(size, size, paths, max_length=5, straight=straight)
    for p in tiling.paths():
        tiling.set_level(p[0], rng.randint(0, len(p)))
    ones = set(tiling.ones)
    for _ in range(moves):
        p = (rng.randrange(size), rng.randrange(size))
        s = rng.choice(list(tiling.neighbours(p)))
        if tiling.link(p, s, rng):
            assert tiling.succ[p] == s
        tiling.absorb_short(rng)
    assert tiling.ones == ones and tiling.is_monotone()
    got = tiling.paths()
    assert sorted(c for p in got for c in p) == sorted(tiling.cells())
    assert all(len(p) <= 5 for p in got)
    if straight:
        assert all(_straight(p) for p in got)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.integers(2, 8), st.integers(1, 3), st.integers(0, 10**6))
def test_line_order_always_offers_a_level(height, width, depth, seed):
    rng = random.Random(seed)
    order = LineOrder(height, width, rng)
    for p in random_partition(height, width, rng):
        levels = order.levels(p, depth)
        assert levels and all(0 <= L <= len(p) for L in levels)


def test_a_window_rival_is_a_solution_of_the_whole_board():
    found = 0
    for seed in range(10):
        rng = random.Random(seed)
        paths = random_partition(8, 8, rng)
        tiling = PathTiling(8, 8, paths)
        for p in paths:
            tiling.set_level(p[0], rng.randint(0, len(p)))
        from thermomilp.core.puzzle import thermometers

        rows, cols = tiling.clues()
        puzzle = thermometers(rows, cols, paths)
        rival = find_rival(tiling, window=Window(1, 2, 5, 5))
        if rival is not None:
            found += 1
            assert solution_problems(puzzle, rival) == []
            assert rival != tiling.grid()
            assert all(rival[r][c] == tiling.grid()[r][c] for r in range(8) for c in range(8)
                       if (r, c) not in Window(1, 2, 5, 5))
        whole = find_rival(tiling)
        assert (whole is None) == (brute_force_count(puzzle, 2) == 1)
    assert found  # the check above ran at least once


def test_grade_line_round_trips_in_the_native_format():
    p = generate_thermometers(5, 5, 9).puzzle
    text = dumps(p, "text")
    assert f"grade: {p.grade}" in text
    q = loads(text)
    assert q.grade == p.grade and q == p and q.solution == p.solution
    assert tiling_of(q).grid() == p.solution


def test_bad_grade_line_is_a_puzzle_error():
    from thermomilp.core.errors import PuzzleError

    text = dumps(generate_thermometers(4, 4, 0).puzzle, "text").replace("grade: ", "grade: x")
    with pytest.raises(PuzzleError, match="grade"):
        loads(text)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 10**6))
def test_backward_cell_cut_loses_no_rival(height, width, seed):
    """Every rival changes a cell that runs against the line order (the lemma)."""
    from thermomilp.core.puzzle import thermometers

    rng = random.Random(seed)
    paths = random_partition(height, width, rng, max_length=4)
    tiling = PathTiling(height, width, paths, max_length=4)
    order = LineOrder(height, width, rng)
    for p in paths:  # any filling: the lemma needs no planting rule
        tiling.set_level(p[0], rng.randint(0, len(p)))
    rows, cols = tiling.clues()
    unique = brute_force_count(thermometers(rows, cols, paths), 2) == 1
    with_cut = find_rival(tiling, backward=order.backward(tiling.ones))
    assert (with_cut is None) == unique
    assert (find_rival(tiling) is None) == unique


def test_repair_respects_the_time_limit():
    with pytest.raises(GenerationError, match="gave up"):
        generate_thermometers(30, 30, 0, strategy="repair", time_limit=0.3)


def test_grade_round_trips_in_json_too():
    p = generate_thermometers(5, 5, 3).puzzle
    q = loads(dumps(p, "json"))
    assert q.grade == p.grade and q == p and q.solution == p.solution


def _random_tiling(height, width, seed, max_length=4):
    rng = random.Random(seed)
    paths = random_partition(height, width, rng, max_length=max_length)
    tiling = PathTiling(height, width, paths, max_length=max_length)
    for p in paths:
        tiling.set_level(p[0], rng.randint(0, len(p)))
    return tiling, paths


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(0, 10**6))
def test_cycle_rivals_are_real(height, width, seed):
    """A cycle of one-level moves is a second solution (checked independently)."""
    from thermomilp.core.puzzle import thermometers
    from thermomilp.generate.cycles import cycle_rival

    tiling, paths = _random_tiling(height, width, seed)
    rows, cols = tiling.clues()
    puzzle = thermometers(rows, cols, paths)
    rival = cycle_rival(tiling)
    if rival is not None:
        assert rival != tiling.grid()
        assert solution_problems(puzzle, rival) == []
        assert brute_force_count(puzzle, 2) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 7), st.integers(3, 7), st.integers(0, 10**6))
def test_region_rival_changes_only_region_cells(height, width, seed):
    from thermomilp.core.puzzle import thermometers

    tiling, paths = _random_tiling(height, width, seed)
    rows, cols = tiling.clues()
    puzzle = thermometers(rows, cols, paths)
    whole = find_rival(tiling)
    if whole is None:
        return
    region = {(r, c) for r in range(height) for c in range(width)
              if whole[r][c] != tiling.grid()[r][c]}
    rival = find_rival(tiling, region=region, nearest=True)
    assert rival is not None  # the whole-board rival itself lies in its region
    assert solution_problems(puzzle, rival) == []
    assert all(rival[r][c] == tiling.grid()[r][c] for r in range(height) for c in range(width)
               if (r, c) not in region)
    assert sum(a != b for x, y in zip(rival, tiling.grid(), strict=True)
               for a, b in zip(x, y, strict=True)) <= len(region)


def test_the_time_limit_bounds_the_final_grade_too(monkeypatch):
    """The pair sweep grading the kept board takes seconds on a large hard board: it is
    handed the generator's deadline and ends at it."""
    import time

    from thermomilp.core.deadline import TimeUp
    from thermomilp.core.errors import GenerationError
    from thermomilp.generate.thermometers_gen import generate_thermometers
    from thermomilp.logic import grade as grade_module

    stopped = []

    def endless_grade(puzzle, stop=None, known=None):
        assert stop is not None, "the final grade got no deadline"
        for _ in range(30_000):  # 5 minutes of naps: a stop that never fires fails, not hangs
            if stop():
                stopped.append(True)
                raise TimeUp
            time.sleep(0.01)
        stopped.append(False)
        raise TimeUp

    monkeypatch.setattr(grade_module, "grade", endless_grade)
    with pytest.raises(GenerationError, match="time limit"):
        generate_thermometers(6, 6, seed=3, time_limit=1.0)
    assert stopped == [True]  # the grade ended because the generator's deadline said so



def test_every_engine_call_of_a_timed_board_gets_the_time_left(monkeypatch):
    """--time-limit is one Deadline handed down: every rival question (windows, regions,
    the whole board, the final proof) runs with a HiGHS time limit within it."""
    from thermomilp.generate import rivals

    limits = []
    real = rivals.find_other

    def recording(*args, **kwargs):
        limits.append(kwargs.get("time_limit"))
        return real(*args, **kwargs)

    monkeypatch.setattr(rivals, "find_other", recording)
    generate_thermometers(12, 12, 5, strategy="repair", missing_clues=2, time_limit=120)
    assert limits and all(limit is not None and 0 < limit <= 120 for limit in limits)


def test_a_repair_past_its_limit_stops_at_the_deadline():
    """The generator says it stopped at the limit (GenerationTimeUp, naming the step); the
    wall-clock bound is generous (a loaded machine), the usual overrun is a tenth of a s."""
    import time

    from thermomilp.core.errors import GenerationTimeUp

    start = time.perf_counter()
    with pytest.raises(GenerationTimeUp) as caught:
        generate_thermometers(40, 40, 1, strategy="repair", time_limit=1.5)
    assert time.perf_counter() - start < 60  # 40x the limit: holds on a loaded machine
    assert caught.value.where in ("planting", "repair loop", "rival search")


def test_the_degenerate_rule():
    from thermomilp.generate.quality import degenerate

    empty_ish = tuple("#......." if r == 0 else "........" for r in range(8))
    assert "cells filled" in degenerate(empty_ish)
    half = tuple("####...." for _ in range(8))  # every row half full, columns 0 or 8
    assert "lines empty or full" in degenerate(half)
    fine = ("##......", "###.....", "#####...", "####....", "#.......", "###.....",
            "##......", "######..")
    assert degenerate(fine) is None
    assert degenerate(("#...", "....", "....", "....")) is None  # small: never turned away


def test_generated_boards_are_never_degenerate():
    """Seed 0's board 4 planted 16 filled cells of 100 and 6 zero clues: turned away."""
    from thermomilp.generate.aquarium_gen import generate_aquarium
    from thermomilp.generate.quality import degenerate

    g = generate_thermometers(10, 10, 0, index=4)
    assert degenerate(g.puzzle.solution) is None and g.stats.get("degenerate", 0) >= 1
    for index in range(6):
        assert degenerate(generate_thermometers(8, 8, 1, index=index).puzzle.solution) is None
    for seed in range(8):
        assert degenerate(generate_aquarium(6, 6, seed, minimal_clues=False).solution) is None
