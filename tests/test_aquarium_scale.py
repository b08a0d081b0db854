"""The large-board Aquarium generator's parts: the rival search (DP, then the MILP with
the deleted line's two sides), the repair by merging tanks, and the DP's lines with a
set of allowed sums -- each cross-checked against the brute force on small boards."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp.cli.main import main
from thermomilp.core.puzzle import aquarium, grid_from_levels
from thermomilp.core.verify import solution_problems
from thermomilp.formats import load
from thermomilp.generate import aquarium_gen, aquarium_rivals
from thermomilp.generate.aquarium_repair import holds_water, merge_against, relabel
from thermomilp.generate.aquarium_rivals import RivalSearch
from thermomilp.logic.aquarium_dp import WaterlineDP
from thermomilp.logic.brute import brute_force_count, brute_force_solutions

from aquarium_boards import random_board

pytest.importorskip("highspy", reason="the rival search's MILP runs on highspy")


def planted(rng: random.Random, rule: str = "tank", max_side: int = 5):
    """A random full-clue board carrying its planted grid."""
    board = random_board(rng, max_side)
    regions = [list(line) for line in board.region_grid()]
    shell = aquarium([0] * board.height, [0] * board.width, regions, rule=rule)
    grid = aquarium_gen._plant(shell, rng)
    return aquarium_gen._full_clues(regions, grid, rule)


def line_sum(grid, axis, k):
    return grid[k].count("#") if axis == "row" else sum(row[k] == "#" for row in grid)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["tank", "pool"]))
def test_holds_water_is_the_checker_on_one_tank(seed, rule):
    rng = random.Random(seed)
    h, w = rng.randint(1, 4), rng.randint(1, 4)
    one_tank = aquarium([None] * h, [None] * w, [["a"] * w for _ in range(h)], rule=rule)
    grid = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
    cells = [(r, c) for r in range(h) for c in range(w)]
    assert holds_water(cells, grid, rule) == (solution_problems(one_tank, grid) == [])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["tank", "pool"]))
def test_a_merge_keeps_the_planted_grid_and_kills_the_rival(seed, rule):
    rng = random.Random(seed)
    board = planted(rng, rule)
    rivals = [g for g in brute_force_solutions(board, 5) if g != board.solution]
    if not rivals:
        return
    regions = [list(line) for line in board.region_grid()]
    merged = merge_against(regions, board.solution, rivals[0], rule, rng)
    if merged is None:
        return
    after = aquarium(board.rows, board.cols, relabel(merged), rule=rule)  # tanks connected
    assert len(after.vessels) == len(board.vessels) - 1
    assert solution_problems(after, board.solution) == []
    assert solution_problems(after, rivals[0]) != []
    # merging only removes solutions
    assert set(brute_force_solutions(after)) <= set(brute_force_solutions(board))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_dp_lines_other_than_a_sum_are_the_rivals_that_move_it(seed):
    rng = random.Random(seed)
    board = planted(rng)
    axis = rng.choice(["row", "column"])
    k = rng.randrange(board.height if axis == "row" else board.width)
    s = line_sum(board.solution, axis, k)
    rows, cols = list(board.rows), list(board.cols)
    (rows if axis == "row" else cols)[k] = None
    weaker = board.with_clues(rows, cols)
    want = {g for g in brute_force_solutions(weaker) if line_sum(g, axis, k) != s}
    dp = WaterlineDP(weaker, {(axis, k): s})
    got = {grid_from_levels(weaker, levels) for levels in dp.level_solutions()}
    assert got == want


@pytest.mark.parametrize("dp_give_ups", [0, 2], ids=["milp", "dp"])
def test_rival_answers_agree_with_the_brute_force(dp_give_ups):
    rng = random.Random(19)
    for _ in range(25):
        board = planted(rng)
        search = RivalSearch(dp_give_ups=dp_give_ups)
        rival = search.rival(board)
        unique = brute_force_count(board, 2) == 1
        assert (rival is None) == unique
        if rival is not None:
            assert rival != board.solution and solution_problems(board, rival) == []
        if not unique:
            continue
        # a deleted clue: the rival must move that line's sum
        axis = rng.choice(["row", "col"])
        k = rng.randrange(board.height if axis == "row" else board.width)
        rows, cols = list(board.rows), list(board.cols)
        (rows if axis == "row" else cols)[k] = None
        weaker = board.with_clues(rows, cols)
        rival = search.rival(weaker, (axis, k))
        assert (rival is None) == (brute_force_count(weaker, 2) == 1)
        if rival is not None:
            assert solution_problems(weaker, rival) == []
        assert search.stats["milp"] > 0 or dp_give_ups


def test_the_dp_budget_hands_the_question_on():
    cells = aquarium([None] * 4, [None] * 4, [[str(4 * r + c) for c in range(4)]
                                              for r in range(4)])  # 16 one-cell tanks
    dp = WaterlineDP(cells)
    assert dp.solutions_within(None, 200) is None  # 2**16 solutions
    assert len(dp.solutions_within(5, 10**6)) == 5


@pytest.mark.parametrize("rule", ["tank", "pool"])
def test_minimal_boards_by_the_milp_alone_are_minimal(monkeypatch, rule):
    """The path large boards take (no DP), on boards the brute force can count."""
    monkeypatch.setattr(aquarium_rivals, "DP_GIVE_UPS", 0)
    for seed in range(3):
        puzzle = aquarium_gen.generate_aquarium(6, 6, seed=seed, rule=rule)
        assert solution_problems(puzzle, puzzle.solution) == []
        assert brute_force_count(puzzle, 2) == 1
        rows, cols = list(puzzle.rows), list(puzzle.cols)
        for axis, clues in (("r", rows), ("c", cols)):
            for k, v in enumerate(clues):
                if v is None:
                    continue
                trial = list(clues)
                trial[k] = None
                weaker = puzzle.with_clues(trial, cols) if axis == "r" else \
                    puzzle.with_clues(rows, trial)
                assert brute_force_count(weaker, 2) == 2, (axis, k)


@pytest.mark.parametrize("seed", [5, 6])
def test_the_milp_and_the_dp_delete_the_same_clues(seed):
    """Both answers are exact, so from one planted board and one random stream the
    deletions agree (the planting may not: the rival each finds steers the merges)."""
    board = aquarium_gen.planted_aquarium(8, 8, random.Random(seed))
    by_dp = aquarium_gen.delete_clues(board, random.Random(seed), search=RivalSearch())
    by_milp = aquarium_gen.delete_clues(board, random.Random(seed),
                                        search=RivalSearch(dp_give_ups=0))
    assert by_dp.rows == by_milp.rows and by_dp.cols == by_milp.cols
    assert None in by_dp.rows + by_dp.cols


def test_missing_clues_deletes_that_many():
    p = aquarium_gen.generate_aquarium(7, 7, seed=2, minimal_clues=False, missing_clues=3)
    assert sum(v is None for v in p.rows + p.cols) == 3
    assert brute_force_count(p, 2) == 1 and "3 missing clues" in p.name


def test_cli_full_clues_by_default_and_minimal_on_request(tmp_path):
    full, minimal = tmp_path / "full", tmp_path / "minimal"
    args = ["generate", "--puzzle", "aquarium", "--size", "6x6", "--seed", "4", "--quiet"]
    assert main(args + ["--out", str(full)]) == 0
    assert main(args + ["--minimal-clues", "--out", str(minimal)]) == 0
    (f,), (m,) = list(full.iterdir()), list(minimal.iterdir())
    a, b = load(str(f)), load(str(m))
    assert None not in a.rows + a.cols and None in b.rows + b.cols
    assert brute_force_count(a, 2) == 1 and brute_force_count(b, 2) == 1
    assert a.solution == b.solution  # the same planted board, then deletions


def test_move_rival_finds_the_four_cycle_and_only_real_rivals():
    from thermomilp.generate.aquarium_moves import move_rival

    square = aquarium([1, 1], [1, 1], [["a", "b"], ["c", "d"]], solution=("#.", ".#"))
    assert move_rival(square) == (".#", "#.")
    rng = random.Random(23)
    found = 0
    for _ in range(150):
        board = planted(rng)
        axis = rng.choice(["row", "col"])
        k = rng.randrange(board.height if axis == "row" else board.width)
        rows, cols = list(board.rows), list(board.cols)
        (rows if axis == "row" else cols)[k] = None
        for question, deleted in ((board, None), (board.with_clues(rows, cols), (axis, k))):
            grid = move_rival(question, deleted)
            if grid is not None:
                found += 1
                assert grid != board.solution and solution_problems(question, grid) == []
                if deleted is not None:
                    assert line_sum(grid, "row" if axis == "row" else "column", k) != \
                        line_sum(board.solution, "row" if axis == "row" else "column", k)
    assert found >= 1
