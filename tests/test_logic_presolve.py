"""Presolve never changes an answer: on every backend, instances and random boards.

Also checked directly: every cell presolve fixes has that value in every
solution the brute force finds, and a "solved"/"infeasible" presolve status
matches the brute-force count.
"""

from __future__ import annotations

import random

import pytest

import thermomilp
from thermomilp.core.errors import ConfigError
from thermomilp.core.verify import solution_problems
from thermomilp.generate.random_board import planted_board
from thermomilp.logic.brute import brute_force_solutions
from thermomilp.logic.presolve import presolve_cells
from thermomilp.solving import solve

from helpers import ROOT

INSTANCES = sorted((ROOT / "instances" / "thermometers")
                   .glob("*.txt"))


def _random_boards(n: int, seed: int):
    rng = random.Random(seed)
    boards = []
    for i in range(n):
        size = rng.randint(3, 7)
        puzzle = planted_board(size, size, rng, missing=0.3 if i % 3 == 1 else 0.0)
        if i % 3 == 2:  # knock one clue off by one: often infeasible
            rows = list(puzzle.rows)
            rows[0] = rows[0] + 1 if rows[0] < size else rows[0] - 1
            puzzle = puzzle.with_clues(rows, puzzle.cols)
        boards.append(puzzle)
    return boards


def _answer(result):
    assert result.status in ("unique", "multiple", "infeasible"), result.error
    if result.status == "multiple":
        puzzle = result.puzzle
        assert solution_problems(puzzle, result.second) == []
        assert result.grid != result.second
        return ("multiple",)
    return (result.status, result.grid)


@pytest.mark.parametrize("backend,boards", [
    ("highs", 30), ("pulp", 15), ("pyomo", 9)])
def test_presolve_never_changes_the_answer(backend, boards):
    puzzles = [thermomilp.load(p) for p in INSTANCES] + _random_boards(boards, 77)
    if backend == "pyomo":
        puzzles = [thermomilp.load(p) for p in INSTANCES[:3] + INSTANCES[-2:]] + \
            _random_boards(boards, 78)
    for puzzle in puzzles:
        answers = {mode: _answer(solve(puzzle, backend=backend, logic=mode))
                   for mode in ("none", "intervals", "probing")}
        assert len(set(answers.values())) == 1, (puzzle.name, answers)


@pytest.mark.parametrize("mode", ["intervals", "probing"])
def test_presolve_fixes_only_what_every_solution_shares(mode):
    for puzzle in _random_boards(30, 5):
        solutions = list(brute_force_solutions(puzzle, 200))
        fixed, grid, status = presolve_cells(puzzle, mode)
        if status == "infeasible":
            assert solutions == [] and fixed is None
            continue
        for (r, c), value in fixed.items():
            assert all((s[r][c] == "#") == bool(value) for s in solutions)
        if status == "solved":
            assert solutions == [grid]
        else:
            assert grid is None and len(fixed) < puzzle.height * puzzle.width


def test_unknown_mode_is_a_config_error():
    with pytest.raises(ConfigError):
        presolve_cells(thermomilp.load(INSTANCES[0]), "magic")


def _many_solutions_board():
    """A planted 15x15 board of several solutions the presolve's search tells apart."""
    return planted_board(15, 15, random.Random(0))


@pytest.fixture
def one_budget(monkeypatch):
    """The compiled kernel's search budget whichever kernel runs: the board's second
    solution lies past the Python kernel's smaller budget, and these tests are about what
    the search does with two solutions, not about the budget."""
    from thermomilp.logic import presolve

    monkeypatch.setitem(presolve.SEARCH_TIMES_PROBING, "python",
                        presolve.SEARCH_TIMES_PROBING["compiled"])


def test_the_search_finds_multiple_with_two_verified_grids(one_budget):
    from thermomilp.logic.presolve import BoardLogic, search_nodes_for

    puzzle = _many_solutions_board()
    board = BoardLogic(puzzle)
    fixed, grid, status = presolve_cells(puzzle, "probing", search_nodes=search_nodes_for(puzzle),
                                         board=board)
    assert status == "multiple"
    assert fixed is not None and grid == board.solutions[0]
    first, second = board.solutions
    assert first != second
    assert solution_problems(puzzle, first) == [] == solution_problems(puzzle, second)
    # no search: the same board stays open
    assert presolve_cells(puzzle, "probing")[2] == "open"


def test_multiple_from_the_search_needs_no_engine(one_budget):
    puzzle = _many_solutions_board()
    result = solve(puzzle)
    assert result.status == "multiple" and result.proof == "logic"
    assert not result.engine_called
    assert result.grid != result.second
    assert solution_problems(puzzle, result.grid) == [] == solution_problems(puzzle, result.second)
    record = result.to_json()
    assert record["engine_called"] is False and record["proof"] == "logic"
    assert record["second"] == list(result.second)
    solved = solve(puzzle, unique=False)
    assert solved.status == "solved" and solved.proof == "logic" and not solved.engine_called
    # the engine agrees
    assert solve(puzzle, logic="none").status == "multiple"


def test_a_search_grid_the_checker_refuses_goes_to_the_engine(monkeypatch, one_budget):
    """The checker guards the search's grids too: a rival that breaks a rule is not
    taken as the second solution; the engine decides."""
    from thermomilp.logic import presolve

    puzzle = _many_solutions_board()
    real = presolve.search_finds

    def broken(*args, **kwargs):
        found = real(*args, **kwargs)
        assert found is not None and len(found) == 2
        bad = tuple("#" * len(row) for row in found[1])
        return [found[0], bad]

    monkeypatch.setattr(presolve, "search_finds", broken)
    result = solve(puzzle)
    assert result.status == "multiple" and result.engine_called and result.proof is None
    assert solution_problems(puzzle, result.second) == []
