"""Aquarium puzzle type: validation, the waterline adapter, the public 6x6, the JSON contract."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thermomilp import aquarium, loads
from thermomilp.core.errors import NotMonotoneError, PuzzleError
from thermomilp.core.puzzle import grid_from_levels, levels_from_grid
from thermomilp.core.verify import solution_problems
from thermomilp.solving import solve

from aquarium_boards import public_6x6, random_board

SQUARE = [["a", "a"], ["b", "b"]]


@pytest.mark.parametrize("rows, cols, regions, message", [
    ([1, 1], [1, 1], [["a", "b"], ["b", "a"]], "not orthogonally connected"),
    ([1, 1], [1, 1], [["a", "a"], ["b"]], "rectangular"),
    ([1, 1], [1, 1], [["a", "a"]], "region grid has 1 rows"),
    ([3, 1], [1, 1], SQUARE, "row 1 clue is 3 but the row has 2 cells"),
    ([1, 1], [1, 5], SQUARE, "column 2 clue is 5 but the column has 2 cells"),
    ([-1, 1], [1, 1], SQUARE, "below 0"),
    ([1.5, 1], [1, 1], SQUARE, "not a whole number"),
    ([True, 1], [1, 1], SQUARE, "not a whole number"),
    ([], [1, 1], [], "no rows"),
    ([1, 1], [], [[], []], "no columns"),
    ([1, 1], [1, 1], [["a", None], ["b", "b"]], "in no tank"),
    ([1, 1], [1, 1], [["a", " "], ["b", "b"]], "in no tank"),
])
def test_constructor_rejects(rows, cols, regions, message):
    with pytest.raises(PuzzleError, match=message):
        aquarium(rows, cols, regions)


def test_solution_shape_is_checked():
    with pytest.raises(PuzzleError, match="solution row 2"):
        aquarium([1, 1], [1, 1], SQUARE, solution=["#.", "#"])


@pytest.mark.parametrize("text, line, message", [
    ("aquarium\n 1 1\n1 a b\n1 b a\n", 4, None),  # connectivity: no line from the constructor
    ("aquarium\n 1 1\n1 a b\n1 b\n", 4, "row 2 has 1 cells but there are 2"),
    ("aquarium 3x2\n 1 1\n1 a a\n1 b b\n", 1, "header says 3x2"),
    ("aquarium\n 1 x\n1 a a\n1 b b\n", 2, "column clue 'x'"),
    ("aquarium\n 1 1\n1 a a\n1 b! b\n", 4, "tank label 'b!'"),
    ("aquarium\n 1 1\n1 a a\n1 b b\nsolution\n#.\n", 5, "solution has 1 rows"),
    ("aquarium\n 1 1\n1 a a\n1 b b\nsolution\n#.\n#x\n", 7, "solution row 2"),
    ("aquariums\n 1 1\n1 a a\n1 b b\n", None, "unrecognised"),
])
def test_native_errors_name_file_and_line(text, line, message):
    with pytest.raises(PuzzleError) as info:
        loads(text, "board.txt")
    err = info.value
    assert err.file == "board.txt"
    assert str(err).startswith("board.txt")
    if line is not None and message is not None:
        assert err.line == line
        assert f"board.txt:{line}: " in str(err)
    if message:
        assert message in str(err)


def test_native_clue_out_of_range_is_reported():
    with pytest.raises(PuzzleError, match="row 2 clue is 3 but the row has 2 cells"):
        loads("aquarium\n 1 1\n1 a a\n3 b b\n", "x.txt")


def test_public_6x6_top_row_and_uniqueness():
    puzzle = public_6x6()
    result = solve(puzzle)
    assert result.status == "unique"
    assert result.grid[0] == "####.."
    assert solution_problems(puzzle, result.grid) == []


def test_tank_layers_are_rows_lowest_first():
    puzzle = public_6x6()
    tank6 = next(v for v in puzzle.vessels if v.label == "6")
    rows = [layer[0][0] for layer in tank6.layers]
    assert rows == sorted(rows, reverse=True)
    assert all(len({r for r, _ in layer}) == 1 for layer in tank6.layers)


# A U-shaped tank: two arms (columns 0 and 2) joined by the bottom row.
U = [["u", "x", "u"], ["u", "x", "u"], ["u", "u", "u"]]


def test_levels_from_grid_on_tanks():
    puzzle = aquarium([None] * 3, [None] * 3, U)
    assert levels_from_grid(puzzle, ["...", "#.#", "###"])[0] == 2
    with pytest.raises(NotMonotoneError):  # half-filled tank row
        levels_from_grid(puzzle, ["...", "#..", "###"])
    with pytest.raises(NotMonotoneError):  # water above air, the air in another arm
        levels_from_grid(puzzle, ["#..", "#..", "###"])
    with pytest.raises(NotMonotoneError):  # water in an arm above an air bottom row
        levels_from_grid(puzzle, ["...", "#.#", "...", ])
    assert solution_problems(puzzle, ["#..", "#..", "###"]) != []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6))
def test_levels_round_trip(seed):
    rng = random.Random(seed)
    puzzle = random_board(rng)
    levels = tuple(rng.randint(0, v.depth) for v in puzzle.vessels)
    grid = grid_from_levels(puzzle, levels)
    assert levels_from_grid(puzzle, grid) == levels
    # every planted grid keeps the tank rule, checked independently
    assert all("partly" not in p and "gap" not in p
               for p in solution_problems(puzzle.with_clues([None] * puzzle.height,
                                                            [None] * puzzle.width), grid))


def test_levels_json_keyed_by_region_id():
    puzzle = public_6x6()
    result = solve(puzzle)
    levels = result.levels_json()
    assert set(levels) == {v.label for v in puzzle.vessels}
    assert grid_from_levels(puzzle, [levels[v.label] for v in puzzle.vessels]) == result.grid
    record = result.to_json("f")
    assert record["puzzle"] == "aquarium" and record["levels"] == levels


def test_cli_json_contract(tmp_path):
    from thermomilp.formats import dumps

    path = tmp_path / "public.json"
    path.write_text(dumps(public_6x6(), "json"))
    out = subprocess.run([sys.executable, "-m", "thermomilp", "solve", str(path), "--format",
                          "json"], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    record = json.loads(out.stdout)
    assert record["status"] == "unique" and record["grid"][0] == "####.."
    assert isinstance(record["levels"], dict)
    assert record["levels"]["1"] == 1 and record["levels"]["5"] == 0
